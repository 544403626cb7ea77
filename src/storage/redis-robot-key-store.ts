/**
 * `RobotKeyStore` on Redis for several instances: `<prefix>robotkey:<id>` holds the key as JSON,
 * `<prefix>robotkeys:<chatId>` the set of a chat's ids; both written in one MULTI, so a list never
 * names a key that is not there for long (a stale id is skipped when read).
 */
import type { Redis } from 'ioredis';
import { createStoreQueue } from './chat-queue.js';
import { type RobotKeyStore, readStoredKey, type StoredRobotKey } from './robot-key-store.js';

export function createRedisRobotKeyStore(options: { redis: Redis; prefix?: string }): RobotKeyStore {
  const { redis, prefix = 'partner-bot:' } = options;
  // Only its closing is used: every write is one MULTI.
  const queue = createStoreQueue<string>();
  const keyOf = (id: string) => `${prefix}robotkey:${id}`;
  const chatOf = (chatId: number) => `${prefix}robotkeys:${chatId}`;
  const parse = (text: string | null): StoredRobotKey | undefined => {
    if (text === null) return undefined;
    try {
      return readStoredKey(JSON.parse(text));
    } catch {
      return undefined;
    }
  };
  const byCreation = (a: StoredRobotKey, b: StoredRobotKey) => a.createdAt.localeCompare(b.createdAt);
  const load = async (ids: string[]) => {
    if (ids.length === 0) return [];
    const texts = await redis.mget(ids.map(keyOf));
    return texts.flatMap((text) => parse(text) ?? []).sort(byCreation);
  };

  return {
    async get(id) {
      queue.assertOpen();
      return parse(await redis.get(keyOf(id)));
    },
    async put(key) {
      queue.assertOpen();
      await redis.multi().set(keyOf(key.id), JSON.stringify(key)).sadd(chatOf(key.chatId), key.id).exec();
    },
    async remove(id) {
      queue.assertOpen();
      const key = parse(await redis.get(keyOf(id)));
      if (!key) return false;
      const results = await redis.multi().del(keyOf(id)).srem(chatOf(key.chatId), id).exec();
      return results?.[0]?.[1] === 1;
    },
    async listOf(chatId) {
      queue.assertOpen();
      const keys = await load(await redis.smembers(chatOf(chatId)));
      return keys.filter((key) => key.chatId === chatId);
    },
    async all() {
      queue.assertOpen();
      const ids: string[] = [];
      for await (const batch of redis.scanStream({ match: `${prefix}robotkey:*`, count: 1_000 })) {
        for (const name of batch as string[]) ids.push(name.slice(`${prefix}robotkey:`.length));
      }
      return load(ids);
    },
    close: () => queue.close(),
  };
}
