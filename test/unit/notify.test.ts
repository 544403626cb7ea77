import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type DomainOrderItem,
  diff,
  type InvoiceItem,
  NOTIFICATION_KIND_LIST,
  NOTIFICATION_KINDS,
  type NotificationEvent,
  type NotifyLists,
  type OrderItem,
  type PaymentItem,
  type Snapshot,
  snapshotOf,
} from '../../src/core/notify.js';
import { groupForDelivery, isQuietHour } from '../../src/core/notify-delivery.js';

// ---- builders ---------------------------------------------------------------------------------

function invoice(id: number, over: Partial<InvoiceItem> = {}): InvoiceItem {
  return {
    invoice_id: id,
    invoice_number: `СФ-2026-${id}`,
    order_id: 1000 + id,
    expiration_date: '31.12.2026',
    amount: 12.5,
    currency_id: 933,
    state: 'WaitingForPayment',
    ...over,
  };
}

function payment(id: number, invoiceId: number, over: Partial<PaymentItem> = {}): PaymentItem {
  return { payment_id: id, invoice_id: invoiceId, payment_date: '10.03.2026', amount: 12.5, ...over };
}

function order(id: number, over: Partial<OrderItem> = {}): OrderItem {
  return {
    order_id: id,
    number: `З-${id}`,
    state: 'NewOrder',
    completed: false,
    complete_date: null,
    ...over,
  };
}

function domainOrder(id: number, expires: string | null, domain = `site${id}.by`): DomainOrderItem {
  return { order_id: id, number: `З-${id}`, expiration_date: expires, advanced: { domain } };
}

function lists(over: Partial<NotifyLists> = {}): NotifyLists {
  return { invoices: [], payments: [], orders: [], domainOrders: [], ...over };
}

const none = { createdByBot: new Set<number>() };

/** 10.03.2026 12:00 in Minsk (09:00 UTC). */
const NOW = new Date('2026-03-10T09:00:00Z');

/** `DD.MM.YYYY` of the Minsk day `days` after NOW's. */
function minskDate(days: number): string {
  const d = new Date(Date.UTC(2026, 2, 10 + days));
  const dd = String(d.getUTCDate()).padStart(2, '0');
  const mm = String(d.getUTCMonth() + 1).padStart(2, '0');
  return `${dd}.${mm}.${d.getUTCFullYear()}`;
}

function at(iso: string): Date {
  return new Date(iso);
}

function ids(events: readonly NotificationEvent[]): string[] {
  return events.map((e) => e.id);
}

/** Runs diffs over successive (lists, now) polls, the first one silent; returns each poll's events. */
function polls(steps: readonly [NotifyLists, Date][], options = none): NotificationEvent[][] {
  let snapshot: Snapshot | undefined;
  const out: NotificationEvent[][] = [];
  for (const [l, now] of steps) {
    const { events, next } = diff(snapshot, l, now, options);
    out.push(events);
    snapshot = JSON.parse(JSON.stringify(next)) as Snapshot;
  }
  return out;
}

// ---- the table ----------------------------------------------------------------------------------

describe('NOTIFICATION_KINDS', () => {
  it('is one closed table with distinct ranks, every kind on by default', () => {
    expect(NOTIFICATION_KIND_LIST).toEqual([
      'paymentArrived',
      'orderCompleted',
      'newInvoice',
      'invoiceExpiresTomorrow',
      'invoiceExpired',
      'domainExpires',
    ]);
    const ranks = Object.values(NOTIFICATION_KINDS).map((k) => k.rank);
    expect(new Set(ranks).size).toBe(ranks.length);
    expect(Object.values(NOTIFICATION_KINDS).every((k) => k.defaultOn)).toBe(true);
  });
});

// ---- diff -----------------------------------------------------------------------------------

