import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';

/**
 * The sandbox over real HTTP with plain fetch: every operation of partner-api.md, its
 * validation rules, the deterministic domain rules, state changes and fault injection.
 */

const TOKEN = 'sandbox-test-token-7f3a';
const CYRILLIC = /[А-Яа-яЁё]/;

interface Reply {
  status: number;
  text: string;
  headers: Headers;
  json: unknown;
}

interface CallInit {
  body?: unknown;
  raw?: string;
  contentType?: string;
  /** null: no token header at all. */
  token?: string | null;
  header?: 'x-api-token' | 'x-auth-token';
  /** null: no version parameter. */
  version?: string | null;
  signal?: AbortSignal;
}

async function call(sb: Sandbox, method: string, path: string, init: CallInit = {}): Promise<Reply> {
  const url = new URL(path, sb.url);
  const version = init.version === undefined ? '1.0' : init.version;
  if (version !== null) url.searchParams.set('version', version);
  const headers: Record<string, string> = {};
  const token = init.token === undefined ? sb.token : init.token;
  if (token !== null) headers[init.header ?? 'x-api-token'] = token;
  let body: string | undefined;
  if (init.raw !== undefined) body = init.raw;
  else if (init.body !== undefined) body = JSON.stringify(init.body);
  if (body !== undefined) headers['content-type'] = init.contentType ?? 'application/json';
  const response = await fetch(url, {
    method,
    headers,
    ...(body === undefined ? {} : { body }),
    ...(init.signal === undefined ? {} : { signal: init.signal }),
  });
  const text = await response.text();
  let json: unknown;
  if (text !== '') {
    try {
      json = JSON.parse(text) as unknown;
    } catch {
      json = undefined;
    }
  }
  return { status: response.status, text, headers: response.headers, json };
}

function message(reply: Reply): string {
  const body = reply.json as { message?: unknown } | undefined;
  return typeof body?.message === 'string' ? body.message : '';
}

function expectError(reply: Reply, status: number, pattern?: RegExp): void {
  expect(reply.status, reply.text).toBe(status);
  if (pattern) {
    expect(message(reply)).toMatch(pattern);
    expect(message(reply)).toMatch(CYRILLIC);
  }
}

function expectEmpty200(reply: Reply): void {
  expect(reply.status, reply.text).toBe(200);
  expect(reply.text).toBe('');
}

const DATE = /^\d{2}\.\d{2}\.\d{4}$/;
const DATETIME = /^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}$/;

// ---- request fixtures ------------------------------------------------------------------------

const address = {
  postal_code: '220030',
  country_code: 'BY',
  region: 'Минская область',
  city: 'Минск',
  street: 'ул. Немига',
  building: '5',
  room: '12',
};
const natural = { last_name: 'Иванов', first_name: 'Иван', middle_name: 'Иванович', address };
const juridical = {
  ucn: '191234563',
  company_name: 'ООО «Белая пекарня»',
  executive_last_name: 'Петров',
  executive_first_name: 'Пётр',
  executive_middle_name: 'Петрович',
  post_of_executive: 'Директор',
  legal_address: address,
};
const common = { period_unit_count: 12, currency_id: 1, phone: '+375291234567', email: 'ivanov@example.by' };
const whoisPersonBy = {
  citizenship: 'BY',
  series: 'MP',
  number: '1234567',
  organization: 'Московское РУВД г. Минска',
  identity_number: '3010190A001PB1',
  date_of_issue: '10.02.2020',
};
const whoisCompanyRu = { inn: '7701234567', kpp: '770101001', ogrn: '1027700132195' };
const CSR = [
  '-----BEGIN CERTIFICATE REQUEST-----',
  'MIHVMHwCAQAwGjEYMBYGA1UEAwwPc2hvcC5leGFtcGxlLmJ5MFkwEwYHKoZIzj0C',
  'AQYIKoZIzj0DAQcDQgAExYgT1yu/CIyYmr9tLy6ElnYsvVS93q5X2hG1mngDcH9Z',
  '4txgmZNIzBXHQHEoytemPUTyWn4oCfbvRXkvgY7lfqAAMAoGCCqGSM49BAMCA0kA',
  'MEYCIQCboi9XdSdBxV9uYarFeFcDZxgI9Majg8Fq9SX7c9F/YgIhANUIxwlVeICH',
  'bP9A/lMX3a2WO+ZjFm789VeTzB9sYSl5',
  '-----END CERTIFICATE REQUEST-----',
  '',
].join('\n');

interface OrderItem {
  order_id: number;
  service_id: number;
  number: string;
  state: string;
  order_datetime: string;
  period_unit_count: unknown;
  advanced?: Record<string, unknown>;
  [key: string]: unknown;
}

interface Created {
  order_id: number;
  invoice_id: number;
  invoice_url: string;
}

interface DnsRecordItem {
  record_id: number;
  type: string;
  ttl: number;
  value: string;
}

// ---- the read-only suite shares one sandbox ----------------------------------------------------

