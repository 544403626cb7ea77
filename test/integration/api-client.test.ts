import { createServer } from 'node:net';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiError,
  ApiHttpError,
  ApiNetworkError,
  ApiResponseError,
  ApiTimeoutError,
  createPartnerApi,
  type DomainOrder,
  type PartnerApi,
  PartnerTransport,
} from '../../src/api/index.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { CONTACTS, CSR_PEM, NATURAL_PERSON } from '../helpers/fixtures.js';

/*
 * The client against the sandbox, over real HTTP on 127.0.0.1: every operation of
 * partner-api.md once, then every error kind. Ids are discovered through the list calls, so the
 * test holds whatever the seed data is.
 */

let sandbox: Sandbox;
let transport: PartnerTransport;
let api: PartnerApi;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  transport = new PartnerTransport({ baseUrl: sandbox.url, timeoutMs: 5_000, retryDelayMs: 5 });
  api = createPartnerApi(transport, sandbox.token);
});

afterAll(async () => {
  await transport.close();
  await sandbox.close();
});

const naturalPerson = NATURAL_PERSON;
const contacts = CONTACTS;

function lastRequest() {
  const request = sandbox.requests.at(-1);
  if (!request) throw new Error('the sandbox received nothing');
  return request;
}

async function someDomainOrder(): Promise<DomainOrder> {
  const orders = await api.listDomainOrders();
  const order = orders.find((o) => o.advanced?.domain);
  if (!order) throw new Error('seed has no domain order');
  return order;
}

