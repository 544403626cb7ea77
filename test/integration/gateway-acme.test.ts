/**
 * ACME DNS-01 through the gateway: lego's httpreq (`/present`, `/cleanup`) and
 * acme-dns's `/update`, with certificate keys made in storage, the sandbox as the
 * provider and its DNS server as the domain's name servers. Each refusal changes nothing at the
 * provider; the sweep deletes a forgotten value after an hour.
 */
import { Resolver } from 'node:dns/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { type AcmeWorld, startAcmeWorld } from '../helpers/acme-world.js';
import { certificateKey } from '../helpers/key-fixtures.js';

const CHAT = 7101;
const NO_TOKEN_CHAT = 7102;
/** Values of the DNS-01 shape (43 characters of base64url). */
const value = (n: number) => `${String(n).padStart(3, '0')}${'v'.repeat(40)}`;

let sandbox: Sandbox;
let world: AcmeWorld;
let resolver: Resolver;
const secrets: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, dns: { port: 0 } });
  world = await startAcmeWorld(sandbox);
  await world.chatData.setToken(CHAT, sandbox.token);
  // Every secret made here, to search the log lines for at the end.
  const create = world.robotKeys.create.bind(world.robotKeys);
  world.robotKeys.create = async (fresh) => {
    const issued = await create(fresh);
    secrets.push(issued.secret);
    return issued;
  };
  resolver = new Resolver({ timeout: 1000, tries: 1 });
  resolver.setServers([`127.0.0.1:${sandbox.dns?.port}`]);
});
afterAll(async () => {
  await world?.close();
  await sandbox?.close();
});

/** The provider's writes so far (adds and deletes). */
const writes = () => sandbox.requests.filter((r) => r.method !== 'GET');

/** The TXT values the sandbox's DNS serves at `name` (none: empty). */
async function servedTxt(name: string): Promise<string[]> {
  return resolver.resolveTxt(name).then(
    (rows) => rows.map((r) => r.join('')).sort(),
    () => [],
  );
}

