/*
 * How an order placed by the bot is recognised in its kind's order list when the create call's
 * answer was lost: by the domain it names (compared in ASCII), else by its tariff.
 */
import { toAsciiDomain } from './domain-names.js';

/** An order as a kind's list gives it, as far as it is recognised. */
export interface MarkedOrder {
  advanced?: { domain?: string | undefined; tariff_id?: number | undefined } | undefined;
}

/** What an order is recognised by in its kind's list: the domain it names, else its tariff. */
export type OrderMark = { domain: string } | { tariffId: number };

/** Whether a listed order bears the mark (a domain compared in ASCII). */
export function orderMatches(mark: OrderMark, order: MarkedOrder): boolean {
  if ('domain' in mark) {
    const domain = order.advanced?.domain;
    return domain !== undefined && toAsciiDomain(domain) === toAsciiDomain(mark.domain);
  }
  return order.advanced?.tariff_id === mark.tariffId;
}
