import { UNPAID_INVOICE_STATE } from './invoice-search.js';
import { isoOfDay, minskDay, providerDay } from './minsk-time.js';

/*
 * Notification diffing (docs/notifications.md). The provider has no events, so
 * a watcher polls the lists and this rule compares them with a small remembered `Snapshot`.
 * Pure: no clock, no storage, no I/O; "today" and "tomorrow" are Minsk days (UTC+3, no DST).
 */

/** What the bot tells a chat on its own; one entry per kind in `NOTIFICATION_KINDS`. */
export type NotificationKind =
  | 'paymentArrived'
  | 'newInvoice'
  | 'invoiceExpiresTomorrow'
  | 'invoiceExpired'
  | 'orderCompleted'
  | 'domainExpires';

interface KindEntry {
  /** Delivery order within one poll: lower first. */
  readonly rank: number;
  /** A reminder is told once per date and threshold and remembered in `Snapshot.told`. */
  readonly reminder: boolean;
  /** All kinds are on by default once a token is connected; `/notify` turns each off or on. */
  readonly defaultOn: boolean;
}

export const NOTIFICATION_KINDS = {
  paymentArrived: { rank: 0, reminder: false, defaultOn: true },
  orderCompleted: { rank: 1, reminder: false, defaultOn: true },
  newInvoice: { rank: 2, reminder: false, defaultOn: true },
  invoiceExpiresTomorrow: { rank: 3, reminder: true, defaultOn: true },
  invoiceExpired: { rank: 4, reminder: true, defaultOn: true },
  domainExpires: { rank: 5, reminder: true, defaultOn: true },
} as const satisfies Record<NotificationKind, KindEntry>;

/** Every kind, in delivery order. */
export const NOTIFICATION_KIND_LIST = (Object.keys(NOTIFICATION_KINDS) as NotificationKind[]).sort(
  (a, b) => NOTIFICATION_KINDS[a].rank - NOTIFICATION_KINDS[b].rank,
);

/** Days before a domain's expiration date when the partner is reminded, largest first. */
export const DOMAIN_EXPIRY_THRESHOLDS = [30, 7, 1] as const;
export type DomainExpiryThreshold = (typeof DOMAIN_EXPIRY_THRESHOLDS)[number];

// ---- input: the fields of the list calls this rule reads (structural, so core needs no api types) --

type Maybe<T> = T | null | undefined;

export interface InvoiceItem {
  readonly invoice_id: number;
  readonly invoice_number: string;
  readonly order_id: number;
  readonly expiration_date: string;
  readonly amount: number;
  readonly currency_id: number;
  readonly state: string;
}

export interface PaymentItem {
  readonly payment_id: number;
  readonly invoice_id: number;
  readonly payment_date: string;
  readonly amount: number;
}

export interface OrderItem {
  readonly order_id: number;
  readonly number: string;
  readonly state: string;
  readonly completed: boolean;
  readonly complete_date?: Maybe<string>;
}

export interface DomainOrderItem {
  readonly order_id: number;
  readonly number: string;
  readonly expiration_date?: Maybe<string>;
  readonly advanced?: Maybe<{ readonly domain?: Maybe<string> }>;
}

/** One poll's complete answers; a list whose call failed must not be diffed (nothing is lost). */
export interface NotifyLists {
  readonly invoices: readonly InvoiceItem[];
  readonly payments: readonly PaymentItem[];
  readonly orders: readonly OrderItem[];
  readonly domainOrders: readonly DomainOrderItem[];
}

// ---- the remembered state -------------------------------------------------------------------

/**
 * What is remembered per token between polls: ids, states, amounts and dates only (no names,
 * numbers or domains), arrays sorted by id so equal states serialise equally. Plain JSON.
 */
