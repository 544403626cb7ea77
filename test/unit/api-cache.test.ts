import { MockAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiFactory, PartnerTransport } from '../../src/api/index.js';

const ORIGIN = 'http://partner.test';
const json = { headers: { 'content-type': 'application/json' } };
const zones = { domain_zones: [] };

let agent: MockAgent;
let calls: string[];
let transport: PartnerTransport;

beforeEach(() => {
  agent = new MockAgent();
  agent.disableNetConnect();
  calls = [];
  transport = new PartnerTransport({ baseUrl: ORIGIN, dispatcher: agent, retryDelayMs: 1, maxRetries: 0 });
  agent
    .get(ORIGIN)
    .intercept({ path: /^\/v1\/orders\/domains\/zones/, method: 'GET' })
    .reply((options) => {
      calls.push(`${String((options.headers as Record<string, string>)['x-api-token'])} ${options.path}`);
      return { statusCode: 200, data: zones, responseOptions: json };
    })
    .persist();
});

afterEach(async () => {
  await agent.close();
});

describe('reference data cache', () => {
  it('asks the provider once per token and arguments within the TTL, again after it', async () => {
    let clock = 1_000;
    const apiFor = createApiFactory(transport, { ttlMs: 60_000, now: () => clock });
    await apiFor('token-a').listDomainZones();
    await apiFor('token-a').listDomainZones();
    expect(calls).toHaveLength(1);
    await apiFor('token-a').listDomainZones({ currency_id: 2 });
    expect(calls).toHaveLength(2);
    await apiFor('token-b').listDomainZones();
    expect(calls).toHaveLength(3);
    clock += 60_001;
    await apiFor('token-a').listDomainZones();
    expect(calls).toHaveLength(4);
  });

  it('does not remember failures', async () => {
    const failing = new MockAgent();
    failing.disableNetConnect();
    const pool = failing.get(ORIGIN);
    pool.intercept({ path: /^\/v1\/billing\/currencies/, method: 'GET' }).reply(500, '');
    pool
      .intercept({ path: /^\/v1\/billing\/currencies/, method: 'GET' })
      .reply(200, { currencies: [] }, json);
    const apiFor = createApiFactory(
      new PartnerTransport({ baseUrl: ORIGIN, dispatcher: failing, maxRetries: 0 }),
      { ttlMs: 60_000 },
    );
    await expect(apiFor('t').listCurrencies()).rejects.toThrow(/HTTP 500/);
    await expect(apiFor('t').listCurrencies()).resolves.toEqual([]);
    await failing.close();
  });

  it('never caches documents such as invoices', async () => {
    const pool = agent.get(ORIGIN);
    pool
      .intercept({ path: /^\/v1\/billing\/invoices/, method: 'GET' })
      .reply(200, { invoices: [] }, json)
      .times(2);
    const apiFor = createApiFactory(transport);
    await apiFor('t').listInvoices();
    await apiFor('t').listInvoices();
    // Both invoice answers were consumed: the second call reached the provider too.
    expect(agent.pendingInterceptors().filter((i) => String(i.path).includes('invoices'))).toHaveLength(0);
  });
});

describe('a domain’s name servers', () => {
  it('are kept per order until the bot changes them; `fresh` asks again', async () => {
    const asked: string[] = [];
    agent
      .get(ORIGIN)
      .intercept({ path: /^\/v1\/domains\/\d+\/dns\/servers/, method: () => true })
      .reply((options) => {
        asked.push(`${options.method} ${options.path.split('?')[0]}`);
        return {
          statusCode: 200,
          data: { servers: [{ ns: 'ns1.example.by', ip: null }] },
          responseOptions: json,
        };
      })
      .persist();
    const apiFor = createApiFactory(transport);
    const api = apiFor('token-a');
    await api.listNameServers(7);
    await apiFor('token-a').listNameServers(7);
    await api.listNameServers(8);
    expect(asked).toEqual(['GET /v1/domains/7/dns/servers', 'GET /v1/domains/8/dns/servers']);
    await api.setHostingNameServers(7);
    await api.listNameServers(7);
    await api.listNameServers(8);
    await api.listNameServers(8, { fresh: true });
    expect(asked.slice(2)).toEqual([
      'PUT /v1/domains/7/dns/servers/hosting',
      'GET /v1/domains/7/dns/servers',
      'GET /v1/domains/8/dns/servers',
    ]);
  });
});