describe('sandbox: authentication, versioning, routing', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ token: TOKEN });
  });
  afterAll(() => sb.close());

  it('listens on 127.0.0.1 with the given token', () => {
    expect(sb.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sb.token).toBe(TOKEN);
  });

  it('generates a random token when none is given', async () => {
    const a = await startSandbox();
    const b = await startSandbox();
    try {
      expect(a.token.length).toBeGreaterThanOrEqual(20);
      expect(a.token).not.toBe(b.token);
      expect((await call(a, 'GET', '/v1/billing/currencies')).status).toBe(200);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('accepts the token in x-api-token and in x-auth-token', async () => {
    expect((await call(sb, 'GET', '/v1/billing/currencies', { header: 'x-api-token' })).status).toBe(200);
    expect((await call(sb, 'GET', '/v1/billing/currencies', { header: 'x-auth-token' })).status).toBe(200);
  });

  it('answers 401 with a Russian message for a missing or wrong token, never echoing it', async () => {
    const missing = await call(sb, 'GET', '/v1/billing/currencies', { token: null });
    expectError(missing, 401, /./);
    const wrong = await call(sb, 'GET', '/v1/orders/domains', { token: 'wrong-secret-value' });
    expectError(wrong, 401, /./);
    expect(wrong.text).not.toContain('wrong-secret-value');
    expect(wrong.text).not.toContain(TOKEN);
    const wrongAuth = await call(sb, 'POST', '/v1/domains/check', {
      header: 'x-auth-token',
      token: 'nope',
      body: { domains: ['a.by'] },
    });
    expect(wrongAuth.status).toBe(401);
  });

  it('requires the version query parameter', async () => {
    const missing = await call(sb, 'GET', '/v1/billing/currencies', { version: null });
    expectError(missing, 400, /version/);
    const empty = await call(sb, 'GET', '/v1/billing/currencies', { version: '' });
    expectError(empty, 400, /version/);
    expect((await call(sb, 'GET', '/v1/billing/currencies', { version: '2.5' })).status).toBe(200);
  });

  it('answers 404 with an empty body for an unknown path or a wrong method', async () => {
    for (const [method, path] of [
      ['GET', '/v1/nothing-here'],
      ['GET', '/v2/billing/currencies'],
      ['DELETE', '/v1/billing/currencies'],
      ['POST', '/v1/orders/services'],
      ['GET', '/v1/domains/1006/dns/records/a'],
      ['POST', '/v1/domains/1006/dns/records/ptr'],
      ['DELETE', '/v1/domains/1006/dns/records/loc/30001'],
      ['GET', '/'],
    ] as const) {
      const reply = await call(sb, method, path);
      expect(reply.status, `${method} ${path}`).toBe(404);
      expect(reply.text).toBe('');
    }
  });

  it('answers 400 for a path id that is not an integer', async () => {
    expectError(await call(sb, 'GET', '/v1/billing/invoices/abc/url'), 400, /id/);
    expectError(await call(sb, 'GET', '/v1/domains/1.5/dns/records'), 400, /orderId/);
    expectError(await call(sb, 'GET', '/v1/billing/pricelists/x/tariffs'), 400, /number/);
    expectError(await call(sb, 'DELETE', '/v1/domains/1006/dns/records/a/zz'), 400, /id/);
  });

  it('answers JSON with charset and keeps connections alive', async () => {
    const reply = await call(sb, 'GET', '/v1/billing/currencies');
    expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(reply.headers.get('connection')).toBe('keep-alive');
  });

  it('records every API request in order, with lower-cased headers and the parsed body', async () => {
    const before = sb.requests.length;
    await call(sb, 'GET', '/v1/billing/invoices?order_id=1001');
    await call(sb, 'POST', '/v1/domains/check', {
      body: { domains: ['recorded.by'] },
      header: 'x-auth-token',
    });
    await call(sb, 'POST', '/v1/domains/check', { raw: 'not json at all' });
    const recorded = sb.requests.slice(before);
    expect(recorded).toHaveLength(3);
    expect(recorded[0]).toMatchObject({
      method: 'GET',
      path: '/v1/billing/invoices',
      query: { order_id: '1001', version: '1.0' },
      body: undefined,
    });
    expect(recorded[0]?.headers['x-api-token']).toBe(TOKEN);
    expect(recorded[1]).toMatchObject({
      method: 'POST',
      path: '/v1/domains/check',
      body: { domains: ['recorded.by'] },
    });
    expect(recorded[1]?.headers['x-auth-token']).toBe(TOKEN);
    expect(recorded[1]?.headers['content-type']).toBe('application/json');
    expect(recorded[2]?.body).toBe('not json at all');
  });

  it('answers 400 for an invalid JSON body and for a non-JSON content type', async () => {
    expectError(await call(sb, 'POST', '/v1/domains/check', { raw: '{"domains": [' }), 400, /JSON/);
    expectError(
      await call(sb, 'POST', '/v1/domains/check', { raw: '{"domains":["a.by"]}', contentType: 'text/plain' }),
      400,
      /JSON/,
    );
    expectError(await call(sb, 'POST', '/v1/domains/check', { body: ['a.by'] }), 400, /объект/);
  });
});

describe('sandbox: billing (10 operations)', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ token: TOKEN });
  });
  afterAll(() => sb.close());

  it('GET /v1/billing/currencies', async () => {
    const reply = await call(sb, 'GET', '/v1/billing/currencies');
    expect(reply.status).toBe(200);
    const { currencies } = reply.json as { currencies: Array<Record<string, unknown>> };
    expect(currencies.map((c) => c.currency_code)).toEqual(['BYN', 'USD', 'EUR', 'RUB']);
    expect(currencies[0]).toEqual({
      currency_id: 1,
      currency_code: 'BYN',
      currency_name: 'Белорусский рубль',
    });
  });

  it('GET /v1/billing/pricelists honours as_of_date; number is a string', async () => {
    const now = await call(sb, 'GET', '/v1/billing/pricelists');
    expect(now.json).toEqual({
      pricelists: [
        {
          number: '21',
          description: 'Виртуальный хостинг, корпоративная почта и SSL-сертификаты',
          as_of_date: '01.07.2026',
        },
        { number: '22', description: 'Регистрация и продление доменов', as_of_date: '01.03.2026' },
        {
          number: '23',
          description: 'Домены международных зон для нерезидентов (USD)',
          as_of_date: '01.09.2026',
        },
      ],
    });
    const february = await call(sb, 'GET', '/v1/billing/pricelists?as_of_date=15.02.2026');
    expect(february.json).toEqual({
      pricelists: [
        {
          number: '21',
          description: 'Виртуальный хостинг, корпоративная почта и SSL-сертификаты',
          as_of_date: '01.01.2026',
        },
      ],
    });
    expectError(await call(sb, 'GET', '/v1/billing/pricelists?as_of_date=2026-02-15'), 400, /as_of_date/);
  });

  it('GET /v1/billing/pricelists/{number}/tariffs: number an integer, archived tariffs, as_of_date', async () => {
    const reply = await call(sb, 'GET', '/v1/billing/pricelists/21/tariffs');
    expect(reply.status).toBe(200);
    const list = reply.json as {
      number: unknown;
      as_of_date: string;
      tariffs: Array<{ tariff_id: number; service_id: unknown; archived: boolean; prices: unknown[] }>;
    };
    expect(list.number).toBe(21);
    expect(list.as_of_date).toBe('01.07.2026');
    const archived = list.tariffs.find((t) => t.tariff_id === 104);
    expect(archived).toMatchObject({
      tariff_name: 'Linux Эконом',
      service_id: '10',
      archived: true,
      period_type: 'month',
    });
    expect(list.tariffs.find((t) => t.tariff_id === 101)).toEqual({
      tariff_id: 101,
      tariff_name: 'Linux Старт',
      service_id: '10',
      archived: false,
      period_type: 'month',
      currency_id: 1,
      prices: [
        { period: 1, price: 9.9 },
        { period: 3, price: 28.81 },
        { period: 6, price: 56.43 },
        { period: 12, price: 106.92 },
        { period: 24, price: 201.96 },
      ],
    });
    const january = await call(sb, 'GET', '/v1/billing/pricelists/21/tariffs?as_of_date=10.01.2026');
    const old = january.json as {
      as_of_date: string;
      tariffs: Array<{ tariff_id: number; archived: boolean }>;
    };
    expect(old.as_of_date).toBe('01.01.2026');
    expect(old.tariffs.find((t) => t.tariff_id === 104)?.archived).toBe(false);
    const usd = (await call(sb, 'GET', '/v1/billing/pricelists/23/tariffs')).json as {
      tariffs: Array<{ currency_id: number }>;
    };
    expect(usd.tariffs.every((t) => t.currency_id === 2)).toBe(true);
    expect((await call(sb, 'GET', '/v1/billing/pricelists/99/tariffs')).status).toBe(404);
    expect((await call(sb, 'GET', '/v1/billing/pricelists/22/tariffs?as_of_date=01.01.2026')).status).toBe(
      404,
    );
  });

  it('GET /v1/billing/invoices with filters', async () => {
    const all = (await call(sb, 'GET', '/v1/billing/invoices')).json as {
      invoices: Array<Record<string, unknown>>;
    };
    expect(all.invoices).toHaveLength(12);
    for (const invoice of all.invoices) {
      expect(invoice).toEqual({
        invoice_id: expect.any(Number),
        invoice_number: expect.any(String),
        order_id: expect.any(Number),
        creation_date: expect.stringMatching(DATE),
        expiration_date: expect.stringMatching(DATE),
        amount: expect.any(Number),
        currency_id: expect.any(Number),
        state: expect.any(String),
      });
    }
    const byOrder = (await call(sb, 'GET', '/v1/billing/invoices?order_id=1001')).json;
    expect(byOrder).toEqual({
      invoices: [
        {
          invoice_id: 5001,
          invoice_number: 'СФ-2026-5001',
          order_id: 1001,
          creation_date: '15.01.2026',
          expiration_date: '20.01.2026',
          amount: 214.92,
          currency_id: 1,
          state: 'Paid',
        },
      ],
    });
    const byId = (await call(sb, 'GET', '/v1/billing/invoices?invoice_id=5002')).json as {
      invoices: Array<{ state: string }>;
    };
    expect(byId.invoices.map((i) => i.state)).toEqual(['WaitingForPayment']);
    expect((await call(sb, 'GET', '/v1/billing/invoices?order_id=9001')).json).toEqual({ invoices: [] });
    expectError(await call(sb, 'GET', '/v1/billing/invoices?order_id=abc'), 400, /order_id/);
  });

  it('GET /v1/billing/payments with filters', async () => {
    const all = (await call(sb, 'GET', '/v1/billing/payments')).json as {
      payments: Array<Record<string, unknown>>;
    };
    expect(all.payments.length).toBeGreaterThanOrEqual(6);
    expect(all.payments[0]).toEqual({
      payment_id: 7001,
      invoice_id: 5001,
      payment_date: '15.01.2026',
      amount: 107.46,
    });
    const byOrder = (await call(sb, 'GET', '/v1/billing/payments?order_id=1001')).json as {
      payments: Array<{ amount: number }>;
    };
    expect(byOrder.payments.map((p) => p.amount)).toEqual([107.46, 107.46]);
    const byInvoice = (await call(sb, 'GET', '/v1/billing/payments?invoice_id=5003')).json as {
      payments: unknown[];
    };
    expect(byInvoice.payments).toHaveLength(1);
    expect((await call(sb, 'GET', '/v1/billing/payments?invoice_id=5002')).json).toEqual({ payments: [] });
  });

  it('GET /v1/billing/statements with filters', async () => {
    const all = (await call(sb, 'GET', '/v1/billing/statements')).json as {
      statements: Array<Record<string, unknown>>;
    };
    expect(all.statements.length).toBeGreaterThanOrEqual(5);
    for (const statement of all.statements) {
      expect(statement).toEqual({
        statement_id: expect.any(Number),
        statement_number: expect.any(String),
        order_id: expect.any(Number),
        from_date: expect.stringMatching(DATE),
        to_date: expect.stringMatching(DATE),
        amount: expect.any(Number),
        currency_id: expect.any(Number),
      });
    }
    const one = (await call(sb, 'GET', '/v1/billing/statements?statement_id=8001')).json as {
      statements: Array<{ order_id: number }>;
    };
    expect(one.statements.map((s) => s.order_id)).toEqual([1001]);
    const byOrder = (await call(sb, 'GET', '/v1/billing/statements?order_id=1006')).json as {
      statements: Array<{ order_id: number }>;
    };
    expect(byOrder.statements.map((s) => s.order_id)).toEqual([1006]);
  });

  it('GET /v1/billing/partner-statements with filter', async () => {
    const all = (await call(sb, 'GET', '/v1/billing/partner-statements')).json as {
      partner_statements: unknown[];
    };
    expect(all.partner_statements).toHaveLength(10);
    expect(all.partner_statements[0]).toEqual({
      partner_statement_id: 8501,
      partner_statement_number: 'ОП-2026-01',
      from_date: '01.01.2026',
      to_date: '31.01.2026',
    });
    const one = (await call(sb, 'GET', '/v1/billing/partner-statements?statement_id=8502')).json as {
      partner_statements: Array<{ partner_statement_number: string }>;
    };
    expect(one.partner_statements.map((s) => s.partner_statement_number)).toEqual(['ОП-2026-02']);
  });

  it('GET …/invoices|statements|partner-statements/{id}/url give short links that resolve', async () => {
    for (const [path, title] of [
      ['/v1/billing/invoices/5001/url', 'Счёт на оплату № СФ-2026-5001'],
      ['/v1/billing/statements/8001/url', 'Акт № АКТ-2026-8001'],
      ['/v1/billing/partner-statements/8501/url', 'Отчёт партнёра № ОП-2026-01'],
    ] as const) {
      const reply = await call(sb, 'GET', path);
      expect(reply.status, path).toBe(200);
      const { url } = reply.json as { url: string };
      expect(url.startsWith(`${sb.url}/s/`)).toBe(true);
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await page.text()).toContain(title);
    }
    expect((await call(sb, 'GET', '/v1/billing/invoices/4999/url')).status).toBe(404);
    expect((await call(sb, 'GET', '/v1/billing/statements/1/url')).status).toBe(404);
    expect((await call(sb, 'GET', '/v1/billing/partner-statements/1/url')).status).toBe(404);
    expect((await call(sb, 'GET', '/v1/billing/invoices/9101/url')).status).toBe(403);
    expect((await call(sb, 'GET', '/v1/billing/statements/9201/url')).status).toBe(403);
    expect((await fetch(`${sb.url}/s/i3vzBOGUS1`)).status).toBe(404);
  });

  it('builds short links on linkBase when given', async () => {
    const other = await startSandbox({ linkBase: 'https://pay.example.by/' });
    try {
      const { url } = (await call(other, 'GET', '/v1/billing/invoices/5001/url')).json as { url: string };
      expect(url).toMatch(/^https:\/\/pay\.example\.by\/s\/[A-Za-z0-9_-]+$/);
    } finally {
      await other.close();
    }
  });
});

