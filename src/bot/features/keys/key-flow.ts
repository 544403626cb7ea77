import { toUnicodeDomain } from '../../../core/domain-names.js';
import { escapeHtml } from '../../../core/format.js';
import {
  ACME_LABEL,
  KEY_KINDS,
  KEY_LIMITS,
  type KeyKind,
  readNetworks,
  readScopeName,
} from '../../../core/robot-keys.js';
import { echoInput } from '../../../core/text.js';
import type { RegisterResult } from '../../../services/robot-challenges.js';
import type { IssuedKey, RobotKeys } from '../../../storage/robot-keys.js';
import type { BotContext } from '../../context.js';
import { UserInputError } from '../../errors.js';
import { answerOf, type OrderFlow, orSkipped, readString, type Step } from '../../forms/types.js';
import { type DomainRef, findZoneOfHost } from '../dns/domain.js';
import { type AcmeDnsPort, CERT_CLIENTS, type CertClient, describeAcmeDnsRefusal } from './acme-dns.js';
import { describeScope } from './views.js';

/** The answers' keys (also what a record card's button fills in). */
export const KIND = 'keyKind';
export const SCOPE = 'keyScope';
const CLIENT = 'keyClient';
const NAME = 'keyName';
const NETWORKS = 'keyNetworks';

/** The host or domain a key is for, with the domain order whose zone holds it. */
export interface KeyScopeAnswer extends DomainRef {
  /** ASCII, lower-case. */
  name: string;
}

const readKind = (value: unknown): KeyKind | undefined => KEY_KINDS.find((kind) => kind === value);

const readScope = (value: unknown): KeyScopeAnswer | undefined => {
  if (typeof value !== 'object' || value === null) return undefined;
  const { name, orderId, domain } = value as Record<string, unknown>;
  return typeof name === 'string' && typeof orderId === 'number' && typeof domain === 'string'
    ? { name, orderId, domain }
    : undefined;
};

const readClient = (value: unknown): CertClient | undefined =>
  CERT_CLIENTS.find((client) => client === value);

const readNetworkList = (value: unknown): string[] | undefined =>
  Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : undefined;

/**
 * Whether this chat may make one more key; the refusal names the limit. The limit is the chat's,
 * over all its accounts (`many`: the refusal says so, as /keys lists one account's keys).
 */
export async function checkKeyLimit(robotKeys: RobotKeys, chatId: number, many = false): Promise<void> {
  if ((await robotKeys.list(chatId)).length >= KEY_LIMITS.perChat)
    throw new UserInputError(many ? 'keys:limitReachedAccounts' : 'keys:limitReached', {
      count: KEY_LIMITS.perChat,
    });
}

/** Refuses a key name this chat already has (names tell keys apart in the list and reports). */
async function checkNameFree(robotKeys: RobotKeys, chatId: number, name: string): Promise<void> {
  const taken = (await robotKeys.list(chatId)).some((key) => key.name.toLowerCase() === name.toLowerCase());
  if (taken) throw new UserInputError('keys:nameTaken', { name: escapeHtml(name) });
}

/**
 * Making a key by questions: its kind → the host (address) or domain (certificate), which must be
 * in a domain order of this account → its name → optional source networks → the summary →
 * «Создать ключ». The secret is shown once, by `deliver`.
 */