describe('diff', () => {
  it('records the first poll silently, reminders due at that moment included', () => {
    const first = lists({
      invoices: [invoice(1, { expiration_date: minskDate(1) })],
      payments: [payment(7, 1)],
      orders: [order(5, { completed: true, complete_date: '01.03.2026' })],
      domainOrders: [domainOrder(9, minskDate(5))],
    });
    const { events, next } = diff(undefined, first, NOW, none);
    expect(events).toEqual([]);
    expect(next.payments).toEqual([7]);
    // Nothing new on the next poll either: the reminders due at connect time count as told.
    expect(diff(next, first, new Date(NOW.getTime() + 300_000), none).events).toEqual([]);
  });

  it('tells a payment that arrived, exactly once across two diffs', () => {
    const before = lists({ invoices: [invoice(1)] });
    const after = lists({ invoices: [invoice(1, { state: 'Paid' })], payments: [payment(7, 1)] });
    const [, second, third] = polls([
      [before, NOW],
      [after, NOW],
      [after, NOW],
    ]);
    expect(second).toEqual([
      {
        kind: 'paymentArrived',
        id: 'paymentArrived:7',
        paymentId: 7,
        invoiceId: 1,
        invoiceNumber: 'СФ-2026-1',
        currencyId: 933,
        amount: 12.5,
        paymentDate: '10.03.2026',
        // The invoice's order (1001) is in no list of this poll: known by id only.
        order: { id: 1001, number: undefined, domain: undefined },
      },
    ]);
    expect(third).toEqual([]);
  });

  it('tells a new invoice, but not one the bot created', () => {
    const after = lists({ invoices: [invoice(1), invoice(2), invoice(3)] });
    const [, events] = polls(
      [
        [lists({ invoices: [invoice(1)] }), NOW],
        [after, NOW],
      ],
      { createdByBot: new Set([3]) },
    );
    expect(ids(events ?? [])).toEqual(['newInvoice:2']);
    expect(events?.[0]).toMatchObject({ kind: 'newInvoice', invoiceNumber: 'СФ-2026-2', orderId: 1002 });
  });

  it('tells an unpaid invoice that expires tomorrow (Minsk), once', () => {
    const due = lists({ invoices: [invoice(1, { expiration_date: '12.03.2026' })] });
    const [a, b, c, d] = polls([
      [due, at('2026-03-10T12:00:00Z')], // first poll: the 10th, due in 2 days
      [due, at('2026-03-10T20:59:00Z')], // 23:59 in Minsk on the 10th: still 2 days
      [due, at('2026-03-10T21:00:00Z')], // 00:00 in Minsk on the 11th: tomorrow
      [due, at('2026-03-11T15:00:00Z')],
    ]);
    expect([a, b]).toEqual([[], []]);
    expect(ids(c ?? [])).toEqual(['invoiceExpiresTomorrow:1:2026-03-12']);
    expect(c?.[0]).toMatchObject({ invoiceNumber: 'СФ-2026-1', expirationDate: '12.03.2026' });
    expect(d).toEqual([]);
  });

  it('tells an unpaid invoice that expired, once, on the day after its last day (Minsk)', () => {
    const due = lists({ invoices: [invoice(1, { expiration_date: '12.03.2026' })] });
    const paid = lists({
      invoices: [invoice(2, { expiration_date: '12.03.2026' })],
      payments: [payment(7, 2)],
    });
    const [a, b, c, d, e] = polls([
      [due, at('2026-03-11T22:00:00Z')], // first poll: 01:00 on the 12th in Minsk, its last day
      [due, at('2026-03-12T20:59:00Z')], // 23:59 in Minsk on the 12th: still payable
      [due, at('2026-03-12T21:00:00Z')], // 00:00 in Minsk on the 13th: expired
      [due, at('2026-03-13T15:00:00Z')],
      [due, at('2026-03-14T09:00:00Z')], // told on the 13th; never again
    ]);
    expect([a, b]).toEqual([[], []]);
    expect(ids(c ?? [])).toEqual(['invoiceExpired:1:2026-03-13']);
    expect(c?.[0]).toMatchObject({ invoiceNumber: 'СФ-2026-1', expirationDate: '12.03.2026' });
    expect([d, e]).toEqual([[], []]);
    const [, paidEvents] = polls([
      [paid, at('2026-03-12T10:00:00Z')],
      [paid, at('2026-03-13T10:00:00Z')],
    ]);
    expect(paidEvents).toEqual([]);
  });

  it('does not remind of an invoice that is paid or not waiting for payment', () => {
    const before = lists({ invoices: [invoice(1), invoice(2), invoice(3)] });
    const tomorrow = minskDate(1);
    const after = lists({
      invoices: [
        invoice(1, { expiration_date: tomorrow }),
        invoice(2, { expiration_date: tomorrow, state: 'Paid' }),
        invoice(3, { expiration_date: tomorrow }),
      ],
      payments: [payment(7, 3)],
    });
    const [, events] = polls([
      [before, NOW],
      [after, NOW],
    ]);
    expect(ids(events ?? [])).toEqual(['paymentArrived:7', 'invoiceExpiresTomorrow:1:2026-03-11']);
  });

  it('tells an order that was completed, once', () => {
    const [, second, third] = polls([
      [lists({ orders: [order(5), order(6)] }), NOW],
      [lists({ orders: [order(5, { completed: true, complete_date: '10.03.2026' }), order(6)] }), NOW],
      [lists({ orders: [order(5, { completed: true, complete_date: '10.03.2026' }), order(6)] }), NOW],
    ]);
    expect(second).toEqual([
      {
        kind: 'orderCompleted',
        id: 'orderCompleted:5',
        orderId: 5,
        orderNumber: 'З-5',
        completeDate: '10.03.2026',
      },
    ]);
    expect(third).toEqual([]);
  });

  it('reminds of an expiring domain at 30, 7 and 1 days, each once', () => {
    const domains = lists({ domainOrders: [domainOrder(9, '30.04.2026')] });
    const days = (iso: string) => at(`${iso}T09:00:00Z`);
    const steps: [NotifyLists, Date][] = [
      [domains, days('2026-03-01')], // 60 days: silent first poll
      [domains, days('2026-03-30')], // 31 days
      [domains, days('2026-03-31')], // 30
      [domains, days('2026-04-01')], // 29
      [domains, days('2026-04-23')], // 7
      [domains, days('2026-04-23')],
      [domains, days('2026-04-28')], // 2
      [domains, days('2026-04-29')], // 1
      [domains, days('2026-04-30')], // 0
      [domains, days('2026-05-01')], // expired
    ];
    const told = polls(steps).map(ids);
    expect(told).toEqual([
      [],
      [],
      ['domainExpires:9:30:2026-04-30'],
      [],
      ['domainExpires:9:7:2026-04-30'],
      [],
      [],
      ['domainExpires:9:1:2026-04-30'],
      [],
      [],
    ]);
    const all = polls(steps).flat();
    expect(all.map((e) => e.kind === 'domainExpires' && [e.threshold, e.daysLeft, e.domain])).toEqual([
      [30, 30, 'site9.by'],
      [7, 7, 'site9.by'],
      [1, 1, 'site9.by'],
    ]);
  });

  it('tells only the most urgent threshold when the larger ones were missed', () => {
    const [, events, later] = polls([
      [lists(), NOW],
      [lists({ domainOrders: [domainOrder(9, minskDate(5))] }), NOW],
      [lists({ domainOrders: [domainOrder(9, minskDate(5))] }), at('2026-03-11T09:00:00Z')],
    ]);
    expect(ids(events ?? [])).toEqual(['domainExpires:9:7:2026-03-15']);
    expect(later).toEqual([]);
  });

  it('reminds again after a renewal moves the expiration date', () => {
    const [, , renewed] = polls([
      [lists({ domainOrders: [domainOrder(9, minskDate(40))] }), NOW],
      [lists({ domainOrders: [domainOrder(9, minskDate(6))] }), NOW],
      [lists({ domainOrders: [domainOrder(9, minskDate(25))] }), NOW],
    ]);
    expect(ids(renewed ?? [])).toEqual(['domainExpires:9:30:2026-04-04']);
  });

  it('does not re-tell a reminder when a domain disappears from one poll and comes back', () => {
    const present = lists({ domainOrders: [domainOrder(9, minskDate(20))] });
    const [, , , back] = polls([
      [lists({ domainOrders: [domainOrder(9, minskDate(40))] }), NOW],
      [present, NOW],
      [lists(), NOW],
      [present, NOW],
    ]);
    expect(back).toEqual([]);
  });

  it('ignores domain orders without a usable expiration date', () => {
    const [, events] = polls([
      [lists({ domainOrders: [domainOrder(1, null)] }), NOW],
      [
        lists({ domainOrders: [domainOrder(1, null), domainOrder(2, 'soon'), domainOrder(3, minskDate(3))] }),
        NOW,
      ],
    ]);
    expect(ids(events ?? [])).toEqual(['domainExpires:3:7:2026-03-13']);
  });

  it('orders events by kind, then by id', () => {
    const [, events] = polls([
      [lists({ invoices: [invoice(1)], orders: [order(5), order(4)] }), NOW],
      [
        lists({
          invoices: [invoice(1), invoice(3), invoice(2)],
          payments: [payment(9, 1), payment(8, 1)],
          orders: [
            order(5, { completed: true, complete_date: '10.03.2026' }),
            order(4, { completed: true, complete_date: '10.03.2026' }),
          ],
          domainOrders: [domainOrder(12, minskDate(1)), domainOrder(11, minskDate(20))],
        }),
        NOW,
      ],
    ]);
    expect(ids(events ?? [])).toEqual([
      'paymentArrived:8',
      'paymentArrived:9',
      'orderCompleted:4',
      'orderCompleted:5',
      'newInvoice:2',
      'newInvoice:3',
      'domainExpires:11:30:2026-03-30',
      'domainExpires:12:1:2026-03-11',
    ]);
  });

  it('keeps no names, numbers or domains in the snapshot', () => {
    const { next } = diff(
      undefined,
      lists({
        invoices: [invoice(1)],
        payments: [payment(7, 1)],
        orders: [order(5)],
        domainOrders: [domainOrder(9, '30.04.2026', 'secret.by')],
      }),
      NOW,
      none,
    );
    const text = JSON.stringify(next);
    expect(text).not.toMatch(/СФ|З-|secret/);
    expect(next).toEqual({
      version: 1,
      invoices: [{ id: 1, state: 'WaitingForPayment', amount: 12.5, due: '31.12.2026' }],
      payments: [7],
      orders: [{ id: 5, state: 'NewOrder', completed: false }],
      domains: [{ id: 9, expires: '30.04.2026' }],
      told: [],
    });
  });
});

