/*
 * «Счета»'s filter: a status chip, a period by the day of issue (Minsk days), and the search as
 * typed (core's searchInvoices), over the Mini App's invoice entries.
 */
import { describe, expect, it } from 'vitest';
import { filterInvoices, type ListedInvoice, periodSpan } from '../../src/core/invoice-filter.js';

// 2026-03-01 01:00 Minsk is still 28 February in UTC: the month is Minsk's.
const now = new Date('2026-02-28T22:00:00Z');

const invoice = (
  id: number,
  created: string | null,
  status: ListedInvoice['status'],
  more = {},
): ListedInvoice => ({
  id,
  number: `СФ-2026-${5000 + id}`,
  orderId: 100 + id,
  created,
  status,
  ...more,
});

const invoices = [
  invoice(1, '2026-01-15', 'paid', { domain: 'shop.by', customer: 'ООО «Ромашка»' }),
  invoice(2, '2026-02-27', 'expired', { domain: 'пример.бел' }),
  invoice(3, '2026-03-01', 'unpaid', { domain: 'blog.by', orderNumber: 'ЗК-2026-001008' }),
  invoice(4, null, 'other'),
  invoice(5, '2025-12-31', 'unpaid', { customer: 'Иванов Иван' }),
];

const ids = (list: ListedInvoice[]) => list.map((i) => i.id);
const all = { kind: 'all' } as const;

describe('periodSpan', () => {
  it('this month and last month are Minsk months, across a year', () => {
    expect(periodSpan({ kind: 'month' }, now)).toEqual({ from: '2026-03-01', to: '2026-03-31' });
    expect(periodSpan({ kind: 'lastMonth' }, now)).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(periodSpan({ kind: 'lastMonth' }, new Date('2026-01-10T10:00:00Z'))).toEqual({
      from: '2025-12-01',
      to: '2025-12-31',
    });
  });
  it('a custom span keeps what is given, the wrong way round put right', () => {
    expect(periodSpan({ kind: 'custom', from: '2026-02-01' }, now)).toEqual({ from: '2026-02-01' });
    expect(periodSpan({ kind: 'custom', from: '2026-02-10', to: '2026-02-01' }, now)).toEqual({
      from: '2026-02-01',
      to: '2026-02-10',
    });
    expect(periodSpan({ kind: 'custom', from: '', to: 'soon' }, now)).toEqual({});
  });
});

describe('filterInvoices', () => {
  it('the chips keep their status (owed: unpaid and overdue), newest first', () => {
    expect(ids(filterInvoices(invoices, { filter: 'all', period: all, text: '' }, now))).toEqual([
      3, 2, 1, 5, 4,
    ]);
    // «К оплате»: everything still owed, the overdue included.
    expect(ids(filterInvoices(invoices, { filter: 'unpaid', period: all, text: '' }, now))).toEqual([
      3, 2, 5,
    ]);
    expect(ids(filterInvoices(invoices, { filter: 'expired', period: all, text: '' }, now))).toEqual([2]);
    expect(ids(filterInvoices(invoices, { filter: 'paid', period: all, text: '' }, now))).toEqual([1]);
  });
  it('a period keeps the days of issue within it; an unreadable day only in all time', () => {
    const month = { filter: 'all', period: { kind: 'month' }, text: '' } as const;
    expect(ids(filterInvoices(invoices, month, now))).toEqual([3]);
    const last = { filter: 'all', period: { kind: 'lastMonth' }, text: '' } as const;
    expect(ids(filterInvoices(invoices, last, now))).toEqual([2]);
    const span = {
      filter: 'all',
      period: { kind: 'custom', from: '2025-12-31', to: '2026-01-15' },
      text: '',
    } as const;
    expect(ids(filterInvoices(invoices, span, now))).toEqual([1, 5]);
  });
  it('searches as typed: a domain in either form, the order number, the customer in part', () => {
    const find = (text: string) => ids(filterInvoices(invoices, { filter: 'all', period: all, text }, now));
    expect(find('shop')).toEqual([1]);
    expect(find('xn--e1afmkfd.xn--90ais')).toEqual([2]);
    expect(find('пример')).toEqual([2]);
    expect(find('зк-2026-001008')).toEqual([3]);
    expect(find('иван')).toEqual([5]);
    expect(find('СФ-2026-5002')).toEqual([2]);
    expect(find('2026-500')).toEqual([3, 2, 1, 5, 4]);
  });
  it('the chip, the period and the text together', () => {
    const query = { filter: 'unpaid', period: { kind: 'custom', to: '2026-01-01' }, text: 'иван' } as const;
    expect(ids(filterInvoices(invoices, query, now))).toEqual([5]);
  });
});