async function post(
  path: string,
  body: unknown,
  auth?: { id: string; secret: string },
  headers: Record<string, string> = {},
): Promise<{ status: number; json: Record<string, unknown>; text: string }> {
  const response = await fetch(`${world.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(auth
        ? { authorization: `Basic ${Buffer.from(`${auth.id}:${auth.secret}`).toString('base64')}` }
        : {}),
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: JSON.parse(text) as Record<string, unknown>, text };
}

describe('httpreq', () => {
  let auth: { id: string; secret: string };
  beforeAll(async () => {
    const { key, secret } = await world.robotKeys.create(certificateKey(CHAT));
    auth = { id: key.id, secret };
  });

  it('presents two values at one name, answers once served, and cleans up exactly one', async () => {
    const fqdn = '_acme-challenge.mysite.by.';
    const first = await post('/present', { fqdn, value: value(1) }, auth);
    expect(first).toMatchObject({ status: 200, json: { fqdn, value: value(1) } });
    // Answered after the name servers served it: it is there at once.
    expect(await servedTxt('_acme-challenge.mysite.by')).toEqual([value(1)]);
    const second = await post('/present', { fqdn, value: value(2) }, auth);
    expect(second.status).toBe(200);
    expect(await servedTxt('_acme-challenge.mysite.by')).toEqual([value(1), value(2)]);
    // The same value again adds nothing.
    const before = writes().length;
    expect((await post('/present', { fqdn, value: value(2) }, auth)).status).toBe(200);
    expect(writes().length).toBe(before);

    const cleaned = await post('/cleanup', { fqdn, value: value(1) }, auth);
    expect(cleaned).toMatchObject({ status: 200, json: { fqdn, value: value(1) } });
    expect(await servedTxt('_acme-challenge.mysite.by')).toEqual([value(2)]);
    expect((await post('/cleanup', { fqdn, value: value(2) }, auth)).status).toBe(200);
    expect(await servedTxt('_acme-challenge.mysite.by')).toEqual([]);
    // Each change is one `auto` history entry, named by the key.
    expect(world.counted).toContain('httpreq/presented');
    expect(world.counted).toContain('httpreq/cleaned');
    expect(world.uses[0]?.key.name).toBe('Сертификат');
    expect(world.uses[0]?.entry?.kind).toBe('auto');
    expect(world.uses[0]?.entry?.who.key).toBe('Сертификат');
  });

  it('answers 504 when the name servers do not serve the value in time, and 200 on a retry', async () => {
    const fqdn = '_acme-challenge.mysite.by';
    sandbox.dns?.hold();
    const slow = await post('/present', { fqdn, value: value(3) }, auth);
    expect(slow).toMatchObject({ status: 504, json: { error: 'not_served_yet' } });
    expect(slow.text).not.toContain(value(3));
    sandbox.dns?.release();
    const before = writes().length;
    expect((await post('/present', { fqdn, value: value(3) }, auth)).status).toBe(200);
    expect(writes().length).toBe(before);
    expect((await post('/cleanup', { fqdn, value: value(3) }, auth)).status).toBe(200);
  });

  describe('refusals change nothing at the provider', () => {
    let before: number;
    beforeEach(() => {
      before = writes().length;
    });
    const refused = async (
      call: Promise<{ status: number; json: Record<string, unknown>; text: string }>,
      status: number,
      error: string,
    ) => {
      const answer = await call;
      expect(answer.status).toBe(status);
      expect(answer.json).toEqual({ error });
      expect(writes().length).toBe(before);
      expect(await servedTxt('_acme-challenge.mysite.by')).toEqual([]);
    };
    const body = { fqdn: '_acme-challenge.mysite.by.', value: value(9) };

    it('a wrong key', async () => {
      await refused(post('/present', body, { id: auth.id, secret: 'x'.repeat(43) }), 401, 'unauthorized');
      await refused(post('/present', body), 401, 'unauthorized');
    });
    it('a name outside _acme-challenge of the key’s domain', async () => {
      for (const fqdn of [
        'www.mysite.by.',
        'mysite.by',
        '_acme-challenge.other.by.',
        '_acme-challenge.mysite.by.evil.by',
      ])
        await refused(post('/present', { ...body, fqdn }, auth), 403, 'outside_scope');
    });
    it('a bad value or a body that is not {fqdn, value}', async () => {
      await refused(post('/present', { ...body, value: 'short' }, auth), 400, 'bad_value');
      await refused(post('/present', { ...body, value: `${value(9)}"; rm` }, auth), 400, 'bad_value');
      await refused(post('/present', '{"fqdn":', auth), 400, 'bad_request');
      await refused(
        post('/present', { domain: 'mysite.by', token: 't', keyAuth: 'k' }, auth),
        400,
        'bad_request',
      );
    });
    it('a revoked key', async () => {
      const made = await world.robotKeys.create(certificateKey(CHAT));
      await world.robotKeys.revoke(made.key.id);
      await refused(post('/present', body, { id: made.key.id, secret: made.secret }), 401, 'unauthorized');
    });
    it('an address key', async () => {
      const made = await world.robotKeys.create(
        certificateKey(CHAT, { kind: 'address', scope: 'office.mysite.by' }),
      );
      await refused(post('/present', body, { id: made.key.id, secret: made.secret }), 401, 'unauthorized');
    });
    it('a source outside the key’s networks', async () => {
      const made = await world.robotKeys.create(certificateKey(CHAT, { networks: ['198.51.100.0/24'] }));
      await refused(
        post('/present', body, { id: made.key.id, secret: made.secret }),
        403,
        'forbidden_network',
      );
    });
    it('a disconnected account token, told to the chat once', async () => {
      const made = await world.robotKeys.create(certificateKey(NO_TOKEN_CHAT));
      const creds = { id: made.key.id, secret: made.secret };
      await refused(post('/present', body, creds), 403, 'account_disconnected');
      await refused(post('/present', body, creds), 403, 'account_disconnected');
      expect(world.stops.filter((s) => s.keyId === made.key.id)).toEqual([
        { keyId: made.key.id, reason: 'disconnected' },
      ]);
    });
  });

  it('refuses a name in a subdomain delegated elsewhere (the seed delegates shop)', async () => {
    const before = writes().length;
    const answer = await post('/present', { fqdn: '_acme-challenge.shop.mysite.by', value: value(16) }, auth);
    expect(answer).toMatchObject({ status: 409, json: { error: 'name_delegated' } });
    expect(writes().length).toBe(before);
  });

  it('answers 502 when the provider fails, and the value is not left behind', async () => {
    const fqdn = '_acme-challenge.mysite.by';
    sandbox.addFault({
      method: 'POST',
      path: '/v1/domains/1006/dns/records/txt',
      fault: { kind: 'status', status: 500 },
    });
    const answer = await post('/present', { fqdn, value: value(17) }, auth);
    expect(answer).toMatchObject({ status: 502, json: { error: 'provider_unavailable' } });
    expect(await servedTxt(fqdn)).toEqual([]);
    // Nothing was made, so nothing waits for the sweep.
    expect(await world.state.dueChallenges(Number.MAX_SAFE_INTEGER, 10)).toEqual([]);
    sandbox.clearFaults();
  });

  it('refuses a fifth value at one name', async () => {
    const fqdn = '_acme-challenge.mysite.by';
    for (const n of [11, 12, 13, 14])
      expect((await post('/present', { fqdn, value: value(n) }, auth)).status).toBe(200);
    const before = writes().length;
    const fifth = await post('/present', { fqdn, value: value(15) }, auth);
    expect(fifth).toMatchObject({ status: 409, json: { error: 'too_many_values' } });
    expect(writes().length).toBe(before);
    for (const n of [11, 12, 13, 14])
      expect((await post('/cleanup', { fqdn, value: value(n) }, auth)).status).toBe(200);
    expect(await servedTxt('_acme-challenge.mysite.by')).toEqual([]);
  });

  it('sweeps a value no cleanup removed, after an hour', async () => {
    const fqdn = '_acme-challenge.mysite.by';
    expect((await post('/present', { fqdn, value: value(21) }, auth)).status).toBe(200);
    expect(await world.challenges.sweep()).toBe(0);
    expect(await servedTxt(fqdn)).toEqual([value(21)]);
    world.clock.now += 59 * 60_000;
    expect(await world.challenges.sweep()).toBe(0);
    world.clock.now += 2 * 60_000;
    // Told as the key's change: a message, or folded into the next one (one an hour).
    const folded = async () => Number((await world.state.cached(`folded:${auth.id}`)) ?? '0');
    const [told, foldedBefore] = [world.uses.length, await folded()];
    expect(await world.challenges.sweep()).toBe(1);
    expect(await servedTxt(fqdn)).toEqual([]);
    expect(world.uses.length - told + (await folded()) - foldedBefore).toBe(1);
    // Nothing left to sweep, and a second sweep deletes nothing more.
    expect(await world.state.dueChallenges(world.clock.now, 10)).toEqual([]);
    expect(await world.challenges.sweep()).toBe(0);
  });
});

