/**
 * `npm run admin` on the real processes: a bot on lowdb is filled through Telegram (token, team
 * group, notification state, DNS history, a robot's key), the data moves to Redis, and a bot started there finds
 * all of it; kill -9 during a migration and a re-run give the same counts; keys rotate; a backup
 * restores into either backend.
 */
import type { ChildProcess } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BotApiServer,
  type RecordedCall,
  startBotApiServer,
} from '../../src/playground/bot-api/index.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { createChatData } from '../../src/storage/chat-data.js';
import type { ChatStore } from '../../src/storage/chat-store.js';
import { parseEncryptionKeys } from '../../src/storage/crypto.js';
import { createLowdbStore } from '../../src/storage/lowdb-store.js';
import { createRedisStore } from '../../src/storage/redis-store.js';
import { createLowdbRobotKeyStore } from '../../src/storage/robot-key-store.js';
import { createRobotKeys } from '../../src/storage/robot-keys.js';
import { eventually, spawnCaptured, startBotProcess } from '../helpers/bot-process.js';
import { isPost, isPostTo, seenText } from '../helpers/seen-text.js';

const ADMIN_JS = join(process.cwd(), 'dist', 'admin', 'main.js');
const redisUrl = process.env.REDIS_URL;
const USER = 557_001;
const GROUP = -4_000_557_001;
const K1 = `k1:${Buffer.alloc(32, 1).toString('base64')}`;
const K2 = `k2:${Buffer.alloc(32, 2).toString('base64')}`;
const PREFIX = `pb-admin-${process.pid}-`;

let sandbox: Sandbox;
let work: string;
let lowdbDir: string;
let redis: Redis | undefined;
const ROBOT_KEY_NAME = 'Роутер админ-проверки';
let robotKey: { id: string; secret: string };

interface AdminRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

function admin(
  args: string[],
  env: Record<string, string>,
): { child: ChildProcess; done: Promise<AdminRun> } {
  const started = spawnCaptured([ADMIN_JS, ...args], env, work);
  const done = started.exited.then((code) => ({ code, stdout: started.stdout(), stderr: started.stderr() }));
  return { child: started.child, done };
}

const run = (args: string[], env: Record<string, string>) => admin(args, env).done;

function lowdbEnv(dir = lowdbDir, keys = K1): Record<string, string> {
  return { STORAGE: 'lowdb', DATA_DIR: dir, ENCRYPTION_KEYS: keys };
}

function redisEnv(prefix: string, keys = K1): Record<string, string> {
  return {
    STORAGE: 'redis',
    REDIS_URL: redisUrl ?? '',
    REDIS_PREFIX: prefix,
    DATA_DIR: join(work, `redis-side-${prefix}`),
    ENCRYPTION_KEYS: keys,
  };
}

async function dropPrefix(prefix: string): Promise<void> {
  if (!redis) return;
  for await (const batch of redis.scanStream({ match: `${prefix}*`, count: 1_000 })) {
    const keys: string[] = batch;
    if (keys.length > 0) await redis.del(...keys);
  }
}

/** Starts the bot on this storage against the sandbox; returns a way to talk to it as the partner. */
async function startBot(env: Record<string, string>) {
  const telegram: BotApiServer = await startBotApiServer({ port: 0 });
  const bot = startBotProcess({
    BOT_TOKEN: telegram.token,
    TELEGRAM_API_ROOT: telegram.apiRoot,
    PARTNER_API_URL: sandbox.url,
    PORT: '0',
    LOG_LEVEL: 'warn',
    NOTIFY_INTERVAL_S: '1',
    ...env,
  });
  await telegram.waitForCall((c) => c.method === 'getUpdates' && c.params.timeout === 50, {
    timeoutMs: 20_000,
  });
  const say = async (text: string, chat = USER): Promise<RecordedCall> => {
    const since = telegram.calls.length;
    telegram.sendText(text, { chatId: chat, userId: USER, chatType: chat < 0 ? 'group' : 'private' });
    return telegram.waitForCall(isPostTo(chat), {
      since,
      timeoutMs: 15_000,
    });
  };
  return {
    telegram,
    say,
    async stop() {
      expect((await bot.stop()).code).toBe(0);
      await telegram.close();
    },
  };
}

