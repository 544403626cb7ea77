/**
 * One contract, two `WatchStore`s: lowdb (a temp dir) and Redis (only when REDIS_URL is set,
 * under a key prefix of its own, deleted afterwards; the server is never flushed).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoreClosedError } from '../../src/storage/chat-doc.js';
import { UpdateConflictError } from '../../src/storage/redis-store.js';
import { createRedisWatchStore } from '../../src/storage/redis-watch-store.js';
import {
  createLowdbWatchStore,
  type WatchDoc,
  type WatchStore,
  watchIdOf,
} from '../../src/storage/watch-store.js';

const ID = watchIdOf('partner-token-for-watch-store-tests');
const OTHER = watchIdOf('another-partner-token');
const doc = (chats: number[]): WatchDoc => ({ token: 'sealed-token', chats });
const addChat =
  (chatId: number) =>
  (current: WatchDoc | undefined): WatchDoc => ({
    ...(current ?? doc([])),
    chats: [...(current?.chats ?? []), chatId],
  });

function describeContract(setup: () => Promise<{ store: WatchStore; cleanup: () => Promise<void> }>) {
  let store: WatchStore;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ store, cleanup } = await setup());
  });
  afterEach(async () => {
    await store.close();
    await cleanup();
  });

  it('reads nothing for an unknown watch, and lists no ids', async () => {
    expect(await store.read(ID)).toBeUndefined();
    expect(await store.ids()).toEqual([]);
  });

  it('creates, changes and deletes a watch; ids follow', async () => {
    expect(await store.update(ID, () => doc([1]))).toEqual(doc([1]));
    expect(await store.update(OTHER, () => doc([2]))).toEqual(doc([2]));
    expect(await store.update(ID, addChat(3))).toEqual(doc([1, 3]));
    expect(await store.read(ID)).toEqual(doc([1, 3]));
    expect((await store.ids()).sort()).toEqual([ID, OTHER].sort());
    expect(await store.update(ID, () => undefined)).toBeUndefined();
    expect(await store.read(ID)).toBeUndefined();
    expect(await store.ids()).toEqual([OTHER]);
  });

  it('returns the unchanged watch when a change keeps it as it is', async () => {
    await store.update(ID, () => doc([1]));
    expect(await store.update(ID, (current) => current)).toEqual(doc([1]));
    expect(await store.update(OTHER, () => undefined)).toBeUndefined();
    expect(await store.ids()).toEqual([ID]);
  });

  it('hands out copies: mutating what was read or changed does not reach the store', async () => {
    await store.update(ID, () => doc([1]));
    const read = await store.read(ID);
    read?.chats.push(99);
    await store.update(ID, (current) => {
      current?.chats.push(98);
      return doc([1]);
    });
    expect(await store.read(ID)).toEqual(doc([1]));
  });

  it('runs concurrent changes of one watch one after another', async () => {
    await Promise.all(Array.from({ length: 20 }, (_, index) => store.update(ID, addChat(index))));
    expect((await store.read(ID))?.chats).toEqual(Array.from({ length: 20 }, (_, index) => index));
  });

  it('finishes what is in flight on close, then refuses', async () => {
    const pending = store.update(ID, () => doc([1]));
    await store.close();
    expect(await pending).toEqual(doc([1]));
    await expect(store.read(ID)).rejects.toThrow(StoreClosedError);
    await expect(store.update(ID, () => doc([2]))).rejects.toThrow(StoreClosedError);
  });
}

const dirs: string[] = [];

describe('lowdb watch store', () => {
  describeContract(async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'watch-store-'));
    dirs.push(dataDir);
    return { store: createLowdbWatchStore({ dataDir }), cleanup: async () => undefined };
  });

  it('keeps one file per watch, and removes it with the watch', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'watch-store-files-'));
    dirs.push(dataDir);
    const store = createLowdbWatchStore({ dataDir });
    await store.update(ID, () => doc([1]));
    expect(await readdir(path.join(dataDir, 'watches'))).toEqual([`${ID}.json`]);
    await store.update(ID, () => undefined);
    await store.update(ID, () => undefined);
    expect(await readdir(path.join(dataDir, 'watches'))).toEqual([]);
    await store.close();
  });

  it('refuses an id that is no short base64url name', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'watch-store-ids-'));
    dirs.push(dataDir);
    const store = createLowdbWatchStore({ dataDir });
    await expect(store.read('../escape')).rejects.toThrow(TypeError);
    await store.close();
  });
});

const redisUrl = process.env.REDIS_URL;
if (!redisUrl) console.warn('REDIS_URL is not set: the Redis WatchStore suite is skipped.');
const runPrefix = `test:watch-store:${randomUUID()}:`;
const connections: Redis[] = [];
const connect = (): Redis => {
  const redis = new Redis(redisUrl ?? '', { maxRetriesPerRequest: 2 });
  connections.push(redis);
  return redis;
};

describe.skipIf(!redisUrl)('redis watch store', () => {
  describeContract(async () => {
    const redis = connect();
    const prefix = `${runPrefix}${randomUUID()}:`;
    return {
      store: createRedisWatchStore({ redis, prefix }),
      async cleanup() {
        const keys = await redis.keys(`${prefix}*`);
        if (keys.length > 0) await redis.del(...keys);
      },
    };
  });

  it('gives up with UpdateConflictError when another writer changes the watch before every write', async () => {
    const redis = connect();
    const prefix = `${runPrefix}conflict:`;
    const store = createRedisWatchStore({ redis, prefix, maxAttempts: 3 });
    let runs = 0;
    const failed = store.update(ID, (current) => {
      runs++;
      // Sent on the store's own connection, so it lands before the store's compare-and-set.
      void redis.set(`${prefix}watch:${ID}`, JSON.stringify(doc([runs])));
      return addChat(0)(current);
    });
    await expect(failed).rejects.toThrow(UpdateConflictError);
    await expect(failed).rejects.toThrow(`watch ${ID} kept changing; gave up after 3 attempts`);
    expect(runs).toBe(3);
    expect(await redis.smembers(`${prefix}watches`)).toEqual([]);
    await store.close();
    await redis.del(`${prefix}watch:${ID}`);
  });
});

afterAll(async () => {
  await Promise.all(connections.map((redis) => redis.quit()));
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});