export interface Snapshot {
  readonly version: 1;
  /** `due` is the provider's `DD.MM.YYYY`. */
  readonly invoices: readonly {
    readonly id: number;
    readonly state: string;
    readonly amount: number;
    readonly due: string;
  }[];
  readonly payments: readonly number[];
  readonly orders: readonly { readonly id: number; readonly state: string; readonly completed: boolean }[];
  /** Domain orders with their expiration date (`DD.MM.YYYY`, null when the provider gives none). */
  readonly domains: readonly { readonly id: number; readonly expires: string | null }[];
  /** Ids of reminder events already told (each ends with the ISO date it is about), sorted. */
  readonly told: readonly string[];
}

// ---- events --------------------------------------------------------------------------------

interface EventBase<K extends NotificationKind> {
  readonly kind: K;
  /** Stable across polls, restarts and instances: a caller tells each id exactly once per chat. */
  readonly id: string;
}

export interface PaymentArrivedEvent extends EventBase<'paymentArrived'> {
  readonly paymentId: number;
  readonly invoiceId: number;
  /** The invoice's number when the invoice is in the list. */
  readonly invoiceNumber: string | undefined;
  /** The invoice's currency when the invoice is in the list (payments carry none). */
  readonly currencyId: number | undefined;
  readonly amount: number;
  readonly paymentDate: string;
  /** The order the invoice belongs to, when the invoice is in the list. */
  readonly order: OrderRef | undefined;
}

/** Which order an event is about, as the partner knows it: its number and, for a domain, the name. */
export interface OrderRef {
  readonly id: number;
  readonly number: string | undefined;
  readonly domain: string | undefined;
}

export interface NewInvoiceEvent extends EventBase<'newInvoice'> {
  readonly invoiceId: number;
  readonly invoiceNumber: string;
  readonly orderId: number;
  readonly order: OrderRef;
  readonly amount: number;
  readonly currencyId: number;
  readonly expirationDate: string;
}

/** An unpaid invoice near or past its last day (a reminder's facts). */
interface InvoiceDueFacts {
  readonly invoiceId: number;
  readonly invoiceNumber: string;
  readonly order: OrderRef;
  readonly amount: number;
  readonly currencyId: number;
  readonly expirationDate: string;
}

export interface InvoiceExpiresTomorrowEvent extends EventBase<'invoiceExpiresTomorrow'>, InvoiceDueFacts {}

/** The day after an unpaid invoice's last day: its link no longer takes a payment. */
export interface InvoiceExpiredEvent extends EventBase<'invoiceExpired'>, InvoiceDueFacts {}

export interface OrderCompletedEvent extends EventBase<'orderCompleted'> {
  readonly orderId: number;
  readonly orderNumber: string;
  /** The domain when it is a domain order. */
  readonly domain: string | undefined;
  readonly completeDate: string | undefined;
}

export interface DomainExpiresEvent extends EventBase<'domainExpires'> {
  readonly orderId: number;
  readonly domain: string | undefined;
  readonly expirationDate: string;
  readonly threshold: DomainExpiryThreshold;
  /** Whole Minsk days until the expiration date (0 = today); at most `threshold`. */
  readonly daysLeft: number;
}

export type NotificationEvent =
  | PaymentArrivedEvent
  | NewInvoiceEvent
  | InvoiceExpiresTomorrowEvent
  | InvoiceExpiredEvent
  | OrderCompletedEvent
  | DomainExpiresEvent;

export interface DiffOptions {
  /** Invoice ids the bot created itself: they are never announced as new. */
  readonly createdByBot: ReadonlySet<number>;
}

// ---- the rule ------------------------------------------------------------------------------

function byId<T extends { readonly id: number }>(a: T, b: T): number {
  return a.id - b.id;
}

/** The state to remember after seeing `lists`; `told` is kept from the previous state by `diff`. */
export function snapshotOf(lists: NotifyLists, told: readonly string[] = []): Snapshot {
  return {
    version: 1,
    invoices: lists.invoices
      .map((i) => ({ id: i.invoice_id, state: i.state, amount: i.amount, due: i.expiration_date }))
      .sort(byId),
    payments: [...new Set(lists.payments.map((p) => p.payment_id))].sort((a, b) => a - b),
    orders: lists.orders
      .map((o) => ({ id: o.order_id, state: o.state, completed: isCompleted(o) }))
      .sort(byId),
    domains: lists.domainOrders
      .map((d) => ({ id: d.order_id, expires: d.expiration_date ?? null }))
      .sort(byId),
    told: [...new Set(told)].sort(),
  };
}