const text = seenText;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  work = await mkdtemp(join(tmpdir(), 'partner-bot-admin-'));
  lowdbDir = join(work, 'lowdb');
  if (redisUrl) redis = new Redis(redisUrl);
  // A partner works with the bot on lowdb: token, a team group, a DNS change, watcher polls.
  const bot = await startBot(lowdbEnv());
  await bot.say('/start');
  await bot.say('/token');
  expect(text(await bot.say(sandbox.token))).toContain('сохранён');
  expect(text(await bot.say('/team', GROUP))).toContain('Группа подключена');
  expect(text(await bot.say('/dns mysite.by add A admin-check 192.0.2.91'))).toContain('192.0.2.91');
  // Let the watchers poll once, so their state (what was already told) is stored.
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  await bot.stop();
  // A robot's key, made as /keys makes one: its name and maker sealed, its secret only hashed.
  const keys = createLowdbRobotKeyStore({ dataDir: lowdbDir });
  const made = await createRobotKeys({ store: keys, keyring: parseEncryptionKeys(K1) }).create({
    chatId: USER,
    kind: 'address',
    name: ROBOT_KEY_NAME,
    scope: 'office.mysite.by',
    orderId: 1,
    domain: 'mysite.by',
    networks: [],
    createdBy: { userId: USER, name: 'Админ Проверка' },
  });
  robotKey = { id: made.key.id, secret: made.secret };
  await keys.close();
}, 90_000);

afterAll(async () => {
  await dropPrefix(PREFIX);
  redis?.disconnect();
  await sandbox.close();
  await rm(work, { recursive: true, force: true });
});

