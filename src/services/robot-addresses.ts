/*
 * A router's address update (dyndns2's `/nic/update`) over a checked address key: per host, the
 * answer the protocol gives and the change it makes. The same address again is answered from a
 * cache with no provider call; a new one is the gap-free change every face makes (add, then
 * delete: `orderCalls`), recorded in the history as `auto` and told to the chat (key-changes.ts).
 *
 * The cache: the address last seen (or written) per account, domain order, zone generation, host
 * and record type, kept `ADDRESS_CACHE_TTL_MS`. Every recorded change of the zone — the chat's,
 * the Mini App's, a key's — bumps the generation (dns-journal.ts), so no cached address outlives
 * a change made elsewhere; what the provider's own panel changes is seen within the TTL.
 */
import { ApiError, ApiHttpError } from '../api/index.js';
import { checkPlan, heldBackBy, keptTtl, orderCalls, recordsAt, sameRecordData } from '../core/dns-change.js';
import { relativeHost } from '../core/dns-host-names.js';
import { type ListedRecord, readListedRecords } from '../core/dns-plan.js';
import type { DnsRecordData } from '../core/dns-records.js';
import { type DyndnsAnswer, inKeyScope } from '../core/robot-keys.js';
import type { GatewayState } from '../storage/gateway-state.js';
import type { RobotKey, RobotKeys } from '../storage/robot-keys.js';
import { runChanges } from './dns-apply.js';
import type { KeyChanges } from './key-changes.js';

/** How long an address seen at the provider answers `nochg` without asking it again. */
export const ADDRESS_CACHE_TTL_MS = 60 * 60_000;
/** The TTL of an address record a key makes where the host had none (a short one: it moves). */
export const NEW_ADDRESS_TTL = 300;
/** A key's last use is written at most this often while nothing changes (`nochg`). */
export const QUIET_USE_NOTE_MS = 60_000;

/** An address a robot asked for, read (core `readAddress`). */
export interface WantedAddress {
  family: 4 | 6;
  address: string;
}

/** One host's answer: the dyndns2 word and, for `good`/`nochg`, the addresses it now has. */
export interface HostAnswer {
  answer: DyndnsAnswer;
  addresses: string[];
}

export interface RobotAddressDeps {
  keyChanges: Pick<KeyChanges, 'accountOf' | 'refusedAccount' | 'endChange'>;
  state: Pick<GatewayState, 'zoneGeneration' | 'cached' | 'cache' | 'claim'>;
  robotKeys: Pick<RobotKeys, 'noteUse'>;
  now?: () => Date;
}

const typeOf = (family: 4 | 6) => (family === 4 ? 'A' : 'AAAA');

/** The record a key wants at its host: the address, with the TTL the host's records share. */
function wantedRecord(host: string, wanted: WantedAddress, ttl: number): DnsRecordData {
  return wanted.family === 4
    ? { type: 'A', host, ttl, ipv4: wanted.address }
    : { type: 'AAAA', host, ttl, ipv6: wanted.address };
}

/** Whether an error means the provider could not answer now (a later try may succeed). */
function isTransient(error: unknown): boolean {
  if (error instanceof ApiHttpError) return error.isServerError || error.status === 429;
  return error instanceof ApiError;
}

