import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';

/** Runs one chat's work at a time across every process that shares the Redis. */
export interface ChatLock {
  /**
   * Runs `task` when no other task of the chat runs anywhere. With `order`, tasks of one chat
   * also start in update-id order across instances (see `createRedisChatLock`).
   */
  run<T>(chatId: number, task: () => Promise<T>, order?: { updateId: number }): Promise<T>;
}

/** Deletes the lock only if it is still ours (it may have expired and been taken by another). */
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;
/** Extends the lock only if it is still ours. */
const EXTEND = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;

/**
 * Takes a chat's lock, in update-id order when an update id is given.
 * KEYS: lock, waiting (sorted set of update ids), alive (hash: update id → ms until which its
 * waiter counts as alive), last (highest update id started).
 * ARGV: lock token, lock ttl ms, update id ('' = unordered), alive ms, 'register' to only queue.
 * Returns 0 (not yet), 1 (taken) or 2 (taken, but a later update of the chat already started).
 * A waiter that stops refreshing its `alive` entry (its process died) is dropped from the queue,
 * so a crash never blocks the chat.
 */
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local id = ARGV[3]
if id ~= '' then
  redis.call('HSET', KEYS[3], id, now + tonumber(ARGV[4]))
  redis.call('ZADD', KEYS[2], tonumber(id), id)
  redis.call('PEXPIRE', KEYS[2], 600000)
  redis.call('PEXPIRE', KEYS[3], 600000)
  if ARGV[5] == 'register' then return 0 end
  while true do
    local head = redis.call('ZRANGE', KEYS[2], 0, 0)[1]
    if head == nil or head == id then break end
    local alive = tonumber(redis.call('HGET', KEYS[3], head) or '0')
    if alive >= now then return 0 end
    redis.call('ZREM', KEYS[2], head)
    redis.call('HDEL', KEYS[3], head)
  end
end
if not redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then return 0 end
if id == '' then return 1 end
redis.call('ZREM', KEYS[2], id)
redis.call('HDEL', KEYS[3], id)
local last = tonumber(redis.call('GET', KEYS[4]) or '0')
if tonumber(id) < last then return 2 end
redis.call('SET', KEYS[4], id, 'PX', 86400000)
return 1
`;

export interface RedisChatLockOptions {
  redis: Redis;
  prefix?: string;
  /** A crashed holder blocks the chat at most this long. */
  ttlMs?: number;
  /** How long an update waits for the chat before giving up with an error. */
  waitMs?: number;
  /**
   * How long an ordered update waits after it arrived before it may start. Telegram may hand two
   * updates of one chat, a millisecond apart, to two instances behind a load balancer; the later
   * one must not overtake the earlier one, which may reach Redis a moment after it. 0 when only
   * one process receives updates (long polling), about 150 ms behind a load balancer.
   */
  reorderWindowMs?: number;
  /** Told when an update started after a later update of the same chat (it came too late). */
  onLate?: (chatId: number, updateId: number) => void;
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
 * at once. A live holder keeps extending it; a crashed one lets it expire after `ttlMs`. Updates
 * given with their id queue in a sorted set and take the lock lowest id first, so one chat's
 * updates run in the order Telegram numbered them, whichever instance received each.
 */
export function createRedisChatLock(options: RedisChatLockOptions): ChatLock {
  const { redis, prefix = 'partner-bot:', ttlMs = 30_000, waitMs = 60_000, reorderWindowMs = 0 } = options;
  /** A waiter refreshes its entry on every attempt (at most every 100 ms); this is its slack. */
  const aliveMs = 5_000;
  return {
    async run(chatId, task, order) {
      const keys = [
        `${prefix}lock:${chatId}`,
        `${prefix}waiting:${chatId}`,
        `${prefix}waiting-alive:${chatId}`,
        `${prefix}last-update:${chatId}`,
      ];
      const token = randomBytes(12).toString('base64url');
      const id = order ? String(order.updateId) : '';
      const attempt = (mode: 'register' | 'take') =>
        redis.eval(ACQUIRE, keys.length, ...keys, token, String(ttlMs), id, String(aliveMs), mode);
      const until = Date.now() + waitMs;
      if (order && reorderWindowMs > 0) {
        await attempt('register');
        await sleep(reorderWindowMs);
      }
      let pause = 5;
      let taken = await attempt('take');
      while (taken === 0) {
        if (Date.now() > until) {
          if (order) await redis.zrem(keys[1] as string, id).catch(() => undefined);
          throw new ChatBusyError(chatId);
        }
        await sleep(pause);
        pause = Math.min(pause * 2, 100);
        taken = await attempt('take');
      }
      if (taken === 2 && order) options.onLate?.(chatId, order.updateId);
      const key = keys[0] as string;
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