function isCompleted(order: OrderItem): boolean {
  return order.completed || Boolean(order.complete_date);
}

/** Order number and domain by order id, from the lists of one poll. */
function orderRefs(lists: NotifyLists): (orderId: number) => OrderRef {
  const numbers = new Map(lists.orders.map((o) => [o.order_id, o.number]));
  const domains = new Map(lists.domainOrders.map((d) => [d.order_id, d.advanced?.domain ?? undefined]));
  for (const d of lists.domainOrders) if (!numbers.has(d.order_id)) numbers.set(d.order_id, d.number);
  return (id) => ({ id, number: numbers.get(id), domain: domains.get(id) ?? undefined });
}

/** The reminders due now (not yet filtered by what was told). */
function remindersDue(lists: NotifyLists, today: number): NotificationEvent[] {
  const events: NotificationEvent[] = [];
  const refOf = orderRefs(lists);
  const paidInvoices = new Set(lists.payments.map((p) => p.invoice_id));
  for (const invoice of lists.invoices) {
    const due = providerDay(invoice.expiration_date);
    // The day before its last day, and the day after it (told on that day only, like every reminder).
    if (due === undefined || Math.abs(due - today) !== 1) continue;
    if (invoice.state !== UNPAID_INVOICE_STATE || paidInvoices.has(invoice.invoice_id)) continue;
    const kind = due > today ? 'invoiceExpiresTomorrow' : 'invoiceExpired';
    events.push({
      kind,
      // The id ends with the day it is told on, so `told` keeps it through that day.
      id: `${kind}:${invoice.invoice_id}:${isoOfDay(due > today ? due : today)}`,
      invoiceId: invoice.invoice_id,
      invoiceNumber: invoice.invoice_number,
      order: refOf(invoice.order_id),
      amount: invoice.amount,
      currencyId: invoice.currency_id,
      expirationDate: invoice.expiration_date,
    });
  }
  for (const order of lists.domainOrders) {
    const expires = providerDay(order.expiration_date);
    if (expires === undefined || !order.expiration_date) continue;
    const daysLeft = expires - today;
    if (daysLeft < 0) continue;
    // The most urgent threshold reached; the larger ones it passed are covered by it.
    const threshold = [...DOMAIN_EXPIRY_THRESHOLDS].reverse().find((t) => daysLeft <= t);
    if (threshold === undefined) continue;
    events.push({
      kind: 'domainExpires',
      id: domainReminderId(order.order_id, threshold, expires),
      orderId: order.order_id,
      domain: order.advanced?.domain ?? undefined,
      expirationDate: order.expiration_date,
      threshold,
      daysLeft,
    });
  }
  return events;
}

function domainReminderId(orderId: number, threshold: DomainExpiryThreshold, expires: number): string {
  return `domainExpires:${orderId}:${threshold}:${isoOfDay(expires)}`;
}

/** Ids that count as told once `event` is told: a domain reminder also covers the larger thresholds. */
function toldBy(event: NotificationEvent): string[] {
  if (event.kind !== 'domainExpires') return [event.id];
  const expires = providerDay(event.expirationDate) ?? 0;
  return DOMAIN_EXPIRY_THRESHOLDS.filter((t) => t >= event.threshold).map((t) =>
    domainReminderId(event.orderId, t, expires),
  );
}

/** The ISO date a told id is about (its last segment). */
function toldDate(id: string): string {
  return id.slice(id.lastIndexOf(':') + 1);
}

function sortKey(event: NotificationEvent): number {
  switch (event.kind) {
    case 'paymentArrived':
      return event.paymentId;
    case 'newInvoice':
    case 'invoiceExpiresTomorrow':
    case 'invoiceExpired':
      return event.invoiceId;
    case 'orderCompleted':
    case 'domainExpires':
      return event.orderId;
  }
}

