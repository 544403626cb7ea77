/*
 * Two real bot processes (`node dist/main.js`, STORAGE=redis, one Redis, one sandbox) behind an
 * imagined balancer: the Mini App's same Apply — one signed launch, one key — sent to each at the
 * same moment makes one set of DNS calls, and both answer what was done; the order form's same
 * submit sent to both makes one order.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BotApiServer, startBotApiServer } from '../../src/playground/bot-api/index.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { createChatData } from '../../src/storage/chat-data.js';
import { generateKeySpec, parseEncryptionKeys } from '../../src/storage/crypto.js';
import { createRedisStore } from '../../src/storage/redis-store.js';
import { type BotProcess, freePort, startBotProcess } from '../helpers/bot-process.js';
import { signLaunch } from '../helpers/mini-app-api.js';
import { deleteKeys } from '../helpers/two-instances.js';

const url = process.env.REDIS_URL;
if (!url) console.warn('REDIS_URL is not set: the two-process Apply story is skipped');

const KEYS = generateKeySpec('t1');
const OWNER = 840_001;

describe.skipIf(!url)('the same Apply sent to two instances at once', () => {
  const prefix = `pb-apply-twice-${process.pid}-${Date.now()}:`;
  const dataDirs: string[] = [];
  const doubles: BotApiServer[] = [];
  const bots: BotProcess[] = [];
  let sandbox: Sandbox;

  let a: { base: string; telegram: BotApiServer };
  let b: { base: string; telegram: BotApiServer };
  let launch = '';
  /** A POST of the Mini App's API to one instance, as the app sends it. */
  const post = async (base: string, path: string, body: unknown) => {
    const response = await fetch(new URL(path, base), {
      method: 'POST',
      headers: { authorization: `tma ${launch}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  };

  /** One instance: its own Bot API double (two processes cannot long-poll one), its own port. */
  async function startInstance(token?: string): Promise<{ base: string; telegram: BotApiServer }> {
    const telegram = await startBotApiServer({ port: 0, ...(token ? { token } : {}) });
    doubles.push(telegram);
    const dataDir = await mkdtemp(join(tmpdir(), 'partner-bot-apply-twice-'));
    dataDirs.push(dataDir);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}/app/`;
    bots.push(
      startBotProcess({
        BOT_TOKEN: telegram.token,
        TELEGRAM_API_ROOT: telegram.apiRoot,
        PARTNER_API_URL: sandbox.url,
        DATA_DIR: dataDir,
        ENCRYPTION_KEYS: KEYS,
        STORAGE: 'redis',
        REDIS_URL: url as string,
        REDIS_PREFIX: prefix,
        PORT: String(port),
        HOST: '127.0.0.1',
        MINI_APP_URL: base,
        NOTIFY_INTERVAL_S: '0',
        LOG_LEVEL: 'warn',
      }),
    );
    await telegram.waitForCall('getUpdates', { timeoutMs: 20_000 });
    return { base, telegram };
  }

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    // The owner connected their token, as /token leaves it in the shared store.
    const redis = new Redis(url as string);
    const chatData = createChatData({
      store: createRedisStore({ redis, prefix }),
      keyring: parseEncryptionKeys(KEYS),
    });
    await chatData.setToken(OWNER, sandbox.token);
    redis.disconnect();
  }, 30_000);

  afterAll(async () => {
    for (const bot of bots) await bot.stop();
    for (const telegram of doubles) await telegram.close();
    await sandbox?.close();
    await deleteKeys(url as string, prefix);
    for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
  });

  it('one set of DNS calls; both instances answer the Apply done', async () => {
    a = await startInstance();
    b = await startInstance(a.telegram.token);
    launch = signLaunch(a.telegram.token, { id: OWNER, first_name: 'Ольга' });
    const body = {
      domain: 'mysite.by',
      edits: [
        { op: 'add', row: { type: 'A', host: 'twice', data: '192.0.2.77', ttl: 3600 } },
        { op: 'add', row: { type: 'TXT', host: 'twice', data: '"one apply"', ttl: 3600 } },
      ],
      key: 'apply-sent-to-two-instances-01',
    };
    const apply = (base: string) => post(base, 'api/zone/apply', body);
    // Listing the zone is slow today: both instances would plan before either writes.
    sandbox.addFault({ method: 'GET', path: /\/dns\/records$/, fault: { kind: 'delay', ms: 400 }, times: 2 });
    const since = sandbox.requests.length;

    const answers = await Promise.all([apply(a.base), apply(b.base)]);

    const writes = sandbox.requests
      .slice(since)
      .filter((r) => r.method !== 'GET' && r.path.includes('/dns/records'))
      .map((r) => `${r.method} ${r.path.replace(/^\/v1\/domains\/\d+/, '')}`);
    expect(writes).toEqual(['POST /dns/records/a', 'POST /dns/records/txt']);
    for (const answer of answers) {
      expect(answer, JSON.stringify(answer.json)).toMatchObject({
        status: 200,
        json: { applied: 2, failed: 0, total: 2 },
      });
    }
    expect(answers[1]?.json).toEqual(answers[0]?.json);
  }, 60_000);

  it('the order form’s same submit sent to both: one order, both answer it', async () => {
    const saved = await post(a.base, 'api/customer/save', {
      type: 'natural',
      answers: {
        'c:last_name': 'Иванов',
        'c:first_name': 'Иван',
        'c:middle_name': 'Иванович',
        'c:address.country_code': 'BY',
        'c:address.postal_code': '220030',
        'c:address.region': 'Минская область',
        'c:address.city': 'Минск',
        'c:address.street': 'ул. Немига',
        'c:address.building': '5',
        phone: '+375 29 123-45-67',
        email: 'ivanov@example.by',
      },
    });
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    const order = {
      key: 'order-sent-to-two-instances-01',
      kind: 'domain',
      currencyId: 1,
      period: 1,
      customerId: saved.json.id,
      // COM.BY takes no WHOIS data.
      domain: `two-instances-${Date.now().toString(36)}.com.by`,
    };
    // The order list is slow today: both would list and create before either had stored the key.
    sandbox.addFault({
      method: 'GET',
      path: '/v1/orders/domains',
      fault: { kind: 'delay', ms: 400 },
      times: 2,
    });
    const since = sandbox.requests.length;

    const answers = await Promise.all([
      post(a.base, 'api/order/submit', order),
      post(b.base, 'api/order/submit', order),
    ]);

    const creates = sandbox.requests
      .slice(since)
      .filter((r) => r.method === 'POST' && r.path === '/v1/orders/domains');
    expect(creates).toHaveLength(1);
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect(answers[1]?.json.orderId).toBe(answers[0]?.json.orderId);
    expect(answers.map((answer) => answer.json.again).sort()).toEqual([false, true]);
  }, 60_000);
});
