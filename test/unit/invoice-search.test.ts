import { describe, expect, it } from 'vitest';
import {
  findUnpaidInvoices,
  type InvoiceOrderFacts,
  invoiceNumberKey,
  invoiceStatus,
  mayBeOrderNumber,
  searchInvoices,
  UNPAID_INVOICE_STATE,
} from '../../src/core/invoice-search.js';

const invoice = (id: number, orderId: number, created: string, state = UNPAID_INVOICE_STATE) => ({
  invoice_id: id,
  invoice_number: `СФ-2026-${id}`,
  order_id: orderId,
  creation_date: created,
  state,
});

const INVOICES = [
  invoice(5001, 1001, '15.01.2026', 'Paid'),
  invoice(5008, 1008, '22.08.2026'),
  invoice(5010, 1010, '12.11.2026'),
  invoice(50080, 1020, '01.12.2026'),
  invoice(5002, 1002, '03.03.2026'),
];
const ORDERS = new Map<number, InvoiceOrderFacts>([
  [1008, { domain: 'shop.com.by', number: 'ЗК-2026-001008' }],
  [1010, { domain: 'мойсайт.рф' }],
  [1002, { number: 'ЗК-2026-001002' }],
]);
const find = (query: string, limit = 20) =>
  findUnpaidInvoices(INVOICES, ORDERS, query, limit).map((i) => i.invoice_id);

describe('invoiceNumberKey', () => {
  it('ignores case, spaces, a leading № and dash variants', () => {
    expect(invoiceNumberKey('№ СФ–2026—5008')).toBe(invoiceNumberKey('сф-2026-5008'));
    expect(invoiceNumberKey('СФ-2026-5008')).not.toBe(invoiceNumberKey('СФ-2026-5009'));
  });
});

describe('findUnpaidInvoices', () => {
  it('lists only unpaid invoices, newest issued first, at most the limit', () => {
    expect(find('')).toEqual([50080, 5010, 5008, 5002]);
    expect(find('  ', 2)).toEqual([50080, 5010]);
  });

  it('a whole invoice number finds that invoice alone, not a longer number containing it', () => {
    expect(find('СФ-2026-5008')).toEqual([5008]);
    expect(find('сф-2026-50080')).toEqual([50080]);
  });

  it('a part of a number finds every invoice with it, as the partner types', () => {
    expect(find('2026-500')).toEqual([50080, 5008, 5002]);
  });

  it('an order id or an order number finds the order’s invoices', () => {
    expect(find('1008')).toEqual([5008]);
    expect(find('зк-2026-001002')).toEqual([5002]);
  });

  it('a domain, whole or in part, in either form, finds the invoices of its order', () => {
    expect(find('SHOP.com.by')).toEqual([5008]);
    expect(find('shop')).toEqual([5008]);
    expect(find('мойсайт')).toEqual([5010]);
    expect(find('xn--80arbjktj.xn--p1ai')).toEqual([5010]);
    expect(find('unknown.by')).toEqual([]);
  });

  it('never finds a paid invoice', () => {
    expect(find('СФ-2026-5001')).toEqual([]);
    expect(find('1001')).toEqual([]);
  });
});

describe('mayBeOrderNumber', () => {
  it('is letters with digits, not a domain or a bare id', () => {
    expect(mayBeOrderNumber('ЗК-2026-001008')).toBe(true);
    expect(mayBeOrderNumber('1008')).toBe(false);
    expect(mayBeOrderNumber('shop2.by')).toBe(false);
    expect(mayBeOrderNumber('shop')).toBe(false);
  });
});

describe('searchInvoices (the Mini App’s «Счета»)', () => {
  const facts = new Map<number, InvoiceOrderFacts>([
    [1001, { domain: 'mysite.by', customer: 'ООО «Ромашка»' }],
    [1008, { domain: 'shop.by', customer: 'Иванов Иван' }],
  ]);
  const factsOf = (i: { order_id: number }) => facts.get(i.order_id);

  it('searches every state, newest first, and names a customer in part', () => {
    expect(searchInvoices(INVOICES, factsOf, '').map((i) => i.invoice_id)).toEqual([
      50080, 5010, 5008, 5002, 5001,
    ]);
    expect(searchInvoices(INVOICES, factsOf, 'mysite.by').map((i) => i.invoice_id)).toEqual([5001]);
    expect(searchInvoices(INVOICES, factsOf, 'ромаш').map((i) => i.invoice_id)).toEqual([5001]);
    expect(searchInvoices(INVOICES, factsOf, 'иванов').map((i) => i.invoice_id)).toEqual([5008]);
    expect(searchInvoices(INVOICES, factsOf, 'нет такого')).toEqual([]);
  });
});

describe('invoiceStatus', () => {
  const now = new Date('2026-11-29T10:00:00Z');
  it('reads paid, unpaid, expired after its last day (Minsk), and anything else as other', () => {
    expect(invoiceStatus({ state: 'Paid', expiration_date: '01.01.2026' }, now)).toBe('paid');
    expect(invoiceStatus({ state: UNPAID_INVOICE_STATE, expiration_date: '29.11.2026' }, now)).toBe('unpaid');
    expect(invoiceStatus({ state: UNPAID_INVOICE_STATE, expiration_date: '28.11.2026' }, now)).toBe(
      'expired',
    );
    expect(invoiceStatus({ state: UNPAID_INVOICE_STATE, expiration_date: 'soon' }, now)).toBe('unpaid');
    expect(invoiceStatus({ state: 'Cancelled', expiration_date: '01.12.2026' }, now)).toBe('other');
  });
});
