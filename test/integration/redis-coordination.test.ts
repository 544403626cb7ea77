import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatData } from '../../src/storage/chat-data.js';
import { createKeyring } from '../../src/storage/crypto.js';
import {
  ChatBusyError,
  createRedisChatLock,
  createRedisDeduper,
} from '../../src/storage/redis-coordination.js';
import { createRedisStore } from '../../src/storage/redis-store.js';

const url = process.env.REDIS_URL;
if (!url) console.warn('REDIS_URL is not set: the Redis coordination tests are skipped');

describe.skipIf(!url)('two instances on one Redis', () => {
  let a: Redis;
  let b: Redis;
  const prefix = `partner-bot-test:${process.pid}:${Date.now()}:`;

  beforeAll(() => {
    a = new Redis(url as string);
    b = new Redis(url as string);
  });
  afterAll(async () => {
    const keys = await a.keys(`${prefix}*`);
    if (keys.length > 0) await a.del(...keys);
    a.disconnect();
    b.disconnect();
  });

  it('1,000 interleaved session updates of 50 chats from two instances: none lost', async () => {
    const keyring = createKeyring([{ id: 'k', key: Buffer.alloc(32, 7) }]);
    const instances = [a, b].map((redis) => ({
      sessions: createChatData({ store: createRedisStore({ redis, prefix }), keyring }).sessionStore<{
        n: number;
        seen: number[];
      }>(),
      lock: createRedisChatLock({ redis, prefix, ttlMs: 5_000 }),
    }));
    // Each update is what the bot does: read the session, work a little, write it back.
    const jobs = Array.from({ length: 1_000 }, (_, i) => {
      const chat = 1 + (i % 50);
      const instance = instances[i % 2];
      if (!instance) throw new Error('no instance');
      return instance.lock.run(chat, async () => {
        const session = (await instance.sessions.get(String(chat))) ?? { n: 0, seen: [] };
        await sleep(Math.random() * 3);
        await instance.sessions.set(String(chat), { n: session.n + 1, seen: [...session.seen, i] });
      });
    });
    await Promise.all(jobs);
    let total = 0;
    for (let chat = 1; chat <= 50; chat++) {
      const session = await instances[0]?.sessions.get(String(chat));
      expect(session?.n).toBe(20);
      total += session?.n ?? 0;
    }
    expect(total).toBe(1_000);
  }, 60_000);

  it('a crashed holder does not block the chat forever', async () => {
    const lock = createRedisChatLock({ redis: a, prefix, ttlMs: 300, waitMs: 5_000 });
    // A lock left behind by a process that died: it expires after its ttl.
    await b.set(`${prefix}lock:777`, 'dead-holder', 'PX', 300);
    const started = Date.now();
    await lock.run(777, async () => undefined);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    const impatient = createRedisChatLock({ redis: a, prefix, ttlMs: 10_000, waitMs: 100 });
    await b.set(`${prefix}lock:778`, 'busy', 'PX', 10_000);
    await expect(impatient.run(778, async () => undefined)).rejects.toBeInstanceOf(ChatBusyError);
  });

  it('an update id is handled once across instances', async () => {
    const first = createRedisDeduper({ redis: a, prefix });
    const second = createRedisDeduper({ redis: b, prefix });
    expect(await first.firstTime(42)).toBe(true);
    expect(await second.firstTime(42)).toBe(false);
    expect(await first.firstTime(43)).toBe(true);
  });
});