// ---- property -------------------------------------------------------------------------------

const dateArb = fc
  .record({ day: fc.integer({ min: -3, max: 45 }), raw: fc.constantFrom(null, 'garbage', undefined) })
  .map(({ day, raw }) => (raw === undefined ? minskDate(day) : raw));

const listsArb: fc.Arbitrary<NotifyLists> = fc.record({
  invoices: fc
    .uniqueArray(
      fc.record({
        id: fc.integer({ min: 1, max: 50 }),
        day: fc.integer({ min: -2, max: 5 }),
        state: fc.constantFrom('WaitingForPayment', 'Paid', 'Cancelled'),
        amount: fc.double({ min: 0, max: 1e6, noNaN: true }),
      }),
      { selector: (i) => i.id, maxLength: 8 },
    )
    .map((items) =>
      items.map((i) =>
        invoice(i.id, { expiration_date: minskDate(i.day), state: i.state, amount: i.amount }),
      ),
    ),
  payments: fc
    .uniqueArray(
      fc.record({ id: fc.integer({ min: 1, max: 50 }), invoice: fc.integer({ min: 1, max: 50 }) }),
      { selector: (p) => p.id, maxLength: 8 },
    )
    .map((items) => items.map((p) => payment(p.id, p.invoice))),
  orders: fc
    .uniqueArray(fc.record({ id: fc.integer({ min: 1, max: 50 }), completed: fc.boolean() }), {
      selector: (o) => o.id,
      maxLength: 8,
    })
    .map((items) =>
      items.map((o) =>
        order(o.id, { completed: o.completed, complete_date: o.completed ? '01.03.2026' : null }),
      ),
    ),
  domainOrders: fc
    .uniqueArray(fc.record({ id: fc.integer({ min: 1, max: 50 }), expires: dateArb }), {
      selector: (d) => d.id,
      maxLength: 8,
    })
    .map((items) => items.map((d) => domainOrder(d.id, d.expires))),
});

