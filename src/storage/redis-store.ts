/**
 * `ChatStore` on Redis, for several bot processes sharing one state. One string key per chat
 * holds the document as canonical JSON.
 *
 * `update` is an optimistic compare-and-set: read, apply `change` locally, then a Lua script
 * writes only if the key still holds what was read, else the update is retried. WATCH/MULTI is
 * not used because WATCH belongs to the connection, and the connection is shared by every chat of
 * this process: one EXEC would clear another update's WATCH and let it overwrite blindly.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import {
  assertChatId,
  cloneChatDoc,
  formatSetAsideTime,
  isEmptyChatDoc,
  isReadableChatDoc,
  normalizeChatDoc,
  parseChatDoc,
  serializeChatDoc,
} from './chat-doc.js';
import { createStoreQueue } from './chat-queue.js';
import type { ChatStore } from './chat-store.js';

/** Options of `createRedisStore`. */
export interface RedisStoreOptions {
  /** A connection built and, at shutdown, quit by the caller. */
  redis: Redis;
  /** Prepended to every key; default `partner-bot:`. */
  prefix?: string;
  /** Compare-and-set attempts before `update` gives up; default 100. */
  maxAttempts?: number;
}

/** Thrown by `update` when other processes kept changing the chat for every attempt. */
export class UpdateConflictError extends Error {
  override name = 'UpdateConflictError';
}

/**
 * KEYS[1] the chat key; ARGV[1] the value read ('' = absent); ARGV[2] the new value ('' = delete).
 * Stored values are JSON objects, never '', so '' is free to mean "no key".
 */
const COMPARE_AND_SET = `
local current = redis.call('GET', KEYS[1])
if current == false then current = '' end
if current ~= ARGV[1] then return 0 end
if ARGV[2] == '' then
  redis.call('DEL', KEYS[1])
else
  redis.call('SET', KEYS[1], ARGV[2])
end
return 1
`;
const COMPARE_AND_SET_SHA = createHash('sha1').update(COMPARE_AND_SET).digest('hex');

/**
 * KEYS[1] the chat key, KEYS[2] where it goes; ARGV[1] the damaged value read. Renames only if
 * the key still holds that value, so a record another process replaced meanwhile stays.
 */
const SET_ASIDE = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('RENAME', KEYS[1], KEYS[2])
return 1
`;

/**
 * Writes `next` ('' deletes) only if `key` still holds `expected` ('' = absent); false when
 * another writer came first. The write step of `updateKey`.
 */
async function compareAndSet(redis: Redis, key: string, expected: string, next: string): Promise<boolean> {
  let result: unknown;
  try {
    result = await redis.evalsha(COMPARE_AND_SET_SHA, 1, key, expected, next);
  } catch (error) {
    // The server forgets scripts on restart or SCRIPT FLUSH; EVAL loads it again.
    if (!(error instanceof Error && error.message.includes('NOSCRIPT'))) throw error;
    result = await redis.eval(COMPARE_AND_SET, 1, key, expected, next);
  }
  return result === 1;
}

/**
 * An optimistic read-modify-write of one string key, shared by the chat and watch stores: reads
 * the key (null when absent), lets `decide` say what to write ('' deletes; `write` undefined when
 * the key already holds it), and writes only if the key still holds what was read; when another
 * writer came first, reads and decides again, at most `maxAttempts` times, then throws
 * `UpdateConflictError` naming `subject` (`chat 42`). `decide` may thus run more than once.
 * Returns the deciding attempt's value and whether it wrote.
 */
export async function updateKey<T>(
  redis: Redis,
  key: string,
  { maxAttempts, subject }: { maxAttempts: number; subject: string },
  decide: (raw: string | null) => { value: T; write: string | undefined },
): Promise<{ value: T; written: boolean }> {
  for (let attempt = 1; ; attempt++) {
    const raw = await redis.get(key);
    const { value, write } = decide(raw);
    if (write === undefined) return { value, written: false };
    if (await compareAndSet(redis, key, raw ?? '', write)) return { value, written: true };
    if (attempt >= maxAttempts) {
      throw new UpdateConflictError(`${subject} kept changing; gave up after ${attempt} attempts`);
    }
    // Jitter so that two processes colliding once don't collide again in lockstep.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, attempt * 2)));
  }
}

/** Key of a chat's document. */
export function formatChatKey(prefix: string, chatId: number): string {
  assertChatId(chatId);
  return `${prefix}chat:${chatId}`;
}

/** Creates the Redis store over a connection the caller owns. */
export function createRedisStore(options: RedisStoreOptions): ChatStore {
  const { redis, prefix = 'partner-bot:', maxAttempts = 100 } = options;
  // Tasks of one chat in this process wait for each other instead of racing to retry.
  const queue = createStoreQueue();

  async function withChat<T>(chatId: number, task: (key: string) => Promise<T>): Promise<T> {
    queue.assertOpen();
    const key = formatChatKey(prefix, chatId);
    return queue.run(chatId, () => task(key));
  }

  return {
    read(chatId) {
      return withChat(chatId, async (key) => {
        const raw = await redis.get(key);
        return raw === null ? undefined : parseChatDoc(raw, `redis key ${key}`);
      });
    },

    update(chatId, change) {
      return withChat(chatId, async (key) => {
        const subject = `chat ${chatId}`;
        const { value } = await updateKey(redis, key, { maxAttempts, subject }, (raw) => {
          const current = raw === null ? {} : normalizeChatDoc(parseChatDoc(raw, `redis key ${key}`));
          const next = normalizeChatDoc(change(cloneChatDoc(current)));
          const nextText = isEmptyChatDoc(next) ? '' : serializeChatDoc(next);
          const currentText = raw === null ? '' : serializeChatDoc(current);
          return { value: next, write: nextText === currentText ? undefined : nextText };
        });
        return value;
      });
    },

    remove(chatId) {
      return withChat(chatId, async (key) => {
        await redis.del(key);
      });
    },

    setAside(chatId) {
      return withChat(chatId, async (key) => {
        const raw = await redis.get(key);
        if (raw === null || isReadableChatDoc(raw)) return undefined;
        const target = `${key}:damaged:${formatSetAsideTime()}`;
        // Rare enough that EVAL's script upload each time costs nothing worth caching.
        const moved = await redis.eval(SET_ASIDE, 2, key, target, raw);
        return moved === 1 ? target : undefined;
      });
    },

    async count() {
      return (await this.ids()).length;
    },

    async ids() {
      // SCAN, never KEYS: other clients keep being served while the cursor walks the keyspace.
      const chatKey = new RegExp(`^${escapeRegExp(prefix)}chat:(-?\\d+)$`);
      const found = new Set<number>();
      for await (const batch of redis.scanStream({ match: `${prefix}chat:*`, count: 1_000 })) {
        const keys: string[] = batch;
        for (const key of keys) {
          const id = chatKey.exec(key)?.[1];
          if (id !== undefined) found.add(Number(id));
        }
      }
      return [...found];
    },

    async close() {
      await queue.close();
      // The connection was passed in; quitting it is the caller's call.
    },
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
