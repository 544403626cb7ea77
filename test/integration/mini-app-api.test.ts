/*
 * The Mini App's API through real HTTP on 127.0.0.1, mounted in the bot's HTTP server as main
 * mounts it (`miniAppRoutes` from the parsed config), over real ChatData storage in a temp dir and
 * the sandbox as the provider. initData is signed here with the library's own `sign`, as Telegram
 * signs it; a forged, foreign, stale or userless one is refused, and neither token ever leaves.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { type IncomingHttpHeaders, request } from 'node:http';
import { join } from 'node:path';
import { sign } from '@tma.js/init-data-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiFactory, type PartnerTransport } from '../../src/api/index.js';
import { loadTranslations } from '../../src/bot/kit/i18n.js';
import { loadConfig } from '../../src/config.js';
import { type BotServer, startBotServer } from '../../src/http-server.js';
import { createLogger } from '../../src/logger.js';
import type { MiniAppServices } from '../../src/mini-app/endpoint-types.js';
import { miniAppRoutes } from '../../src/mini-app/index.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { createDnsRecorder } from '../../src/services/dns-journal.js';
import { createOrderPlacing } from '../../src/services/order-placing.js';
import { createSavedCustomers } from '../../src/services/saved-customers.js';
import { createZoneEditing, type EditsReport } from '../../src/services/zone-editing.js';
import type { ChatData } from '../../src/storage/chat-data.js';
import { parseEncryptionKeys } from '../../src/storage/crypto.js';
import { createDnsHistory, type DnsHistory } from '../../src/storage/dns-history.js';
import { createLowdbDnsHistoryStore } from '../../src/storage/dns-history-store.js';
import { expectContractAnswer, unusedInvoiceCards } from '../helpers/mini-app-api.js';
import { type MiniAppWorld, startMiniAppWorld } from '../helpers/mini-app-world.js';

const BOT_TOKEN = '7000000001:AAH-mini-app-test-bot-token_0123456789';
const OTHER_BOT_TOKEN = '7000000002:AAH-another-bot-token-entirely_98765';
const OWNER = 5001;
const TECH = 5002;
const VIEWER = 5003;
const LEFT = 5004;
const STRANGER = 5005;
const NO_TOKEN = 5006;
const GROUP = -1009000000001;
const UNBOUND_GROUP = -1009000000002;

let sandbox: Sandbox;
let transport: PartnerTransport;
let server: BotServer;
let chatData: ChatData;
let base: string;
let dnsHistory: DnsHistory;
let services: MiniAppServices;
let world: MiniAppWorld | undefined;
/** What the chat was told of edits applied in the app. */
const reports: EditsReport[] = [];
const lines: string[] = [];
/** Every response body the tests read, to search for tokens at the end. */
const bodies: string[] = [];

beforeAll(async () => {
  world = await startMiniAppWorld({
    botToken: BOT_TOKEN,
    name: 'mini-app',
    chats: [OWNER, GROUP],
    team: {
      group: GROUP,
      owner: OWNER,
      members: { [OWNER]: 'owner', [TECH]: 'tech', [VIEWER]: 'viewer', [LEFT]: 'admin' },
      names: { [OWNER]: 'Olga', [TECH]: 'Tim', [VIEWER]: 'Vera', [LEFT]: 'Leo' },
    },
    async setUp({ dataDir }) {
      const appDir = join(dataDir, 'app');
      await mkdir(appDir);
      await writeFile(
        join(appDir, 'index.html'),
        '<!doctype html><title>Partner</title><script src="app.js"></script>',
      );
      await writeFile(join(appDir, 'app.js'), 'console.log("app");');
      await writeFile(join(dataDir, 'secret.txt'), 'outside the app folder');
    },
    appDir: 'app',
    lines,
    services: (logger, { chatData, dataDir }) => {
      const keyring = parseEncryptionKeys(`k:${randomBytes(32).toString('base64')}`);
      dnsHistory = createDnsHistory({
        store: createLowdbDnsHistoryStore({ dataDir: join(dataDir, 'data') }),
        keyring,
      });
      services = {
        zoneEditing: createZoneEditing({
          recorder: createDnsRecorder({ chatData, dnsHistory, logger }),
          reports: { reportEdits: async (report) => void reports.push(report) },
          logger,
        }),
        orderPlacing: createOrderPlacing({ chatData, watches: undefined, report: undefined, logger }),
        customers: createSavedCustomers(chatData),
        invoiceCards: unusedInvoiceCards,
        dnsHistory: createDnsRecorder({ chatData, dnsHistory, logger }),
      };
      return services;
    },
    isGroupMember: async (_chatId, userId) => userId !== LEFT,
  });
  ({ sandbox, transport, server, chatData, base } = world);
});