describe('diff (property)', () => {
  it('tells nothing when the same lists are diffed twice, and next round-trips through JSON', () => {
    fc.assert(
      fc.property(
        fc.option(listsArb, { nil: undefined }),
        listsArb,
        fc.integer({ min: 0, max: 40 * 24 * 60 }),
        fc.uniqueArray(fc.integer({ min: 1, max: 50 }), { maxLength: 5 }),
        (before, current, minutes, created) => {
          const now = new Date(NOW.getTime() + minutes * 60_000);
          const options = { createdByBot: new Set(created) };
          const previous = before === undefined ? undefined : diff(undefined, before, NOW, options).next;
          const first = diff(previous, current, now, options);
          expect(JSON.parse(JSON.stringify(first.next))).toEqual(first.next);
          const again = diff(first.next, current, now, options);
          expect(again.events).toEqual([]);
          expect(again.next).toEqual(first.next);
          // Every id is told at most once in one diff, and events are in delivery order.
          expect(new Set(ids(first.events)).size).toBe(first.events.length);
          const ranks = first.events.map((e) => NOTIFICATION_KINDS[e.kind].rank);
          expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
        },
      ),
    );
  });

  it('snapshotOf is independent of list order', () => {
    fc.assert(
      fc.property(listsArb, (l) => {
        const reversed: NotifyLists = {
          invoices: [...l.invoices].reverse(),
          payments: [...l.payments].reverse(),
          orders: [...l.orders].reverse(),
          domainOrders: [...l.domainOrders].reverse(),
        };
        expect(snapshotOf(reversed)).toEqual(snapshotOf(l));
      }),
    );
  });
});

