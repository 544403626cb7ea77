import { toAsciiDomain } from '../core/domain-names.js';

/**
 * The partner's domain orders by domain (ASCII form) and by order id: how a DNS job finds the
 * order of `/dns example.by`. It changes only when a domain order is created, which the bot does
 * itself, so the cached client keeps it briefly and drops it on every create.
 */
export interface DomainOrderIndex {
  byDomain: ReadonlyMap<string, number>;
  byOrderId: ReadonlyMap<number, string>;
}

/** Asking for the index; `fresh` skips a cached one (a name the partner just ordered elsewhere). */
export interface DomainOrderIndexQuery {
  fresh?: boolean;
}

/** Builds the index from the domain order list; orders without a readable domain are left out. */
export function indexDomainOrders(
  orders: readonly { order_id: number; advanced?: { domain?: string | undefined } | undefined }[],
): DomainOrderIndex {
  const byDomain = new Map<string, number>();
  const byOrderId = new Map<number, string>();
  for (const order of orders) {
    const domain = order.advanced?.domain;
    const ascii = domain === undefined ? undefined : toAsciiDomain(domain);
    if (ascii === undefined) continue;
    byDomain.set(ascii, order.order_id);
    byOrderId.set(order.order_id, ascii);
  }
  return { byDomain, byOrderId };
}