describe('sandbox: ordering reference data (5 operations)', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ token: TOKEN });
  });
  afterAll(() => sb.close());

  it('GET /v1/orders/services: service_id is a string', async () => {
    const { services } = (await call(sb, 'GET', '/v1/orders/services')).json as {
      services: Array<Record<string, unknown>>;
    };
    expect(services).toContainEqual({
      service_id: '10',
      canonical_name: 'hosting-linux',
      name: 'Виртуальный хостинг Linux',
    });
    expect(services.map((s) => s.service_id)).toEqual(['10', '11', '20', '30', '40']);
  });

  it('GET /v1/orders/hostings/tariffs with service_id and currency_id; archived tariffs left out', async () => {
    const { tariffs } = (await call(sb, 'GET', '/v1/orders/hostings/tariffs')).json as {
      tariffs: Array<{
        tariff_id: number;
        service_id: string;
        prices: Array<{ period: number; price: number }>;
      }>;
    };
    expect(tariffs.map((t) => t.tariff_id)).toEqual([101, 102, 103, 111, 112]);
    expect(tariffs[0]).toEqual({
      tariff_id: 101,
      tariff_name: 'Linux Старт',
      service_id: '10',
      period_type: 'month',
      prices: [
        { period: 1, price: 9.9 },
        { period: 3, price: 28.81 },
        { period: 6, price: 56.43 },
        { period: 12, price: 106.92 },
        { period: 24, price: 201.96 },
      ],
    });
    expect(tariffs.find((t) => t.tariff_id === 103)?.prices.map((p) => p.period)).toEqual([1, 3, 6, 12]);
    const wordpress = (await call(sb, 'GET', '/v1/orders/hostings/tariffs?service_id=11')).json as {
      tariffs: Array<{ tariff_id: number }>;
    };
    expect(wordpress.tariffs.map((t) => t.tariff_id)).toEqual([111, 112]);
    expect((await call(sb, 'GET', '/v1/orders/hostings/tariffs?service_id=999')).json).toEqual({
      tariffs: [],
    });
    const usd = (await call(sb, 'GET', '/v1/orders/hostings/tariffs?currency_id=2&service_id=10')).json as {
      tariffs: Array<{ prices: Array<{ price: number }> }>;
    };
    expect(usd.tariffs[0]?.prices[0]?.price).toBe(3.09);
    expectError(await call(sb, 'GET', '/v1/orders/hostings/tariffs?currency_id=99'), 400, /99/);
    expectError(await call(sb, 'GET', '/v1/orders/hostings/tariffs?service_id=x'), 400, /service_id/);
  });

  it('GET /v1/orders/corporate-mails/tariffs', async () => {
    const { tariffs } = (await call(sb, 'GET', '/v1/orders/corporate-mails/tariffs')).json as {
      tariffs: Array<{ tariff_id: number; period_type: string; service_id: string }>;
    };
    expect(tariffs.map((t) => t.tariff_id)).toEqual([201, 202, 203]);
    expect(tariffs.every((t) => t.period_type === 'month' && t.service_id === '20')).toBe(true);
    expectError(await call(sb, 'GET', '/v1/orders/corporate-mails/tariffs?currency_id=77'), 400, /77/);
  });

  it('GET /v1/orders/ssl-certificates/tariffs', async () => {
    const { tariffs } = (await call(sb, 'GET', '/v1/orders/ssl-certificates/tariffs?currency_id=1')).json as {
      tariffs: Array<{ tariff_id: number; period_type: string; prices: Array<{ period: number }> }>;
    };
    expect(tariffs.map((t) => t.tariff_id)).toEqual([301, 302, 303]);
    for (const tariff of tariffs) {
      expect(tariff.period_type).toBe('year');
      expect(tariff.prices.map((p) => p.period)).toEqual([1, 2]);
    }
  });

  it('GET /v1/orders/domains/zones', async () => {
    const { domain_zones: zones } = (await call(sb, 'GET', '/v1/orders/domains/zones')).json as {
      domain_zones: Array<Record<string, unknown>>;
    };
    expect(zones.map((z) => z.name)).toEqual([
      'by',
      'бел',
      'com.by',
      'ru',
      'su',
      'рф',
      'com',
      'net',
      'org',
      'eu',
    ]);
    expect(zones[0]).toEqual({
      domain_zone_id: 1,
      name: 'by',
      min_period: 1,
      max_period: 10,
      actual_registration_tariff_id: 401,
      registration_price: 36,
      actual_renew_tariff_id: 402,
      renew_price: 36,
      period_type: 'year',
    });
    const eur = (await call(sb, 'GET', '/v1/orders/domains/zones?currency_id=3')).json as {
      domain_zones: Array<{ registration_price: number }>;
    };
    expect(eur.domain_zones[0]?.registration_price).toBe(10.29);
    expectError(await call(sb, 'GET', '/v1/orders/domains/zones?currency_id=5'), 400, /5/);
  });
});