export function createRobotAddresses(deps: RobotAddressDeps) {
  const { keyChanges, state, robotKeys } = deps;
  const now = deps.now ?? (() => new Date());

  /** The answer for a provider failure: a refused token or an unreachable provider is `911`. */
  const failureAnswer = async (key: RobotKey, error: unknown): Promise<DyndnsAnswer> => {
    if (await keyChanges.refusedAccount(key, error)) return '911';
    return isTransient(error) ? '911' : 'dnserr';
  };

  /** Notes the key's use: a change or a refusal each time, a `nochg` at most once a minute. */
  const noteUse = async (key: RobotKey, from: string, answer: HostAnswer): Promise<void> => {
    if (answer.answer === 'nochg' && !(await state.claim(`use:${key.id}`, QUIET_USE_NOTE_MS))) return;
    await robotKeys.noteUse(key.id, {
      at: now().toISOString(),
      from,
      action: answer.answer,
      detail: answer.addresses.join(', '),
    });
  };

  const updateHost = async (key: RobotKey, host: string, wanted: WantedAddress[]): Promise<HostAnswer> => {
    const relative = relativeHost(host, key.domain);
    if (!inKeyScope({ kind: 'address', name: key.scope }, host) || relative === undefined)
      return { answer: 'nohost', addresses: [] };
    const addresses = wanted.map((w) => w.address);
    const account = await keyChanges.accountOf(key);
    // The account's token is gone: the partner reconnects it in the chat (told once), and the
    // router's own config is right, so it should keep trying — `911` is dyndns2's "our side,
    // try later" (inadyn's dyndns2 providers retry it), `badauth` means "fix your credentials".
    if (!account.ok) return { answer: '911', addresses: [] };
    // The zone's generation is read anew each time: recording a change bumps it.
    const cachePrefix = async () =>
      `addr:${account.accountId}:${key.orderId}:${await state.zoneGeneration(account.accountId, key.orderId)}:${host}:`;
    const remember = async () => {
      const prefix = await cachePrefix();
      for (const w of wanted)
        await state.cache(`${prefix}${typeOf(w.family)}`, w.address, ADDRESS_CACHE_TTL_MS);
    };
    const prefix = await cachePrefix();
    let known = true;
    for (const w of wanted) known &&= (await state.cached(`${prefix}${typeOf(w.family)}`)) === w.address;
    if (known) return { answer: 'nochg', addresses };

    let listed: ListedRecord[];
    try {
      listed = readListedRecords(await account.api.listDnsRecords(key.orderId));
    } catch (error) {
      return { answer: await failureAnswer(key, error), addresses: [] };
    }
    const remove: ListedRecord[] = [];
    const add: DnsRecordData[] = [];
    for (const w of wanted) {
      const current = recordsAt(listed, typeOf(w.family), relative);
      const record = wantedRecord(relative, w, keptTtl(current) ?? NEW_ADDRESS_TTL);
      const same = current.filter((c) => sameRecordData(c.record, record));
      if (same.length === current.length && same.length > 0) continue;
      if (same.length === 0) add.push(record);
      remove.push(...current.filter((c) => !sameRecordData(c.record, record)));
    }
    if (add.length === 0 && remove.length === 0) {
      // The provider answered for this account: a later stop of the key is told again.
      await keyChanges.endChange(key, { applied: [], failures: [] });
      await remember();
      return { answer: 'nochg', addresses };
    }
    const checked = checkPlan(listed, remove, add);
    // A CNAME stands at the host: an address beside it is not DNS.
    if (!checked.ok) return { answer: 'dnserr', addresses: [] };
    const calls = orderCalls(checked.plan.remove, checked.plan.add);
    // A delete waits for its add: if the add is refused, the old address stays, as it was.
    const outcome = await runChanges(account.api, key.orderId, calls, { holdBack: heldBackBy });
    await keyChanges.endChange(key, outcome);
    const refused = outcome.failures.find((f) => !f.heldBack);
    if (refused !== undefined && 'error' in refused)
      return { answer: await failureAnswer(key, refused.error), addresses: [] };
    if (outcome.failures.length > 0) return { answer: 'dnserr', addresses: [] };
    await remember();
    return { answer: 'good', addresses };
  };

  return {
    /**
     * The answers for `hosts`, in order, setting each host's A (IPv4) and/or AAAA (IPv6) to
     * `wanted`. `from` is the request's source address, noted as the key's last use. A host
     * outside the key's scope is `nohost`; an answer other than `good`/`nochg` changed nothing
     * (but a change whose add went through and whose delete the provider refused: `dnserr`, and
     * its history entry shows what was made).
     */
    async update(key: RobotKey, hosts: readonly string[], wanted: WantedAddress[], from: string) {
      const answers: HostAnswer[] = [];
      for (const host of hosts) answers.push(await updateHost(key, host, wanted));
      // One note per request: the key's own host's answer (a key has one host), else `nohost`.
      const noted = answers.find((a) => a.answer !== 'nohost') ?? answers[0];
      if (noted !== undefined) await noteUse(key, from, noted);
      return answers;
    },
  };
}

export type RobotAddresses = ReturnType<typeof createRobotAddresses>;
