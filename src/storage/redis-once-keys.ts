/**
 * `OnceKeys` on Redis for several instances: a claim is `SET NX PX` with a random token (as the
 * chat lock), an outcome one key with an expiry, both under `<prefix>once:` — so one Apply key
 * sent to two instances at once is worked by one, and the other finds the outcome.
 */
import type { Redis } from 'ioredis';
import { createStoreQueue } from './chat-queue.js';
import { newClaimToken, type OnceKeys } from './once-keys.js';

/** KEYS: claim, outcome. ARGV: token, ttl ms. Returns {2, outcome} done, {1} claimed, {0} busy. */
const CLAIM = `
local done = redis.call('GET', KEYS[2])
if done then return {2, done} end
if redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then return {1} end
return {0}
`;
/** Extends the claim only if it is still ours. */
const EXTEND = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;
/** KEYS: claim, outcome. ARGV: token, outcome, keep ms. The outcome stands even if the claim lapsed. */
const SETTLE = `
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

export function createRedisOnceKeys(options: { redis: Redis; prefix?: string }): OnceKeys {
  const { redis, prefix = 'partner-bot:' } = options;
  // Only its closing is used: each script is atomic already.
  const queue = createStoreQueue<string>();
  const keysOf = (key: string) => [`${prefix}once:claim:${key}`, `${prefix}once:done:${key}`] as const;

  return {
    async claim(key, ttlMs) {
      queue.assertOpen();
      const token = newClaimToken();
      const [state, outcome] = (await redis.eval(CLAIM, 2, ...keysOf(key), token, String(ttlMs))) as [
        number,
        string?,
      ];
      if (state === 2) return { state: 'done', outcome: JSON.parse(outcome ?? 'null') };
      return state === 1 ? { state: 'claimed', token } : { state: 'busy' };
    },
    async extend(key, token, ttlMs) {
      queue.assertOpen();
      await redis.eval(EXTEND, 1, keysOf(key)[0], token, String(ttlMs));
    },
    async settle(key, token, outcome, keepMs) {
      queue.assertOpen();
      await redis.eval(SETTLE, 2, ...keysOf(key), token, JSON.stringify(outcome), String(keepMs));
    },
    async release(key, token) {
      queue.assertOpen();
      await redis.eval(RELEASE, 1, keysOf(key)[0], token);
    },
    close: () => queue.close(),
  };
}
