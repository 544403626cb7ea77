import { toAsciiDomain, toUnicodeDomain } from './domain-names.js';
import { providerDateToMinutes } from './format.js';
import { daysUntil } from './minsk-time.js';

/*
 * Finding the invoices a partner means by what they type: `/invoice СФ-2026-5001` and the inline
 * picker (`@bot shop.by`) compare invoice numbers the same way, here. Pure: no I/O.
 */

/** The one invoice state the provider documents as unpaid: the only invoices worth sending to a client. */
export const UNPAID_INVOICE_STATE = 'WaitingForPayment';

/** An invoice or order number as compared: case, spaces, a leading `№` and dash variants do not matter. */
export const invoiceNumberKey = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[\s\u2010-\u2015]/g, (c) => (/\s/.test(c) ? '' : '-'))
    .replace(/^№/, '');

/** The fields of an invoice this search reads (structural, so core needs no api types). */
export interface SearchableInvoice {
  readonly invoice_id: number;
  readonly invoice_number: string;
  readonly order_id: number;
  readonly creation_date: string;
  readonly state: string;
}

/** What is known of an invoice's order beyond its id: its number, its domain and its customer, when the lists give them. */
export interface InvoiceOrderFacts {
  readonly number?: string | undefined;
  readonly domain?: string | undefined;
  /** Whom it was ordered for, as the partner's saved customers or the order name them. */
  readonly customer?: string | undefined;
}

/**
 * An invoice's status as the partner reads it: paid, unpaid (still payable), expired (unpaid past
 * its expiration day, Minsk time: the day itself still counts) or another state the provider gives.
 */
export const INVOICE_STATUSES = ['unpaid', 'expired', 'paid', 'other'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const PAID_INVOICE_STATE = 'Paid';

/**
 * Whether an invoice is still owed: waiting for payment, payable or past its day (the chat's
 * "unpaid" is the provider's state, whatever the day: an overdue invoice is still money owed, and
 * the partner asks for a new one).
 */
export const isOwed = (status: InvoiceStatus): boolean => status === 'unpaid' || status === 'expired';

export function invoiceStatus(
  invoice: { readonly state: string; readonly expiration_date: string },
  now: Date,
): InvoiceStatus {
  if (invoice.state === PAID_INVOICE_STATE) return 'paid';
  if (invoice.state !== UNPAID_INVOICE_STATE) return 'other';
  const left = daysUntil(invoice.expiration_date, now);
  return left !== undefined && left < 0 ? 'expired' : 'unpaid';
}

/** How a query is compared with one invoice. */
type Match = 'exact' | 'partial' | 'none';

interface Query {
  /** As typed, trimmed and lower-cased (for domains). */
  readonly text: string;
  /** As a number is compared. */
  readonly numberKey: string;
  /** The order id when the query is only digits. */
  readonly orderId: number | undefined;
  /** The query as a domain name, both forms, when it is one. */
  readonly ascii: string | undefined;
  readonly unicode: string | undefined;
}

function readQuery(typed: string): Query {
  const text = typed.trim().toLowerCase();
  const ascii = text.includes('.') ? toAsciiDomain(text) : undefined;
  return {
    text,
    numberKey: invoiceNumberKey(text),
    orderId: /^\d{1,15}$/.test(text) ? Number(text) : undefined,
    ascii,
    unicode: ascii === undefined ? undefined : toUnicodeDomain(ascii),
  };
}

function matchOf(query: Query, invoice: SearchableInvoice, facts: InvoiceOrderFacts | undefined): Match {
  const number = invoiceNumberKey(invoice.invoice_number);
  const orderNumber = facts?.number === undefined ? undefined : invoiceNumberKey(facts.number);
  const ascii = facts?.domain === undefined ? undefined : toAsciiDomain(facts.domain);
  const unicode = ascii === undefined ? undefined : toUnicodeDomain(ascii);
  if (
    number === query.numberKey ||
    orderNumber === query.numberKey ||
    invoice.order_id === query.orderId ||
    (ascii !== undefined && ascii === query.ascii)
  ) {
    return 'exact';
  }
  const customer = facts?.customer?.toLowerCase();
  const partial =
    (customer !== undefined && query.text !== '' && customer.includes(query.text)) ||
    (query.numberKey !== '' && number.includes(query.numberKey)) ||
    (query.numberKey !== '' && orderNumber?.includes(query.numberKey) === true) ||
    (query.orderId !== undefined && String(invoice.order_id).includes(query.text)) ||
    (ascii?.includes(query.text) ?? false) ||
    (unicode?.includes(query.text) ?? false) ||
    (query.unicode !== undefined && unicode?.includes(query.unicode) === true);
  return partial ? 'partial' : 'none';
}

/** Newest first: by the day of issue, then by id (the provider's order is not specified). */
function newestFirst(a: SearchableInvoice, b: SearchableInvoice): number {
  const byDate =
    (providerDateToMinutes(b.creation_date) || 0) - (providerDateToMinutes(a.creation_date) || 0);
  return byDate !== 0 ? byDate : b.invoice_id - a.invoice_id;
}

/**
 * The unpaid invoices a query names, newest first, at most `limit`. An empty query names them
 * all. The query is compared with the invoice number, the order's id and number, and the order's
 * domain; when something matches exactly (a whole invoice number, as the "Send to client" button
 * types it), only the exact matches count, so that number never brings along `…-50012`. Otherwise
 * a part is enough, as the partner is still typing (`shop`, `2026-50`).
 */
export function findUnpaidInvoices<I extends SearchableInvoice>(
  invoices: readonly I[],
  orders: ReadonlyMap<number, InvoiceOrderFacts>,
  typed: string,
  limit: number,
): I[] {
  const unpaid = invoices.filter((invoice) => invoice.state === UNPAID_INVOICE_STATE);
  return searchInvoices(unpaid, (invoice) => orders.get(invoice.order_id), typed).slice(0, limit);
}

/**
 * The invoices a query names, of whatever state, newest first (the chat's inline picker above
 * keeps the unpaid ones; the Mini App's «Счета» searches all it shows, as the partner types). The
 * same comparison: number, order id and number, domain, and the customer's name in part.
 */
export function searchInvoices<I extends SearchableInvoice>(
  invoices: readonly I[],
  factsOf: (invoice: I) => InvoiceOrderFacts | undefined,
  typed: string,
): I[] {
  const sorted = [...invoices].sort(newestFirst);
  const query = readQuery(typed);
  if (query.text === '') return sorted;
  const matched = sorted.map((invoice) => ({ invoice, match: matchOf(query, invoice, factsOf(invoice)) }));
  const exact = matched.filter((m) => m.match === 'exact');
  const chosen = exact.length > 0 ? exact : matched.filter((m) => m.match === 'partial');
  return chosen.map((m) => m.invoice);
}

/**
 * Whether a query may be an order number (`ЗК-2026-001008`): letters and digits together. The
 * order numbers of hosting, mail and SSL orders are only in the general order list, which is
 * asked for such a query alone.
 */
export function mayBeOrderNumber(typed: string): boolean {
  const text = typed.trim();
  return /\p{N}/u.test(text) && /\p{L}/u.test(text) && !text.includes('.');
}
