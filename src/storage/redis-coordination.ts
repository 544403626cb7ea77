import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';

/** Runs one chat's work at a time across every process that shares the Redis. */
export interface ChatLock {
  run<T>(chatId: number, task: () => Promise<T>): Promise<T>;
}

/** Deletes the lock only if it is still ours (it may have expired and been taken by another). */
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;
/** Extends the lock only if it is still ours. */
const EXTEND = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;

export interface RedisChatLockOptions {
  redis: Redis;
  prefix?: string;
  /** A crashed holder blocks the chat at most this long. */
  ttlMs?: number;
  /** How long an update waits for the chat before giving up with an error. */
  waitMs?: number;
}

/** Thrown when a chat stays locked longer than `waitMs` (its holder is slow or stuck). */
export class ChatBusyError extends Error {
  constructor(chatId: number) {
    super(`chat ${chatId} is busy in another instance`);
    this.name = 'ChatBusyError';
  }
}

/**
 * A per-chat lock in Redis (`SET NX PX` with a random token): two instances never handle one chat
 * at once. A live holder keeps extending it; a crashed one lets it expire after `ttlMs`.
 */
export function createRedisChatLock(options: RedisChatLockOptions): ChatLock {
  const { redis, prefix = 'partner-bot:', ttlMs = 30_000, waitMs = 60_000 } = options;
  return {
    async run(chatId, task) {
      const key = `${prefix}lock:${chatId}`;
      const token = randomBytes(12).toString('base64url');
      const until = Date.now() + waitMs;
      let pause = 5;
      while ((await redis.set(key, token, 'PX', ttlMs, 'NX')) !== 'OK') {
        if (Date.now() > until) throw new ChatBusyError(chatId);
        await sleep(pause);
        pause = Math.min(pause * 2, 100);
      }
      const keepAlive = setInterval(() => {
        void redis.eval(EXTEND, 1, key, token, String(ttlMs)).catch(() => undefined);
      }, ttlMs / 3);
      try {
        return await task();
      } finally {
        clearInterval(keepAlive);
        await redis.eval(RELEASE, 1, key, token).catch(() => undefined);
      }
    },
  };
}

/** Remembers handled update ids for a day, shared by every instance. */
export function createRedisDeduper(options: { redis: Redis; prefix?: string; ttlS?: number }) {
  const { redis, prefix = 'partner-bot:', ttlS = 86_400 } = options;
  return {
    async firstTime(updateId: number): Promise<boolean> {
      return (await redis.set(`${prefix}update:${updateId}`, '1', 'EX', ttlS, 'NX')) === 'OK';
    },
  };
}
