/**
 * dyndns2's `/nic/update` in process: the bot's HTTP server with the gateway's routes over the
 * real stores and history, the sandbox as the provider. What a router reads back, what the
 * provider received (and, for every refusal, that it received no write), what the history and
 * the chat's report port got, and that no secret reaches a log line or `/metrics`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPartnerApi, PartnerTransport } from '../../src/api/index.js';
import { GATEWAY_LIMITS } from '../../src/gateway/credentials.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { type GatewayWorld, startGatewayWorld, wrongSecret } from '../helpers/gateway-world.js';
import { addressKey, seedOfficeRecord } from '../helpers/key-fixtures.js';

const CHAT = 771_001;
const ORDER = 1006;
const PROMTOOL = '/usr/bin/promtool';

let sandbox: Sandbox;
let world: GatewayWorld;
let transport: PartnerTransport;

/** The provider's records of `office` in order 1006, `TYPE value ttl`, sorted. */
async function officeRecords(): Promise<string[]> {
  const api = createPartnerApi(transport, sandbox.token);
  return (await api.listDnsRecords(ORDER))
    .filter((r) => r.value.startsWith('office '))
    .map((r) => `${r.type} ${r.value} ${r.ttl}`)
    .sort();
}

/** The provider's requests since `from`, `METHOD path`. */
const callsSince = (from: number) => sandbox.requests.slice(from).map((r) => `${r.method} ${r.path}`);
const writesSince = (from: number) => callsSince(from).filter((call) => !call.startsWith('GET'));

async function connectedKey(over: Parameters<typeof addressKey>[1] = {}) {
  await world.chatData.setToken(CHAT, sandbox.token);
  const issued = await world.robotKeys.create(addressKey(CHAT, over));
  return { key: issued.key, auth: { id: issued.key.id, secret: issued.secret } };
}

const update = (query: string) => `/nic/update?${query}`;

beforeEach(async () => {
  sandbox = await startSandbox({ port: 0 });
  transport = new PartnerTransport({ baseUrl: sandbox.url, timeoutMs: 3_000, maxRetries: 0 });
  await seedOfficeRecord(sandbox);
  world = await startGatewayWorld({ providerUrl: sandbox.url });
});

afterEach(async () => {
  await world.close();
  await transport.close();
  await sandbox.close();
});