afterAll(async () => {
  await world?.close();
});

interface Launch {
  user?: { id: number; first_name: string; language_code?: string } | undefined;
  startParam?: string;
  token?: string;
  signedAt?: Date;
}

/** initData as Telegram makes it for the bot (or, with `token`, for another bot). */
function initData(launch: Launch = {}): string {
  const user = 'user' in launch ? launch.user : { id: OWNER, first_name: 'Olga', language_code: 'en' };
  return sign(
    {
      ...(user === undefined ? {} : { user }),
      ...(launch.startParam === undefined ? {} : { start_param: launch.startParam }),
    },
    launch.token ?? BOT_TOKEN,
    launch.signedAt ?? new Date(),
  );
}

const asUser = (id: number, extra: Omit<Launch, 'user'> = {}) =>
  initData({ user: { id, first_name: 'Member', language_code: 'en' }, ...extra });

async function call(path: string, auth: string | undefined, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  if (auth !== undefined) headers.set('authorization', `tma ${auth}`);
  const url = new URL(path, base);
  const response = await fetch(url, { ...init, headers });
  const text = await response.text();
  bodies.push(text);
  const json = (response.headers.get('content-type') ?? '').startsWith('application/json')
    ? (JSON.parse(text) as Record<string, unknown>)
    : undefined;
  // Every JSON answer of the API, a 200 or a refusal, is held to the contract.
  if (json !== undefined && url.pathname.includes('/api/')) expectContractAnswer(url, response.status, json);
  return { status: response.status, headers: response.headers, text, json };
}

