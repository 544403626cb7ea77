import { type InvoiceOrderFacts, type InvoiceStatus, isOwed, searchInvoices } from './invoice-search.js';
import { isoOfDay, minskDay } from './minsk-time.js';

/*
 * What the Mini App's «Счета» shows of the account's invoices: a status chip (all, payable,
 * expired, paid), a period by the day of issue, and the search as the partner types (core's
 * `searchInvoices`, the chat's comparison). Pure: the app hands in the invoices and the instant.
 */

/** The chips: every invoice, the owed ones (the overdue among them), those past their day unpaid, the paid ones. */
export const INVOICE_FILTERS = ['all', 'unpaid', 'expired', 'paid'] as const;
export type InvoiceFilter = (typeof INVOICE_FILTERS)[number];

/** The periods offered: this month, last month, all time, a span of days the partner picks. */
export const INVOICE_PERIODS = ['month', 'lastMonth', 'all', 'custom'] as const;
export type InvoicePeriodKind = (typeof INVOICE_PERIODS)[number];

/** A period chosen; a custom one's ends (`YYYY-MM-DD`, both included) may be left open. */
export interface InvoicePeriod {
  readonly kind: InvoicePeriodKind;
  readonly from?: string | undefined;
  readonly to?: string | undefined;
}

/** The fields of a listed invoice this filter reads (the Mini App's invoice entry has them). */
export interface ListedInvoice {
  readonly id: number;
  readonly number: string;
  readonly orderId: number;
  /** The day of issue, `YYYY-MM-DD`; null when the provider's date does not read. */
  readonly created: string | null;
  readonly status: InvoiceStatus;
  readonly domain?: string | undefined;
  readonly orderNumber?: string | undefined;
  readonly customer?: string | undefined;
}

export interface InvoiceQuery {
  readonly filter: InvoiceFilter;
  readonly period: InvoicePeriod;
  /** As typed in the search field. */
  readonly text: string;
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The days a period spans (`YYYY-MM-DD`, both ends included; an open end: undefined), Minsk days. */
export function periodSpan(period: InvoicePeriod, now: Date): { from?: string; to?: string } {
  const today = isoOfDay(minskDay(now));
  const [year, month] = today.split('-').map(Number) as [number, number];
  const monthStart = (y: number, m: number) => `${y}-${String(m).padStart(2, '0')}-01`;
  const lastDay = (y: number, m: number) => isoOfDay(Date.UTC(y, m, 0) / 86_400_000);
  switch (period.kind) {
    case 'month':
      return { from: monthStart(year, month), to: lastDay(year, month) };
    case 'lastMonth': {
      const y = month === 1 ? year - 1 : year;
      const m = month === 1 ? 12 : month - 1;
      return { from: monthStart(y, m), to: lastDay(y, m) };
    }
    case 'all':
      return {};
    case 'custom': {
      const from = period.from !== undefined && ISO_DAY.test(period.from) ? period.from : undefined;
      const to = period.to !== undefined && ISO_DAY.test(period.to) ? period.to : undefined;
      // Ends given the wrong way round still mean the days between them.
      if (from !== undefined && to !== undefined && from > to) return { from: to, to: from };
      return { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
    }
  }
}

const inSpan = (day: string | null, span: { from?: string; to?: string }) =>
  span.from === undefined && span.to === undefined
    ? true
    : day !== null &&
      (span.from === undefined || day >= span.from) &&
      (span.to === undefined || day <= span.to);

/** «К оплате» is everything still owed, the overdue included; the other chips are their status. */
const matchesFilter = (status: InvoiceStatus, filter: InvoiceFilter) =>
  filter === 'all' || (filter === 'unpaid' ? isOwed(status) : status === filter);

/** A `YYYY-MM-DD` day as the provider writes it (`DD.MM.YYYY`), for the search's ordering. */
const providerDate = (day: string | null) => (day === null ? '' : day.split('-').reverse().join('.'));

/**
 * The invoices a chip, a period and the typed text leave, newest first: the chip by status, the
 * period by the day of issue (an invoice with no readable day only in «all time»), the text as
 * `searchInvoices` compares it (number, order number and id, domain, the customer in part).
 */
export function filterInvoices<I extends ListedInvoice>(
  invoices: readonly I[],
  query: InvoiceQuery,
  now: Date,
): I[] {
  const span = periodSpan(query.period, now);
  const kept = invoices
    .filter((invoice) => matchesFilter(invoice.status, query.filter) && inSpan(invoice.created, span))
    .map((invoice) => ({
      invoice,
      invoice_id: invoice.id,
      invoice_number: invoice.number,
      order_id: invoice.orderId,
      creation_date: providerDate(invoice.created),
      state: invoice.status,
    }));
  const facts = (listed: (typeof kept)[number]): InvoiceOrderFacts => ({
    domain: listed.invoice.domain,
    number: listed.invoice.orderNumber,
    customer: listed.invoice.customer,
  });
  return searchInvoices(kept, facts, query.text).map((listed) => listed.invoice);
}
