import { Resolver } from 'node:dns/promises';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startKeptSandbox } from '../../src/sandbox/persist.js';
import { SECOND_PARTNER, SEED } from '../../src/sandbox/seed.js';
import { ControlError, type Sandbox, startSandbox } from '../../src/sandbox/server.js';

const FIRST = 'first-token';
const SECOND = 'second-token';

async function call(sandbox: Sandbox, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${sandbox.url}${path}${path.includes('?') ? '&' : '?'}version=1.0`, {
    method,
    headers: { 'x-api-token': token, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  // biome-ignore lint/suspicious/noExplicitAny: answers of several shapes, read field by field
  return { status: res.status, body: (text === '' ? {} : JSON.parse(text)) as Record<string, any> };
}

const ids = (list: unknown, key: string): number[] =>
  (list as Record<string, number>[]).map((item) => item[key] as number);

async function world(sandbox: Sandbox, token: string) {
  const get = async (path: string, key: string, id: string) =>
    ids((await call(sandbox, token, 'GET', path)).body[key], id);
  return {
    orders: await get('/v1/orders', 'orders', 'order_id'),
    invoices: await get('/v1/billing/invoices', 'invoices', 'invoice_id'),
    payments: await get('/v1/billing/payments', 'payments', 'payment_id'),
    statements: await get('/v1/billing/statements', 'statements', 'statement_id'),
    partnerStatements: await get(
      '/v1/billing/partner-statements',
      'partner_statements',
      'partner_statement_id',
    ),
  };
}

describe('one sandbox, two partners', () => {
  let sandbox: Sandbox;
  let resolver: Resolver;

  beforeAll(async () => {
    sandbox = await startSandbox({ token: FIRST, partners: [{ token: SECOND }], dns: { port: 0 } });
    resolver = new Resolver();
    resolver.setServers([`127.0.0.1:${sandbox.dns?.port}`]);
  });
  afterAll(() => sandbox.close());
  afterEach(() => sandbox.clearFaults());

  it('gives each token its own world, with ids disjoint from the other one', async () => {
    const first = await world(sandbox, FIRST);
    const second = await world(sandbox, SECOND);
    expect(first.orders).toEqual(Object.values(SEED.orders));
    expect(second.orders).toEqual(Object.values(SECOND_PARTNER.orders));
    expect(second.invoices).toEqual(Object.values(SECOND_PARTNER.invoices));
    expect(second.payments).toEqual(SECOND_PARTNER.payments);
    expect(second.statements).toEqual(SECOND_PARTNER.statements);
    expect(second.partnerStatements[0]).toBe(SECOND_PARTNER.partnerStatements.first);
    expect(second.partnerStatements.at(-1)).toBe(SECOND_PARTNER.partnerStatements.last);
    for (const key of Object.keys(first) as (keyof typeof first)[]) {
      expect(
        first[key].filter((id) => second[key].includes(id)),
        key,
      ).toEqual([]);
    }
    const records = await call(
      sandbox,
      SECOND,
      'GET',
      `/v1/domains/${SECOND_PARTNER.orders.domainBy}/dns/records`,
    );
    expect(ids(records.body.records, 'record_id')).toEqual([40001, 40002, 40003, 40004]);
    const domains = await call(sandbox, SECOND, 'GET', '/v1/orders/domains');
    expect((domains.body.orders as { advanced: { domain: string } }[]).map((o) => o.advanced.domain)).toEqual(
      [SECOND_PARTNER.domains.by, SECOND_PARTNER.domains.com],
    );
  });

  it("answers 403 to either partner for the other's orders, invoices and statements", async () => {
    const forbidden = async (token: string, path: string) => (await call(sandbox, token, 'GET', path)).status;
    expect(await forbidden(FIRST, `/v1/domains/${SECOND_PARTNER.orders.domainBy}/dns/records`)).toBe(403);
    expect(await forbidden(FIRST, `/v1/domains/${SECOND_PARTNER.orders.domainBy}/certificate`)).toBe(403);
    expect(await forbidden(FIRST, `/v1/billing/invoices/${SECOND_PARTNER.invoices.domainCom}/url`)).toBe(403);
    expect(await forbidden(FIRST, `/v1/billing/statements/${SECOND_PARTNER.statements[0]}/url`)).toBe(403);
    expect(await forbidden(SECOND, `/v1/domains/${SEED.orders.domainBy}/dns/records`)).toBe(403);
    expect(await forbidden(SECOND, `/v1/billing/invoices/5002/url`)).toBe(403);
    expect(await forbidden(SECOND, '/v1/billing/statements/8001/url')).toBe(403);
    expect(await forbidden(SECOND, `/v1/domains/${SEED.foreignOrders.domain}/dns/records`)).toBe(404);
    // Writing is refused as well, and nothing lands in the other's world.
    const add = await call(sandbox, SECOND, 'POST', `/v1/domains/${SEED.orders.domainBy}/dns/records/a`, {
      ttl: 300,
      host: 'intruder',
      ipv4: '192.0.2.66',
    });
    expect(add.status).toBe(403);
    const own = await call(sandbox, FIRST, 'GET', `/v1/domains/${SEED.orders.domainBy}/dns/records`);
    expect(JSON.stringify(own.body)).not.toContain('intruder');
    // A list filtered by the other's id is empty, not the other's.
    const filtered = await call(sandbox, SECOND, 'GET', '/v1/billing/invoices?order_id=1002');
    expect(filtered.body).toEqual({ invoices: [] });
  });

  it("takes a domain the other partner ordered, and serves both partners' zones over DNS", async () => {
    const check = await call(sandbox, FIRST, 'POST', '/v1/domains/check', {
      domains: [SECOND_PARTNER.domains.by, 'studio-free.by'],
    });
    expect((check.body.results as { state: string }[]).map((d) => d.state)).toEqual([
      'NotAvailable',
      'Available',
    ]);
    expect(await resolver.resolve4(SECOND_PARTNER.domains.by)).toEqual(['192.0.2.20']);
    expect(await resolver.resolve4('mysite.by')).toEqual(['93.125.99.10']);
    await call(sandbox, SECOND, 'POST', `/v1/domains/${SECOND_PARTNER.orders.domainBy}/dns/records/txt`, {
      ttl: 300,
      host: '_check',
      text: 'second',
    });
    expect(await resolver.resolveTxt(`_check.${SECOND_PARTNER.domains.by}`)).toEqual([['second']]);
  });

  it('creates new orders and invoices in the id range of the partner that made them', async () => {
    const created = await call(sandbox, SECOND, 'POST', '/v1/orders/corporate-mails', {
      tariff_id: 201,
      period_unit_count: 1,
      currency_id: 1,
      phone: '+375291234567',
      email: 'studio@example.by',
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
    });
    expect(created.status).toBe(200);
    const orderId = created.body.order_id as number;
    expect(orderId).toBe(SECOND_PARTNER.firstNewOrderId);
    expect((await world(sandbox, SECOND)).orders).toContain(orderId);
    expect((await world(sandbox, FIRST)).orders).not.toContain(orderId);
    const invoice = sandbox.partner(2).createInvoice(SECOND_PARTNER.orders.hosting);
    expect(invoice.invoice_id).toBeGreaterThanOrEqual(SECOND_PARTNER.firstNewInvoiceId);
    const list = await call(sandbox, SECOND, 'GET', `/v1/billing/invoices?invoice_id=${invoice.invoice_id}`);
    expect(ids(list.body.invoices, 'invoice_id')).toEqual([invoice.invoice_id]);
    const notFirst = await call(
      sandbox,
      FIRST,
      'GET',
      `/v1/billing/invoices?invoice_id=${invoice.invoice_id}`,
    );
    expect(notFirst.body).toEqual({ invoices: [] });
  });

  it('lets control calls name the partner (default the first), in process and over HTTP', async () => {
    expect(() => sandbox.payInvoice(SECOND_PARTNER.invoices.domainCom)).toThrow(ControlError);
    const paid = sandbox.partner(2).payInvoice(SECOND_PARTNER.invoices.domainCom);
    expect(paid.payment_id).toBe(17003);
    expect(() => sandbox.partner(2).payInvoice(5002)).toThrow(ControlError);
    expect(() => sandbox.partner(3)).toThrow(/no partner 3/);

    const over = async (path: string, body?: unknown) => {
      const res = await fetch(`${sandbox.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const mail = SECOND_PARTNER.invoices.mailNew;
    expect((await over(`/__sandbox/invoices/${mail}/pay`)).status).toBe(404);
    const viaHttp = await over(`/__sandbox/invoices/${mail}/pay?partner=2`);
    expect(viaHttp.status).toBe(200);
    expect(viaHttp.body.invoice_id).toBe(mail);
    expect((await over(`/__sandbox/orders/${SECOND_PARTNER.orders.mailNew}/complete?partner=2`)).status).toBe(
      200,
    );
    expect(
      (await over('/__sandbox/invoices?partner=2', { order_id: SECOND_PARTNER.orders.domainBy })).status,
    ).toBe(200);
    expect((await over('/__sandbox/invoices/5002/pay?partner=9')).status).toBe(404);
    expect((await over('/__sandbox/invoices/5002/pay?partner=x')).status).toBe(400);

    const second = await world(sandbox, SECOND);
    expect(second.payments).toContain(paid.payment_id);
    const first = await world(sandbox, FIRST);
    expect(first.payments).not.toContain(paid.payment_id);
    expect(
      sandbox
        .partner(2)
        .openItems()
        .pending.map((item) => item.id),
    ).not.toContain(SECOND_PARTNER.orders.mailNew);
  });

  it('records which partner made each request, and faults can aim at one partner', async () => {
    sandbox.requests.length = 0;
    sandbox.addFault({ path: '/v1/orders', partner: 2, fault: { kind: 'status', status: 503 } });
    expect((await call(sandbox, FIRST, 'GET', '/v1/orders')).status).toBe(200);
    expect((await call(sandbox, SECOND, 'GET', '/v1/orders')).status).toBe(503);
    expect((await call(sandbox, SECOND, 'GET', '/v1/orders')).status).toBe(200);
    expect((await call(sandbox, 'wrong', 'GET', '/v1/orders')).status).toBe(401);
    expect(sandbox.requests.map((r) => r.partner)).toEqual([1, 2, 2, undefined]);
    expect(sandbox.partner(2).requests()).toHaveLength(2);

    const res = await fetch(`${sandbox.url}/__sandbox/requests?partner=2`, {
      headers: { 'x-api-token': SECOND },
    });
    const body = (await res.json()) as { requests: { partner: number; headers: Record<string, string> }[] };
    expect(body.requests.map((r) => r.partner)).toEqual([2, 2]);
    expect(JSON.stringify(body)).not.toContain(SECOND);
    expect(body.requests[0]?.headers['x-api-token']).toBe('[valid token]');
  });

  it('keeps one clock for both partners', async () => {
    sandbox.setClock('14.01.2027 10:00');
    const invoice = sandbox.partner(2).createInvoice(SECOND_PARTNER.orders.domainBy);
    const list = await call(sandbox, SECOND, 'GET', `/v1/billing/invoices?invoice_id=${invoice.invoice_id}`);
    expect((list.body.invoices as { creation_date: string }[])[0]?.creation_date).toBe('14.01.2027');
  });
});