function compareEvents(a: NotificationEvent, b: NotificationEvent): number {
  return (
    NOTIFICATION_KINDS[a.kind].rank - NOTIFICATION_KINDS[b.kind].rank ||
    sortKey(a) - sortKey(b) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

/**
 * Compares one poll's lists with what was remembered. The first poll (`previous` undefined)
 * records silently, reminders due at that moment included. Events come in delivery order
 * (`NOTIFICATION_KINDS[kind].rank`, then id); `next` is what to remember, written together with
 * (or before) telling, since a caller tells each event id at most once per chat.
 */
export function diff(
  previous: Snapshot | undefined,
  lists: NotifyLists,
  now: Date,
  options: DiffOptions,
): { events: NotificationEvent[]; next: Snapshot } {
  const today = minskDay(now);
  const todayIso = isoOfDay(today);
  const reminders = remindersDue(lists, today);
  // Told marks are kept until the date they are about has passed, so a list glitch cannot re-tell.
  const told = new Set((previous?.told ?? []).filter((id) => toldDate(id) >= todayIso));

  if (previous === undefined) {
    for (const event of reminders) for (const id of toldBy(event)) told.add(id);
    return { events: [], next: snapshotOf(lists, [...told]) };
  }

  const events: NotificationEvent[] = [];
  const invoicesById = new Map(lists.invoices.map((i) => [i.invoice_id, i]));
  const refOf = orderRefs(lists);

  const seenPayments = new Set(previous.payments);
  for (const payment of lists.payments) {
    if (seenPayments.has(payment.payment_id)) continue;
    seenPayments.add(payment.payment_id);
    const invoice = invoicesById.get(payment.invoice_id);
    events.push({
      kind: 'paymentArrived',
      id: `paymentArrived:${payment.payment_id}`,
      paymentId: payment.payment_id,
      invoiceId: payment.invoice_id,
      invoiceNumber: invoice?.invoice_number,
      currencyId: invoice?.currency_id,
      order: invoice ? refOf(invoice.order_id) : undefined,
      amount: payment.amount,
      paymentDate: payment.payment_date,
    });
  }

  const seenInvoices = new Set(previous.invoices.map((i) => i.id));
  for (const invoice of lists.invoices) {
    if (seenInvoices.has(invoice.invoice_id)) continue;
    seenInvoices.add(invoice.invoice_id);
    if (options.createdByBot.has(invoice.invoice_id)) continue;
    events.push({
      kind: 'newInvoice',
      id: `newInvoice:${invoice.invoice_id}`,
      invoiceId: invoice.invoice_id,
      invoiceNumber: invoice.invoice_number,
      orderId: invoice.order_id,
      order: refOf(invoice.order_id),
      amount: invoice.amount,
      currencyId: invoice.currency_id,
      expirationDate: invoice.expiration_date,
    });
  }

  const completedBefore = new Set(previous.orders.filter((o) => o.completed).map((o) => o.id));
  for (const order of lists.orders) {
    if (!isCompleted(order) || completedBefore.has(order.order_id)) continue;
    completedBefore.add(order.order_id);
    events.push({
      kind: 'orderCompleted',
      id: `orderCompleted:${order.order_id}`,
      orderId: order.order_id,
      orderNumber: order.number,
      domain: refOf(order.order_id).domain,
      completeDate: order.complete_date ?? undefined,
    });
  }

  // A new invoice's message already gives its due date: no second message about it "tomorrow".
  const announced = new Set(events.flatMap((e) => (e.kind === 'newInvoice' ? [e.invoiceId] : [])));
  for (const event of reminders) {
    if (told.has(event.id)) continue;
    for (const id of toldBy(event)) told.add(id);
    if (event.kind === 'invoiceExpiresTomorrow' && announced.has(event.invoiceId)) continue;
    events.push(event);
  }

  events.sort(compareEvents);
  return { events, next: snapshotOf(lists, [...told]) };
}