describe('billing (10 operations)', () => {
  it('lists currencies and sends both token headers and the version', async () => {
    const currencies = await api.listCurrencies();
    expect(currencies.map((c) => c.currency_code)).toContain('BYN');
    const request = lastRequest();
    expect(request.path).toBe('/v1/billing/currencies');
    expect(request.headers['x-api-token']).toBe(sandbox.token);
    expect(request.headers['x-auth-token']).toBe(sandbox.token);
    expect(request.query.version).toBe('1.0');
  });

  it('lists price lists, and the tariffs of one as of its date', async () => {
    const lists = await api.listPriceLists();
    expect(lists.length).toBeGreaterThan(0);
    const first = lists[0];
    if (!first) throw new Error('no price list');
    const tariffs = await api.getPriceListTariffs(Number(first.number), { as_of_date: first.as_of_date });
    expect(tariffs.tariffs.length).toBeGreaterThan(0);
    expect(lastRequest().query.as_of_date).toBe(first.as_of_date);
    expect(tariffs.tariffs[0]?.prices.length).toBeGreaterThan(0);
    await api.listPriceLists({ as_of_date: first.as_of_date });
    expect(lastRequest().query.as_of_date).toBe(first.as_of_date);
  });

  it('lists invoices, payments, statements and partner statements, with filters', async () => {
    const invoices = await api.listInvoices();
    const invoice = invoices[0];
    if (!invoice) throw new Error('seed has no invoice');
    const byOrder = await api.listInvoices({ order_id: invoice.order_id });
    expect(byOrder.every((i) => i.order_id === invoice.order_id)).toBe(true);
    expect(await api.listInvoices({ invoice_id: invoice.invoice_id })).toEqual([invoice]);

    const payments = await api.listPayments();
    expect(payments.length).toBeGreaterThan(0);
    const payment = payments[0];
    if (!payment) throw new Error('seed has no payment');
    expect(
      (await api.listPayments({ invoice_id: payment.invoice_id })).every(
        (p) => p.invoice_id === payment.invoice_id,
      ),
    ).toBe(true);

    const statements = await api.listStatements();
    const statement = statements[0];
    if (!statement) throw new Error('seed has no statement');
    expect(await api.listStatements({ statement_id: statement.statement_id })).toEqual([statement]);

    const partnerStatements = await api.listPartnerStatements();
    const partnerStatement = partnerStatements[0];
    if (!partnerStatement) throw new Error('seed has no partner statement');
    expect(await api.listPartnerStatements({ statement_id: partnerStatement.partner_statement_id })).toEqual([
      partnerStatement,
    ]);
  });

  it('gives the public links of an invoice, a statement and a partner statement', async () => {
    const [invoice] = await api.listInvoices();
    const [statement] = await api.listStatements();
    const [partnerStatement] = await api.listPartnerStatements();
    if (!invoice || !statement || !partnerStatement) throw new Error('seed is missing documents');
    for (const url of [
      await api.getInvoiceUrl(invoice.invoice_id),
      await api.getStatementUrl(statement.statement_id),
      await api.getPartnerStatementUrl(partnerStatement.partner_statement_id),
    ]) {
      expect(url).toMatch(/^https?:\/\//);
      const page = await fetch(url);
      expect(page.status).toBe(200);
    }
  });
});

describe('reference data (5 operations)', () => {
  it('lists services and the hosting tariffs of one service', async () => {
    const services = await api.listServices();
    expect(services.length).toBeGreaterThan(0);
    const all = await api.listHostingTariffs();
    const serviceId = all[0]?.service_id;
    if (!serviceId) throw new Error('no hosting tariff');
    const ofService = await api.listHostingTariffs({ service_id: Number(serviceId) });
    expect(ofService.length).toBeGreaterThan(0);
    expect(ofService.every((t) => t.service_id === serviceId)).toBe(true);
    expect(lastRequest().query.service_id).toBe(serviceId);
  });

  it('lists mail and SSL tariffs and domain zones, by currency', async () => {
    const [currency] = await api.listCurrencies();
    if (!currency) throw new Error('no currency');
    const mail = await api.listMailTariffs({ currency_id: currency.currency_id });
    expect(mail.length).toBeGreaterThan(0);
    const ssl = await api.listSslTariffs();
    expect(ssl.every((t) => t.period_type === 'year')).toBe(true);
    const zones = await api.listDomainZones();
    const names = zones.map((z) => z.name.toLowerCase().replace(/^\./, ''));
    for (const zone of ['by', 'бел', 'ru', 'su', 'рф', 'com']) expect(names).toContain(zone);
  });
});

describe('orders (5 lists, 4 creations)', () => {
  it('lists all orders and each kind, with the tolerant fields normalised', async () => {
    const all = await api.listOrders();
    expect(all.length).toBeGreaterThan(0);
    expect(typeof all[0]?.period_unit_count).toBe('number');
    const hosting = await api.listHostingOrders();
    const mail = await api.listMailOrders();
    const ssl = await api.listSslOrders();
    const domains = await api.listDomainOrders();
    for (const list of [hosting, mail, ssl, domains]) expect(list.length).toBeGreaterThan(0);
    expect(domains.some((o) => o.advanced?.domain)).toBe(true);
    const first = all[0];
    if (!first) throw new Error('no order');
    expect(await api.listOrders({ order_id: first.order_id })).toHaveLength(1);
    expect((await api.listOrders({ order_number: first.number }))[0]?.order_id).toBe(first.order_id);
  });

  it('creates a hosting order whose invoice appears with its link', async () => {
    const [tariff] = await api.listHostingTariffs();
    const [currency] = await api.listCurrencies();
    const period = tariff?.prices[0]?.period;
    if (!tariff || !currency || period === undefined) throw new Error('no tariff');
    const created = await api.createHostingOrder({
      period_unit_count: period,
      currency_id: currency.currency_id,
      tariff_id: tariff.tariff_id,
      ...contacts,
      natural_person_requisites: naturalPerson,
    });
    expect(created.order_id).toBeTypeOf('number');
    expect(created.invoice_url).toMatch(/^https?:\/\//);
    const request = lastRequest();
    expect(request.method).toBe('POST');
    expect(request.body).toEqual({
      period_unit_count: period,
      currency_id: currency.currency_id,
      tariff_id: tariff.tariff_id,
      ...contacts,
      natural_person_requisites: naturalPerson,
    });
    const orders = await api.listHostingOrders({ order_id: created.order_id as number });
    expect(orders[0]?.state).toBe('NewOrder');
    expect(orders[0]?.advanced?.tariff_id).toBe(tariff.tariff_id);
    const invoices = await api.listInvoices({ order_id: created.order_id as number });
    expect(invoices[0]?.invoice_id).toBe(created.invoice_id);
    expect(invoices[0]?.state).toBe('WaitingForPayment');
    expect(await api.getInvoiceUrl(created.invoice_id as number)).toBe(created.invoice_url);
  });

  it('creates a corporate-mail order and an SSL order from a CSR', async () => {
    const [currency] = await api.listCurrencies();
    const [mailTariff] = await api.listMailTariffs();
    const [sslTariff] = await api.listSslTariffs();
    if (!currency || !mailTariff || !sslTariff) throw new Error('reference data missing');
    const mail = await api.createMailOrder({
      period_unit_count: mailTariff.prices[0]?.period ?? 1,
      currency_id: currency.currency_id,
      tariff_id: mailTariff.tariff_id,
      ...contacts,
      natural_person_requisites: naturalPerson,
    });
    expect(mail.invoice_id).toBeTypeOf('number');
    const csr = CSR_PEM;
    const ssl = await api.createSslOrder({
      period_unit_count: sslTariff.prices[0]?.period ?? 1,
      currency_id: currency.currency_id,
      tariff_id: sslTariff.tariff_id,
      ...contacts,
      csr,
      natural_person_requisites: naturalPerson,
    });
    const [listed] = await api.listSslOrders({ order_id: ssl.order_id as number });
    expect(listed?.advanced?.use_csr).toBe(true);
  });

  it('creates a COM domain order with the zone registration tariff', async () => {
    const zones = await api.listDomainZones();
    const com = zones.find((z) => z.name.toLowerCase().replace(/^\./, '') === 'com');
    const [currency] = await api.listCurrencies();
    if (!com || !currency) throw new Error('no COM zone');
    const domain = `partner-bot-${Date.now()}.com`;
    const [check] = await api.checkDomains([domain]);
    expect(check?.is_available).toBe(true);
    const created = await api.createDomainOrder({
      period_unit_count: com.min_period,
      currency_id: currency.currency_id,
      tariff_id: com.actual_registration_tariff_id,
      domain,
      ...contacts,
      natural_person_requisites: naturalPerson,
    });
    const [listed] = await api.listDomainOrders({ order_id: created.order_id as number });
    expect(listed?.advanced?.domain).toBe(domain);
    const [again] = await api.checkDomains([domain]);
    expect(again?.is_available).toBe(false);
  });
});

describe('domains (check, certificate, name servers, DNS records)', () => {
  it('checks several domains, IDN included', async () => {
    const results = await api.checkDomains(['free-name-42.by', 'пример-свободный.бел']);
    expect(results).toHaveLength(2);
    expect(lastRequest().body).toEqual({ domains: ['free-name-42.by', 'пример-свободный.бел'] });
  });

  it('gives the ownership certificate link', async () => {
    const order = await someDomainOrder();
    expect(await api.getDomainCertificateUrl(order.order_id)).toMatch(/^https?:\/\//);
  });

  it('reads and changes name servers', async () => {
    const { order_id: id } = await someDomainOrder();
    await api.setCustomNameServers(id, [
      { ns: 'ns1.partner.by', ip: '192.0.2.10' },
      { ns: 'ns2.partner.by' },
    ]);
    expect(lastRequest().body).toEqual({
      servers: [{ ns: 'ns1.partner.by', ip: '192.0.2.10' }, { ns: 'ns2.partner.by' }],
    });
    expect(await api.listNameServers(id)).toEqual([
      { ns: 'ns1.partner.by', ip: '192.0.2.10' },
      { ns: 'ns2.partner.by', ip: undefined },
    ]);
    await api.setHostingNameServers(id);
    const hosting = await api.listNameServers(id);
    await api.setEditorNameServers(id);
    const editor = await api.listNameServers(id);
    expect(hosting.length).toBeGreaterThan(0);
    expect(editor).not.toEqual(hosting);
    await api.deleteNameServers(id);
    expect(await api.listNameServers(id)).toEqual([]);
  });

  it('adds a record of each of the seven kinds and deletes it again', async () => {
    const { order_id: id } = await someDomainOrder();
    const dkim = `v=DKIM1; k=rsa; p=${'A'.repeat(400)}`;
    const inputs = [
      { kind: 'a', ttl: 3600, host: 'www', ipv4: '192.0.2.1' },
      { kind: 'aaaa', ttl: 3600, host: 'www', ipv6: '2001:db8::1' },
      { kind: 'cname', ttl: 600, host: 'shop', canonical: 'shops.example.net' },
      { kind: 'ns', ttl: 86400, host: 'sub', ns: 'ns1.other.by' },
      { kind: 'mx', ttl: 3600, host: '@', mail_server: 'mx.example.by', priority: 10 },
      { kind: 'txt', ttl: 300, host: 'mail._domainkey', text: dkim },
      {
        kind: 'srv',
        ttl: 3600,
        host: '@',
        service: '_sip',
        protocol: '_tcp',
        target: 'sip.example.by',
        port: 5060,
        priority: 10,
        weight: 5,
      },
    ] as const;
    for (const input of inputs) {
      const before = await api.listDnsRecords(id);
      await api.addDnsRecord(id, input);
      const { kind, ...body } = input;
      expect(lastRequest()).toMatchObject({
        method: 'POST',
        path: `/v1/domains/${id}/dns/records/${kind}`,
        body,
      });
      const after = await api.listDnsRecords(id);
      const added = after.filter((r) => !before.some((b) => b.record_id === r.record_id));
      expect(added).toHaveLength(1);
      const record = added[0];
      if (!record) throw new Error('not added');
      expect(record.type).toBe(kind.toUpperCase());
      expect(record.ttl).toBe(input.ttl);
      if (kind === 'txt') expect(record.value).toContain(dkim);
      await api.deleteDnsRecord(id, kind, record.record_id);
      expect((await api.listDnsRecords(id)).some((r) => r.record_id === record.record_id)).toBe(false);
    }
  });
});

describe('errors', () => {
  function expectSafe(error: unknown) {
    expect(error).toBeInstanceOf(ApiError);
    const renderings = [String(error), JSON.stringify(error), inspect(error, { depth: 10 })];
    for (const text of renderings) expect(text).not.toContain(sandbox.token);
  }

  it('400 carries the provider message in Russian and names the operation', async () => {
    const [tariff] = await api.listHostingTariffs();
    const [currency] = await api.listCurrencies();
    if (!tariff || !currency) throw new Error('reference data missing');
    const offered = new Set(tariff.prices.map((p) => p.period));
    const unsupported = [36, 35, 34, 33].find((p) => !offered.has(p)) ?? 36;
    const error = await api
      .createHostingOrder({
        period_unit_count: unsupported,
        currency_id: currency.currency_id,
        tariff_id: tariff.tariff_id,
        ...contacts,
        natural_person_requisites: naturalPerson,
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiHttpError);
    expect((error as ApiHttpError).status).toBe(400);
    expect((error as ApiHttpError).providerMessage).toMatch(/[а-яё]/i);
    expect((error as ApiHttpError).message).toContain('createHostingOrder (POST /v1/orders/hostings)');
    expectSafe(error);
  });

  it('401 for a wrong token, which appears nowhere in the error', async () => {
    const wrong = createPartnerApi(transport, 'wrong-token-value-987');
    const error = await wrong.listCurrencies().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiHttpError);
    expect((error as ApiHttpError).status).toBe(401);
    expect((error as ApiHttpError).isAuthError).toBe(true);
    for (const text of [String(error), JSON.stringify(error), inspect(error, { depth: 10 })]) {
      expect(text).not.toContain('wrong-token-value-987');
    }
  });

  it('404 for an unknown document', async () => {
    const error = await api.getInvoiceUrl(2_000_000_000).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiHttpError);
    expect((error as ApiHttpError).status).toBe(404);
  });

  it('500 is retried for a GET and reported when it persists', async () => {
    sandbox.addFault({ path: '/v1/billing/currencies', times: 2, fault: { kind: 'status', status: 500 } });
    await expect(api.listCurrencies()).resolves.not.toHaveLength(0);
    sandbox.addFault({ path: '/v1/billing/currencies', times: 3, fault: { kind: 'status', status: 500 } });
    const error = await api.listCurrencies().catch((e: unknown) => e);
    expect((error as ApiHttpError).status).toBe(500);
    expect((error as ApiHttpError).isServerError).toBe(true);
    expectSafe(error);
  });

  it('a POST answered 500 is sent once', async () => {
    sandbox.clearFaults();
    sandbox.addFault({
      method: 'POST',
      path: '/v1/domains/check',
      times: 5,
      fault: { kind: 'status', status: 500 },
    });
    const before = sandbox.requests.length;
    await expect(api.checkDomains(['x.by'])).rejects.toBeInstanceOf(ApiHttpError);
    expect(sandbox.requests.length - before).toBe(1);
    sandbox.clearFaults();
  });

  it('a hanging provider ends in ApiTimeoutError at the deadline', async () => {
    const quick = new PartnerTransport({ baseUrl: sandbox.url, timeoutMs: 300 });
    sandbox.addFault({ path: '/v1/billing/invoices', times: 5, fault: { kind: 'hang' } });
    const started = Date.now();
    const error = await createPartnerApi(quick, sandbox.token)
      .listInvoices()
      .catch((e: unknown) => e);
    const elapsed = Date.now() - started;
    expect(error).toBeInstanceOf(ApiTimeoutError);
    expect(elapsed).toBeGreaterThanOrEqual(280);
    expect(elapsed).toBeLessThan(2_000);
    expectSafe(error);
    sandbox.clearFaults();
    await quick.close();
  });

  it('a malformed answer ends in ApiResponseError naming the field', async () => {
    sandbox.addFault({
      path: '/v1/billing/invoices',
      fault: { kind: 'malformed', body: '{"invoices":[{"invoice_id":"seven"}]}' },
    });
    const error = await api.listInvoices().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiResponseError);
    expect((error as ApiResponseError).field).toBe('invoices.0.invoice_id');
    sandbox.addFault({ path: '/v1/billing/invoices', fault: { kind: 'malformed', body: 'not json' } });
    await expect(api.listInvoices()).rejects.toBeInstanceOf(ApiResponseError);
  });

  it('a refused connection ends in ApiNetworkError after the GET retries', async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer();
      server.listen(0, '127.0.0.1', () => {
        const address = server.address();
        server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
      });
    });
    const attempts: number[] = [];
    const refused = new PartnerTransport({
      baseUrl: `http://127.0.0.1:${port}`,
      retryDelayMs: 5,
      onCall: (event) => attempts.push(event.attempt),
    });
    const error = await createPartnerApi(refused, sandbox.token)
      .listCurrencies()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiNetworkError);
    expect((error as ApiNetworkError).code).toBe('ECONNREFUSED');
    expect(attempts).toEqual([1, 2, 3]);
    expectSafe(error);
    await refused.close();
  });
});
