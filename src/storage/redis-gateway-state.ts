/**
 * `GatewayState` on Redis for several instances, every key under `<prefix>gw:`: a counter is
 * `INCR` with its window set on the first hit (one script, atomic), a claim `SET NX PX`, a zone's
 * generation a counter `gw:gen:<account>:<order>` (missing = 0), a cached value a key with an
 * expiry. The waiting challenges are a sorted set scored by their time, whose member is the
 * challenge's identity (key, host, value: a second present moves its score, never adds one),
 * and a hash from that identity to the whole challenge; both change in one MULTI.
 */
import type { Redis } from 'ioredis';
import { createStoreQueue } from './chat-queue.js';
import {
  challengeIdOf,
  type GatewayState,
  type PendingChallenge,
  readPendingChallenge,
  zoneKeyOf,
} from './gateway-state.js';

/**
 * KEYS: counter. ARGV: window ms. The window starts at the first hit; a counter found without an
 * expiry (written by hand, or by an older version) gets one, so no counter lives forever.
 */
const HIT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 or redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count
`;

/**
 * KEYS: due set, data hash. ARGV: now, limit. Returns {id, challenge JSON, …}, oldest first. An
 * id without its challenge (damage) is dropped here, atomically, so it cannot hold back the line
 * and no concurrent add of the same id is lost to it.
 */
const DUE = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])
local out = {}
for _, id in ipairs(ids) do
  local text = redis.call('HGET', KEYS[2], id)
  if text then
    out[#out + 1] = id
    out[#out + 1] = text
  else
    redis.call('ZREM', KEYS[1], id)
  end
end
return out
`;

/** `createRedisGatewayState`'s options: the shared connection (quit by its owner) and the key prefix. */
export function createRedisGatewayState(options: { redis: Redis; prefix?: string }): GatewayState {
  const { redis, prefix = 'partner-bot:' } = options;
  // Only its closing is used: every call is one command, script or MULTI, atomic already.
  const queue = createStoreQueue<string>();
  const base = `${prefix}gw:`;
  const dueKey = `${base}challenges:due`;
  const dataKey = `${base}challenges:data`;

  return {
    async hit(bucket, windowMs) {
      queue.assertOpen();
      return Number(await redis.eval(HIT, 1, `${base}hit:${bucket}`, String(windowMs)));
    },
    async claim(bucket, ttlMs) {
      queue.assertOpen();
      return (await redis.set(`${base}claim:${bucket}`, '1', 'PX', ttlMs, 'NX')) === 'OK';
    },
    async zoneGeneration(accountId, orderId) {
      queue.assertOpen();
      return Number((await redis.get(`${base}gen:${zoneKeyOf(accountId, orderId)}`)) ?? 0);
    },
    async zoneChanged(accountId, orderId) {
      queue.assertOpen();
      await redis.incr(`${base}gen:${zoneKeyOf(accountId, orderId)}`);
    },
    async cached(key) {
      queue.assertOpen();
      return (await redis.get(`${base}cache:${key}`)) ?? undefined;
    },
    async cache(key, value, ttlMs) {
      queue.assertOpen();
      await redis.set(`${base}cache:${key}`, value, 'PX', ttlMs);
    },
    async addChallenge(challenge) {
      queue.assertOpen();
      const kept = readPendingChallenge(challenge);
      if (kept === undefined) throw new TypeError('not a pending challenge');
      const id = challengeIdOf(kept);
      await redis.multi().zadd(dueKey, kept.dueAt, id).hset(dataKey, id, JSON.stringify(kept)).exec();
    },
    async removeChallenge(challenge) {
      queue.assertOpen();
      const id = challengeIdOf(challenge);
      await redis.multi().zrem(dueKey, id).hdel(dataKey, id).exec();
    },
    async dueChallenges(now, limit) {
      queue.assertOpen();
      if (limit <= 0) return [];
      const found = (await redis.eval(DUE, 2, dueKey, dataKey, String(now), String(limit))) as string[];
      const due: PendingChallenge[] = [];
      const damaged: string[] = [];
      for (let i = 0; i + 1 < found.length; i += 2) {
        const challenge = parseChallenge(found[i + 1] ?? '');
        if (challenge) due.push(challenge);
        else damaged.push(found[i] ?? '');
      }
      if (damaged.length > 0)
        await redis
          .multi()
          .zrem(dueKey, ...damaged)
          .hdel(dataKey, ...damaged)
          .exec();
      return due;
    },
    close: () => queue.close(),
  };
}

/** A stored challenge's JSON, checked; undefined for anything damaged. */
function parseChallenge(text: string): PendingChallenge | undefined {
  try {
    return readPendingChallenge(JSON.parse(text));
  } catch {
    return undefined;
  }
}
