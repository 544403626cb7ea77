import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatDate } from '../../src/sandbox/dates.js';
import { startKeptSandbox } from '../../src/sandbox/persist.js';
import { ControlError, type Sandbox, startSandbox } from '../../src/sandbox/server.js';

interface InvoiceItem {
  invoice_id: number;
  invoice_number: string;
  order_id: number;
  creation_date: string;
  expiration_date: string;
  amount: number;
  currency_id: number;
  state: string;
}
interface PaymentItem {
  payment_id: number;
  invoice_id: number;
  payment_date: string;
  amount: number;
}
interface OrderItem {
  order_id: number;
  state: string;
  order_datetime: string;
  complete_date: string | null;
  expiration_date: string | null;
  paid: boolean;
  completed: boolean;
  advanced?: Record<string, unknown>;
}

let sb: Sandbox;
const running: Sandbox[] = [];

beforeEach(async () => {
  sb = await startSandbox({ port: 0 });
  running.push(sb);
});

afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

/** A control call: no token, JSON body when given. */
async function control(path: string, body?: unknown, raw?: string) {
  const response = await fetch(`${sb.url}${path}`, {
    method: 'POST',
    ...(body === undefined && raw === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: raw ?? JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

async function api<T>(path: string, sandbox = sb): Promise<T> {
  const separator = path.includes('?') ? '&' : '?';
  const response = await fetch(`${sandbox.url}${path}${separator}version=1.0`, {
    headers: { 'x-api-token': sandbox.token },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

const invoice = async (id: number, sandbox = sb) =>
  (await api<{ invoices: InvoiceItem[] }>(`/v1/billing/invoices?invoice_id=${id}`, sandbox)).invoices[0];
const payments = async (invoiceId: number, sandbox = sb) =>
  (await api<{ payments: PaymentItem[] }>(`/v1/billing/payments?invoice_id=${invoiceId}`, sandbox)).payments;
const order = async (id: number, sandbox = sb) =>
  (await api<{ orders: OrderItem[] }>('/v1/orders', sandbox)).orders.find((o) => o.order_id === id);
const domainOrder = async (id: number) =>
  (await api<{ orders: OrderItem[] }>('/v1/orders/domains')).orders.find((o) => o.order_id === id);

/** Today in Minsk, as the sandbox writes it (retried around midnight by comparing both sides). */
const today = () => formatDate(new Date());

describe('POST /__sandbox/invoices/{id}/pay', () => {
  it('pays the full amount today, without a token; the API lists the payment and the paid invoice', async () => {
    const before = await invoice(5002);
    expect(before?.state).toBe('WaitingForPayment');
    expect(await payments(5002)).toEqual([]);

    const paid = await control('/__sandbox/invoices/5002/pay');
    expect(paid.status).toBe(200);
    expect(paid.json).toEqual({
      payment_id: 7009,
      invoice_id: 5002,
      payment_date: today(),
      amount: before?.amount,
    });

    expect((await invoice(5002))?.state).toBe('Paid');
    expect(await payments(5002)).toEqual([
      { payment_id: 7009, invoice_id: 5002, payment_date: today(), amount: before?.amount },
    ]);
    expect((await order(1002))?.paid).toBe(true);
    // The seeded payments are untouched; the new one is listed last.
    const all = (await api<{ payments: PaymentItem[] }>('/v1/billing/payments')).payments;
    expect(all.map((p) => p.payment_id)).toEqual([7001, 7002, 7003, 7004, 7005, 7006, 7007, 7008, 7009]);
    // Control calls are not in the request log.
    expect(sb.requests.some((r) => r.path.startsWith('/__sandbox/'))).toBe(false);
  });

  it('refuses a paid invoice (409), an unknown or foreign one (404) and a bad id (400)', async () => {
    expect(await control('/__sandbox/invoices/5001/pay')).toEqual({
      status: 409,
      json: { message: 'invoice 5001 is already paid' },
    });
    expect(await control('/__sandbox/invoices/5999/pay')).toEqual({
      status: 404,
      json: { message: 'invoice 5999 not found' },
    });
    expect((await control('/__sandbox/invoices/9101/pay')).status).toBe(404);
    const bad = await control('/__sandbox/invoices/abc/pay');
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ message: '"invoice id" must be a positive integer' });
    // GET: no such call (the token-guarded control paths answer it, as any unknown one).
    const get = await fetch(`${sb.url}/__sandbox/invoices/5002/pay`, {
      headers: { 'x-api-token': sb.token },
    });
    expect(get.status).toBe(404);
    expect((await invoice(5002))?.state).toBe('WaitingForPayment');
  });
});

describe('POST /__sandbox/orders/{id}/complete', () => {
  it('makes the order Active (the seed word for a completed order), completed today', async () => {
    const done = await control('/__sandbox/orders/1008/complete');
    expect(done.status).toBe(200);
    const listed = await domainOrder(1008);
    expect(listed).toMatchObject({ state: 'Active', completed: true, complete_date: today() });
    expect(listed?.expiration_date).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);
    expect(listed?.advanced?.registered).toBe(true);
    expect(done.json).toEqual({
      order_id: 1008,
      state: 'Active',
      complete_date: today(),
      expiration_date: listed?.expiration_date,
    });
    // The seed's active orders use the same word.
    expect((await order(1001))?.state).toBe('Active');
  });

  it('refuses a completed order (409), an unknown or foreign one (404) and a bad id (400)', async () => {
    expect((await control('/__sandbox/orders/1001/complete')).status).toBe(409);
    expect((await control('/__sandbox/orders/4242/complete')).status).toBe(404);
    expect((await control('/__sandbox/orders/9001/complete')).status).toBe(404);
    expect((await control('/__sandbox/orders/-1/complete')).status).toBe(400);
    expect((await control('/__sandbox/orders/12x/complete')).status).toBe(400);
  });
});

describe('POST /__sandbox/invoices', () => {
  it('makes a renewal invoice for the order, WaitingForPayment, with its short link', async () => {
    const made = await control('/__sandbox/invoices', { order_id: 1006 });
    expect(made.status).toBe(200);
    const { invoice_id, invoice_number, invoice_url } = made.json as {
      invoice_id: number;
      invoice_number: string;
      invoice_url: string;
    };
    expect(invoice_id).toBe(5101);
    const listed = await invoice(5101);
    expect(listed).toMatchObject({
      invoice_id: 5101,
      invoice_number,
      order_id: 1006,
      creation_date: today(),
      amount: 36, // BY renewal, 1 year
      currency_id: 1,
      state: 'WaitingForPayment',
    });
    expect(invoice_number).toBe(`СФ-${today().slice(6)}-5101`);
    expect((await api<{ url: string }>('/v1/billing/invoices/5101/url')).url).toBe(invoice_url);
    const page = await fetch(invoice_url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(invoice_number);
    // Listed under the order too.
    const ofOrder = (await api<{ invoices: InvoiceItem[] }>('/v1/billing/invoices?order_id=1006')).invoices;
    expect(ofOrder.map((i) => i.invoice_id)).toEqual([5006, 5101]);
  });

  it('paying a renewal invoice of an active order moves its expiry on by one period', async () => {
    const before = await domainOrder(1006);
    expect(before?.expiration_date).toBe('15.01.2027');
    await control('/__sandbox/invoices', { order_id: 1006 });
    expect((await control('/__sandbox/invoices/5101/pay')).status).toBe(200);
    const after = await domainOrder(1006);
    expect(after).toMatchObject({ expiration_date: '15.01.2028', state: 'Active', paid: true });
    expect(after?.advanced?.renewed).toBe(true);
  });

  it('refuses bad bodies (400) and unknown or foreign orders (404)', async () => {
    const bad = [
      await control('/__sandbox/invoices'),
      await control('/__sandbox/invoices', undefined, '{"order_id": '),
      await control('/__sandbox/invoices', [1006]),
      await control('/__sandbox/invoices', {}),
      await control('/__sandbox/invoices', { order_id: 'x' }),
      await control('/__sandbox/invoices', { order_id: 1.5 }),
      await control('/__sandbox/invoices', { order_id: 1006, amount: 1 }),
    ];
    expect(bad.map((r) => r.status)).toEqual([400, 400, 400, 400, 400, 400, 400]);
    expect(bad[1]?.json).toEqual({ message: 'the body is not valid JSON' });
    expect(bad[6]?.json).toEqual({ message: 'unknown property "amount"' });
    expect(await control('/__sandbox/invoices', { order_id: 4242 })).toEqual({
      status: 404,
      json: { message: 'order 4242 not found' },
    });
    expect((await control('/__sandbox/invoices', { order_id: 9002 })).status).toBe(404);
    expect((await api<{ invoices: InvoiceItem[] }>('/v1/billing/invoices')).invoices).toHaveLength(12);
  });
});

describe('POST /__sandbox/clock', () => {
  it("moves the sandbox's today: new invoices, payments, orders and completions are stamped with it", async () => {
    const set = await control('/__sandbox/clock', { now: '14.01.2027 10:30' });
    expect(set).toEqual({ status: 200, json: { now: '14.01.2027 10:30' } });
    expect(sb.now()).toMatch(/^14\.01\.2027 10:3\d$/);

    // The renewal invoice of mysite.by (expires 15.01.2027) is made the day before expiry.
    const made = (await control('/__sandbox/invoices', { order_id: 1006 })).json as { invoice_id: number };
    expect(await invoice(made.invoice_id)).toMatchObject({
      creation_date: '14.01.2027',
      expiration_date: '19.01.2027',
      invoice_number: `СФ-2027-${made.invoice_id}`,
    });
    await control('/__sandbox/invoices/5002/pay');
    expect((await payments(5002))[0]?.payment_date).toBe('14.01.2027');
    await control('/__sandbox/orders/1002/complete');
    expect(await order(1002)).toMatchObject({ complete_date: '14.01.2027', expiration_date: '14.07.2027' });

    const created = await fetch(`${sb.url}/v1/orders/corporate-mails?version=1.0`, {
      method: 'POST',
      headers: { 'x-api-token': sb.token, 'content-type': 'application/json' },
      body: JSON.stringify({
        tariff_id: 202,
        period_unit_count: 1,
        currency_id: 1,
        phone: '+375291234567',
        email: 'ivanov@example.by',
        natural_person_requisites: {
          last_name: 'Иванов',
          first_name: 'Иван',
          middle_name: '',
          address: {
            postal_code: '220030',
            country_code: 'BY',
            region: 'Минская область',
            city: 'Минск',
            street: 'ул. Немига',
            building: '5',
            room: '',
          },
        },
      }),
    });
    expect(created.status).toBe(200);
    const { order_id } = (await created.json()) as { order_id: number };
    expect((await order(order_id))?.order_datetime).toMatch(/^14\.01\.2027 10:3\d$/);
  });

  it('can go back, and refuses what is not "DD.MM.YYYY HH:MM" (400)', async () => {
    expect((await control('/__sandbox/clock', { now: '01.02.2026 00:00' })).status).toBe(200);
    expect(sb.now().slice(0, 10)).toBe('01.02.2026');
    for (const now of ['31.02.2026 10:00', '2026-12-30T10:00', '30.12.2026', '30.12.2026 24:00', 5]) {
      const refused = await control('/__sandbox/clock', { now });
      expect(refused).toEqual({
        status: 400,
        json: { message: '"now" must be a date and time "DD.MM.YYYY HH:MM"' },
      });
    }
    expect((await control('/__sandbox/clock', {})).status).toBe(400);
    expect(sb.now().slice(0, 10)).toBe('01.02.2026');
  });
});

describe('the same calls on the in-process Sandbox', () => {
  it('payInvoice, completeOrder, createInvoice, setClock', async () => {
    sb.setClock('10.03.2027 09:00');
    const { invoice_id } = sb.createInvoice(1011);
    expect(await invoice(invoice_id)).toMatchObject({
      order_id: 1011,
      creation_date: '10.03.2027',
      amount: 135, // COM renewal 45 × 3 years
      state: 'WaitingForPayment',
    });
    expect(sb.payInvoice(invoice_id)).toMatchObject({ invoice_id, payment_date: '10.03.2027', amount: 135 });
    expect((await invoice(invoice_id))?.state).toBe('Paid');
    sb.completeOrder(1012);
    expect(await order(1012)).toMatchObject({
      state: 'Active',
      completed: true,
      complete_date: '10.03.2027',
    });

    expect(() => sb.payInvoice(invoice_id)).toThrow(ControlError);
    expect(() => sb.completeOrder(4242)).toThrow(expect.objectContaining({ status: 404 }));
    expect(() => sb.createInvoice(0)).toThrow(expect.objectContaining({ status: 400 }));
    expect(() => sb.setClock('soon')).toThrow(expect.objectContaining({ status: 400 }));
  });
});

describe('control calls in a kept sandbox (npm run sandbox, npm run dev)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = join(await mkdtemp(join(tmpdir(), 'partner-bot-sandbox-control-')), 'sandbox');
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((s) => s.close()));
    await rm(join(dir, '..'), { recursive: true, force: true });
  });

  it('keeps what they changed, the clock included, across a restart', async () => {
    const first = (await startKeptSandbox(dir, { port: 0 })).sandbox;
    running.push(first);
    sb = first;
    expect((await control('/__sandbox/clock', { now: '20.05.2027 12:00' })).status).toBe(200);
    expect((await control('/__sandbox/invoices/5005/pay')).status).toBe(200);
    expect((await control('/__sandbox/orders/1005/complete')).status).toBe(200);
    expect((await control('/__sandbox/invoices', { order_id: 1003 })).status).toBe(200);
    first.completeOrder(1010); // in process: kept too
    await first.close();

    const second = (await startKeptSandbox(dir, { port: 0 })).sandbox;
    running.push(second);
    expect((await invoice(5005, second))?.state).toBe('Paid');
    expect((await payments(5005, second))[0]?.payment_date).toBe('20.05.2027');
    expect(await order(1005, second)).toMatchObject({ state: 'Active', complete_date: '20.05.2027' });
    expect(await order(1010, second)).toMatchObject({ state: 'Active', complete_date: '20.05.2027' });
    expect((await invoice(5101, second))?.creation_date).toBe('20.05.2027');
    expect(second.now().slice(0, 10)).toBe('20.05.2027');
  });
});