/** A raw request line, so that `..` reaches the server as sent (fetch would resolve it). */
function rawGet(path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * A GET on a connection of its own, closed after the answer: a second server's close() must not
 * wait out the keep-alive of a pooled connection it did not yet see idle.
 */
function getOnce(url: URL): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: { connection: 'close' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const postJson = (path: string, auth: string | undefined, body: unknown) =>
  call(path, auth, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('a partner in their own chat', () => {
  it('gets who they are and what they may do', async () => {
    const answer = await call('api/session', initData());
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({
      user: { id: OWNER, firstName: 'Olga' },
      account: { kind: 'private', chatId: OWNER, role: 'owner', roleName: 'owner' },
      dns: 'edit',
    });
    expect(answer.json?.capabilities).toContain('tech');
  });

  it("reads a zone's records through the provider with their own token", async () => {
    const since = sandbox.requests.length;
    const answer = await call('api/zone?domain=mysite.by', initData());
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ domain: 'mysite.by', orderId: expect.any(Number) });
    const records = answer.json?.records as { type: string; line: string | null }[];
    expect(records.length).toBeGreaterThan(0);
    expect(records.find((r) => r.type === 'CNAME')?.line).toMatch(/^CNAME ftp mysite\.by/);
    const listing = sandbox.requests.slice(since).find((r) => r.path.endsWith('/dns/records'));
    expect(listing?.headers['x-api-token']).toBe(sandbox.token);
  });

  it('is told when the domain is not theirs, or not a domain', async () => {
    const missing = await call('api/zone?domain=nobody-has-this.by', initData());
    expect(missing).toMatchObject({ status: 404, json: { error: 'domainNotFound' } });
    const bad = await call('api/zone?domain=not a domain', initData());
    expect(bad).toMatchObject({ status: 400, json: { error: 'badDomain' } });
  });

  it('checks a one-line record as the chat does, writing nothing', async () => {
    const since = sandbox.requests.length;
    const good = await postJson('api/zone/check', initData(), { line: 'A www 192.0.2.10' });
    expect(good).toMatchObject({ status: 200, json: { ok: true, line: 'A www 192.0.2.10' } });
    const wrong = await postJson('api/zone/check', initData(), { line: 'A www 999.1.1.1' });
    expect(wrong).toMatchObject({
      status: 200,
      json: { ok: false, field: expect.any(String), reason: expect.any(String) },
    });
    expect(sandbox.requests.slice(since)).toEqual([]);
  });

  it('without a token of their own is sent to /token', async () => {
    const answer = await call('api/session', asUser(NO_TOKEN));
    expect(answer).toMatchObject({ status: 403, json: { error: 'noToken' } });
    expect(answer.json?.message).toContain('/token');
  });

  it('is answered in their Telegram language', async () => {
    const answer = await call(
      'api/session',
      initData({ user: { id: NO_TOKEN, first_name: 'Ира', language_code: 'ru' } }),
    );
    expect(answer.json).toMatchObject({ error: 'noToken', message: expect.stringContaining('токен') });
  });
});

describe('initData that is not a valid launch of this bot: 401 with the reason', () => {
  const expectRefused = async (auth: string | undefined, reason: string) => {
    const answer = await call('api/zone?domain=mysite.by', auth);
    expect(answer.status).toBe(401);
    expect(answer.json).toMatchObject({ error: reason, message: expect.any(String) });
    expect(answer.headers.get('www-authenticate')).toBe('tma');
    expect(JSON.stringify(answer.json)).not.toContain('mysite');
  };

  it('none at all', () => expectRefused(undefined, 'missing'));

  it('a forged hash', async () => {
    const good = initData();
    const hash = /hash=([0-9a-f]{64})/.exec(good)?.[1] ?? '';
    const forged = good.replace(hash, `${hash[0] === '0' ? '1' : '0'}${hash.slice(1)}`);
    await expectRefused(forged, 'badSignature');
  });

  it('a user changed after signing (another id, same hash)', async () => {
    const good = initData();
    await expectRefused(good.replace(`%22id%22%3A${OWNER}`, `%22id%22%3A${TECH}`), 'badSignature');
  });

  it("signed with another bot's token", () =>
    expectRefused(initData({ token: OTHER_BOT_TOKEN }), 'badSignature'));

  it('older than the limit (an hour)', () =>
    expectRefused(initData({ signedAt: new Date(Date.now() - 3_700_000) }), 'expired'));

  it('without a user', () => expectRefused(initData({ user: undefined }), 'noUser'));

  it('not initData', () => expectRefused('query_id=1&user=%7B%7D', 'malformed'));

  it('while one signed 59 minutes ago still passes', async () => {
    const answer = await call('api/session', initData({ signedAt: new Date(Date.now() - 59 * 60_000) }));
    expect(answer.status).toBe(200);
  });
});

describe('a bound group opened by its start parameter', () => {
  const group = { startParam: `g${GROUP}` };

  it("acts with the group's token and the member's role", async () => {
    const session = await call('api/session', asUser(TECH, group));
    expect(session).toMatchObject({
      status: 200,
      json: { account: { kind: 'group', chatId: GROUP, role: 'tech' }, dns: 'edit' },
    });
    const zone = await call('api/zone?domain=mysite.by', asUser(TECH, group));
    expect(zone.status).toBe(200);
  });

  it('a viewer reads the zone but may not change it: told why, and every write is refused', async () => {
    const session = await call('api/session', asUser(VIEWER, group));
    expect(session).toMatchObject({ status: 200, json: { account: { role: 'viewer' }, dns: 'read' } });
    expect(session.json?.readOnlyReason).toBe(
      'Records may be changed by: tech, admin, owner. Your role: viewer — the zone is read-only.',
    );
    const zone = await call('api/zone?domain=mysite.by', asUser(VIEWER, group));
    expect(zone.status).toBe(200);
    const check = await postJson('api/zone/check', asUser(VIEWER, group), { line: 'A www 192.0.2.10' });
    expect(check).toMatchObject({ status: 403, json: { error: 'roleTooLow' } });
    const since = sandbox.requests.length;
    const edits = [{ op: 'add', row: { type: 'A', host: 'viewer', data: '192.0.2.10', ttl: 3600 } }];
    for (const path of ['api/zone/plan', 'api/zone/paste', 'api/zone/apply']) {
      const body = { domain: 'mysite.by', edits, text: 'A viewer 192.0.2.10', key: 'viewer-key-0123456789' };
      const answer = await postJson(path, asUser(VIEWER, group), body);
      expect(answer, path).toMatchObject({ status: 403, json: { error: 'roleTooLow' } });
      expect(answer.json?.message).toBe('This is for the roles: tech, admin, owner. Your role: viewer.');
    }
    expect(sandbox.requests.slice(since)).toEqual([]);
  });

  it('someone the team has not recorded is refused, not made a viewer', async () => {
    const answer = await call('api/session', asUser(STRANGER, group));
    expect(answer).toMatchObject({ status: 403, json: { error: 'notMember' } });
    expect((await chatData.getTeam(GROUP))?.members[String(STRANGER)]).toBeUndefined();
  });

  it('a recorded member Telegram says has left is refused', async () => {
    const answer = await call('api/session', asUser(LEFT, group));
    expect(answer).toMatchObject({ status: 403, json: { error: 'notMember' } });
  });

  it('a group that is not bound, or a parameter the bot does not know', async () => {
    const unbound = await call('api/session', asUser(OWNER, { startParam: `g${UNBOUND_GROUP}` }));
    expect(unbound).toMatchObject({ status: 403, json: { error: 'groupNotBound' } });
    const unknown = await call('api/session', asUser(OWNER, { startParam: 'promo2025' }));
    expect(unknown).toMatchObject({ status: 400, json: { error: 'badStartParam' } });
  });
});

describe('the API takes JSON only, within a limit', () => {
  it('refuses a body that is not JSON with 415', async () => {
    const answer = await call('api/zone/check', initData(), {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'A www 192.0.2.10',
    });
    expect(answer).toMatchObject({ status: 415, json: { error: 'notJson' } });
  });

  it('refuses a body over 16 KiB with 413', async () => {
    const answer = await postJson('api/zone/check', initData(), { line: 'x'.repeat(20_000) });
    expect(answer).toMatchObject({ status: 413, json: { error: 'tooLarge' } });
  });

  it('refuses JSON of another shape with 400', async () => {
    const answer = await postJson('api/zone/check', initData(), { line: 1, more: true });
    expect(answer).toMatchObject({ status: 400, json: { error: 'badJson' } });
  });

  it('answers an unknown endpoint 404 and a wrong method 405', async () => {
    expect((await call('api/nothing', initData())).status).toBe(404);
    const wrong = await postJson('api/session', initData(), {});
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET');
  });
});

describe('headers and files', () => {
  it('every answer sets a CSP and nosniff, refusals included', async () => {
    for (const answer of [
      await call('api/session', initData()),
      await call('api/session', undefined),
      await call('', undefined),
      await call('nothing.js', undefined),
    ]) {
      expect(answer.headers.get('content-security-policy')).toMatch(/default-src '(self|none)'/);
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    }
    const page = await call('', undefined);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('content-security-policy')).not.toContain('unsafe-inline');
  });

  it('serves the built app with its content type and charset', async () => {
    const page = await call('', undefined);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('<title>Partner</title>');
    const script = await call('app.js', undefined);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const bare = await fetch(`http://127.0.0.1:${server.port}/app?x=1`, { redirect: 'manual' });
    expect(bare.status).toBe(301);
    expect(bare.headers.get('location')).toBe('/app/?x=1');
  });

  it('serves the app `npm run build` made (dist/app, the default) with the CSP, as the bot button opens it', async () => {
    const config = loadConfig({
      BOT_TOKEN,
      PARTNER_API_URL: sandbox.url,
      MINI_APP_URL: 'https://bot.example.by/app/',
    });
    const built = await startBotServer({
      port: 0,
      host: '127.0.0.1',
      logger: createLogger({ level: 'silent' }),
      health: () => ({}),
      onUpdate: () => undefined,
      routes: miniAppRoutes({
        config,
        chatData,
        apiFor: createApiFactory(transport),
        services,
        translate: loadTranslations().t,
        logger: createLogger({ level: 'silent' }),
      }),
    });
    try {
      const root = `http://127.0.0.1:${built.port}/app/`;
      const page = await getOnce(new URL('?domain=mysite.by', root));
      expect(page.status).toBe(200);
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      const [, script] =
        /<script type="module" crossorigin src="\.\/(assets\/[\w-]+\.js)"><\/script>/.exec(page.body) ?? [];
      const [, style] = /href="\.\/(assets\/[\w-]+\.css)"/.exec(page.body) ?? [];
      for (const [asset, type] of [
        [script, 'text/javascript; charset=utf-8'],
        [style, 'text/css; charset=utf-8'],
      ]) {
        const answer = await getOnce(new URL(String(asset), root));
        expect(answer.status, asset).toBe(200);
        expect(answer.headers['content-type'], asset).toBe(type);
        expect(answer.headers['content-security-policy'], asset).toContain("default-src 'self'");
        expect(answer.body.length, asset).toBeGreaterThan(100);
      }
    } finally {
      await built.close();
    }
  });

  it('serves nothing outside the app folder', async () => {
    for (const path of [
      '/app/../secret.txt',
      '/app/%2e%2e/secret.txt',
      '/app/..%2fsecret.txt',
      '/app/%2e%2e%2fsecret.txt',
      '/app/..%5csecret.txt',
      '/app/app.js%00.html',
    ]) {
      const answer = await rawGet(path);
      expect(answer.body, path).not.toContain('outside the app folder');
      expect(answer.status, path).toBe(404);
    }
  });
});

