import type { DomainOrderIndex, PartnerApi } from '../../../api/index.js';
import { toAsciiDomain, toUnicodeDomain } from '../../../core/domain-names.js';
import { escapeHtml } from '../../../core/format.js';
import { echoInput } from '../../../core/text.js';
import type { BotContext } from '../../context.js';
import { UserInputError } from '../../errors.js';

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

async function lookUp(api: PartnerApi, arg: string | undefined): Promise<DomainRef> {
  if (arg === undefined) throw new UserInputError('dns:needDomain');
  // One list call at most, kept briefly per token; a miss asks once more, since the name may have
  // been ordered outside the bot a moment ago.
  const find = async <K, V>(pick: (index: DomainOrderIndex) => ReadonlyMap<K, V>, key: K) =>
    pick(await api.domainOrderIndex()).get(key) ?? pick(await api.domainOrderIndex({ fresh: true })).get(key);
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

/** `/dns example.by`, `/dns пример.бел` or `/dns 1006`: the partner's domain order. */
export async function resolveDomainOrder(ctx: BotContext, arg: string | undefined): Promise<DomainRef> {
  if (arg !== undefined && /^\d{1,10}$/.test(arg)) {
    const known = resolvedInUpdate.get(ctx)?.get(Number(arg));
    if (known) return known;
  }
  return remember(ctx, await lookUp(await ctx.partnerApi(), arg));
}

/** The order behind a button or a list page; free when this update resolved it already. */
export function refOfOrder(ctx: BotContext, orderId: number): Promise<DomainRef> {
  return resolveDomainOrder(ctx, String(orderId));
}