export function createKeyFlow(deps: {
  robotKeys: RobotKeys;
  /** acme-dns registration; absent, a certificate key is made for httpreq without asking. */
  acmeDns?: AcmeDnsPort | undefined;
  /** Shows (or sends privately) the new key's secret (and its acme-dns account) and tells the team. */
  deliver(ctx: BotContext, issued: IssuedKey, rotated: boolean, acmeDns?: RegisterResult): Promise<void>;
}): OrderFlow {
  const kindStep: Step<KeyKind> = {
    id: KIND,
    section: 'keyScope',
    read: readKind,
    async ask({ ctx }) {
      return {
        text: ctx.t('keys:askKind'),
        options: KEY_KINDS.map((kind) => ({ label: ctx.t(`keys:kindOption.${kind}`), value: kind })),
        perRow: 1,
      };
    },
    invalidates: () => [SCOPE, CLIENT, NAME],
  };

  const scopeStep: Step<KeyScopeAnswer> = {
    id: SCOPE,
    section: 'keyScope',
    read: readScope,
    async ask({ ctx, draft }) {
      const kind = answerOf(draft, kindStep) ?? 'address';
      return { text: ctx.t(`keys:askScope.${kind}`) };
    },
    async parseText(env, text) {
      const kind = answerOf(env.draft, kindStep) ?? 'address';
      // A certificate key is asked for its domain; the challenge's own name is read as it.
      const typed = text.trim().replace(/\.$/, '');
      const bare = kind === 'certificate' ? typed.replace(new RegExp(`^${ACME_LABEL}\\.`, 'i'), '') : typed;
      const read = readScopeName(bare);
      const shown = escapeHtml(echoInput(text));
      if (!read.ok) throw new UserInputError(`keys:badScope.${kind}`, { value: shown });
      const zone = await findZoneOfHost(env.api, read.name);
      if (zone === undefined)
        throw new UserInputError('keys:notInAccount', { value: escapeHtml(toUnicodeDomain(read.name)) });
      return { name: read.name, ...zone };
    },
    describe({ ctx, draft }, scope) {
      return describeScope(ctx.t, answerOf(draft, kindStep) ?? 'address', scope.name);
    },
    keepText: (_env, scope) => toUnicodeDomain(scope.name),
    invalidates: () => [NAME],
  };

  // Asked of a certificate key only: acme-dns needs its account made now, while the secret exists.
  const clientStep: Step<CertClient> = {
    id: CLIENT,
    section: 'keyScope',
    read: readClient,
    async ask({ ctx }) {
      return {
        text: ctx.t('keys:askClient'),
        options: CERT_CLIENTS.map((client) => ({
          label: ctx.t(`keys:clientOption.${client}`),
          value: client,
        })),
        perRow: 1,
      };
    },
    describe: ({ ctx }, client) => ctx.t(`keys:summaryClient.${client}`),
  };

  const nameStep: Step<string> = {
    id: NAME,
    section: 'keyDetails',
    read: readString,
    async ask({ ctx, draft }) {
      const scope = answerOf(draft, scopeStep);
      const suggested = scope ? toUnicodeDomain(scope.name).slice(0, KEY_LIMITS.nameLength) : undefined;
      return {
        text: ctx.t('keys:askName', { max: KEY_LIMITS.nameLength }),
        ...(suggested ? { options: [{ label: suggested, value: suggested }], perRow: 1 } : {}),
      };
    },
    async parseText(env, text) {
      const name = text.replace(/\s+/g, ' ').trim();
      if (name === '' || [...name].length > KEY_LIMITS.nameLength)
        throw new UserInputError('keys:badName', { max: KEY_LIMITS.nameLength });
      await checkNameFree(deps.robotKeys, env.account, name);
      return name;
    },
    describe: ({ ctx }, name) => ctx.t('keys:summaryName', { name: escapeHtml(name) }),
    keepText: (_env, name) => name,
  };

  const networksStep: Step<string[] | null> = {
    id: NETWORKS,
    section: 'keyDetails',
    read: orSkipped(readNetworkList),
    async ask({ ctx }) {
      return { text: ctx.t('keys:askNetworks', { max: KEY_LIMITS.networks }), skippable: true };
    },
    async parseText(_env, text) {
      const read = readNetworks(text);
      if (read.ok) return read.networks.length === 0 ? null : read.networks;
      if ('bad' in read)
        throw new UserInputError('keys:badNetwork', { value: escapeHtml(echoInput(read.bad)) });
      throw new UserInputError('keys:tooManyNetworks', { max: KEY_LIMITS.networks });
    },
    describe: ({ ctx }, networks) =>
      networks === null || networks.length === 0
        ? ctx.t('keys:summaryNetworksAny')
        : ctx.t('keys:summaryNetworks', { list: escapeHtml(networks.join(', ')) }),
    keepText: (_env, networks) => (networks ?? []).join(', '),
  };

  return {
    kind: 'keyNew',
    confirmKey: 'keys:confirm',
    cancelKey: 'keys:cancelled',
    submittingKey: 'keys:making',
    midFlowKey: 'keys:commandMidFlow',
    steps: (draft) => [
      kindStep,
      scopeStep,
      ...(deps.acmeDns && answerOf(draft, kindStep) === 'certificate' ? [clientStep] : []),
      nameStep,
      networksStep,
    ],
    async summaryHead({ ctx }) {
      return [ctx.t('keys:summaryTitle')];
    },
    async finish(env) {
      const { ctx, draft } = env;
      const kind = answerOf(draft, kindStep);
      const scope = answerOf(draft, scopeStep);
      const name = answerOf(draft, nameStep);
      if (kind === undefined || scope === undefined || name === undefined)
        throw new UserInputError('order:useButtons');
      await checkKeyLimit(deps.robotKeys, env.account, ctx.account?.many);
      // The suggested name is a button, and another key may have been made meanwhile: checked again.
      await checkNameFree(deps.robotKeys, env.account, name);
      // The key acts for the account the form was filled on (its zone, its token at the gateway).
      const account = ctx.account?.n;
      const issued = await deps.robotKeys.create({
        chatId: env.account,
        ...(account === undefined ? {} : { account }),
        kind,
        name,
        scope: scope.name,
        orderId: scope.orderId,
        domain: scope.domain,
        networks: answerOf(draft, networksStep) ?? [],
        createdBy: { userId: ctx.from?.id ?? 0, name: ctx.from?.first_name ?? '' },
      });
      const acmeDns =
        kind === 'certificate' && answerOf(draft, clientStep) === 'acmeDns' ? deps.acmeDns : undefined;
      if (acmeDns === undefined) return deps.deliver(ctx, issued, false);
      const registered = await acmeDns.register(issued.key, issued.secret);
      if (!registered.ok) {
        // Nothing is made: a key meant for cert-manager is of no use without its account. The
        // summary comes back with the reason, so Create again (or choosing httpreq) is one press.
        await deps.robotKeys.revoke(issued.key.id);
        throw new UserInputError('keys:acmeDnsNotMade', {
          why: describeAcmeDnsRefusal(ctx.t, issued.key, registered.refusal, registered.standing),
        });
      }
      await deps.deliver(ctx, issued, false, registered);
    },
  };
}
