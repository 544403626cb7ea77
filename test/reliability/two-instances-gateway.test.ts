/*
 * Two real bot processes (`node dist/main.js`, STORAGE=redis, one Redis, one sandbox) behind an
 * imagined balancer, as routers meet them: the address one instance wrote is `nochg` on the other
 * with no provider call, and failed logins counted by both add up to one `abuse`.
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
import { createRedisRobotKeyStore } from '../../src/storage/redis-robot-key-store.js';
import { createRedisStore } from '../../src/storage/redis-store.js';
import { createRobotKeys } from '../../src/storage/robot-keys.js';
import { type BotProcess, freePort, startBotProcess } from '../helpers/bot-process.js';
import { addressKey, seedOfficeRecord } from '../helpers/key-fixtures.js';
import { deleteKeys } from '../helpers/two-instances.js';

const url = process.env.REDIS_URL;
if (!url) console.warn('REDIS_URL is not set: the two-process gateway story is skipped');

const KEYS = generateKeySpec('t1');
const OWNER = 841_001;

describe.skipIf(!url)('routers meeting two instances on one Redis', () => {
  const prefix = `pb-gateway-twice-${process.pid}-${Date.now()}:`;
  const dataDirs: string[] = [];
  const doubles: BotApiServer[] = [];
  const bots: BotProcess[] = [];
  let sandbox: Sandbox;
  let bases: string[] = [];
  let credentials = '';

  /** One instance: its own Bot API double (two processes cannot long-poll one), its own port. */
  async function startInstance(): Promise<string> {
    const telegram = await startBotApiServer({ port: 0 });
    doubles.push(telegram);
    const dataDir = await mkdtemp(join(tmpdir(), 'partner-bot-gateway-twice-'));
    dataDirs.push(dataDir);
    const port = await freePort();
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
        NOTIFY_INTERVAL_S: '0',
        LOG_LEVEL: 'warn',
      }),
    );
    await telegram.waitForCall('getUpdates', { timeoutMs: 20_000 });
    return `http://127.0.0.1:${port}`;
  }

  const update = async (base: string, auth: string, query: string) => {
    const response = await fetch(`${base}/nic/update?${query}`, {
      headers: { authorization: `Basic ${auth}` },
    });
    return (await response.text()).trim();
  };

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    await seedOfficeRecord(sandbox);
    // The owner's token and an address key, as /token and /keys leave them in the shared store.
    const redis = new Redis(url as string);
    const keyring = parseEncryptionKeys(KEYS);
    await createChatData({ store: createRedisStore({ redis, prefix }), keyring }).setToken(
      OWNER,
      sandbox.token,
    );
    const issued = await createRobotKeys({
      store: createRedisRobotKeyStore({ redis, prefix }),
      keyring,
    }).create(addressKey(OWNER));
    credentials = Buffer.from(`${issued.key.id}:${issued.secret}`).toString('base64');
    redis.disconnect();
    bases = [await startInstance(), await startInstance()];
  }, 60_000);

  afterAll(async () => {
    for (const bot of bots) await bot.stop();
    for (const telegram of doubles) await telegram.close();
    await sandbox?.close();
    await deleteKeys(url as string, prefix);
    for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
  });

  it('the address written through one is nochg on the other, with no provider call', async () => {
    const [a = '', b = ''] = bases;
    const query = 'hostname=office.mysite.by&myip=198.51.100.9';
    expect(await update(a, credentials, query)).toBe('good 198.51.100.9');
    const quiet = sandbox.requests.length;
    expect(await update(b, credentials, query)).toBe('nochg 198.51.100.9');
    expect(await update(a, credentials, query)).toBe('nochg 198.51.100.9');
    // A nochg answered without the cache would list the zone's records; the reads the chat's
    // live check of the first change makes meanwhile (the orders, the name servers) are its own.
    const records = sandbox.requests.slice(quiet).filter((r) => r.path.includes('/dns/records'));
    expect(records.map((r) => `${r.method} ${r.path}`)).toEqual([]);
  }, 30_000);

  it('failed logins counted by both instances add up to one limit', async () => {
    const [a = '', b = ''] = bases;
    const wrong = Buffer.from(`kaaaaaaaaaaaa:${'x'.repeat(43)}`).toString('base64');
    const query = 'hostname=office.mysite.by&myip=198.51.100.10';
    // Twenty failures, alternating: each instance alone has seen ten.
    for (let n = 0; n < 20; n += 1) expect(await update(n % 2 === 0 ? a : b, wrong, query)).toBe('badauth');
    expect(await update(a, wrong, query)).toBe('abuse');
    expect(await update(b, credentials, query)).toBe('abuse');
  }, 30_000);
});
