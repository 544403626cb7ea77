import { cp, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/admin/commands.js';
import { type BotApiServer, startBotApiServer } from '../../src/playground/bot-api/index.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { createStores } from '../../src/storage/stores.js';
import { startPollingBot } from '../helpers/bot-process.js';
import { ProcessChat } from '../helpers/process-chat.js';
import { deleteKeys } from '../helpers/two-instances.js';

/*
 * The upgrade to accounts run twice by the real process (`node dist/main.js`) on a copy of a data
 * dir the release before accounts wrote (test/fixtures/before-accounts), on lowdb and on Redis:
 * the first start upgrades the three chats with a token and logs the counts; the second start
 * writes nothing (file bytes and mtimes, Redis values unchanged) and the partner's /invoices is
 * answered with the old token, now account 1, without /token.
 */

const FIXTURE = join(process.cwd(), 'test', 'fixtures', 'before-accounts');
const facts = JSON.parse(await readFile(join(FIXTURE, 'facts.json'), 'utf8')) as {
  encryptionKeys: string;
  tokens: { A: string; B: string };
  chats: { partner: number };
};
const redisUrl = process.env.REDIS_URL;
const PREFIX = `pb-upgrade-twice-${process.pid}:`;

let sandbox: Sandbox;
let telegram: BotApiServer;
let work: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, token: facts.tokens.A });
  telegram = await startBotApiServer({ port: 0 });
  work = await mkdtemp(join(tmpdir(), 'partner-bot-upgrade-twice-'));
});
afterAll(async () => {
  await telegram.close();
  await sandbox.close();
  await rm(work, { recursive: true, force: true });
  if (redisUrl) await deleteKeys(redisUrl, PREFIX);
});

/** Starts the bot on this storage, waits for it to poll; returns it with its upgrade log line. */
async function start(env: Record<string, string>) {
  const bot = await startPollingBot(telegram, sandbox.url, {
    ENCRYPTION_KEYS: facts.encryptionKeys,
    LOG_LEVEL: 'info',
    ...env,
  });
  const line = bot
    .output()
    .split('\n')
    .find((l) => l.includes('accounts upgrade'));
  const counts = JSON.parse(line ?? '{}') as Record<string, unknown>;
  return { bot, counts, line: line ?? '' };
}

async function story(env: Record<string, string>, stored: () => Promise<Map<string, unknown>>) {
  const first = await start(env);
  expect(first.counts).toMatchObject({ chats: 4, upgraded: 3, unchanged: 1, unreadable: 0, damaged: 0 });
  for (const secret of [facts.tokens.A, facts.tokens.B]) expect(first.bot.output()).not.toContain(secret);
  expect((await first.bot.stop()).code).toBe(0);
  const upgraded = await stored();

  const second = await start(env);
  try {
    expect(second.counts).toMatchObject({ chats: 4, upgraded: 0, unchanged: 4 });
    expect(await stored()).toEqual(upgraded);
    const chat = new ProcessChat(telegram, facts.chats.partner, 'ru');
    const answer = await chat.say('/invoices', /Счета/);
    expect(answer.text).not.toMatch(/токен/i);
    expect(sandbox.requests.length).toBeGreaterThan(0);
  } finally {
    expect((await second.bot.stop()).code).toBe(0);
  }
}

describe('the upgrade to accounts run twice by the real process', () => {
  it('on lowdb: upgraded at the first start, nothing written at the second, /invoices answered', async () => {
    const dir = join(work, 'lowdb');
    await cp(join(FIXTURE, 'data'), dir, { recursive: true });
    const chats = async () => {
      const files = new Map<string, unknown>();
      for (const entry of await readdir(join(dir, 'chats'), { recursive: true, withFileTypes: true })) {
        if (!entry.isFile()) continue;
        const file = join(entry.parentPath, entry.name);
        files.set(relative(dir, file), [await readFile(file, 'utf8'), (await stat(file)).mtimeMs]);
      }
      return files;
    };
    await story({ DATA_DIR: dir }, chats);
  }, 90_000);

  it.skipIf(!redisUrl)(
    'on Redis: the same after migrate, Redis values unchanged at the second start',
    async () => {
      const dir = join(work, 'source');
      await cp(join(FIXTURE, 'data'), dir, { recursive: true });
      const redis = new Redis(redisUrl ?? '');
      try {
        const source = createStores({ redis: undefined, prefix: PREFIX, dataDir: dir });
        const target = createStores({ redis, prefix: PREFIX, dataDir: dir });
        await migrate(source, target);
        for (const store of [...Object.values(source), ...Object.values(target)]) await store.close();
        const values = async () => {
          const found = new Map<string, unknown>();
          for (const key of (await redis.keys(`${PREFIX}chat:*`)).sort())
            found.set(key, await redis.get(key));
          return found;
        };
        await story(
          {
            STORAGE: 'redis',
            REDIS_URL: redisUrl ?? '',
            REDIS_PREFIX: PREFIX,
            DATA_DIR: join(work, 'redis-side'),
          },
          values,
        );
      } finally {
        redis.disconnect();
      }
    },
    90_000,
  );
});
