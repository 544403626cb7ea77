import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createChatData } from '../../src/storage/chat-data.js';
import type { ChatStore } from '../../src/storage/chat-store.js';
import { parseEncryptionKeys } from '../../src/storage/crypto.js';
import { createLowdbStore } from '../../src/storage/lowdb-store.js';
import { createRedisStore } from '../../src/storage/redis-store.js';
import { deleteKeys } from '../helpers/two-instances.js';

/*
 * kill -9 while a chat's accounts are switched: a process switches a chat with two accounts back
 * and forth (and renames one) through ChatData, on lowdb (atomic file writes) and on Redis
 * (compare-and-set), and is killed in the middle of the stream, 5 times. Afterwards the document
 * opens, exactly one account is active — the last acknowledged one or a later one — both tokens
 * are intact, and no half-written document is left.
 */

const SWITCH_CHAT = 731_001;
const KEYS = `sw:${Buffer.alloc(32, 5).toString('base64')}`;
const FIRST = 'switch-first-token-0123456789';
const SECOND = 'switch-second-token-0123456789';
const redisUrl = process.env.REDIS_URL;
const PREFIX = `pb-switch-${process.pid}:`;

async function seed(store: ChatStore): Promise<void> {
  const chatData = createChatData({ store, keyring: parseEncryptionKeys(KEYS) });
  await chatData.addAccount(SWITCH_CHAT, FIRST);
  await chatData.addAccount(SWITCH_CHAT, SECOND);
  await store.close();
}

/** Runs the switch loop until `after` switches are acknowledged, then kill -9; returns the last acknowledged. */
async function killMidSwitch(args: string[], after: number): Promise<{ active: number; round: number }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/helpers/switch-loop.ts', String(SWITCH_CHAT), KEYS, ...args],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let last = { active: 0, round: 0 };
  let buffer = '';
  await new Promise<void>((resolve) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        const [active, round] = line.split(' ').map(Number);
        if (active !== undefined && round !== undefined) last = { active, round };
      }
      if (last.round >= after) resolve();
    });
  });
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('exit', resolve));
  return last;
}

/** The chat as the bot opens it after the restart. */
async function expectWhole(store: ChatStore, acknowledged: { active: number; round: number }): Promise<void> {
  const chatData = createChatData({ store, keyring: parseEncryptionKeys(KEYS) });
  const accounts = await chatData.listAccounts(SWITCH_CHAT);
  expect(accounts.map((a) => [a.n, a.token])).toEqual([
    [1, FIRST],
    [2, SECOND],
  ]);
  expect(accounts.filter((a) => a.active)).toHaveLength(1);
  // The last acknowledged switch, or at most one more that landed before the kill.
  const active = (await chatData.currentAccount(SWITCH_CHAT))?.n;
  expect(active === acknowledged.active || active === 3 - acknowledged.active).toBe(true);
  const name = accounts[1]?.name ?? '';
  expect(Number(name.replace('Студия ', ''))).toBeGreaterThanOrEqual(acknowledged.round - 3);
  expect(await chatData.getToken(SWITCH_CHAT)).toBe(active === 1 ? FIRST : SECOND);
  await store.close();
}

describe('kill -9 during a switch of accounts', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
    if (redisUrl) await deleteKeys(redisUrl, PREFIX);
  });

  it('on lowdb: the chat file parses, one account active, both tokens intact, 5 kills', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'partner-bot-switch-'));
    dirs.push(dir);
    await seed(createLowdbStore({ dataDir: dir }));
    for (let kill = 1; kill <= 5; kill++) {
      const acknowledged = await killMidSwitch(['lowdb', dir], 200 + kill * 37);
      const files = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((f) => f.isFile());
      // No half-written document and no temp file left beside it as the chat's.
      for (const file of files.filter((f) => f.name.endsWith('.json')))
        JSON.parse(await readFile(join(file.parentPath, file.name), 'utf8'));
      const chatFile = files.find((f) => f.name === `${SWITCH_CHAT}.json`);
      expect(chatFile).toBeDefined();
      const text = await readFile(join(chatFile?.parentPath ?? '', `${SWITCH_CHAT}.json`), 'utf8');
      expect(text).not.toContain(FIRST);
      expect(text).not.toContain(SECOND);
      await expectWhole(createLowdbStore({ dataDir: dir }), acknowledged);
    }
  }, 90_000);

  it.skipIf(!redisUrl)(
    'on Redis: the value parses, one account active, both tokens intact, 5 kills',
    async () => {
      const prefix = `${PREFIX}r:`;
      const redis = new Redis(redisUrl ?? '');
      try {
        await seed(createRedisStore({ redis, prefix }));
        for (let kill = 1; kill <= 5; kill++) {
          const acknowledged = await killMidSwitch(['redis', redisUrl ?? '', prefix], 200 + kill * 37);
          const raw = (await redis.get(`${prefix}chat:${SWITCH_CHAT}`)) ?? '';
          JSON.parse(raw);
          expect(raw).not.toContain(FIRST);
          await expectWhole(createRedisStore({ redis, prefix }), acknowledged);
        }
      } finally {
        redis.disconnect();
      }
    },
    90_000,
  );
});