describe('acme-dns', () => {
  const SCOPE = 'app.mysite.by';
  let creds: { id: string; secret: string };
  let headers: Record<string, string>;
  let subdomain: string;
  let fulldomain: string;

  beforeAll(async () => {
    const { key, secret } = await world.robotKeys.create(certificateKey(CHAT, { scope: SCOPE }));
    creds = { id: key.id, secret };
    headers = { 'x-api-user': key.id, 'x-api-key': secret };
  });

  it('registers from the chat: a name in the partner’s zone and the CNAME to it', async () => {
    const key = await world.robotKeys.get(creds.id);
    if (!key) throw new Error('no key');
    const registered = await world.challenges.registerAcmeDns(key, creds.secret);
    if (!registered.ok) throw new Error(registered.refusal);
    const { account } = registered;
    subdomain = account.subdomain;
    fulldomain = account.fulldomain;
    expect(account).toEqual({
      username: creds.id,
      password: creds.secret,
      fulldomain: `${subdomain}._acme-dns.app.mysite.by`,
      subdomain: expect.stringMatching(/^[0-9a-f-]{36}$/),
      allowfrom: [],
    });
    expect(await resolver.resolveCname('_acme-challenge.app.mysite.by')).toEqual([fulldomain]);
    expect((await world.robotKeys.get(creds.id))?.acmeDnsHost).toBe(`${subdomain}._acme-dns.app`);
    // Again: the same account, nothing made.
    const before = writes().length;
    const again = await world.challenges.registerAcmeDns(
      (await world.robotKeys.get(creds.id)) ?? key,
      creds.secret,
    );
    expect(again).toMatchObject({ ok: true, created: false, account: { fulldomain } });
    expect(writes().length).toBe(before);
  });

  it('refuses to register where a record stands at _acme-challenge', async () => {
    const made = await world.robotKeys.create(certificateKey(CHAT, { scope: 'blog.mysite.by' }));
    const fqdn = '_acme-challenge.blog.mysite.by';
    const auth = { id: made.key.id, secret: made.secret };
    expect((await post('/present', { fqdn, value: value(31) }, auth)).status).toBe(200);
    const before = writes().length;
    expect(await world.challenges.registerAcmeDns(made.key, made.secret)).toEqual({
      ok: false,
      refusal: 'occupied',
      standing: ['TXT'],
    });
    expect(writes().length).toBe(before);
    expect((await post('/cleanup', { fqdn, value: value(31) }, auth)).status).toBe(200);
  });

  it('updates with the right headers; the CA following the CNAME finds the value', async () => {
    const answer = await post('/update', { subdomain, txt: value(41) }, undefined, headers);
    expect(answer).toMatchObject({ status: 200, json: { txt: value(41) } });
    expect(await servedTxt('_acme-challenge.app.mysite.by')).toEqual([value(41)]);
    expect(world.counted).toContain('acme-dns/updated');
  });

  it('keeps the latest two values: a third replaces the oldest', async () => {
    expect((await post('/update', { subdomain, txt: value(42) }, undefined, headers)).status).toBe(200);
    expect(await servedTxt(fulldomain)).toEqual([value(41), value(42)]);
    expect((await post('/update', { subdomain, txt: value(43) }, undefined, headers)).status).toBe(200);
    expect(await servedTxt(fulldomain)).toEqual([value(42), value(43)]);
    // The add came before the delete: never fewer values standing.
    const last = writes().slice(-2);
    expect(last.map((w) => w.method)).toEqual(['POST', 'DELETE']);
  });

  it('refuses wrong headers, another subdomain and a bad txt as acme-dns does, changing nothing', async () => {
    const before = writes().length;
    const body = { subdomain, txt: value(44) };
    const wrong = [
      post('/update', body, undefined, { ...headers, 'x-api-key': 'y'.repeat(43) }),
      post('/update', body),
      post('/update', { ...body, subdomain: '00000000-0000-0000-0000-000000000000' }, undefined, headers),
    ];
    for (const answer of await Promise.all(wrong))
      expect(answer).toMatchObject({ status: 401, json: { error: 'forbidden' } });
    expect(await post('/update', { subdomain, txt: 'short' }, undefined, headers)).toMatchObject({
      status: 400,
      json: { error: 'bad_txt' },
    });
    expect(await post('/update', 'not json', undefined, headers)).toMatchObject({
      status: 400,
      json: { error: 'malformed_json_payload' },
    });
    // A key never registered.
    const other = await world.robotKeys.create(certificateKey(CHAT));
    expect(
      await post('/update', body, undefined, {
        'x-api-user': other.key.id,
        'x-api-key': other.secret,
      }),
    ).toMatchObject({ status: 401, json: { error: 'forbidden' } });
    expect(writes().length).toBe(before);
    expect(await servedTxt(fulldomain)).toEqual([value(42), value(43)]);
  });

  it('answers /register without a key by pointing at the chat, and with the key by its account', async () => {
    const anonymous = await post('/register', {});
    expect(anonymous).toMatchObject({ status: 401, json: { error: 'register_in_chat' } });
    const withKey = await post('/register', {}, undefined, headers);
    expect(withKey).toMatchObject({ status: 201, json: { username: creds.id, subdomain, fulldomain } });
  });
});

it('never writes a key’s secret to a log line', () => {
  expect(secrets.length).toBeGreaterThan(5);
  expect(world.logLines.length).toBeGreaterThan(0);
  const logged = world.logLines.join('\n');
  for (const secret of secrets) expect(logged).not.toContain(secret);
});
