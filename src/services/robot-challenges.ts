/*
 * ACME DNS-01 challenges a robot sets with a certificate key (lego's httpreq, acme.sh's
 * dns_acmeproxy, acme-dns's protocol): a TXT value added beside the others at `_acme-challenge`
 * of the key's domain (the apex and the wildcard need two at once), answered once the domain's
 * name servers serve it; the exact value deleted at cleanup; and every value no cleanup removed
 * deleted by the sweep an hour later. A value never touches anything but TXT values at the one
 * name it was checked for: the rest of the zone is out of a robot's reach.
 */
import { randomUUID } from 'node:crypto';
import type { DnsProbe } from '../core/dns-check.js';
import { comparableName } from '../core/dns-check.js';
import { comparableValue } from '../core/dns-fields.js';
import { type ListedRecord, type PlannedChange, readListedRecords } from '../core/dns-plan.js';
import { ACME_LABEL, inKeyScope, isChallengeValue, KEY_LIMITS } from '../core/robot-keys.js';
import { errorForLog, type Logger } from '../logger.js';
import type { GatewayState, PendingChallenge } from '../storage/gateway-state.js';
import { challengeIdOf } from '../storage/gateway-state.js';
import type { RobotKey, RobotKeys } from '../storage/robot-keys.js';
import { type ChangesOutcome, runChanges } from './dns-apply.js';
import { type ServedClock, waitUntilServed } from './dns-served.js';
import type { KeyChangeApi, KeyChanges } from './key-changes.js';

/** A value no cleanup removed is deleted this long after it was presented. */
export const CHALLENGE_LIFETIME_MS = 60 * 60_000;
/**
 * How long `present` waits for the name servers by default: under the 30 s after which lego's
 * httpreq client gives up (HTTPREQ_HTTP_TIMEOUT), so lego hears our answer, not its own timeout.
 */
export const PRESENT_WAIT_MS = 25_000;
/** The TTL of a challenge's TXT: short, so a resolver does not keep a value the CA must not see. */
export const CHALLENGE_TTL = 60;
/** acme-dns keeps the latest two values of an account (an update replaces the older). */
export const ACME_DNS_VALUES = 2;
/** The label under which acme-dns's names live in the partner's own zone (`<id>._acme-dns`). */
export const ACME_DNS_LABEL = '_acme-dns';

/** Why a challenge was refused; nothing was changed at the provider. */
export type ChallengeRefusal =
  /** The name is not `_acme-challenge` of the key's domain or one of its subdomains. */
  | 'scope'
  /** Not a DNS-01 value (43 characters of base64url). */
  | 'value'
  /** The name holds `KEY_LIMITS.challengeValues` values already. */
  | 'tooMany'
  /** Something other than TXT stands at the name (a CNAME, say): a TXT beside it would break it. */
  | 'occupied'
  /** The name is inside a subdomain delegated to other name servers (an NS record below the apex). */
  | 'delegated'
  /** acme-dns: the key has no registered name, or the request names another. */
  | 'notRegistered'
  /** The key's chat has no token now (the chat was told). */
  | 'disconnected'
  /** The provider refused the chat's token (the chat was told). */
  | 'refused'
  /** The provider failed or could not be reached. */
  | 'provider';

export type PresentResult =
  | { ok: true; added: boolean; served: boolean; fqdn: string }
  | { ok: false; refusal: ChallengeRefusal };

export type CleanupResult = { ok: true; deleted: number } | { ok: false; refusal: ChallengeRefusal };

/** What an acme-dns client keeps (its account JSON), as acme-dns's `/register` answers it. */
export interface AcmeDnsAccount {
  username: string;
  password: string;
  fulldomain: string;
  subdomain: string;
  allowfrom: string[];
}

export type RegisterResult =
  | { ok: true; account: AcmeDnsAccount; created: boolean }
  | { ok: false; refusal: ChallengeRefusal; standing?: string[] };

export interface RobotChallengeDeps {
  keyChanges: KeyChanges;
  state: GatewayState;
  robotKeys: Pick<RobotKeys, 'get' | 'setAcmeDnsHost'>;
  probe: DnsProbe;
  logger: Logger;
  /** How long `present` waits for the name servers (default PRESENT_WAIT_MS). */
  waitMs?: number;
  /** The wait's clock (tests give one that does not really sleep). */
  clock?: ServedClock;
  /** Pauses between two asks of the name servers (default the live check's). */
  delayMs?: (attempt: number) => number;
  now?: () => number;
}

/** A listed TXT value at one host. */
interface StandingValue {
  id: number;
  text: string;
}

