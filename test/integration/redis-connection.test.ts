/*
 * The Redis connection of STORAGE=redis: a start against a Redis that is not there fails in a few
 * seconds with one clear line; a Redis that goes away or hangs later fails each command within
 * about the command timeout with StorageUnavailableError, and the client recovers by itself.
 * Outages are made with a TCP proxy in front of the machine's Redis, which is never touched.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { Redis } from 'ioredis';
import { ReplyError } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  asStorageError,
  closeRedis,
  connectRedis,
  describeRedisUrl,
  RedisUnreachableError,
  StorageUnavailableError,
} from '../../src/storage/redis-connection.js';
import { createRedisChatLock, createRedisDeduper } from '../../src/storage/redis-coordination.js';
import { createRedisStore } from '../../src/storage/redis-store.js';
import { eventually, freePort } from '../helpers/bot-process.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';

/** How long a call took, and what it ended with. */
async function timed(call: () => Promise<unknown>): Promise<{ ms: number; error: unknown }> {
  const started = Date.now();
  const error = await call().then(
    () => undefined,
    (e: unknown) => e,
  );
  return { ms: Date.now() - started, error };
}

describe('the start against a Redis that is not there', () => {
  it('fails within the deadline naming host, port and reason, never the password', async () => {
    const port = await freePort();
    const { ms, error } = await timed(() =>
      connectRedis({ url: `redis://user:s3cret-redis-pass@127.0.0.1:${port}/2`, startTimeoutMs: 1_500 }),
    );
    expect(error).toBeInstanceOf(RedisUnreachableError);
    expect((error as Error).message).toBe(
      `Redis at redis://127.0.0.1:${port} is not reachable: connect ECONNREFUSED 127.0.0.1:${port}`,
    );
    expect((error as Error).message).not.toContain('s3cret');
    expect(ms).toBeLessThan(2_500);
  });

  it('fails within the deadline when something listens but never answers', async () => {
    const sockets = new Set<Socket>();
    const silent: Server = createServer((socket) => void sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    try {
      const { ms, error } = await timed(() =>
        connectRedis({ url: `redis://127.0.0.1:${port}`, startTimeoutMs: 800 }),
      );
      expect((error as Error).message).toBe(
        `Redis at redis://127.0.0.1:${port} is not reachable: no answer within 0.8 s`,
      );
      expect(ms).toBeGreaterThanOrEqual(750);
      expect(ms).toBeLessThan(2_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe('storage errors', () => {
  it('keeps Redis answers about the command, and calls an unavailable server an outage', () => {
    const noscript = new ReplyError('NOSCRIPT No matching script');
    expect(asStorageError(noscript)).toBe(noscript);
    for (const reply of [
      'LOADING Redis is loading',
      'READONLY You cannot write',
      'NOAUTH Authentication required.',
    ]) {
      const error = asStorageError(new ReplyError(reply));
      expect(error).toBeInstanceOf(StorageUnavailableError);
      expect((error as Error).message).toBe(`Redis is unavailable: ${reply}`);
    }
    expect(asStorageError(new Error('Connection is closed.'))).toBeInstanceOf(StorageUnavailableError);
  });

  it('describes a URL without its credentials or database', () => {
    expect(describeRedisUrl('rediss://default:pw@cache.example:6380/3')).toBe('rediss://cache.example:6380');
    expect(describeRedisUrl('redis://cache.example')).toBe('redis://cache.example:6379');
  });
});

const url = process.env.REDIS_URL;
if (!url) console.warn('REDIS_URL is not set: the Redis outage tests are skipped');

describe.skipIf(!url)('a Redis that goes away while the bot runs', () => {
  const prefix = `partner-bot-test:redis-connection:${process.pid}:${Date.now()}:`;
  const target = new URL(url ?? 'redis://127.0.0.1:6379');
  let proxy: TcpProxy;
  let redis: Redis;
  const lines: { level: 'warn' | 'info'; message: string; fields: Record<string, unknown> }[] = [];

  beforeAll(async () => {
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
  });
  afterEach(async () => {
    await closeRedis(redis);
  });
  afterAll(async () => {
    await proxy.close();
    const direct = await connectRedis({ url: url as string });
    const keys = await direct.keys(`${prefix}*`);
    if (keys.length > 0) await direct.del(...keys);
    await closeRedis(direct);
  });

  const connect = () => {
    const through = new URL(url as string);
    through.hostname = '127.0.0.1';
    through.port = String(proxy.port);
    return connectRedis({
      url: through.href,
      commandTimeoutMs: 1_000,
      log: {
        warn: (fields, message) => void lines.push({ level: 'warn', message, fields }),
        info: (fields, message) => void lines.push({ level: 'info', message, fields }),
      },
    });
  };

  it('fails store, chat lock and deduper fast with StorageUnavailableError, then recovers', async () => {
    redis = await connect();
    const store = createRedisStore({ redis, prefix });
    const lock = createRedisChatLock({ redis, prefix, waitMs: 30_000 });
    const deduper = createRedisDeduper({ redis, prefix });
    await store.update(1, (doc) => ({ ...doc, session: { n: 1 } }));
    expect(await deduper.firstTime(1)).toBe(true);

    await proxy.cut();
    for (const call of [
      () => store.read(1),
      () => store.update(1, (doc) => ({ ...doc, session: { n: 2 } })),
      () => lock.run(1, async () => 'ran'),
      () => deduper.firstTime(2),
    ]) {
      const { ms, error } = await timed(call);
      expect(error).toBeInstanceOf(StorageUnavailableError);
      expect(ms).toBeLessThan(3_000);
    }

    await proxy.restore();
    await eventually(async () => (await store.read(1).catch(() => undefined)) !== undefined, 10_000);
    expect((await store.read(1))?.session).toEqual({ n: 1 });
    expect(await lock.run(1, async () => 'ran')).toBe('ran');
    // One line when it went, one when it came back, however many reconnection attempts between.
    expect(lines.map((l) => [l.level, l.message])).toEqual([
      ['warn', 'Redis connection lost'],
      ['info', 'Redis connection is back'],
    ]);
    expect(lines[0]?.fields.redis).toBe(`redis://127.0.0.1:${proxy.port}`);
    await store.close();
    // Closing it ourselves is no outage: nothing more is logged.
    await closeRedis(redis);
    expect(lines).toHaveLength(2);
  }, 20_000);

  it('fails a command within the command timeout when Redis hangs', async () => {
    redis = await connect();
    const store = createRedisStore({ redis, prefix });
    expect(await store.read(2)).toBeUndefined();
    proxy.freeze();
    const { ms, error } = await timed(() => store.read(2));
    expect(error).toBeInstanceOf(StorageUnavailableError);
    expect((error as Error).message).toBe('Redis is unavailable: Command timed out');
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(3_000);
    await proxy.cut();
    await proxy.restore();
    await store.close();
  }, 20_000);

  it('passes Redis answers about a command through unchanged', async () => {
    redis = await connect();
    const error = await redis.call('NO-SUCH-COMMAND').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReplyError);
  });
});
