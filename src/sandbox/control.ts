/**
 * The sandbox's control calls for trying the bot's watchers: pay an invoice, complete an order,
 * make a renewal invoice, move the clock. They change the state the API then lists; they are not
 * part of the provider's API (no token, English messages, only on the sandbox's own server).
 */

import { convert, domainTermAmount } from './catalog.js';
import { addCalendarPeriod, addDays, formatDate, formatDateTime, parseDateTime } from './dates.js';
import { shortLink } from './links.js';
import { money, type Order, type SandboxState } from './state.js';
import { isObject } from './validation.js';

/** A control call's refusal: 400 bad input, 404 unknown id, 409 nothing to do. */
export class ControlError extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
  ) {
    super(message);
    this.name = 'ControlError';
  }
}

/** The sandbox's "now": the machine's time moved by the clock control call. */
export function sandboxNow(state: SandboxState, real: Date = new Date()): Date {
  return new Date(real.getTime() + (state.clockOffsetMs ?? 0));
}

/** A positive integer id from a path segment or a body field; 400 otherwise. */
export function controlId(value: unknown, name: string): number {
  const number = typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isSafeInteger(number) || number <= 0 || number > 2_147_483_647) {
    throw new ControlError(400, `"${name}" must be a positive integer`);
  }
  return number;
}

function ownOrder(state: SandboxState, orderId: number): Order {
  const order = state.orders.find((o) => o.order_id === orderId && o.owner === 'self');
  if (!order) throw new ControlError(404, `order ${orderId} not found`);
  return order;
}

function periodUnit(order: Order): 'month' | 'year' {
  return order.period_unit_type === 'year' ? 'year' : 'month';
}

export interface PaidInvoice {
  invoice_id: number;
  payment_id: number;
  payment_date: string;
  amount: number;
}

/**
 * Pays what is left of an unpaid invoice today: one payment, the invoice `Paid`, its order
 * `paid`. Paying a renewal invoice of a completed order moves the order's expiry on by its period.
 */
export function payInvoice(state: SandboxState, invoiceId: number, now: Date): PaidInvoice {
  const invoice = state.invoices.find((i) => i.invoice_id === invoiceId && i.owner === 'self');
  if (!invoice) throw new ControlError(404, `invoice ${invoiceId} not found`);
  if (invoice.state === 'Paid') throw new ControlError(409, `invoice ${invoiceId} is already paid`);
  const alreadyPaid = state.payments
    .filter((p) => p.invoice_id === invoiceId)
    .reduce((sum, p) => sum + p.amount, 0);
  const paymentId = state.payments.reduce((max, p) => Math.max(max, p.payment_id), 7000) + 1;
  const payment = {
    payment_id: paymentId,
    invoice_id: invoiceId,
    payment_date: formatDate(now),
    amount: money(invoice.amount - alreadyPaid),
  };
  state.payments.push(payment);
  invoice.state = 'Paid';
  const order = state.orders.find((o) => o.order_id === invoice.order_id);
  if (order) {
    const renewal = order.completed && order.paid && order.expiration_date !== null;
    if (renewal && order.expiration_date !== null) {
      order.expiration_date = addCalendarPeriod(
        order.expiration_date,
        order.period_unit_count,
        periodUnit(order),
      );
      if (order.details.kind === 'domain') order.details.renewed = true;
    }
    order.paid = true;
  }
  return payment;
}

/**
 * Completes an order today, as the provider does once it is paid and set up: state `Active` (the
 * word the seed uses for completed orders), `completed`, `complete_date` today, `expiration_date`
 * one period later; a domain becomes registered, a certificate gets its validity dates.
 */
export function completeOrder(state: SandboxState, orderId: number, now: Date): Order {
  const order = ownOrder(state, orderId);
  if (order.completed) throw new ControlError(409, `order ${orderId} is already completed`);
  const today = formatDate(now);
  const expires = addCalendarPeriod(today, order.period_unit_count, periodUnit(order));
  order.state = 'Active';
  order.completed = true;
  order.complete_date = today;
  order.expiration_date = expires;
  const details = order.details;
  if (details.kind === 'domain') details.registered = true;
  if (details.kind === 'ssl') {
    details.valid_from_date = today;
    details.valid_till_date = expires;
  }
  return order;
}

/**
 * The price of one more period of the order in its currency (BYN when the currency is gone): the
 * renewal tariff for a domain, priced as a new domain order is, else its tariff.
 */
