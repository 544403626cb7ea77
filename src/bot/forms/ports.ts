import type { ProductKind } from '../../core/product-kinds.js';
import type { BotContext } from '../context.js';
import type { OrderFlow } from './types.js';

/** A team group an order is placed for, as a draft keeps it: the group and its forum topic. */
export interface GroupRef {
  chat: number;
  thread?: number | undefined;
}

/** An order as the group and the bound chat are told of it (the subject and number HTML-safe). */
export interface PlacedOrder {
  kind: ProductKind | string;
  subject: string;
  order: string | number;
}

/**
 * What the engine needs of team groups; the team feature implements it and `createBot` hands it
 * in, so the engine knows no feature. A group's order is filled in a member's private chat.
 */
export interface TeamOrderPort {
  /** Whether the member may still order for `group` now (its owner or admin, the group bound). */
  mayOrderFor(ctx: BotContext, group: GroupRef): Promise<boolean>;
  /**
   * Tells `group` of an order its member placed, with the invoice's link (that message is the one
   * marked paid later). False, with nothing said, when the member may no longer order there.
   */
  announceGroupOrder(
    ctx: BotContext,
    group: GroupRef,
    order: PlacedOrder,
    invoice: { url: string | undefined; invoiceId: number | undefined },
  ): Promise<boolean>;
  /** Tells a group bound by `/team` that an order was placed in it, and by whom; nothing elsewhere. */
  announceInChat(ctx: BotContext, order: PlacedOrder): Promise<void>;
}

/** The product kinds' forms, from the ordering feature's registry: the flow and its prefill step. */
export type ProductFlows = Readonly<
  Record<ProductKind, { readonly flow: OrderFlow; readonly prefillStep: string | null }>
>;