// ---- delivery -------------------------------------------------------------------------------

describe('what an event names', () => {
  it('the order by number and, for a domain order, the domain; a new invoice is not also "due tomorrow"', () => {
    const before = lists({
      orders: [{ order_id: 1001, number: 'ЗК-1001', state: 'NewOrder', completed: false }],
    });
    const due = '11.03.2026';
    const after = lists({
      invoices: [invoice(1, { expiration_date: due })],
      orders: [{ order_id: 1001, number: 'ЗК-1001', state: 'NewOrder', completed: false }],
      domainOrders: [
        { order_id: 1001, number: 'ЗК-1001', expiration_date: null, advanced: { domain: 'shop.by' } },
      ],
    });
    const [, events] = polls([
      [before, NOW],
      [after, NOW],
    ]);
    expect(events).toEqual([
      expect.objectContaining({
        kind: 'newInvoice',
        order: { id: 1001, number: 'ЗК-1001', domain: 'shop.by' },
      }),
    ]);
  });
});

describe('groupForDelivery', () => {
  const event = (n: number): NotificationEvent => ({
    kind: 'orderCompleted',
    id: `orderCompleted:${n}`,
    orderId: n,
    orderNumber: `З-${n}`,
    domain: undefined,
    completeDate: undefined,
  });
  const many = (n: number) => Array.from({ length: n }, (_, i) => event(i + 1));

  it('sends up to 3 events one by one and more than 3 as one digest', () => {
    expect(groupForDelivery([], { digestOver: 3 })).toEqual([]);
    expect(groupForDelivery(many(3), { digestOver: 3 })).toEqual(
      many(3).map((e) => ({ kind: 'single', event: e })),
    );
    expect(groupForDelivery(many(4), { digestOver: 3 })).toEqual([{ kind: 'digest', events: many(4) }]);
  });
});

describe('isQuietHour', () => {
  const minsk = (hh: number, mm = 0) => new Date(Date.UTC(2026, 2, 10, hh - 3, mm));

  it('holds 22-8 in Minsk time, wrapping midnight', () => {
    const quiet = { from: 22, to: 8 };
    expect(isQuietHour(minsk(21, 59), quiet)).toBe(false);
    expect(isQuietHour(minsk(22), quiet)).toBe(true);
    expect(isQuietHour(minsk(23, 30), quiet)).toBe(true);
    expect(isQuietHour(minsk(0), quiet)).toBe(true);
    expect(isQuietHour(minsk(2), quiet)).toBe(true); // 23:00 UTC the day before
    expect(isQuietHour(minsk(7, 59), quiet)).toBe(true);
    expect(isQuietHour(minsk(8), quiet)).toBe(false);
    expect(isQuietHour(minsk(12), quiet)).toBe(false);
  });

  it('holds a range within one day, and nothing when from equals to', () => {
    expect(isQuietHour(minsk(13), { from: 13, to: 15 })).toBe(true);
    expect(isQuietHour(minsk(15), { from: 13, to: 15 })).toBe(false);
    expect(isQuietHour(minsk(3), { from: 8, to: 8 })).toBe(false);
    expect(isQuietHour(minsk(23), { from: 20, to: 24 })).toBe(true);
  });

  it('refuses hours outside a day', () => {
    expect(() => isQuietHour(NOW, { from: 25, to: 8 })).toThrow(RangeError);
    expect(() => isQuietHour(NOW, { from: 22, to: 8.5 })).toThrow(RangeError);
  });
});