describe('sandbox: order lists (5 operations)', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ token: TOKEN });
  });
  afterAll(() => sb.close());

  const orderShape = {
    order_id: expect.any(Number),
    service_id: expect.any(Number),
    number: expect.any(String),
    state: expect.any(String),
    order_datetime: expect.stringMatching(DATETIME),
    currency_id: expect.any(Number),
    period_unit_type: expect.any(String),
    period_unit_count: expect.stringMatching(/^\d+$/),
    paid: expect.any(Boolean),
    completed: expect.any(Boolean),
    business_entity_type: expect.any(String),
  };

  async function orders(path: string): Promise<OrderItem[]> {
    const reply = await call(sb, 'GET', path);
    expect(reply.status, reply.text).toBe(200);
    return (reply.json as { orders: OrderItem[] }).orders;
  }

  it('GET /v1/orders: every own order, without advanced', async () => {
    const list = await orders('/v1/orders');
    expect(list.map((o) => o.order_id)).toEqual([
      1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009, 1010, 1011, 1012,
    ]);
    for (const order of list) {
      expect(order).toMatchObject(orderShape);
      expect(order).not.toHaveProperty('advanced');
      expect(order).toHaveProperty('complete_date');
      expect(order).toHaveProperty('expiration_date');
    }
    expect((await orders('/v1/orders?service_id=40')).map((o) => o.order_id)).toEqual([
      1006, 1007, 1008, 1009, 1010, 1011,
    ]);
    expect((await orders('/v1/orders?order_id=1003')).map((o) => o.order_id)).toEqual([1003]);
    expect((await orders('/v1/orders?order_number=%D0%97%D0%9A-2026-001002')).map((o) => o.order_id)).toEqual(
      [1002],
    );
    expect(
      (await orders('/v1/orders?from_order_date=14.01.2026&to_order_date=16.01.2026')).map((o) => o.order_id),
    ).toEqual([1001, 1004, 1006]);
    expect((await orders('/v1/orders?order_id=9001')).length).toBe(0);
    expectError(await call(sb, 'GET', '/v1/orders?from_order_date=2026-01-01'), 400, /from_order_date/);
  });

  it('GET /v1/orders/hostings with hosting advanced and service_id', async () => {
    const list = await orders('/v1/orders/hostings');
    expect(list.map((o) => o.order_id)).toEqual([1001, 1002]);
    expect(list[0]).toMatchObject({
      ...orderShape,
      order_id: 1001,
      service_id: 10,
      state: 'Active',
      period_unit_type: 'month',
      period_unit_count: '12',
      advanced: { tariff_id: 102 },
    });
    expect((await orders('/v1/orders/hostings?service_id=11')).map((o) => o.order_id)).toEqual([1002]);
  });

  it('GET /v1/orders/corporate-mails with mail advanced', async () => {
    const list = await orders('/v1/orders/corporate-mails');
    expect(list.map((o) => o.order_id)).toEqual([1003, 1012]);
    expect(list[0]).toMatchObject({ ...orderShape, order_id: 1003, advanced: { tariff_id: 202 } });
    expect(list[1]).toMatchObject({
      state: 'NewOrder',
      paid: false,
      business_entity_type: 'IndividualBusinessman',
    });
  });

  it('GET /v1/orders/ssl-certificates with SSL advanced', async () => {
    const list = await orders('/v1/orders/ssl-certificates');
    expect(list.map((o) => o.advanced)).toEqual([
      {
        domain: 'mysite.by',
        use_csr: false,
        tariff_id: 301,
        valid_from_date: '17.01.2026',
        valid_till_date: '17.01.2027',
      },
      { domain: '*.bakery.by', use_csr: true, tariff_id: 302, valid_from_date: null, valid_till_date: null },
    ]);
  });

  it('GET /v1/orders/domains with domain advanced', async () => {
    const list = await orders('/v1/orders/domains');
    expect(list.map((o) => o.advanced?.domain)).toEqual([
      'mysite.by',
      'пример.бел',
      'shop.com.by',
      'mycompany.ru',
      'мойсайт.рф',
      'belbakery.com',
    ]);
    expect(list[0]).toMatchObject({
      ...orderShape,
      order_id: 1006,
      service_id: 40,
      period_unit_type: 'year',
      advanced: { registered: true, renewed: false, registration_tariff_id: 401, renew_tariff_id: 402 },
    });
    expect((await orders('/v1/orders/domains?to_order_date=31.01.2026')).map((o) => o.order_id)).toEqual([
      1006,
    ]);
  });
});