describe('a router updates its host', () => {
  it('good: the add before the delete, one auto entry, the chat told once; the same again: nochg, no call', async () => {
    const { auth, key } = await connectedKey();
    const before = sandbox.requests.length;
    const first = await world.get(update('hostname=office.mysite.by&myip=198.51.100.9'), { auth });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(first.text).toBe('good 198.51.100.9\n');
    const calls = callsSince(before);
    expect(calls).toEqual([
      'GET /v1/domains/1006/dns/records',
      'POST /v1/domains/1006/dns/records/a',
      expect.stringMatching(/^DELETE \/v1\/domains\/1006\/dns\/records\/a\/\d+$/),
    ]);
    // The TTL the host had is kept.
    expect(await officeRecords()).toEqual(['A office 198.51.100.9 600']);
    const history = await world.recorder.list(CHAT, ORDER);
    expect(history.map((e) => [e.kind, e.who.key])).toEqual([['auto', 'Роутер офиса']]);
    expect(world.reports.uses).toHaveLength(1);
    expect(world.reports.uses[0]?.folded).toBe(0);
    expect((await world.robotKeys.get(key.id))?.lastUse).toMatchObject({
      from: '127.0.0.1',
      action: 'good',
      detail: '198.51.100.9',
    });

    const quiet = sandbox.requests.length;
    const second = await world.get(update('hostname=office.mysite.by&myip=198.51.100.9'), { auth });
    expect(second.text).toBe('nochg 198.51.100.9\n');
    expect(callsSince(quiet)).toEqual([]);

    // A second change within the hour: made and recorded, its message folded into the next one.
    const third = await world.get(update('hostname=office.mysite.by&myip=198.51.100.10'), { auth });
    expect(third.text).toBe('good 198.51.100.10\n');
    expect(await officeRecords()).toEqual(['A office 198.51.100.10 600']);
    expect(world.reports.uses).toHaveLength(1);
    expect(await world.recorder.list(CHAT, ORDER)).toHaveLength(2);

    const metrics = (await world.metrics.scrape()).body;
    expect(metrics).toContain('partner_bot_gateway_updates_total{protocol="dyndns2",outcome="good"} 2');
    expect(metrics).toContain('partner_bot_gateway_updates_total{protocol="dyndns2",outcome="nochg"} 1');
    if (existsSync(PROMTOOL)) execFileSync(PROMTOOL, ['check', 'metrics'], { input: metrics });
  });

  it('notes a nochg as the key’s last use at most once a minute', async () => {
    const { auth, key } = await connectedKey();
    const query = update('hostname=office.mysite.by&myip=198.51.100.7');
    expect((await world.get(query, { auth })).text).toBe('nochg 198.51.100.7\n');
    const noted = (await world.robotKeys.get(key.id))?.lastUse;
    expect(noted).toMatchObject({ action: 'nochg', detail: '198.51.100.7' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await world.get(query, { auth });
    expect((await world.robotKeys.get(key.id))?.lastUse).toEqual(noted);
  });

  it('a change made elsewhere in the zone drops the cache: the next request asks the provider', async () => {
    const { auth, key } = await connectedKey();
    await world.get(update('hostname=office.mysite.by&myip=198.51.100.9'), { auth });
    await world.recorder.record({ chatId: CHAT, userId: CHAT, name: 'P' }, key.orderId, 'change', {
      records: [],
    });
    const before = sandbox.requests.length;
    const again = await world.get(update('hostname=office.mysite.by&myip=198.51.100.9'), { auth });
    expect(again.text).toBe('nochg 198.51.100.9\n');
    expect(callsSince(before)).toEqual(['GET /v1/domains/1006/dns/records']);
  });

  it('takes the router form (key in the query), myip absent (the source), and myipv6 (AAAA too)', async () => {
    const { auth } = await connectedKey();
    const router = await world.get(
      update(`username=${auth.id}&password=${auth.secret}&hostname=office.mysite.by`),
    );
    expect(router.text).toBe('good 127.0.0.1\n');
    const both = await world.get(update('hostname=office.mysite.by&myip=198.51.100.9&myipv6=2001:db8::9'), {
      auth,
    });
    expect(both.text).toBe('good 198.51.100.9 2001:db8::9\n');
    // A new AAAA gets the short default TTL; the A keeps its own.
    expect(await officeRecords()).toEqual(['A office 198.51.100.9 600', 'AAAA office 2001:db8::9 300']);
  });

  it('answers one line per host, in order: the key’s host, then one outside its scope', async () => {
    const { auth, key } = await connectedKey();
    const res = await world.get(update('hostname=office.mysite.by,www.mysite.by&myip=198.51.100.9'), {
      auth,
    });
    expect(res.text).toBe('good 198.51.100.9\nnohost\n');
    // The key's last use is what it did to its own host.
    expect((await world.robotKeys.get(key.id))?.lastUse).toMatchObject({
      action: 'good',
      detail: '198.51.100.9',
    });
  });
});

describe('behind a proxy', () => {
  it('believes X-Forwarded-For from GATEWAY_TRUSTED_PROXIES only, for the networks and a missing myip', async () => {
    const { auth } = await connectedKey({ networks: ['203.0.113.0/24'] });
    const forwarded = { 'x-forwarded-for': '192.0.2.1, 203.0.113.5' };
    const direct = await world.get(update('hostname=office.mysite.by'), { auth, headers: forwarded });
    expect(direct.text).toBe('badauth\n');
    const proxied = await startGatewayWorld({ providerUrl: sandbox.url, trustedProxies: ['127.0.0.0/8'] });
    try {
      await proxied.chatData.setToken(CHAT, sandbox.token);
      const issued = await proxied.robotKeys.create(addressKey(CHAT, { networks: ['203.0.113.0/24'] }));
      const res = await proxied.get(update('hostname=office.mysite.by'), {
        auth: { id: issued.key.id, secret: issued.secret },
        headers: forwarded,
      });
      expect(res.text).toBe('good 203.0.113.5\n');
    } finally {
      await proxied.close();
    }
  });
});

describe('each refusal changes nothing at the provider', () => {
  const refused = async (
    path: string,
    options: Parameters<GatewayWorld['get']>[1],
    expected: string,
    calls: string[] = [],
  ) => {
    const before = sandbox.requests.length;
    const res = await world.get(path, options);
    expect(res.text).toBe(expected);
    expect(writesSince(before)).toEqual([]);
    expect(callsSince(before)).toEqual(calls);
    expect(await officeRecords()).toEqual(['A office 198.51.100.7 600']);
    return res;
  };
  const query = 'hostname=office.mysite.by&myip=198.51.100.9';

  it('a wrong key, a wrong secret, no key at all (401 with a challenge)', async () => {
    const { auth } = await connectedKey();
    await refused(update(query), { auth: { ...auth, secret: wrongSecret(auth.secret) } }, 'badauth\n');
    await refused(update(query), { auth: { id: 'kaaaaaaaaaaaa', secret: auth.secret } }, 'badauth\n');
    const none = await refused(update(query), {}, 'badauth\n');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Basic /);
  });

  it('a host outside the key’s scope: nohost', async () => {
    const { auth } = await connectedKey();
    await refused(update('hostname=www.mysite.by&myip=198.51.100.9'), { auth }, 'nohost\n');
  });

  it('21 hosts: numhost; a host that is no name: notfqdn', async () => {
    const { auth } = await connectedKey();
    const hosts = Array.from({ length: 21 }, () => 'office.mysite.by').join(',');
    await refused(update(`hostname=${hosts}&myip=198.51.100.9`), { auth }, 'numhost\n');
    await refused(update('hostname=office..mysite.by&myip=198.51.100.9'), { auth }, 'notfqdn\n');
  });

  it('a bad address: dnserr, one line per host', async () => {
    const { auth } = await connectedKey();
    await refused(update('hostname=office.mysite.by&myip=198.51.100.999'), { auth }, 'dnserr\n');
    await refused(update('hostname=office.mysite.by&myip=1.2.3.4&myipv6=1.2.3.5'), { auth }, 'dnserr\n');
  });

  it('a revoked key, a rotated secret: badauth', async () => {
    const { auth, key } = await connectedKey();
    await world.robotKeys.rotate(key.id);
    await refused(update(query), { auth }, 'badauth\n');
    await world.robotKeys.revoke(key.id);
    await refused(update(query), { auth }, 'badauth\n');
  });

  it('a source outside the key’s networks: badauth, as a wrong key', async () => {
    const { auth } = await connectedKey({ networks: ['203.0.113.0/24'] });
    await refused(update(query), { auth }, 'badauth\n');
  });

  it('abuse: a flood of nochg for one host, and a source failing again and again', async () => {
    const { auth } = await connectedKey();
    await world.get(update(query), { auth });
    for (let i = 0; i < GATEWAY_LIMITS.nochgPerHost; i += 1) {
      expect((await world.get(update(query), { auth })).text).toBe('nochg 198.51.100.9\n');
    }
    const before = sandbox.requests.length;
    expect((await world.get(update(query), { auth })).text).toBe('abuse\n');
    expect(callsSince(before)).toEqual([]);

    const other = await world.robotKeys.create(addressKey(CHAT, { scope: 'home.mysite.by' }));
    const wrong = { id: other.key.id, secret: wrongSecret(other.secret) };
    for (let i = 0; i < GATEWAY_LIMITS.failuresPerSource; i += 1) {
      expect((await world.get(update('hostname=home.mysite.by'), { auth: wrong })).text).toBe('badauth\n');
    }
    const right = { id: other.key.id, secret: other.secret };
    const after = sandbox.requests.length;
    const res = await world.get(update('hostname=home.mysite.by&myip=198.51.100.9'), { auth: right });
    expect(res.text).toBe('abuse\n');
    expect(callsSince(after)).toEqual([]);
  });

  it('a chat without its token: 911 (try later), the chat told once', async () => {
    const { auth, key } = await connectedKey();
    await world.chatData.clearToken(CHAT);
    expect(await world.chatData.getToken(CHAT)).toBeUndefined();
    await refused(update(query), { auth }, '911\n');
    await refused(update(query), { auth }, '911\n');
    expect(world.reports.stops).toEqual([{ keyId: key.id, reason: 'disconnected' }]);
    // Connected again, the key works; disconnected again, the chat is told again.
    await world.chatData.setToken(CHAT, sandbox.token);
    expect((await world.get(update('hostname=office.mysite.by&myip=198.51.100.7'), { auth })).text).toBe(
      'nochg 198.51.100.7\n',
    );
    await world.chatData.clearToken(CHAT);
    await refused(update(query), { auth }, '911\n');
    expect(world.reports.stops).toHaveLength(2);
  });

  it('a token the provider refuses: 911, the chat told once; the provider down: 911', async () => {
    const { auth, key } = await connectedKey();
    await world.chatData.setToken(CHAT, 'not-the-sandbox-token');
    await refused(update(query), { auth }, '911\n', ['GET /v1/domains/1006/dns/records']);
    expect(world.reports.stops).toEqual([{ keyId: key.id, reason: 'refused' }]);
    await world.chatData.setToken(CHAT, sandbox.token);
    sandbox.addFault({ path: '/v1/domains/1006/dns/records', fault: { kind: 'status', status: 503 } });
    await refused(update(query), { auth }, '911\n', ['GET /v1/domains/1006/dns/records']);
  });
});

describe('secrets stay out', () => {
  it('no log line, metric or answer carries the secret, the Authorization value or the query', async () => {
    const { auth } = await connectedKey();
    const basic = Buffer.from(`${auth.id}:${auth.secret}`).toString('base64');
    await world.get(update('hostname=office.mysite.by&myip=198.51.100.9'), { auth });
    await world.get(update(`username=${auth.id}&password=${auth.secret}&hostname=office.mysite.by`));
    sandbox.addFault({ path: '/v1/domains/1006/dns/records', fault: { kind: 'status', status: 500 } });
    await world.get(update('hostname=office.mysite.by&myip=198.51.100.11'), { auth });
    // A store that fails mid-request: the route's own error line.
    await world.state.close();
    const broken = await world.get(
      update(`username=${auth.id}&password=${auth.secret}&hostname=office.mysite.by`),
    );
    expect(broken.text).toBe('911\n');
    const logged = world.logLines.join('');
    expect(logged).toContain('dyndns2 update failed');
    const metrics = (await world.metrics.scrape()).body;
    for (const text of [logged, metrics]) {
      expect(text).not.toContain(auth.secret);
      expect(text).not.toContain(basic);
      expect(text).not.toContain('password=');
      expect(text).not.toContain('office.mysite.by');
    }
  });
});