describe('npm run admin', () => {
  it('stats counts what the bot stored, and nothing personal is printed', async () => {
    const result = await run(['stats'], lowdbEnv());
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/chats: 2/);
    expect(result.stdout).toMatch(/partner accounts: 1 \(chats with several: 0\)/);
    expect(result.stdout).toMatch(/groups: 1/);
    expect(result.stdout).toMatch(/watches: 1/);
    expect(result.stdout).toMatch(/DNS history entries: 1/);
    expect(result.stdout).toMatch(/robots' keys: 1/);
    expect(result.stdout).not.toContain(ROBOT_KEY_NAME);
    expect(result.stdout).not.toContain(sandbox.token);
  });

  it('refuses to run while a bot holds the lowdb data dir, and says why', async () => {
    const bot = await startBot(lowdbEnv());
    try {
      const result = await run(['stats'], lowdbEnv());
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/DATA_DIR|another process|used by/i);
    } finally {
      await bot.stop();
    }
  }, 60_000);

  it('refuses a backup that is cut short or has a line it does not know, and writes nothing wrong', async () => {
    const header = JSON.stringify({ format: 'partner-bot-backup', version: 1, createdAt: '' });
    const bad = join(work, 'bad.jsonl');
    await writeFile(bad, `${header}\n${JSON.stringify({ kind: 'chat', id: 5, doc: 'not a document' })}\n`);
    const refused = await run(['restore', bad], lowdbEnv(join(work, 'bad-target')));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('backup line 2');
    const cut = join(work, 'cut.jsonl');
    await writeFile(cut, `${header}\n`);
    const short = await run(['restore', cut], lowdbEnv(join(work, 'cut-target')));
    expect(short.code).toBe(1);
    expect(short.stderr).toContain('is cut short');
  });

  it('answers wrong usage with exit 2 and the list of commands', async () => {
    const result = await run(['migrate'], lowdbEnv());
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('migrate needs --to redis or --to lowdb');
    expect(result.stderr).toContain('rotate-keys');
  });

  describe.skipIf(!redisUrl)('on Redis', () => {
    it('migrates lowdb to Redis still sealed, a second run changes nothing, and the bot on Redis keeps working', async () => {
      const prefix = `${PREFIX}m:`;
      const first = await run(['migrate', '--to', 'redis'], { ...lowdbEnv(), ...redisTarget(prefix) });
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toContain('chats: 2 read, 2 written, 0 already there');
      expect(first.stdout).toContain('watches: 1 read, 1 written');
      expect(first.stdout).toContain('DNS histories: 1 read, 1 written');
      expect(first.stdout).toContain("robots' keys: 1 read, 1 written");
      expect(first.stdout).toContain('key id(s) k1');
      // Still sealed: the token is nowhere in Redis in clear text.
      const keys: string[] = [];
      for await (const batch of redis?.scanStream({ match: `${prefix}*` }) ?? [])
        keys.push(...(batch as string[]));
      for (const key of keys) {
        const type = await redis?.type(key);
        const value =
          type === 'string'
            ? await redis?.get(key)
            : type === 'list'
              ? (await redis?.lrange(key, 0, -1))?.join('\n')
              : type === 'set'
                ? (await redis?.smembers(key))?.join('\n')
                : type === 'zset'
                  ? (await redis?.zrange(key, 0, -1))?.join('\n')
                  : JSON.stringify(await redis?.hgetall(key));
        expect(value).not.toContain(sandbox.token);
        expect(value).not.toContain(ROBOT_KEY_NAME);
        expect(value).not.toContain(robotKey.secret);
      }
      const second = await run(['migrate', '--to', 'redis'], { ...lowdbEnv(), ...redisTarget(prefix) });
      expect(second.stdout).toContain('chats: 2 read, 0 written, 2 already there');
      expect(second.stdout).toContain('Nothing changed');

      const bot = await startBot(redisEnv(prefix));
      try {
        // No /token: the partner's token came along.
        expect(text(await bot.say('/invoices'))).toContain('Счета');
        expect(text(await bot.say('/team', GROUP))).toContain('Команда этого чата');
        const history = await bot.say('/dns mysite.by history');
        expect(text(history)).toContain('admin-check');
        // What the watchers told on lowdb is not told again on Redis.
        const since = bot.telegram.calls.length;
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        const told = bot.telegram.calls.slice(since).filter(isPost);
        expect(told.map(text)).toEqual([]);
      } finally {
        await bot.stop();
      }
    }, 90_000);

    it('kill -9 during a migration leaves it resumable: a re-run ends with the same counts', async () => {
      const dir = join(work, 'many');
      const store = createLowdbStore({ dataDir: dir });
      for (let id = 1; id <= 3_000; id++)
        await store.update(id, () => ({ locale: 'ru', lastCurrencyId: id }));
      await store.close();
      const prefix = `${PREFIX}k:`;
      const env = { ...lowdbEnv(dir), ...redisTarget(prefix) };
      const killed = admin(['migrate', '--to', 'redis'], env);
      await eventually(async () => ((await redis?.keys(`${prefix}chat:*`)) ?? []).length > 100, 20_000);
      killed.child.kill('SIGKILL');
      const interrupted = await killed.done;
      expect(interrupted.code).toBeNull();
      const partial = ((await redis?.keys(`${prefix}chat:*`)) ?? []).length;
      expect(partial).toBeLessThan(3_000);

      const resumed = await run(['migrate', '--to', 'redis'], env);
      expect(resumed.code, resumed.stderr).toBe(0);
      const line = /chats: (\d+) read, (\d+) written, (\d+) already there/.exec(resumed.stdout);
      expect(Number(line?.[1])).toBe(3_000);
      expect(Number(line?.[2]) + Number(line?.[3])).toBe(3_000);
      expect(Number(line?.[3])).toBeGreaterThanOrEqual(partial - 1);
      const again = await run(['migrate', '--to', 'redis'], env);
      expect(again.stdout).toContain('chats: 3000 read, 0 written, 3000 already there');
      // The source is untouched.
      expect((await run(['stats'], lowdbEnv(dir))).stdout).toMatch(/chats: 3000/);
    }, 90_000);

    it('backs up lowdb without a key and restores it into Redis; a non-empty store is refused without --force', async () => {
      const file = join(work, 'backup.jsonl');
      const made = await run(['backup', file], lowdbEnv());
      expect(made.code, made.stderr).toBe(0);
      const content = await readFile(file, 'utf8');
      expect(content).not.toContain(sandbox.token);
      expect(content).not.toContain(K1.split(':')[1]);
      const prefix = `${PREFIX}b:`;
      const restored = await run(['restore', file], redisEnv(prefix));
      expect(restored.code, restored.stderr).toBe(0);
      expect(restored.stdout).toContain('chats: 2 read, 2 written');
      expect((await run(['stats'], redisEnv(prefix))).stdout).toMatch(/partner accounts: 1/);
      const refused = await run(['restore', file], redisEnv(prefix));
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('not empty');
      expect((await run(['restore', file, '--force'], redisEnv(prefix))).code).toBe(0);
      // And into an empty lowdb.
      const into = join(work, 'restored-lowdb');
      const back = await run(['restore', file], lowdbEnv(into));
      expect(back.code, back.stderr).toBe(0);
      expect((await run(['stats'], lowdbEnv(into))).stdout).toMatch(/DNS history entries: 1/);
    }, 60_000);
  });

  it('rotates keys: after it and with the old key removed, the bot still reads the token', async () => {
    const dir = join(work, 'rotate');
    const file = join(work, 'rotate.jsonl');
    expect((await run(['backup', file], lowdbEnv())).code).toBe(0);
    expect((await run(['restore', file], lowdbEnv(dir))).code).toBe(0);
    const rotated = await run(['rotate-keys'], lowdbEnv(dir, `${K2},${K1}`));
    expect(rotated.code, rotated.stderr).toBe(0);
    expect(rotated.stdout).toContain('Nothing needs another key now');
    const again = await run(['rotate-keys'], lowdbEnv(dir, `${K2},${K1}`));
    expect(again.stdout).toContain('chats: 2 read, 0 written');
    // The robot's key opens with the new key alone, and its secret still works.
    const store = createLowdbRobotKeyStore({ dataDir: dir });
    const keys = createRobotKeys({ store, keyring: parseEncryptionKeys(K2) });
    expect((await keys.verify(robotKey.id, robotKey.secret))?.name).toBe(ROBOT_KEY_NAME);
    await store.close();
    const bot = await startBot(lowdbEnv(dir, K2));
    try {
      expect(text(await bot.say('/invoices'))).toContain('Счета');
    } finally {
      await bot.stop();
    }
  }, 60_000);
});