describe('sandbox: order creation (4 operations)', () => {
  let sb: Sandbox;
  beforeEach(async () => {
    sb = await startSandbox({ token: TOKEN });
  });
  afterEach(() => sb.close());

  async function create(kind: string, body: unknown): Promise<Reply> {
    return call(sb, 'POST', `/v1/orders/${kind}`, { body });
  }

  it('POST /v1/orders/hostings creates an order and an invoice with a link', async () => {
    const reply = await create('hostings', {
      ...common,
      period_unit_count: 3,
      tariff_id: 101,
      domain: 'mysite.by',
      natural_person_requisites: natural,
    });
    expect(reply.status, reply.text).toBe(200);
    const created = reply.json as Created;
    expect(created).toEqual({
      order_id: 1101,
      invoice_id: 5101,
      invoice_url: expect.stringMatching(/\/s\//),
    });

    const [order] = (
      (await call(sb, 'GET', `/v1/orders/hostings?order_id=${created.order_id}`)).json as {
        orders: OrderItem[];
      }
    ).orders;
    expect(order).toMatchObject({
      order_id: 1101,
      service_id: 10,
      state: 'NewOrder',
      paid: false,
      completed: false,
      complete_date: null,
      expiration_date: null,
      currency_id: 1,
      period_unit_type: 'month',
      period_unit_count: '3',
      business_entity_type: 'NaturalPerson',
      advanced: { tariff_id: 101 },
    });
    expect(order?.order_datetime).toMatch(DATETIME);
    const all = (await call(sb, 'GET', '/v1/orders')).json as { orders: OrderItem[] };
    expect(all.orders.at(-1)).not.toHaveProperty('advanced');
    expect(all.orders.at(-1)?.order_id).toBe(1101);

    const invoices = (await call(sb, 'GET', '/v1/billing/invoices?order_id=1101')).json as {
      invoices: Array<Record<string, unknown>>;
    };
    expect(invoices.invoices).toEqual([
      {
        invoice_id: 5101,
        invoice_number: expect.any(String),
        order_id: 1101,
        creation_date: expect.stringMatching(DATE),
        expiration_date: expect.stringMatching(DATE),
        amount: 28.81,
        currency_id: 1,
        state: 'WaitingForPayment',
      },
    ]);
    const page = await fetch(created.invoice_url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('28.81 BYN');
    const link = (await call(sb, 'GET', '/v1/billing/invoices/5101/url')).json as { url: string };
    expect(link.url).toBe(created.invoice_url);
  });

  it('POST /v1/orders/corporate-mails in another currency, juridical person', async () => {
    const reply = await create('corporate-mails', {
      ...common,
      currency_id: 2,
      tariff_id: 201,
      period_unit_count: 1,
      juridical_person_requisites: juridical,
    });
    expect(reply.status, reply.text).toBe(200);
    const order = (
      (await call(sb, 'GET', '/v1/orders/corporate-mails?order_id=1101')).json as { orders: OrderItem[] }
    ).orders[0];
    expect(order).toMatchObject({
      business_entity_type: 'JuridicalPerson',
      currency_id: 2,
      service_id: 20,
      advanced: { tariff_id: 201 },
    });
    const invoice = (await call(sb, 'GET', '/v1/billing/invoices?invoice_id=5101')).json as {
      invoices: Array<{ amount: number; currency_id: number }>;
    };
    expect(invoice.invoices[0]).toMatchObject({ amount: 1.41, currency_id: 2 });
  });

  it('POST /v1/orders/ssl-certificates with a domain or a CSR', async () => {
    const base = { ...common, period_unit_count: 2, tariff_id: 302, natural_person_requisites: natural };
    expect((await create('ssl-certificates', { ...base, domain: '*.mysite.by' })).status).toBe(200);
    expect((await create('ssl-certificates', { ...base, csr: CSR })).status).toBe(200);
    const list = (await call(sb, 'GET', '/v1/orders/ssl-certificates?from_order_date=01.01.2026')).json as {
      orders: OrderItem[];
    };
    expect(list.orders.slice(-2).map((o) => o.advanced)).toEqual([
      { domain: '*.mysite.by', use_csr: false, tariff_id: 302, valid_from_date: null, valid_till_date: null },
      { domain: null, use_csr: true, tariff_id: 302, valid_from_date: null, valid_till_date: null },
    ]);
    expectError(await create('ssl-certificates', base), 400, /domain.*csr/);
    expectError(await create('ssl-certificates', { ...base, csr: 'hello' }), 400, /csr/);
    expectError(
      await create('ssl-certificates', { ...base, period_unit_count: 3, domain: 'a.by' }),
      400,
      /период/i,
    );
  });

  it('POST /v1/orders/domains: BY natural person with WHOIS, then the domain is taken', async () => {
    const body = {
      ...common,
      period_unit_count: 2,
      tariff_id: 401,
      domain: 'NewShop.BY',
      natural_person_requisites: natural,
      whois_person_requisites: whoisPersonBy,
    };
    const reply = await create('domains', body);
    expect(reply.status, reply.text).toBe(200);
    const order = (
      (await call(sb, 'GET', '/v1/orders/domains?order_id=1101')).json as { orders: OrderItem[] }
    ).orders[0];
    expect(order).toMatchObject({
      service_id: 40,
      state: 'NewOrder',
      period_unit_type: 'year',
      period_unit_count: '2',
      advanced: {
        domain: 'newshop.by',
        registered: false,
        renewed: false,
        registration_tariff_id: 401,
        renew_tariff_id: 402,
      },
    });
    const invoice = (await call(sb, 'GET', '/v1/billing/invoices?order_id=1101')).json as {
      invoices: Array<{ amount: number }>;
    };
    expect(invoice.invoices[0]?.amount).toBe(72);
    // The new order has the hosting name servers and no records; DNS calls work on it.
    expect((await call(sb, 'GET', '/v1/domains/1101/dns/servers')).json).toEqual({
      servers: [
        { ns: 'ns1.sandbox-host.by', ip: null },
        { ns: 'ns2.sandbox-host.by', ip: null },
      ],
    });
    expect((await call(sb, 'GET', '/v1/domains/1101/dns/records')).json).toEqual({ records: [] });
    // Ordered once: taken for the check and for a second order.
    const check = (await call(sb, 'POST', '/v1/domains/check', { body: { domains: ['newshop.by'] } })).json;
    expect(check).toEqual({
      results: [{ domain: 'newshop.by', is_available: false, is_premium: false, state: 'NotAvailable' }],
    });
    expectError(await create('domains', body), 400, /newshop\.by/i);
  });

  it('POST /v1/orders/domains: COM needs no WHOIS and rejects it', async () => {
    const body = {
      ...common,
      period_unit_count: 1,
      tariff_id: 413,
      domain: 'belbakery-shop.com',
      juridical_person_requisites: juridical,
    };
    expectError(
      await create('domains', { ...body, whois_company_requisites: { registration_number: '1' } }),
      400,
      /Недопустимое свойство «whois_company_requisites»/,
    );
    expectError(
      await create('domains', { ...body, whois_person_requisites: whoisPersonBy }),
      400,
      /Недопустимое свойство «whois_person_requisites»/,
    );
    const reply = await create('domains', body);
    expect(reply.status, reply.text).toBe(200);
  });

  it('POST /v1/orders/domains: WHOIS rules per zone and customer type', async () => {
    const by = { ...common, period_unit_count: 1, tariff_id: 401, domain: 'whois-test.by' };
    // Natural person in BY: the person block is required, the company block is not allowed.
    expectError(
      await create('domains', { ...by, natural_person_requisites: natural }),
      400,
      /Поле «whois_person_requisites» обязательно для заполнения/,
    );
    expectError(
      await create('domains', {
        ...by,
        natural_person_requisites: natural,
        whois_person_requisites: whoisPersonBy,
        whois_company_requisites: { registration_number: '1' },
      }),
      400,
      /Недопустимое свойство «whois_company_requisites»/,
    );
    // date_of_birth only for RU/SU/РФ.
    expectError(
      await create('domains', {
        ...by,
        natural_person_requisites: natural,
        whois_person_requisites: { ...whoisPersonBy, date_of_birth: '01.01.1990' },
      }),
      400,
      /Недопустимое свойство «whois_person_requisites\.date_of_birth»/,
    );
    expectError(
      await create('domains', {
        ...by,
        natural_person_requisites: natural,
        whois_person_requisites: { ...whoisPersonBy, number: '' },
      }),
      400,
      /Поле «whois_person_requisites\.number» обязательно для заполнения/,
    );
    // RU juridical person: the company block with inn, not the BY registration fields.
    const ru = { ...common, period_unit_count: 1, tariff_id: 407, domain: 'whois-test.ru' };
    expectError(
      await create('domains', {
        ...ru,
        juridical_person_requisites: juridical,
        whois_company_requisites: { ...whoisCompanyRu, registration_number: '1' },
      }),
      400,
      /Недопустимое свойство «whois_company_requisites\.registration_number»/,
    );
    const ruOk = await create('domains', {
      ...ru,
      juridical_person_requisites: juridical,
      whois_company_requisites: whoisCompanyRu,
    });
    expect(ruOk.status, ruOk.text).toBe(200);
    // BY individual businessman: both blocks; is_government_company only BY.
    const businessman = {
      ucn: '192345671',
      last_name: 'Сидоров',
      first_name: 'Сидор',
      middle_name: 'Сидорович',
      legal_address: address,
    };
    const byCompany = {
      registration_number: '192345671',
      registration_organization: 'Мингорисполком',
      registration_issue_date: '01.02.2019',
      is_government_company: false,
    };
    expectError(
      await create('domains', {
        ...by,
        individual_businessman_requisites: businessman,
        whois_person_requisites: whoisPersonBy,
      }),
      400,
      /whois_company_requisites/,
    );
    const ip = await create('domains', {
      ...by,
      individual_businessman_requisites: businessman,
      whois_person_requisites: whoisPersonBy,
      whois_company_requisites: byCompany,
    });
    expect(ip.status, ip.text).toBe(200);
    // RU natural person: date_of_birth required there; inn would be a company field.
    const rf = { ...common, period_unit_count: 1, tariff_id: 411, domain: 'тест-заказ.рф' };
    expectError(
      await create('domains', {
        ...rf,
        natural_person_requisites: natural,
        whois_person_requisites: whoisPersonBy,
      }),
      400,
      /date_of_birth/,
    );
    const rfOk = await create('domains', {
      ...rf,
      natural_person_requisites: natural,
      whois_person_requisites: { ...whoisPersonBy, date_of_birth: '01.01.1990' },
    });
    expect(rfOk.status, rfOk.text).toBe(200);
    // com.by is its own zone (longest suffix) and takes no WHOIS blocks.
    const comBy = await create('domains', {
      ...common,
      period_unit_count: 1,
      tariff_id: 405,
      domain: 'bakery.com.by',
      natural_person_requisites: natural,
    });
    expect(comBy.status, comBy.text).toBe(200);
  });

  it('POST /v1/orders/domains: zone tariff, zone periods, IDN zones, taken names', async () => {
    const base = { ...common, period_unit_count: 1, natural_person_requisites: natural };
    const whois = { whois_person_requisites: whoisPersonBy };
    expectError(
      await create('domains', { ...base, ...whois, tariff_id: 402, domain: 'zone-test.by' }),
      400,
      /401/,
    );
    expectError(await create('domains', { ...base, tariff_id: 401, domain: 'zone-test.com.by' }), 400, /405/);
    expectError(
      await create('domains', {
        ...base,
        ...whois,
        tariff_id: 401,
        domain: 'zone-test.by',
        period_unit_count: 11,
      }),
      400,
      /Период оплаты 11 не поддерживается для тарифа/,
    );
    const ruBody = {
      ...base,
      tariff_id: 407,
      domain: 'zone-test.ru',
      whois_person_requisites: { ...whoisPersonBy, date_of_birth: '02.03.1985' },
    };
    expectError(await create('domains', { ...ruBody, period_unit_count: 2 }), 400, /Период оплаты 2/);
    expectError(
      await create('domains', { ...base, ...whois, tariff_id: 401, domain: 'example.by' }),
      400,
      /занят/,
    );
    expectError(
      await create('domains', { ...base, ...whois, tariff_id: 401, domain: 'taken-shop.by' }),
      400,
      /занят/,
    );
    expectError(
      await create('domains', { ...base, ...whois, tariff_id: 401, domain: 'mysite.by' }),
      400,
      /занят/,
    );
    expectError(await create('domains', { ...base, tariff_id: 401, domain: 'bad_name.by' }), 400, /bad_name/);
    expectError(await create('domains', { ...base, tariff_id: 401, domain: 'shop.xyz' }), 400, /shop\.xyz/);
    // БЕЛ in punycode is the same zone as in Unicode.
    const punycode = await create('domains', {
      ...base,
      ...whois,
      tariff_id: 403,
      domain: 'xn--e1aybc.xn--90ais',
    });
    expect(punycode.status, punycode.text).toBe(200);
    const unicode = await create('domains', { ...base, ...whois, tariff_id: 403, domain: 'тест.бел' });
    expectError(unicode, 400, /занят/);
  });

  it('rejects extra properties, missing fields, wrong types and unsupported periods', async () => {
    const ok = { ...common, tariff_id: 101, natural_person_requisites: natural };
    expectError(await create('hostings', { ...ok, foo: 1 }), 400, /^Недопустимое свойство «foo»$/);
    expectError(
      await create('hostings', { ...ok, natural_person_requisites: { ...natural, nickname: 'x' } }),
      400,
      /Недопустимое свойство «natural_person_requisites\.nickname»/,
    );
    expectError(await create('corporate-mails', { ...ok, tariff_id: 201, domain: 'a.by' }), 400, /«domain»/);
    const { phone: _phone, ...noPhone } = ok;
    expectError(await create('hostings', noPhone), 400, /^Поле «phone» обязательно для заполнения$/);
    expectError(
      await create('hostings', { ...ok, email: null }),
      400,
      /Поле «email» обязательно для заполнения/,
    );
    expectError(
      await create('hostings', {
        ...ok,
        natural_person_requisites: { ...natural, address: { ...address, city: '' } },
      }),
      400,
      /Поле «natural_person_requisites\.address\.city» обязательно для заполнения/,
    );
    expectError(await create('hostings', { ...ok, period_unit_count: '12' }), 400, /period_unit_count/);
    expectError(await create('hostings', { ...ok, tariff_id: 1.5 }), 400, /tariff_id/);
    expectError(await create('hostings', { ...ok, email: 'not-an-email' }), 400, /email/);
    expectError(
      await create('hostings', { ...ok, period_unit_count: 24, tariff_id: 103 }),
      400,
      /^Период оплаты 24 не поддерживается для тарифа «Linux Бизнес»$/,
    );
    expectError(
      await create('hostings', { ...ok, period_unit_count: 37 }),
      400,
      /Период оплаты 37 не поддерживается/,
    );
    expectError(await create('hostings', { ...ok, period_unit_count: 0 }), 400, /не поддерживается/);
    expectError(await create('hostings', { ...ok, currency_id: 99 }), 400, /Валюта/);
    expectError(await create('hostings', { ...ok, tariff_id: 999 }), 400, /999/);
    expectError(await create('hostings', { ...ok, tariff_id: 104 }), 400, /архив/);
    expectError(await create('hostings', { ...ok, tariff_id: 201 }), 400, /201/);
    // Requisites: exactly one block.
    const { natural_person_requisites: _n, ...noBlock } = ok;
    expectError(await create('hostings', noBlock), 400, /реквизит/);
    expectError(await create('hostings', { ...ok, juridical_person_requisites: juridical }), 400, /один/);
    // postal_address is optional (a copy of legal_address).
    const { natural_person_requisites: _m, ...withoutNatural } = ok;
    const reply = await create('hostings', { ...withoutNatural, juridical_person_requisites: juridical });
    expect(reply.status, reply.text).toBe(200);
    expectError(
      await create('hostings', {
        ...withoutNatural,
        juridical_person_requisites: { ...juridical, postal_address: { city: 'Минск' } },
      }),
      400,
      /juridical_person_requisites\.postal_address\.postal_code/,
    );
  });
});

describe('sandbox: domains (check, certificate, name servers, DNS records)', () => {
  let sb: Sandbox;
  beforeEach(async () => {
    sb = await startSandbox({ token: TOKEN });
  });
  afterEach(() => sb.close());

  it('POST /v1/domains/check: deterministic rules, IDN in Unicode and punycode', async () => {
    const domains = [
      'free-name.by',
      'Free-Name-2.COM',
      'example.by',
      'taken-anything.ru',
      'premium-shop.by',
      'ab.by',
      'mysite.by',
      'яндекс.рф',
      'xn--d1acpjx3f.xn--p1ai',
      'новый-сайт.бел',
      'xn--e1afmkfd.xn--90ais',
      'shop.com.by',
      'new.com.by',
      'sub.domain.by',
      'not a domain',
      'bad_name.by',
      'name.xyz',
      '',
    ];
    const reply = await call(sb, 'POST', '/v1/domains/check', { body: { domains } });
    expect(reply.status, reply.text).toBe(200);
    const { results } = reply.json as {
      results: Array<{ domain: string; is_available: boolean; is_premium: boolean; state: string }>;
    };
    const summary = results.map((r) => `${r.domain}|${r.is_available}|${r.is_premium}|${r.state}`);
    expect(summary).toEqual([
      'free-name.by|true|false|Available',
      'free-name-2.com|true|false|Available',
      'example.by|false|false|NotAvailable',
      'taken-anything.ru|false|false|NotAvailable',
      'premium-shop.by|true|true|Available',
      'ab.by|true|true|Available',
      'mysite.by|false|false|NotAvailable',
      'яндекс.рф|false|false|NotAvailable',
      'xn--d1acpjx3f.xn--p1ai|false|false|NotAvailable',
      'новый-сайт.бел|true|false|Available',
      'xn--e1afmkfd.xn--90ais|false|false|NotAvailable',
      'shop.com.by|false|false|NotAvailable',
      'new.com.by|true|false|Available',
      'sub.domain.by|false|false|Invalid',
      'not a domain|false|false|Invalid',
      'bad_name.by|false|false|Invalid',
      'name.xyz|false|false|UnsupportedZone',
      '|false|false|Invalid',
    ]);
    expectError(await call(sb, 'POST', '/v1/domains/check', { body: {} }), 400, /«domains» обязательно/);
    expectError(await call(sb, 'POST', '/v1/domains/check', { body: { domains: [] } }), 400, /domains/);
    expectError(await call(sb, 'POST', '/v1/domains/check', { body: { domains: [1] } }), 400, /domains\[0\]/);
    expectError(
      await call(sb, 'POST', '/v1/domains/check', { body: { domains: ['a.by'], extra: true } }),
      400,
      /Недопустимое свойство «extra»/,
    );
  });

  it('GET /v1/domains/{orderId}/certificate', async () => {
    const reply = await call(sb, 'GET', '/v1/domains/1007/certificate');
    expect(reply.status).toBe(200);
    const { url } = reply.json as { url: string };
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('пример.бел');
  });

  it('name servers: get, hosting, editor, custom, delete', async () => {
    const servers = async () =>
      ((await call(sb, 'GET', '/v1/domains/1009/dns/servers')).json as { servers: unknown[] }).servers;
    expect(await servers()).toEqual([
      { ns: 'ns1.mycompany.ru', ip: '185.12.34.56' },
      { ns: 'ns2.mycompany.ru', ip: '185.12.34.57' },
    ]);
    const hosting = await call(sb, 'PUT', '/v1/domains/1009/dns/servers/hosting');
    expectEmpty200(hosting);
    expect(await servers()).toEqual([
      { ns: 'ns1.sandbox-host.by', ip: null },
      { ns: 'ns2.sandbox-host.by', ip: null },
    ]);
    expectEmpty200(await call(sb, 'PUT', '/v1/domains/1009/dns/servers/editor'));
    expect(await servers()).toEqual([
      { ns: 'dns1.sandbox-host.by', ip: null },
      { ns: 'dns2.sandbox-host.by', ip: null },
    ]);
    expectEmpty200(
      await call(sb, 'PUT', '/v1/domains/1009/dns/servers/custom', {
        body: {
          servers: [
            { ns: 'ns1.mycompany.ru', ip: '185.12.34.56' },
            { ns: 'ns2.mycompany.ru', ip: null },
            { ns: 'ns3.mycompany.ru' },
            { ns: 'ns4.mycompany.ru', ip: '2a00:1760::53' },
          ],
        },
      }),
    );
    expect(await servers()).toEqual([
      { ns: 'ns1.mycompany.ru', ip: '185.12.34.56' },
      { ns: 'ns2.mycompany.ru', ip: null },
      { ns: 'ns3.mycompany.ru', ip: null },
      { ns: 'ns4.mycompany.ru', ip: '2a00:1760::53' },
    ]);
    expectEmpty200(await call(sb, 'DELETE', '/v1/domains/1009/dns/servers'));
    expect(await servers()).toEqual([]);

    const custom = (body: unknown) => call(sb, 'PUT', '/v1/domains/1009/dns/servers/custom', { body });
    expectError(await custom({}), 400, /«servers» обязательно/);
    expectError(await custom({ servers: [] }), 400, /servers/);
    expectError(await custom({ servers: [{ ip: '1.2.3.4' }] }), 400, /«servers\[0\]\.ns» обязательно/);
    expectError(await custom({ servers: [{ ns: '' }] }), 400, /servers\[0\]\.ns/);
    expectError(await custom({ servers: [{ ns: 'ns1.a.by', ip: '300.1.1.1' }] }), 400, /servers\[0\]\.ip/);
    expectError(await custom({ servers: [{ ns: 'ns1.a.by', weight: 1 }] }), 400, /servers\[0\]\.weight/);
    const fourteen = Array.from({ length: 14 }, (_, i) => ({ ns: `ns${i}.a.by` }));
    expectError(await custom({ servers: fourteen }), 400, /servers/);
  });

  it('DNS records: list, add all 7 kinds, delete', async () => {
    const records = async (orderId = 1006) =>
      ((await call(sb, 'GET', `/v1/domains/${orderId}/dns/records`)).json as { records: DnsRecordItem[] })
        .records;
    const seeded = await records();
    expect(seeded.map((r) => r.type)).toEqual([
      'A',
      'A',
      'AAAA',
      'CNAME',
      'MX',
      'MX',
      'TXT',
      'TXT',
      'SRV',
      'NS',
    ]);
    expect(seeded[0]).toEqual({ record_id: 30001, type: 'A', ttl: 3600, value: '@ 93.125.99.10' });

    const longText = `v=DKIM1; k=rsa; p="${'A'.repeat(2100)}"`;
    const additions: Array<[string, Record<string, unknown>, string, string]> = [
      ['ns', { ttl: 86400, host: 'dev', ns: 'ns1.other.by' }, 'NS', 'dev ns1.other.by'],
      ['a', { ttl: 300, host: 'api', ipv4: '93.125.99.11' }, 'A', 'api 93.125.99.11'],
      ['aaaa', { ttl: 300, host: 'api', ipv6: '2a00:1760::11' }, 'AAAA', 'api 2a00:1760::11'],
      ['cname', { ttl: 600, host: 'blog', canonical: 'mysite.by' }, 'CNAME', 'blog mysite.by'],
      [
        'mx',
        { ttl: 3600, host: '@', mail_server: 'mx3.sandbox-host.by', priority: 30 },
        'MX',
        '@ 30 mx3.sandbox-host.by',
      ],
      ['txt', { ttl: 3600, host: 'mail._domainkey', text: longText }, 'TXT', `mail._domainkey ${longText}`],
      [
        'srv',
        {
          ttl: 3600,
          host: '@',
          service: '_xmpp',
          protocol: '_tcp',
          target: 'xmpp.mysite.by',
          port: 5222,
          priority: 5,
          weight: 0,
        },
        'SRV',
        '@ _xmpp _tcp 5 0 5222 xmpp.mysite.by',
      ],
    ];
    let lastId = Math.max(...seeded.map((r) => r.record_id));
    for (const [kind, body, type, value] of additions) {
      const reply = await call(sb, 'POST', `/v1/domains/1006/dns/records/${kind}`, { body });
      expectEmpty200(reply);
      const added = (await records()).at(-1);
      expect(added?.type).toBe(type);
      expect(added?.value).toBe(value);
      expect(added?.ttl).toBe(body.ttl);
      expect(added?.record_id).toBeGreaterThan(lastId);
      lastId = added?.record_id ?? lastId;
    }
    const all = await records();
    expect(all).toHaveLength(seeded.length + 7);
    for (const [kind, , type] of additions) {
      const record = all.filter((r) => r.type === type).at(-1);
      expect(record).toBeDefined();
      expect((await call(sb, 'DELETE', `/v1/domains/1006/dns/records/a/${record?.record_id}`)).status).toBe(
        type === 'A' ? 200 : 404,
      );
      if (type !== 'A')
        expectEmpty200(await call(sb, 'DELETE', `/v1/domains/1006/dns/records/${kind}/${record?.record_id}`));
    }
    expect(await records()).toEqual(seeded);
    expect((await call(sb, 'DELETE', '/v1/domains/1006/dns/records/a/30001')).status).toBe(200);
    expect((await call(sb, 'DELETE', '/v1/domains/1006/dns/records/a/30001')).status).toBe(404);
    expect((await call(sb, 'DELETE', '/v1/domains/1006/dns/records/a/999999')).status).toBe(404);
    // A record of another order is not found through this one.
    expect((await call(sb, 'DELETE', '/v1/domains/1007/dns/records/a/30002')).status).toBe(404);
  });

  it('DNS record values are validated', async () => {
    const add = (kind: string, body: unknown) =>
      call(sb, 'POST', `/v1/domains/1006/dns/records/${kind}`, { body });
    expectError(await add('a', { ttl: 300, host: 'x', ipv4: '256.1.1.1' }), 400, /ipv4/);
    expectError(await add('a', { ttl: 300, host: 'x', ipv4: '1.2.3' }), 400, /ipv4/);
    expectError(await add('aaaa', { ttl: 300, host: 'x', ipv6: '2a00::1::2' }), 400, /ipv6/);
    expectError(await add('a', { ttl: 0, host: 'x', ipv4: '1.2.3.4' }), 400, /ttl/);
    expectError(await add('a', { ttl: 2_147_483_648, host: 'x', ipv4: '1.2.3.4' }), 400, /ttl/);
    expectError(await add('a', { ttl: 30.5, host: 'x', ipv4: '1.2.3.4' }), 400, /ttl/);
    expectError(await add('a', { ttl: 300, host: '', ipv4: '1.2.3.4' }), 400, /«host» обязательно/);
    expectError(await add('a', { ttl: 300, ipv4: '1.2.3.4' }), 400, /«host» обязательно/);
    expectError(await add('a', { ttl: 300, host: 'x', ipv4: '1.2.3.4', ipv6: '::1' }), 400, /«ipv6»/);
    expectError(
      await add('mx', { ttl: 300, host: '@', mail_server: 'mx.a.by', priority: 70000 }),
      400,
      /priority/,
    );
    expectError(
      await add('mx', { ttl: 300, host: '@', mail_server: 'mx.a.by', priority: -1 }),
      400,
      /priority/,
    );
    expectError(await add('txt', { ttl: 300, host: '@', text: '' }), 400, /text/);
    const srv = {
      ttl: 300,
      host: '@',
      service: '_sip',
      protocol: '_udp',
      target: 'sip.a.by',
      priority: 1,
      weight: 1,
    };
    expectError(await add('srv', { ...srv, port: 65536 }), 400, /port/);
    expectError(await add('srv', srv), 400, /«port» обязательно/);
    expectError(await add('cname', { ttl: 300, host: 'www', canonical: 7 }), 400, /canonical/);
    expect((await call(sb, 'GET', '/v1/domains/1006/dns/records')).json).toMatchObject({
      records: expect.any(Array),
    });
  });

  it('403 for another partner’s order, 404 for a non-domain or unknown order', async () => {
    const calls: Array<[string, string, unknown?]> = [
      ['GET', 'certificate'],
      ['GET', 'dns/servers'],
      ['DELETE', 'dns/servers'],
      ['PUT', 'dns/servers/hosting'],
      ['PUT', 'dns/servers/editor'],
      ['PUT', 'dns/servers/custom', { servers: [{ ns: 'ns1.a.by' }] }],
      ['GET', 'dns/records'],
      ['POST', 'dns/records/a', { ttl: 300, host: 'x', ipv4: '1.2.3.4' }],
      ['DELETE', 'dns/records/a/30001'],
    ];
    for (const [method, tail, body] of calls) {
      const init = body === undefined ? {} : { body };
      const foreign = await call(sb, method, `/v1/domains/9001/${tail}`, init);
      expect(foreign.status, `${method} 9001/${tail}`).toBe(403);
      expect(foreign.text).toBe('');
      expect((await call(sb, method, `/v1/domains/9002/${tail}`, init)).status).toBe(403);
      expect(
        (await call(sb, method, `/v1/domains/1001/${tail}`, init)).status,
        `${method} 1001/${tail}`,
      ).toBe(404);
      expect((await call(sb, method, `/v1/domains/424242/${tail}`, init)).status).toBe(404);
    }
  });
});

describe('sandbox: faults', () => {
  let sb: Sandbox;
  beforeEach(async () => {
    sb = await startSandbox({ token: TOKEN });
  });
  afterEach(() => sb.close());

  it('status: answers the status once (by default), then normally', async () => {
    sb.addFault({ path: '/v1/billing/currencies', fault: { kind: 'status', status: 503 } });
    const failed = await call(sb, 'GET', '/v1/billing/currencies');
    expect(failed.status).toBe(503);
    expect(failed.text).toBe('');
    expect((await call(sb, 'GET', '/v1/billing/currencies')).status).toBe(200);
    sb.addFault({
      path: '/v1/billing/currencies',
      times: 2,
      fault: { kind: 'status', status: 500, body: 'oops' },
    });
    expect((await call(sb, 'GET', '/v1/billing/currencies')).text).toBe('oops');
    expect((await call(sb, 'GET', '/v1/billing/currencies')).status).toBe(500);
    expect((await call(sb, 'GET', '/v1/billing/currencies')).status).toBe(200);
  });

  it('matching by method, prefix, RegExp; Infinity; clearFaults', async () => {
    sb.addFault({
      method: 'post',
      path: '/v1/domains/*',
      times: Number.POSITIVE_INFINITY,
      fault: { kind: 'status', status: 502 },
    });
    expect((await call(sb, 'GET', '/v1/domains/1006/dns/records')).status).toBe(200);
    for (let i = 0; i < 3; i += 1) {
      expect((await call(sb, 'POST', '/v1/domains/check', { body: { domains: ['a.by'] } })).status).toBe(502);
    }
    sb.clearFaults();
    expect((await call(sb, 'POST', '/v1/domains/check', { body: { domains: ['a.by'] } })).status).toBe(200);
    sb.addFault({ path: /\/url$/, fault: { kind: 'status', status: 429 } });
    expect((await call(sb, 'GET', '/v1/billing/invoices')).status).toBe(200);
    expect((await call(sb, 'GET', '/v1/billing/invoices/5001/url')).status).toBe(429);
    expect((await call(sb, 'GET', '/v1/billing/invoices/5001/url')).status).toBe(200);
  });

  it('faulted requests are still recorded', async () => {
    sb.addFault({ path: '/v1/orders', fault: { kind: 'status', status: 500 } });
    const before = sb.requests.length;
    await call(sb, 'GET', '/v1/orders');
    expect(sb.requests.length - before).toBe(1);
    expect(sb.requests.at(-1)?.path).toBe('/v1/orders');
  });

  it('delay: answers normally after the delay', async () => {
    sb.addFault({ path: '/v1/billing/currencies', fault: { kind: 'delay', ms: 250 } });
    const started = Date.now();
    const reply = await call(sb, 'GET', '/v1/billing/currencies');
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ currencies: expect.any(Array) });
  });

  it('malformed: answers the raw body as JSON content', async () => {
    sb.addFault({ path: '/v1/billing/invoices', fault: { kind: 'malformed', body: '{"invoices": [' } });
    const reply = await call(sb, 'GET', '/v1/billing/invoices');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(reply.text).toBe('{"invoices": [');
    sb.addFault({ path: '/v1/billing/invoices', fault: { kind: 'malformed', body: '<html>', status: 502 } });
    expect((await call(sb, 'GET', '/v1/billing/invoices')).status).toBe(502);
  });

  it('reset: destroys the connection without answering', async () => {
    sb.addFault({ path: '/v1/billing/payments', fault: { kind: 'reset' } });
    await expect(call(sb, 'GET', '/v1/billing/payments')).rejects.toThrow();
    expect((await call(sb, 'GET', '/v1/billing/payments')).status).toBe(200);
  });

  it('hang: never answers; the client gives up; close() is prompt', async () => {
    sb.addFault({ path: '/v1/billing/statements', times: 2, fault: { kind: 'hang' } });
    await expect(
      call(sb, 'GET', '/v1/billing/statements', { signal: AbortSignal.timeout(200) }),
    ).rejects.toThrow();
    const pending = call(sb, 'GET', '/v1/billing/statements').then(
      () => 'answered',
      () => 'failed',
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    await sb.close();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await pending).toBe('failed');
  });

  it('close() ends keep-alive connections and a pending delay promptly', async () => {
    await call(sb, 'GET', '/v1/billing/currencies');
    sb.addFault({ path: '/v1/billing/currencies', fault: { kind: 'delay', ms: 60_000 } });
    const pending = call(sb, 'GET', '/v1/billing/currencies').then(
      () => 'answered',
      () => 'failed',
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    await sb.close();
    await sb.close();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await pending).toBe('failed');
  });
});