interface Listed {
  id: number;
  type: string;
  row: { type: string; host: string; data: string; ttl: number } | null;
}

describe('the zone editor writes through the services the chat runs', () => {
  const group = { startParam: `g${GROUP}` };
  const tech = () => asUser(TECH, group);
  const zone = async () => (await call('api/zone?domain=mysite.by', tech())).json?.records as Listed[];
  const find = (records: Listed[], type: string, host: string) => {
    const found = records.find((r) => r.type === type && r.row?.host === host);
    if (!found?.row) throw new Error(`no ${type} ${host} in the zone`);
    return { id: found.id, row: found.row };
  };

  it('plans the edits in words, and changes www, a TTL and deletes one record — adds first, once, told in the chat', async () => {
    const records = await zone();
    const www = find(records, 'A', 'www');
    const dmarc = find(records, 'TXT', '_dmarc');
    const ftp = find(records, 'CNAME', 'ftp');
    const edits = [
      { op: 'change', id: www.id, row: { ...www.row, data: '93.125.99.20' } },
      { op: 'change', id: dmarc.id, row: { ...dmarc.row, ttl: 600 } },
      { op: 'delete', id: ftp.id },
    ];
    const plan = await postJson('api/zone/plan', tech(), { domain: 'mysite.by', edits });
    expect(plan.status).toBe(200);
    expect(plan.json).toMatchObject({ problems: [], needsForce: false, summary: 'Change: 2 · Delete: 1' });
    expect((plan.json?.lines as { text: string }[] | undefined)?.map((l) => l.text)).toEqual([
      'Change: A www 93.125.99.10 · TTL 3600 → A www 93.125.99.20 · TTL 3600',
      'Change: TXT _dmarc "v=DMARC1; p=none; rua=mailto:dmarc@mysite.by" · TTL 3600 → TXT _dmarc "v=DMARC1; p=none; rua=mailto:dmarc@mysite.by" · TTL 600',
      'Delete: CNAME ftp mysite.by · TTL 3600',
    ]);

    const since = sandbox.requests.length;
    const key = 'apply-key-www-ttl-ftp-01';
    const [first, repeat] = await Promise.all([
      postJson('api/zone/apply', tech(), { domain: 'mysite.by', edits, key }),
      postJson('api/zone/apply', tech(), { domain: 'mysite.by', edits, key }),
    ]);
    expect(first).toMatchObject({ status: 200, json: { applied: 3, failed: 0, total: 3 } });
    // Three changes, as the plan counts them, though the provider took five calls.
    expect(first.json?.message).toBe('Done: 3 of 3 changes applied. The report is in the chat.');
    expect(repeat.json).toEqual(first.json);
    const writes = sandbox.requests
      .slice(since)
      .filter((r) => r.method !== 'GET')
      .map((r) => `${r.method} ${r.path.replace(/\/\d+$/, '/<id>')}`);
    expect(writes).toEqual([
      expect.stringMatching(/^POST .*\/dns\/records\/a$/),
      expect.stringMatching(/^POST .*\/dns\/records\/txt$/),
      expect.stringMatching(/^DELETE .*\/dns\/records\/a\/<id>$/),
      expect.stringMatching(/^DELETE .*\/dns\/records\/txt\/<id>$/),
      expect.stringMatching(/^DELETE .*\/dns\/records\/cname\/<id>$/),
    ]);

    const after = await zone();
    expect(find(after, 'A', 'www').row.data).toBe('93.125.99.20');
    expect(find(after, 'TXT', '_dmarc').row.ttl).toBe(600);
    expect(after.some((r) => r.type === 'CNAME')).toBe(false);

    // The chat is told once, by the member; the history has one entry of the five changes.
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({
      chatId: GROUP,
      who: { chatId: GROUP, userId: TECH, name: 'Member' },
      role: 'tech',
      domain: 'mysite.by',
    });
    const orderId = Number(plan.json?.orderId);
    const [entry] = await dnsHistory.list(sandbox.token, orderId);
    expect(entry).toMatchObject({ kind: 'change', who: { userId: TECH } });
    expect(entry?.change).toMatchObject({ records: expect.arrayContaining([expect.anything()]) });
    expect(entry?.change && 'records' in entry.change ? entry.change.records : []).toHaveLength(5);
    expect(reports[0]?.entry?.id).toBe(entry?.id);
  });

  it('refuses edits that do not fit, each by its row, and a record changed meanwhile as a stale zone', async () => {
    const records = await zone();
    const www = find(records, 'A', 'www');
    const since = sandbox.requests.length;
    const bad = await postJson('api/zone/apply', tech(), {
      domain: 'mysite.by',
      edits: [
        { op: 'change', id: www.id, row: { ...www.row, data: '300.1.1.1' } },
        { op: 'add', row: { type: 'CNAME', host: '@', data: 'cdn.example.net', ttl: 3600 } },
      ],
      key: 'apply-key-bad-rows-0001',
    });
    expect(bad).toMatchObject({ status: 400, json: { error: 'badEdits' } });
    expect(bad.json?.problems).toEqual([
      {
        edit: 0,
        field: 'ipv4',
        message: 'IPv4 address: That is not an IPv4 address: four numbers 0–255 with dots, e.g. 192.0.2.1.',
      },
      { edit: 1, message: expect.stringContaining('CNAME') },
    ]);
    const stale = await postJson('api/zone/apply', tech(), {
      domain: 'mysite.by',
      edits: [{ op: 'delete', id: 987654 }],
      key: 'apply-key-stale-zone-01',
    });
    expect(stale).toMatchObject({ status: 409, json: { error: 'zoneChanged' } });
    expect(sandbox.requests.slice(since).filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('asks before deleting more than 30% of the zone, and applies it when told', async () => {
    const adds = ['192.0.2.61', '192.0.2.62', '192.0.2.63'].map((data) => ({
      op: 'add',
      row: { type: 'A', host: 'bulk', data, ttl: 3600 },
    }));
    const added = await postJson('api/zone/apply', tech(), {
      domain: 'mysite.by',
      edits: adds,
      key: 'apply-key-three-adds-01',
    });
    expect(added).toMatchObject({ status: 200, json: { applied: 3 } });
    const records = (await zone()).filter((r) => r.row !== null && !(r.type === 'NS' && r.row.host === '@'));
    expect(records.length).toBeGreaterThanOrEqual(10);
    expect(records.length).toBeLessThan(14);
    const edits = records.slice(0, 4).map((r) => ({ op: 'delete', id: r.id }));
    const key = 'apply-key-mass-delete-01';
    const asked = await postJson('api/zone/apply', tech(), { domain: 'mysite.by', edits, key });
    expect(asked).toMatchObject({ status: 409, json: { error: 'needsForce' } });
    expect(asked.json?.message).toMatch(/^The changes delete 4 of \d+ records — more than 30%/);
    const forced = await postJson('api/zone/apply', tech(), { domain: 'mysite.by', edits, key, force: true });
    expect(forced).toMatchObject({ status: 200, json: { applied: 4, failed: 0 } });
  });

  it('reads a pasted zone into rows, leaving out what the zone has', async () => {
    const pasted = await postJson('api/zone/paste', tech(), {
      domain: 'mysite.by',
      text: '$ORIGIN mysite.by.\nwww 300 IN A 93.125.99.20\nnew IN A 192.0.2.44\n@ IN CAA 0 issue "letsencrypt.org"\n',
    });
    expect(pasted.status).toBe(200);
    expect(pasted.json?.rows).toEqual([{ type: 'A', host: 'new', data: '192.0.2.44', ttl: 300 }]);
    // www is there with another TTL: that record changed, not a second www beside it.
    const www = find(await zone(), 'A', 'www');
    expect(pasted.json?.changes).toEqual([{ id: www.id, row: { ...www.row, ttl: 300 } }]);
    expect(pasted.json?.skipped).toEqual([{ line: 4, message: expect.stringContaining('CAA') }]);
  });
});

describe('secrets', () => {
  it('no answer and no log line carries the bot token or the partner token', () => {
    expect(bodies.length).toBeGreaterThan(20);
    expect(lines.length).toBeGreaterThan(0);
    for (const text of [...bodies, ...lines]) {
      expect(text).not.toContain(BOT_TOKEN);
      expect(text).not.toContain(BOT_TOKEN.split(':')[1]);
      expect(text).not.toContain(sandbox.token);
    }
  });
});