describe('a kept sandbox with two partners', () => {
  let dir: string;
  const running: Sandbox[] = [];
  beforeAll(async () => {
    dir = join(await mkdtemp(join(tmpdir(), 'partner-bot-sandbox-')), 'sandbox');
  });
  afterAll(async () => {
    await Promise.all(running.splice(0).map((sandbox) => sandbox.close()));
    await rm(join(dir, '..'), { recursive: true, force: true });
  });

  it('keeps both tokens and both worlds across a restart', async () => {
    const start = async () => {
      const kept = await startKeptSandbox(dir, { port: 0, partners: [{}] });
      running.push(kept.sandbox);
      return kept;
    };
    const before = await start();
    expect(before.files.partners.map((p) => [p.n, p.tokenFrom, p.dataFrom])).toEqual([[2, 'new', 'seed']]);
    const second = before.sandbox.partner(2).token;
    expect((await readFile(join(dir, 'token-2'), 'utf8')).trim()).toBe(second);
    expect(second).not.toBe(before.sandbox.token);
    await call(
      before.sandbox,
      second,
      'POST',
      `/v1/domains/${SECOND_PARTNER.orders.domainBy}/dns/records/a`,
      {
        ttl: 300,
        host: 'kept',
        ipv4: '192.0.2.77',
      },
    );
    before.sandbox.partner(2).payInvoice(SECOND_PARTNER.invoices.domainCom);
    before.sandbox.payInvoice(5002);
    await before.sandbox.close();

    const after = await start();
    expect(after.files.partners.map((p) => [p.tokenFrom, p.dataFrom])).toEqual([['kept', 'kept']]);
    expect(after.sandbox.partner(2).token).toBe(second);
    const records = await call(
      after.sandbox,
      second,
      'GET',
      `/v1/domains/${SECOND_PARTNER.orders.domainBy}/dns/records`,
    );
    expect(JSON.stringify(records.body)).toContain('kept 192.0.2.77');
    const paid = await call(
      after.sandbox,
      second,
      'GET',
      `/v1/billing/invoices?invoice_id=${SECOND_PARTNER.invoices.domainCom}`,
    );
    expect((paid.body.invoices as { state: string }[])[0]?.state).toBe('Paid');
    const firstPaid = await call(
      after.sandbox,
      after.sandbox.token,
      'GET',
      '/v1/billing/invoices?invoice_id=5002',
    );
    expect((firstPaid.body.invoices as { state: string }[])[0]?.state).toBe('Paid');
    expect(
      (
        await call(
          after.sandbox,
          after.sandbox.token,
          'GET',
          `/v1/domains/${SECOND_PARTNER.orders.domainBy}/dns/records`,
        )
      ).status,
    ).toBe(403);
  });
});