function renewalAmount(state: SandboxState, order: Order): number {
  const details = order.details;
  const currency = state.currencies.find((c) => c.currency_id === order.currency_id) ?? BYN;
  if (details.kind === 'domain') {
    const zone = state.zones.find((z) => z.actual_renew_tariff_id === details.renew_tariff_id);
    return domainTermAmount(zone?.renew_price ?? 0, order.period_unit_count, currency);
  }
  const tariff = state.tariffs.find((t) => t.tariff_id === details.tariff_id);
  return convert(tariff?.prices.find((p) => p.period === order.period_unit_count)?.price ?? 0, currency);
}

/** The rate of BYN itself, for an order whose currency is no longer listed. */
const BYN = { currency_id: 1, currency_code: 'BYN', currency_name: 'BYN', rate: 1 };

export interface CreatedInvoice {
  invoice_id: number;
  invoice_number: string;
  invoice_url: string;
}

/**
 * A new invoice for the order, as a renewal makes it: one period at the renewal price, in the
 * order's currency, `WaitingForPayment`, expiring 5 days after today.
 */
export function createInvoice(
  state: SandboxState,
  orderId: number,
  now: Date,
  linkBase: string,
): CreatedInvoice {
  const order = ownOrder(state, orderId);
  const amount = renewalAmount(state, order);
  const invoiceId = state.nextIds.invoice++;
  const invoiceNumber = `СФ-${formatDate(now).slice(6)}-${invoiceId}`;
  state.invoices.push({
    invoice_id: invoiceId,
    owner: 'self',
    invoice_number: invoiceNumber,
    order_id: orderId,
    creation_date: formatDate(now),
    expiration_date: formatDate(addDays(now, 5)),
    amount,
    currency_id: order.currency_id,
    state: 'WaitingForPayment',
  });
  return {
    invoice_id: invoiceId,
    invoice_number: invoiceNumber,
    invoice_url: shortLink(linkBase, 'invoice', invoiceId),
  };
}

/**
 * Moves the sandbox's clock so that it is now `text` (`DD.MM.YYYY HH:MM`, Minsk time); it keeps
 * running from there. Answers the new now as the sandbox writes it.
 */
export function setClock(state: SandboxState, text: unknown, real: Date = new Date()): { now: string } {
  const target = typeof text === 'string' ? parseDateTime(text) : undefined;
  if (target === undefined) throw new ControlError(400, '"now" must be a date and time "DD.MM.YYYY HH:MM"');
  state.clockOffsetMs = target.getTime() - real.getTime();
  return { now: formatDateTime(target) };
}

/** The body of `POST /__sandbox/invoices` or `/__sandbox/clock`: a JSON object with only `field`. */
export function controlBody(parsed: unknown, field: string): unknown {
  if (!isObject(parsed)) throw new ControlError(400, `the body must be a JSON object with "${field}"`);
  const extra = Object.keys(parsed).find((key) => key !== field);
  if (extra !== undefined) throw new ControlError(400, `unknown property "${extra}"`);
  if (!(field in parsed)) throw new ControlError(400, `"${field}" is required`);
  return parsed[field];
}

/** An invoice or order a control call can act on, as the playground's buttons name it. */
export interface OpenItem {
  id: number;
  /** The number the partner sees (invoice or order number). */
  number: string;
  /** The order's kind (domain, hosting, mail, ssl). */
  kind: string;
  /** The order's domain, when it has one. */
  domain?: string;
  /** An invoice's amount, in the order's currency. */
  amount?: number;
}

/**
 * What the control calls can act on now: the partner's unpaid invoices (to pay), orders not yet
 * completed (to complete) and completed ones (for a renewal invoice).
 */
export function openItems(state: SandboxState): {
  unpaid: OpenItem[];
  pending: OpenItem[];
  completed: OpenItem[];
} {
  const own = state.orders.filter((o) => o.owner === 'self');
  const about = (order: Order | undefined): Pick<OpenItem, 'kind' | 'domain'> => {
    const details = order?.details;
    if (!details) return { kind: '' };
    return 'domain' in details && typeof details.domain === 'string'
      ? { kind: details.kind, domain: details.domain }
      : { kind: details.kind };
  };
  const orderItem = (o: Order): OpenItem => ({ id: o.order_id, number: o.number, ...about(o) });
  return {
    unpaid: state.invoices
      .filter((i) => i.owner === 'self' && i.state === 'WaitingForPayment')
      .map((i) => ({
        id: i.invoice_id,
        number: i.invoice_number,
        amount: i.amount,
        ...about(own.find((o) => o.order_id === i.order_id)),
      })),
    pending: own.filter((o) => !o.completed).map(orderItem),
    completed: own.filter((o) => o.completed).map(orderItem),
  };
}