/** A name's host relative to the zone (`_acme-challenge`, `_acme-challenge.shop`). */
function hostIn(name: string, domain: string): string {
  const full = comparableName(name);
  const apex = comparableName(domain);
  return full === apex ? '@' : full.slice(0, -(apex.length + 1));
}

const sameHost = (a: string, b: string) => comparableValue('host', a) === comparableValue('host', b);

/**
 * Whether `host` is at or below a delegation (an NS record at `shop`): a TXT there is in this
 * zone's records but its name servers refer the CA elsewhere, so it would never be served.
 */
function isDelegated(listed: readonly ListedRecord[], host: string): boolean {
  const name = comparableValue('host', host);
  return listed.some((l) => {
    if (l.record.type !== 'NS' || l.record.host === '@' || l.record.host === '') return false;
    const cut = comparableValue('host', l.record.host);
    return name === cut || name.endsWith(`.${cut}`);
  });
}

/** The records standing at `host`: its TXT values, and the types of anything else. */
function recordsAt(listed: readonly ListedRecord[], host: string) {
  const here = listed.filter((l) => l.record.type !== 'SRV' && sameHost(l.record.host, host));
  const values: StandingValue[] = here.flatMap((l) =>
    l.record.type === 'TXT' ? [{ id: l.id, text: l.record.text }] : [],
  );
  const others = [...new Set(here.filter((l) => l.record.type !== 'TXT').map((l) => l.record.type))];
  return { values, others };
}

const txt = (host: string, text: string) => ({ type: 'TXT' as const, host, ttl: CHALLENGE_TTL, text });

