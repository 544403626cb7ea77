/**
 * `WatchStore` on Redis for several instances: one string key per watch (`<prefix>watch:<id>`),
 * updated by the same compare-and-set as chat documents, and a set of ids (`<prefix>watches`)
 * so that any instance can list them. The set may briefly name a watch whose key is gone (a
 * crash between the two writes): readers skip it, and the next update of that id mends the set.
 */
import type { Redis } from 'ioredis';
import { createStoreQueue } from './chat-queue.js';
import { updateKey } from './redis-store.js';
import { parseWatchDoc, type WatchDoc, type WatchStore } from './watch-store.js';

export function createRedisWatchStore(options: {
  redis: Redis;
  prefix?: string;
  maxAttempts?: number;
}): WatchStore {
  const { redis, prefix = 'partner-bot:', maxAttempts = 100 } = options;
  const setKey = `${prefix}watches`;
  const queue = createStoreQueue<string>();

  const keyOf = (id: string) => `${prefix}watch:${id}`;

  return {
    read(id) {
      return queue.run(id, async () => {
        const raw = await redis.get(keyOf(id));
        return raw === null ? undefined : parseWatchDoc(raw, `redis key ${keyOf(id)}`);
      });
    },
    update(id, change) {
      return queue.run(id, async () => {
        const key = keyOf(id);
        const subject = `watch ${id}`;
        const { value: doc, written } = await updateKey(redis, key, { maxAttempts, subject }, (raw) => {
          const current = raw === null ? undefined : parseWatchDoc(raw, `redis key ${key}`);
          const next = change(current === undefined ? undefined : structuredClone(current));
          const nextText = next === undefined ? '' : JSON.stringify(next);
          return { value: next, write: nextText === (raw ?? '') ? undefined : nextText };
        });
        // The set follows the key: a crash between the two is mended by the next write of the id.
        if (written) {
          if (doc === undefined) await redis.srem(setKey, id);
          else await redis.sadd(setKey, id);
        }
        return doc;
      });
    },
    async ids() {
      return redis.smembers(setKey);
    },
    close: () => queue.close(),
  };
}

export type { WatchDoc };
