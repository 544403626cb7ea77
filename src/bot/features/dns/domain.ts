import type { DomainOrderIndex, PartnerApi } from '../../../api/index.js';
import { toAsciiDomain, toUnicodeDomain } from '../../../core/domain-names.js';
import { escapeHtml } from '../../../core/format.js';
import { echoInput } from '../../../core/text.js';
import type { BotContext } from '../../context.js';
import { UserInputError } from '../../errors.js';
import { findInAccounts } from '../../kit/other-accounts.js';

/** A domain order the DNS commands act on. */
export interface DomainRef {
  orderId: number;
  /** ASCII form. */
  domain: string;
}

/**
 * Orders resolved during one update: a job (add, then show the list) asks the provider for the
 * domain's order once and every later step of the same update reuses it.
 */
const resolvedInUpdate = new WeakMap<BotContext, Map<number, DomainRef>>();

function remember(ctx: BotContext, ref: DomainRef): DomainRef {
  const known = resolvedInUpdate.get(ctx) ?? new Map<number, DomainRef>();
  known.set(ref.orderId, ref);
  resolvedInUpdate.set(ctx, known);
  return ref;
}

/**
 * Reads the domain order index: one list call at most, kept briefly per token; a miss asks once
 * more, since the name may have been ordered outside the bot a moment ago.
 */
async function readIndex<V>(
  api: PartnerApi,
  read: (index: DomainOrderIndex) => V | undefined,
): Promise<V | undefined> {
  return read(await api.domainOrderIndex()) ?? read(await api.domainOrderIndex({ fresh: true }));
}

async function lookUp(api: PartnerApi, arg: string | undefined): Promise<DomainRef> {
  if (arg === undefined) throw new UserInputError('dns:needDomain');
  const find = <K, V>(pick: (index: DomainOrderIndex) => ReadonlyMap<K, V>, key: K) =>
    readIndex(api, (index) => pick(index).get(key));
  if (/^\d{1,10}$/.test(arg)) {
    const domain = await find((index) => index.byOrderId, Number(arg));
    if (domain === undefined) throw new UserInputError('dns:orderNotFound', { id: arg });
    return { orderId: Number(arg), domain };
  }
  const ascii = toAsciiDomain(arg);
  if (!ascii) throw new UserInputError('dns:badDomain', { value: escapeHtml(echoInput(arg)) });
  const orderId = await find((index) => index.byDomain, ascii);
  if (orderId === undefined)
    throw new UserInputError('dns:domainNotFound', { domain: escapeHtml(toUnicodeDomain(ascii)) });
  return { orderId, domain: ascii };
}

/**
 * `/dns example.by`, `/dns пример.бел` or `/dns 1006`: the partner's domain order — of the
 * account in use, else of another account of the chat, which the update then acts on (told).
 */
export async function resolveDomainOrder(ctx: BotContext, arg: string | undefined): Promise<DomainRef> {
  if (arg !== undefined && /^\d{1,10}$/.test(arg)) {
    const known = resolvedInUpdate.get(ctx)?.get(Number(arg));
    if (known) return known;
  }
  const ref = await findInAccounts(
    ctx,
    (api) => lookUp(api, arg),
    (found, label, ref) =>
      found.reply(
        found.t('accounts:domainElsewhere', {
          domain: escapeHtml(toUnicodeDomain(ref.domain)),
          label: escapeHtml(label),
        }),
        { parse_mode: 'HTML' },
      ),
  );
  // lookUp answers or throws: an order is always found when this line is reached.
  if (ref === undefined) throw new UserInputError('dns:needDomain');
  return remember(ctx, ref);
}

/** The order behind a button or a list page; free when this update resolved it already. */
export function refOfOrder(ctx: BotContext, orderId: number): Promise<DomainRef> {
  return resolveDomainOrder(ctx, String(orderId));
}

/**
 * The domain order whose zone holds a host (ASCII): the host itself or its nearest parent that is
 * a domain order of the account (`office.client.by` → `client.by`); undefined when none is.
 * Asked as `/dns` asks for a domain, the longest name first.
 */
export async function findZoneOfHost(api: PartnerApi, host: string): Promise<DomainRef | undefined> {
  const labels = host.split('.');
  const candidates = labels.slice(0, -1).map((_, index) => labels.slice(index).join('.'));
  return readIndex(api, (index) => {
    const domain = candidates.find((name) => index.byDomain.has(name));
    const orderId = domain === undefined ? undefined : index.byDomain.get(domain);
    return domain === undefined || orderId === undefined ? undefined : { orderId, domain };
  });
}
