import { inspect } from 'node:util';
import { MockAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ApiError,
  ApiHttpError,
  ApiNetworkError,
  ApiRequestError,
  ApiResponseError,
  createPartnerApi,
  PartnerTransport,
} from '../../src/api/index.js';

const ORIGIN = 'http://partner.test';
const TOKEN = 'tok_SECRET_1234567890';

let agent: MockAgent;
let transport: PartnerTransport;

beforeEach(() => {
  agent = new MockAgent();
  agent.disableNetConnect();
  transport = new PartnerTransport({ baseUrl: ORIGIN, dispatcher: agent, retryDelayMs: 1, timeoutMs: 2_000 });
});

afterEach(async () => {
  await agent.close();
});

const json = { headers: { 'content-type': 'application/json' } };
const currencies = {
  currencies: [{ currency_id: 1, currency_code: 'BYN', currency_name: 'Белорусский рубль' }],
};

function expectNoToken(error: unknown) {
  expect(error).toBeInstanceOf(ApiError);
  const err = error as ApiError;
  for (const rendering of [
    err.message,
    JSON.stringify(err),
    inspect(err, { depth: 10 }),
    String(err.stack),
  ]) {
    expect(rendering).not.toContain(TOKEN);
  }
}

describe('retry policy', () => {
  it('retries a GET after 5xx answers and returns the third answer', async () => {
    const pool = agent.get(ORIGIN);
    pool
      .intercept({ path: /^\/v1\/billing\/currencies/, method: 'GET' })
      .reply(500, '')
      .times(2);
    pool.intercept({ path: /^\/v1\/billing\/currencies/, method: 'GET' }).reply(200, currencies, json);
    const api = createPartnerApi(transport, TOKEN);
    await expect(api.listCurrencies()).resolves.toEqual(currencies.currencies);
    agent.assertNoPendingInterceptors();
  });

  it('gives up after two retries and reports the last status', async () => {
    const pool = agent.get(ORIGIN);
    pool
      .intercept({ path: /^\/v1\/billing\/currencies/, method: 'GET' })
      .reply(503, '')
      .times(3);
    pool.intercept({ path: /^\/v1\/billing\/currencies/, method: 'GET' }).reply(200, currencies, json);
    const api = createPartnerApi(transport, TOKEN);
    const error = await api.listCurrencies().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiHttpError);
    expect((error as ApiHttpError).status).toBe(503);
    // The fourth interceptor is still pending: exactly three attempts were made.
    expect(agent.pendingInterceptors()).toHaveLength(1);
  });

  it('retries a GET after a network error', async () => {
    const pool = agent.get(ORIGIN);
    pool
      .intercept({ path: /^\/v1\/orders\/services/, method: 'GET' })
      .replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    pool
      .intercept({ path: /^\/v1\/orders\/services/, method: 'GET' })
      .reply(200, { services: [{ service_id: 3, canonical_name: 'vh', name: 'Хостинг' }] }, json);
    const api = createPartnerApi(transport, TOKEN);
    await expect(api.listServices()).resolves.toEqual([
      { service_id: '3', canonical_name: 'vh', name: 'Хостинг' },
    ]);
  });

  it.each([
    ['POST', 500],
    ['POST', 'network'],
    ['PUT', 502],
    ['DELETE', 'network'],
  ] as const)('never retries a %s (%s)', async (method, failure) => {
    const pool = agent.get(ORIGIN);
    const scope = pool.intercept({ path: /^\/v1\//, method });
    if (failure === 'network')
      scope.replyWithError(Object.assign(new Error('reset'), { code: 'ECONNRESET' }));
    else scope.reply(failure, '');
    pool.intercept({ path: /^\/v1\//, method }).reply(200, '');
    const api = createPartnerApi(transport, TOKEN);
    const action =
      method === 'POST'
        ? api.checkDomains(['example.by'])
        : method === 'PUT'
          ? api.setHostingNameServers(5)
          : api.deleteNameServers(5);
    const error = await action.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(failure === 'network' ? ApiNetworkError : ApiHttpError);
    expect(agent.pendingInterceptors()).toHaveLength(1);
    expectNoToken(error);
  });

  it('does not retry a 400 and keeps the provider message', async () => {
    const pool = agent.get(ORIGIN);
    pool
      .intercept({ path: /^\/v1\/orders\/corporate-mails/, method: 'POST' })
      .reply(400, { message: 'Поле «phone» обязательно для заполнения' }, json);
    const api = createPartnerApi(transport, TOKEN);
    const error = await api
      .createMailOrder({
        period_unit_count: 12,
        currency_id: 1,
        phone: '+375291234567',
        email: 'a@b.by',
        tariff_id: 7,
        natural_person_requisites: {
          last_name: 'Иванов',
          first_name: 'Иван',
          middle_name: 'Иванович',
          address: {
            postal_code: '220000',
            country_code: 'BY',
            region: 'Минская',
            city: 'Минск',
            street: 'Независимости',
            building: '1',
            room: '1',
          },
        },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiHttpError);
    expect((error as ApiHttpError).providerMessage).toBe('Поле «phone» обязательно для заполнения');
    expect((error as ApiHttpError).message).toContain('createMailOrder (POST /v1/orders/corporate-mails)');
  });
});

describe('wire format', () => {
  it('sends the token in both headers and the version on every call, under a base path', async () => {
    const prefixed = new PartnerTransport({
      baseUrl: `${ORIGIN}/partner/`,
      dispatcher: agent,
      apiVersion: '1.0',
    });
    let seen: { path: string; headers: Record<string, string> } | undefined;
    agent
      .get(ORIGIN)
      .intercept({ path: /\/invoices/, method: 'GET' })
      .reply((options) => {
        seen = { path: options.path, headers: options.headers as Record<string, string> };
        return { statusCode: 200, data: { invoices: [] }, responseOptions: json };
      });
    await createPartnerApi(prefixed, TOKEN).listInvoices({ order_id: 12 });
    expect(seen?.path).toBe('/partner/v1/billing/invoices?order_id=12&version=1.0');
    expect(seen?.headers['x-api-token']).toBe(TOKEN);
    expect(seen?.headers['x-auth-token']).toBe(TOKEN);
  });

  it('treats an empty 200 body as success where the operation has no response fields', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: /\/dns\/servers\/editor/, method: 'PUT' })
      .reply(200, '');
    await expect(createPartnerApi(transport, TOKEN).setEditorNameServers(9)).resolves.toBeUndefined();
  });

  it('raises ApiResponseError naming the operation and the field of a malformed answer', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: /\/billing\/invoices/, method: 'GET' })
      .reply(200, { invoices: [{ invoice_id: 'x' }] }, json);
    const error = await createPartnerApi(transport, TOKEN)
      .listInvoices()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiResponseError);
    expect((error as ApiResponseError).field).toBe('invoices.0.invoice_id');
    expect((error as ApiResponseError).message).toContain('listInvoices');
    expectNoToken(error);
  });

  it('raises ApiResponseError for an empty or non-JSON body where one is expected', async () => {
    const pool = agent.get(ORIGIN);
    pool.intercept({ path: /\/billing\/currencies/, method: 'GET' }).reply(200, '');
    pool.intercept({ path: /\/billing\/currencies/, method: 'GET' }).reply(200, '<html>');
    const api = createPartnerApi(transport, TOKEN);
    await expect(api.listCurrencies()).rejects.toThrow(/empty body/);
    await expect(api.listCurrencies()).rejects.toThrow(/not JSON/);
  });

  it('refuses a bad request before sending anything', async () => {
    const api = createPartnerApi(transport, TOKEN);
    const badId = await api.getInvoiceUrl(0).catch((e: unknown) => e);
    expect(badId).toBeInstanceOf(ApiRequestError);
    expect((badId as ApiRequestError).field).toBe('id');
    const extra = await api
      .addDnsRecord(5, { kind: 'a', ttl: 3600, host: 'www', ipv4: '192.0.2.1', extra: 1 } as never)
      .catch((e: unknown) => e);
    expect((extra as ApiRequestError).field).toBe('extra');
    const badIp = await api
      .addDnsRecord(5, { kind: 'a', ttl: 3600, host: 'www', ipv4: '300.1.1.1' })
      .catch((e: unknown) => e);
    expect((badIp as ApiRequestError).field).toBe('ipv4');
    expect(agent.pendingInterceptors()).toHaveLength(0);
  });
});