export function createRobotChallenges(deps: RobotChallengeDeps) {
  const { keyChanges, state, logger } = deps;
  const now = deps.now ?? Date.now;
  const waitMs = deps.waitMs ?? PRESENT_WAIT_MS;

  /** The key's account's client and the zone's records, or why not. */
  const open = async (
    key: RobotKey,
  ): Promise<
    { ok: true; api: KeyChangeApi; listed: ListedRecord[] } | { ok: false; refusal: ChallengeRefusal }
  > => {
    const account = await keyChanges.accountOf(key);
    if (!account.ok) return { ok: false, refusal: account.reason };
    try {
      const listed = readListedRecords(await account.api.listDnsRecords(key.orderId));
      return { ok: true, api: account.api, listed };
    } catch (error) {
      return { ok: false, refusal: await failureOf(key, error) };
    }
  };

  const failureOf = async (key: RobotKey, error: unknown): Promise<ChallengeRefusal> => {
    if (await keyChanges.refusedAccount(key, error)) return 'refused';
    logger.warn({ chatId: key.chatId, err: errorForLog(error) }, 'acme challenge: provider failed');
    return 'provider';
  };

  /**
   * Runs the changes, records and reports them; the first failure's refusal, if any. `ended`:
   * `told` (recorded and told in the chat), `recorded` (the chat asked for it and words it
   * itself), `quiet` (neither).
   */
  const change = async (
    key: RobotKey,
    api: KeyChangeApi,
    changes: PlannedChange[],
    ended: 'told' | 'recorded' | 'quiet' = 'told',
  ): Promise<{ outcome: ChangesOutcome; refusal?: ChallengeRefusal }> => {
    const outcome = await runChanges(api, key.orderId, changes, {
      // The delete of an older value waits for its replacement: never fewer values than before.
      holdBack: (planned, failed) => planned.op === 'delete' && failed.some((f) => f.op === 'add'),
    });
    // A revoked key's leftover is deleted quietly: there is no key to name in the chat.
    if (ended !== 'quiet') await keyChanges.endChange(key, outcome, { told: ended === 'told' });
    const failure = outcome.failures.find((f) => !f.heldBack);
    if (failure && !failure.heldBack) return { outcome, refusal: await failureOf(key, failure.error) };
    return { outcome };
  };

  /** Adds `value` at `host` unless it stands; `keep` values at most (the oldest beyond go). */
  const addValue = async (
    key: RobotKey,
    host: string,
    value: string,
    options: { limit: number; replaceOldest: boolean },
  ): Promise<{ ok: true; added: boolean } | { ok: false; refusal: ChallengeRefusal }> => {
    const opened = await open(key);
    if (!opened.ok) return opened;
    if (isDelegated(opened.listed, host)) return { ok: false, refusal: 'delegated' };
    const { values, others } = recordsAt(opened.listed, host);
    if (others.length > 0) return { ok: false, refusal: 'occupied' };
    if (values.some((v) => v.text === value)) {
      await keepPending(key, host, value);
      return { ok: true, added: false };
    }
    if (values.length >= options.limit && !options.replaceOldest) return { ok: false, refusal: 'tooMany' };
    // Kept before the add: a value made just before a crash is still swept.
    await keepPending(key, host, value);
    const oldest = [...values].sort((a, b) => a.id - b.id);
    const excess = options.replaceOldest
      ? oldest.slice(0, Math.max(0, values.length + 1 - options.limit))
      : [];
    const changes: PlannedChange[] = [
      { op: 'add', record: txt(host, value) },
      ...excess.map((v): PlannedChange => ({ op: 'delete', id: v.id, record: txt(host, v.text) })),
    ];
    const made = await change(key, opened.api, changes);
    if (made.refusal) {
      if (made.outcome.applied.length === 0) await state.removeChallenge({ keyId: key.id, host, value });
      return { ok: false, refusal: made.refusal };
    }
    for (const v of excess) await state.removeChallenge({ keyId: key.id, host, value: v.text });
    return { ok: true, added: true };
  };

  const keepPending = (key: RobotKey, host: string, value: string) =>
    state.addChallenge({
      keyId: key.id,
      chatId: key.chatId,
      orderId: key.orderId,
      host,
      value,
      dueAt: now() + CHALLENGE_LIFETIME_MS,
    });

  /** Deletes exactly the TXT records with `value` at `host` (none: nothing to do). */
  const deleteValue = async (
    key: RobotKey,
    host: string,
    value: string,
    told = true,
  ): Promise<CleanupResult> => {
    const opened = await open(key);
    if (!opened.ok) return opened;
    const doomed = recordsAt(opened.listed, host).values.filter((v) => v.text === value);
    if (doomed.length > 0) {
      const made = await change(
        key,
        opened.api,
        doomed.map((v) => ({ op: 'delete', id: v.id, record: txt(host, v.text) })),
        told ? 'told' : 'quiet',
      );
      if (made.refusal) return { ok: false, refusal: made.refusal };
    }
    await state.removeChallenge({ keyId: key.id, host, value });
    return { ok: true, deleted: doomed.length };
  };

  /** Whether every name server of the key's domain serves `value` at `name`, within the wait. */
  const served = async (key: RobotKey, name: string, value: string): Promise<boolean> => {
    const account = await keyChanges.accountOf(key);
    if (!account.ok) return false;
    return waitUntilServed(
      {
        probe: deps.probe,
        ...(deps.clock ? { clock: deps.clock } : {}),
        ...(deps.delayMs ? { delayMs: deps.delayMs } : {}),
      },
      account.api,
      key.orderId,
      { name, type: 'TXT', present: [value], absent: [], exact: false, shown: [value] },
      waitMs,
    );
  };

  const inScope = (key: RobotKey, fqdn: string) =>
    key.kind === 'certificate' && inKeyScope({ kind: 'certificate', name: key.scope }, fqdn);

  return {
    /**
     * httpreq's `/present`: adds `value` at `fqdn` (a second present of a standing value adds
     * nothing) and waits until the name servers serve it. `served` false: added, not seen in time.
     */
    async present(key: RobotKey, fqdn: string, value: string): Promise<PresentResult> {
      if (!inScope(key, fqdn)) return { ok: false, refusal: 'scope' };
      if (!isChallengeValue(value)) return { ok: false, refusal: 'value' };
      const name = comparableName(fqdn);
      const host = hostIn(name, key.domain);
      const added = await addValue(key, host, value, {
        limit: KEY_LIMITS.challengeValues,
        replaceOldest: false,
      });
      if (!added.ok) return added;
      return { ok: true, added: added.added, served: await served(key, name, value), fqdn: name };
    },

    /** httpreq's `/cleanup`: deletes the TXT with exactly `value` at `fqdn`, nothing else. */
    async cleanup(key: RobotKey, fqdn: string, value: string): Promise<CleanupResult> {
      if (!inScope(key, fqdn)) return { ok: false, refusal: 'scope' };
      if (!isChallengeValue(value)) return { ok: false, refusal: 'value' };
      return deleteValue(key, hostIn(fqdn, key.domain), value);
    },

    /**
     * acme-dns's `/register`, made from the chat: the name the key's TXT values will live at
     * (`<uuid>._acme-dns.<domain>`), the `_acme-challenge` CNAME to it, kept on the key. A name
     * that holds anything already is refused (`standing`: its types). Registering again gives
     * the same account. `secret` is the key's, given only to whoever just made or rotated it.
     */
    async registerAcmeDns(key: RobotKey, secret: string): Promise<RegisterResult> {
      if (key.kind !== 'certificate') return { ok: false, refusal: 'scope' };
      const challengeHost = hostIn(`${ACME_LABEL}.${key.scope}`, key.domain);
      const account = (targetHost: string): AcmeDnsAccount => {
        const fulldomain = targetHost === '@' ? key.domain : `${targetHost}.${key.domain}`;
        return {
          username: key.id,
          password: secret,
          fulldomain,
          subdomain: targetHost.split('.')[0] ?? '',
          allowfrom: [...key.networks],
        };
      };
      const opened = await open(key);
      if (!opened.ok) return opened;
      if (isDelegated(opened.listed, challengeHost)) return { ok: false, refusal: 'delegated' };
      const here = opened.listed.filter(
        (l) => l.record.type !== 'SRV' && sameHost(l.record.host, challengeHost),
      );
      const known = key.acmeDnsHost;
      const alias =
        here.length === 1 && here[0]?.record.type === 'CNAME' ? here[0].record.canonical : undefined;
      if (known && alias && comparableName(alias) === comparableName(`${known}.${key.domain}`)) {
        return { ok: true, account: account(known), created: false };
      }
      if (here.length > 0) {
        return { ok: false, refusal: 'occupied', standing: [...new Set(here.map((l) => l.record.type))] };
      }
      const scopeHost = hostIn(key.scope, key.domain);
      const targetHost = `${randomUUID()}.${ACME_DNS_LABEL}${scopeHost === '@' ? '' : `.${scopeHost}`}`;
      const made = await change(
        key,
        opened.api,
        [
          {
            op: 'add',
            record: {
              type: 'CNAME',
              host: challengeHost,
              ttl: CHALLENGE_TTL,
              canonical: `${targetHost}.${key.domain}`,
            },
          },
          // The chat that asked for it says what was made (/keys), with the account.
        ],
        'recorded',
      );
      if (made.refusal) return { ok: false, refusal: made.refusal };
      await deps.robotKeys.setAcmeDnsHost(key.id, targetHost);
      return { ok: true, account: account(targetHost), created: true };
    },

    /**
     * acme-dns's `/update`: `txt` at the key's registered name, the older of two standing
     * values replaced (acme-dns keeps the latest two), answered once the name servers serve it.
     */
    async updateAcmeDns(key: RobotKey, subdomain: string, value: string): Promise<PresentResult> {
      const host = key.acmeDnsHost;
      if (key.kind !== 'certificate' || !host || subdomain.toLowerCase() !== host.split('.')[0]) {
        return { ok: false, refusal: 'notRegistered' };
      }
      if (!isChallengeValue(value)) return { ok: false, refusal: 'value' };
      const added = await addValue(key, host, value, { limit: ACME_DNS_VALUES, replaceOldest: true });
      if (!added.ok) return added;
      const name = `${host}.${key.domain}`;
      return { ok: true, added: added.added, served: await served(key, name, value), fqdn: name };
    },

    /**
     * The sweep: deletes the values whose hour has passed (at most `limit` a run), each claimed
     * first so that of several instances only one deletes it. The count of values deleted.
     */
    async sweep(limit = 50): Promise<number> {
      let deleted = 0;
      for (const due of await state.dueChallenges(now(), limit)) {
        if (!(await state.claim(`sweep:${challengeIdOf(due)}`, 5 * 60_000))) continue;
        deleted += await sweepOne(due);
      }
      return deleted;
    },
  };

  /** One forgotten value deleted as its cleanup would (a key revoked since: with its chat's token). */
  async function sweepOne(due: PendingChallenge): Promise<number> {
    const key = await deps.robotKeys.get(due.keyId);
    const result = await deleteValue(key ?? revokedKey(due), due.host, due.value, key !== undefined).catch(
      (error: unknown) => {
        logger.warn({ chatId: due.chatId, err: errorForLog(error) }, 'acme challenge: sweep failed');
        return undefined;
      },
    );
    // A chat without a token can no longer delete it: forgotten (the chat was told of its keys).
    if (result && !result.ok && (result.refusal === 'disconnected' || result.refusal === 'refused'))
      await state.removeChallenge(due);
    return result?.ok ? result.deleted : 0;
  }
}

/** A stand-in for a key revoked after its present: its chat and zone, no name. */
function revokedKey(due: PendingChallenge): RobotKey {
  return {
    id: due.keyId,
    chatId: due.chatId,
    kind: 'certificate',
    name: '',
    scope: '',
    orderId: due.orderId,
    domain: '',
    networks: [],
    createdBy: { userId: 0, name: '' },
    createdAt: new Date(0).toISOString(),
  };
}

export type RobotChallenges = ReturnType<typeof createRobotChallenges>;
