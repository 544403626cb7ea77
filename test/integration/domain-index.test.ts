import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiFactory, type PartnerApi, PartnerTransport } from '../../src/api/index.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { orderTestDomain } from '../helpers/fixtures.js';

/*
 * The domain order index behind `/dns <domain>`: one list call, kept briefly per token, fetched
 * again on request, dropped when the token orders a domain (the only change the bot makes to it).
 */

let sandbox: Sandbox;
let transport: PartnerTransport;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  transport = new PartnerTransport({ baseUrl: sandbox.url, retryDelayMs: 1 });
});

afterAll(async () => {
  await transport.close();
  await sandbox.close();
});

const listCalls = (since: number) =>
  sandbox.requests.slice(since).filter((r) => r.method === 'GET' && r.path === '/v1/orders/domains').length;

const orderDomain = (api: PartnerApi, name: string) => orderTestDomain(api, name);

describe('the domain order index', () => {
  it('is kept within its TTL, fetched again when asked fresh or after the TTL', async () => {
    let clock = 0;
    const apiFor = createApiFactory(transport, { domainIndexTtlMs: 1_000, now: () => clock });
    const since = sandbox.requests.length;
    const first = await apiFor(sandbox.token).domainOrderIndex();
    expect(first.byDomain.get('mysite.by')).toBeTypeOf('number');
    await apiFor(sandbox.token).domainOrderIndex();
    expect(listCalls(since)).toBe(1);
    await apiFor(sandbox.token).domainOrderIndex({ fresh: true });
    expect(listCalls(since)).toBe(2);
    clock += 1_001;
    await apiFor(sandbox.token).domainOrderIndex();
    expect(listCalls(since)).toBe(3);
  });

  it('is dropped when the token orders a domain, so the new name is found at once', async () => {
    const apiFor = createApiFactory(transport);
    const name = `index-${Date.now()}.com`;
    expect((await apiFor(sandbox.token).domainOrderIndex()).byDomain.has(name)).toBe(false);
    await orderDomain(apiFor(sandbox.token), name);
    expect((await apiFor(sandbox.token).domainOrderIndex()).byDomain.has(name)).toBe(true);
  });

  it('the uncached client lists every time', async () => {
    const apiFor = createApiFactory(transport);
    const since = sandbox.requests.length;
    await apiFor.uncached(sandbox.token).domainOrderIndex();
    await apiFor.uncached(sandbox.token).domainOrderIndex();
    expect(listCalls(since)).toBe(2);
  });
});