describe('npm run admin with several accounts in a chat', () => {
  const TWO = 557_002;
  const SECOND_TOKEN = 'second-partner-token-0123456789';
  let twoDir: string;

  /** The chat's accounts as the bot opens them with these keys. */
  async function accountsIn(store: ChatStore, keys: string) {
    const chatData = createChatData({ store, keyring: parseEncryptionKeys(keys) });
    const accounts = await chatData.listAccounts(TWO);
    const settings = await chatData.getNotifySettings(TWO, 2);
    await store.close();
    return { tokens: accounts.map((a) => [a.n, a.token, a.name, a.active]), settings };
  }
  /** What the chat holds: account 1 the sandbox's token, account 2 another, named and active. */
  const both = () => ({
    tokens: [
      [1, sandbox.token, undefined, false],
      [2, SECOND_TOKEN, 'Студия Б', true],
    ],
    settings: { off: ['newInvoice'] },
  });

  beforeAll(async () => {
    twoDir = join(work, 'two-accounts');
    const store = createLowdbStore({ dataDir: twoDir });
    const chatData = createChatData({ store, keyring: parseEncryptionKeys(K1) });
    await chatData.setLocale(TWO, 'ru');
    expect(await chatData.addAccount(TWO, sandbox.token)).toEqual({ ok: true, n: 1 });
    expect(await chatData.addAccount(TWO, SECOND_TOKEN)).toEqual({ ok: true, n: 2 });
    expect(await chatData.renameAccount(TWO, 2, 'Студия Б')).toBe(true);
    await chatData.setNotifySettings(TWO, { off: ['newInvoice'] }, 2);
    await store.close();
  });

  it('stats counts both accounts of the chat', async () => {
    const result = await run(['stats'], lowdbEnv(twoDir));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('partner accounts: 2 (chats with several: 1)');
    expect(result.stdout).not.toContain('Студия');
  });

  it('rotate-keys re-seals both accounts: with the old key removed both still open', async () => {
    const dir = join(work, 'two-rotated');
    await cp(twoDir, dir, { recursive: true });
    const rotated = await run(['rotate-keys'], lowdbEnv(dir, `${K2},${K1}`));
    expect(rotated.code, rotated.stderr).toBe(0);
    expect(rotated.stdout).toContain('chats: 1 read, 1 written');
    expect(rotated.stdout).toContain('Nothing needs another key now');
    expect(await accountsIn(createLowdbStore({ dataDir: dir }), K2)).toEqual(both());
  });

  it('backup and restore keep both accounts, sealed', async () => {
    const file = join(work, 'two.jsonl');
    expect((await run(['backup', file], lowdbEnv(twoDir))).code).toBe(0);
    const content = await readFile(file, 'utf8');
    expect(content).not.toContain(SECOND_TOKEN);
    expect(content).not.toContain('Студия');
    const into = join(work, 'two-restored');
    const restored = await run(['restore', file], lowdbEnv(into));
    expect(restored.code, restored.stderr).toBe(0);
    expect(await accountsIn(createLowdbStore({ dataDir: into }), K1)).toEqual(both());
  });

  it('upgrade turns the old release’s tokens into accounts once; a second run changes nothing', async () => {
    const fixture = join(process.cwd(), 'test', 'fixtures', 'before-accounts');
    const keys = (
      JSON.parse(await readFile(join(fixture, 'facts.json'), 'utf8')) as { encryptionKeys: string }
    ).encryptionKeys;
    const dir = join(work, 'old-release');
    await cp(join(fixture, 'data'), dir, { recursive: true });
    const first = await run(['upgrade'], lowdbEnv(dir, keys));
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('chats: 4 read, 3 upgraded, 1 already upgraded');
    const second = await run(['upgrade'], lowdbEnv(dir, keys));
    expect(second.stdout).toContain('chats: 4 read, 0 upgraded, 4 already upgraded');
    expect(second.stdout).toContain('Nothing changed');
    expect((await run(['stats'], lowdbEnv(dir, keys))).stdout).toContain('partner accounts: 2');
  });

  describe.skipIf(!redisUrl)('on Redis', () => {
    it('migrate keeps both accounts, and the old release’s data upgrades there too', async () => {
      const prefix = `${PREFIX}two:`;
      const first = await run(['migrate', '--to', 'redis'], { ...lowdbEnv(twoDir), ...redisTarget(prefix) });
      expect(first.code, first.stderr).toBe(0);
      const connection = new Redis(redisUrl ?? '');
      expect(await accountsIn(createRedisStore({ redis: connection, prefix }), K1)).toEqual(both());
      expect((await connection.get(`${prefix}chat:${TWO}`)) ?? '').not.toContain(SECOND_TOKEN);
      connection.disconnect();
      expect((await run(['stats'], redisEnv(prefix))).stdout).toContain('partner accounts: 2');

      const fixture = join(process.cwd(), 'test', 'fixtures', 'before-accounts');
      const keys = (
        JSON.parse(await readFile(join(fixture, 'facts.json'), 'utf8')) as { encryptionKeys: string }
      ).encryptionKeys;
      const dir = join(work, 'old-release-to-redis');
      await cp(join(fixture, 'data'), dir, { recursive: true });
      const old = `${PREFIX}old:`;
      expect(
        (await run(['migrate', '--to', 'redis'], { ...lowdbEnv(dir, keys), ...redisTarget(old) })).code,
      ).toBe(0);
      const upgraded = await run(['upgrade'], redisEnv(old, keys));
      expect(upgraded.code, upgraded.stderr).toBe(0);
      expect(upgraded.stdout).toContain('chats: 4 read, 3 upgraded, 1 already upgraded');
      expect((await run(['upgrade'], redisEnv(old, keys))).stdout).toContain('Nothing changed');
    }, 60_000);
  });
});

function redisTarget(prefix: string): Record<string, string> {
  return { REDIS_URL: redisUrl ?? '', REDIS_PREFIX: prefix };
}