describe('sandbox: HTTP control endpoints', () => {
  let sb: Sandbox;
  beforeEach(async () => {
    sb = await startSandbox({ token: TOKEN });
  });
  afterEach(() => sb.close());

  async function control(method: string, path: string, body?: unknown, token: string | null = TOKEN) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (token !== null) headers['x-api-token'] = token;
    const response = await fetch(`${sb.url}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, text: await response.text() };
  }

  it('require the token', async () => {
    expect((await control('GET', '/__sandbox/requests', undefined, null)).status).toBe(401);
    expect((await control('DELETE', '/__sandbox/faults', undefined, 'wrong')).status).toBe(401);
    expect((await control('GET', '/__sandbox/nothing')).status).toBe(404);
  });

  it('POST and DELETE /__sandbox/faults', async () => {
    const added = await control('POST', '/__sandbox/faults', {
      method: 'GET',
      path: '/v1/billing/*',
      times: 'Infinity',
      fault: { kind: 'status', status: 500, body: '{"message":"Внутренняя ошибка"}' },
    });
    expect(added.status).toBe(200);
    const failed = await call(sb, 'GET', '/v1/billing/currencies');
    expect(failed.status).toBe(500);
    expect(failed.json).toEqual({ message: 'Внутренняя ошибка' });
    expect((await call(sb, 'GET', '/v1/billing/payments')).status).toBe(500);
    expect((await control('DELETE', '/__sandbox/faults')).status).toBe(200);
    expect((await call(sb, 'GET', '/v1/billing/currencies')).status).toBe(200);
    expect((await control('POST', '/__sandbox/faults', { path: '/x', fault: { kind: 'boom' } })).status).toBe(
      400,
    );
    expect((await control('POST', '/__sandbox/faults', { fault: { kind: 'hang' } })).status).toBe(400);
    expect(
      (await control('POST', '/__sandbox/faults', { path: '/x', times: 0, fault: { kind: 'reset' } })).status,
    ).toBe(400);
    await control('POST', '/__sandbox/faults', { path: '/v1/orders', fault: { kind: 'delay', ms: 100 } });
    const started = Date.now();
    expect((await call(sb, 'GET', '/v1/orders')).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
  });

  it('GET and DELETE /__sandbox/requests; control calls are not recorded; tokens are masked', async () => {
    await call(sb, 'GET', '/v1/billing/currencies');
    await call(sb, 'GET', '/v1/billing/currencies', { token: 'someone-elses-token' });
    await call(sb, 'POST', '/v1/domains/check', { body: { domains: ['a.by'] }, header: 'x-auth-token' });
    const listed = await control('GET', '/__sandbox/requests');
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain(TOKEN);
    expect(listed.text).not.toContain('someone-elses-token');
    const { requests } = JSON.parse(listed.text) as {
      requests: Array<{ method: string; path: string; headers: Record<string, string>; body: unknown }>;
    };
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /v1/billing/currencies',
      'GET /v1/billing/currencies',
      'POST /v1/domains/check',
    ]);
    expect(requests[0]?.headers['x-api-token']).toBe('[valid token]');
    expect(requests[1]?.headers['x-api-token']).toBe('[redacted]');
    expect(requests[2]?.headers['x-auth-token']).toBe('[valid token]');
    expect(requests[2]?.body).toEqual({ domains: ['a.by'] });
    expect(sb.requests).toHaveLength(3);
    expect((await control('DELETE', '/__sandbox/requests')).status).toBe(200);
    expect(sb.requests).toHaveLength(0);
    expect(JSON.parse((await control('GET', '/__sandbox/requests')).text)).toEqual({ requests: [] });
  });
});

describe('sandbox: instances are independent', () => {
  it('each sandbox starts from a fresh copy of the seed', async () => {
    const a = await startSandbox();
    const b = await startSandbox();
    try {
      expectEmpty200(await call(a, 'DELETE', '/v1/domains/1006/dns/servers'));
      expect((await call(a, 'GET', '/v1/domains/1006/dns/servers')).json).toEqual({ servers: [] });
      expect(
        ((await call(b, 'GET', '/v1/domains/1006/dns/servers')).json as { servers: unknown[] }).servers,
      ).toHaveLength(2);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
