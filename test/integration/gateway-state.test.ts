import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createLowdbGatewayState,
  type GatewayState,
  type PendingChallenge,
} from '../../src/storage/gateway-state.js';
import { createRedisGatewayState } from '../../src/storage/redis-gateway-state.js';
import { deleteKeys } from '../helpers/two-instances.js';

/** A fresh state and a way to let time pass for it (a fake clock, or real waiting). */
interface Subject {
  state: GatewayState;
  pass(ms: number): Promise<void>;
}

const challenge = (over: Partial<PendingChallenge> = {}): PendingChallenge => ({
  keyId: 'k1',
  chatId: 100,
  orderId: 7,
  host: '_acme-challenge',
  value: 'v1',
  dueAt: 1_000,
  ...over,
});

/** The same contract over each backend. */
function gatewayStateContract(make: () => Promise<Subject>) {
  it('counts hits within a window and starts again after it', async () => {
    const { state, pass } = await make();
    expect(await state.hit('b1', 200)).toBe(1);
    expect(await state.hit('b1', 200)).toBe(2);
    expect(await state.hit('b2', 200)).toBe(1);
    await pass(100);
    expect(await state.hit('b1', 200)).toBe(3);
    // A hit does not move the window: it ended 200 ms after the first, not after this one.
    await pass(120);
    expect(await state.hit('b1', 200)).toBe(1);
    expect(await state.hit('b1', 200)).toBe(2);
  });

  it('a claim is true once, false while it lives, true again after it lapsed', async () => {
    const { state, pass } = await make();
    expect(await state.claim('c1', 200)).toBe(true);
    expect(await state.claim('c1', 200)).toBe(false);
    expect(await state.claim('c2', 200)).toBe(true);
    await pass(250);
    expect(await state.claim('c1', 200)).toBe(true);
    expect(await state.claim('c1', 200)).toBe(false);
  });

  it('a zone change bumps its generation only', async () => {
    const { state } = await make();
    expect(await state.zoneGeneration('acc_1', 7)).toBe(0);
    await state.zoneChanged('acc_1', 7);
    await state.zoneChanged('acc_1', 7);
    expect(await state.zoneGeneration('acc_1', 7)).toBe(2);
    expect(await state.zoneGeneration('acc_1', 8)).toBe(0);
    expect(await state.zoneGeneration('acc_2', 7)).toBe(0);
    await expect(state.zoneChanged('a:b', 7)).rejects.toThrow(TypeError);
  });

  it('a cached value is read until it expires', async () => {
    const { state, pass } = await make();
    expect(await state.cached('x:0:www')).toBeUndefined();
    await state.cache('x:0:www', '192.0.2.1', 200);
    await state.cache('x:0:mail', '192.0.2.2', 1_000);
    expect(await state.cached('x:0:www')).toBe('192.0.2.1');
    await pass(250);
    expect(await state.cached('x:0:www')).toBeUndefined();
    expect(await state.cached('x:0:mail')).toBe('192.0.2.2');
  });

  it('challenges come due oldest first, at most the limit; a re-add moves its time', async () => {
    const { state } = await make();
    await state.addChallenge(challenge({ value: 'a', dueAt: 3_000 }));
    await state.addChallenge(challenge({ value: 'b', dueAt: 1_000 }));
    await state.addChallenge(
      challenge({ value: 'c', dueAt: 2_000, host: '_acme-challenge.shop', chatId: 5 }),
    );
    await state.addChallenge(challenge({ value: 'd', dueAt: 9_000 }));
    expect(await state.dueChallenges(500, 10)).toEqual([]);
    expect(await state.dueChallenges(3_000, 10)).toEqual([
      challenge({ value: 'b', dueAt: 1_000 }),
      challenge({ value: 'c', dueAt: 2_000, host: '_acme-challenge.shop', chatId: 5 }),
      challenge({ value: 'a', dueAt: 3_000 }),
    ]);
    expect((await state.dueChallenges(3_000, 2)).map((c) => c.value)).toEqual(['b', 'c']);
    // Presented again: one entry, at its new time.
    await state.addChallenge(challenge({ value: 'b', dueAt: 5_000 }));
    expect((await state.dueChallenges(10_000, 10)).map((c) => [c.value, c.dueAt])).toEqual([
      ['c', 2_000],
      ['a', 3_000],
      ['b', 5_000],
      ['d', 9_000],
    ]);
  });

  it('a removed challenge is no longer due; key, host and value name it', async () => {
    const { state } = await make();
    await state.addChallenge(challenge({ value: 'a' }));
    await state.addChallenge(challenge({ value: 'a', keyId: 'k2', dueAt: 1_100 }));
    await state.addChallenge(challenge({ value: 'a', host: '_acme-challenge.shop', dueAt: 1_200 }));
    await state.removeChallenge({ keyId: 'k1', host: '_acme-challenge', value: 'a' });
    await state.removeChallenge({ keyId: 'k1', host: '_acme-challenge', value: 'never-added' });
    expect((await state.dueChallenges(5_000, 10)).map((c) => [c.keyId, c.host])).toEqual([
      ['k2', '_acme-challenge'],
      ['k1', '_acme-challenge.shop'],
    ]);
  });

  it('a closed state refuses calls', async () => {
    const { state } = await make();
    await state.close();
    await expect(state.hit('b', 100)).rejects.toThrow();
    await expect(state.addChallenge(challenge())).rejects.toThrow();
  });
}

describe('gateway state on lowdb (one process, fake clock)', () => {
  const dirs: string[] = [];
  const newDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'partner-bot-gw-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  gatewayStateContract(async () => {
    let clock = 1_700_000_000_000;
    const state = createLowdbGatewayState({ dataDir: await newDir(), now: () => clock });
    return {
      state,
      pass: async (ms) => {
        clock += ms;
      },
    };
  });

  it('waiting challenges survive a restart on the same data dir', async () => {
    const dataDir = await newDir();
    const before = createLowdbGatewayState({ dataDir });
    await before.addChallenge(challenge({ value: 'a', dueAt: 2_000 }));
    await before.addChallenge(challenge({ value: 'b', dueAt: 1_000 }));
    await before.removeChallenge(challenge({ value: 'a' }));
    await before.addChallenge(challenge({ value: 'c', dueAt: 3_000 }));
    await before.close();
    const stored = JSON.parse(await readFile(join(dataDir, 'acme-challenges.json'), 'utf8'));
    expect(stored).toHaveLength(2);
    const after = createLowdbGatewayState({ dataDir });
    expect(await after.dueChallenges(5_000, 10)).toEqual([
      challenge({ value: 'b', dueAt: 1_000 }),
      challenge({ value: 'c', dueAt: 3_000 }),
    ]);
    await after.close();
  });

  it('without a data dir everything stays in memory', async () => {
    const state = createLowdbGatewayState();
    await state.addChallenge(challenge());
    expect(await state.dueChallenges(5_000, 10)).toEqual([challenge()]);
    await state.close();
  });
});

const url = process.env.REDIS_URL;
if (!url) console.warn('REDIS_URL is not set: the Redis gateway state tests are skipped');

describe.skipIf(!url)('gateway state on Redis (real time)', () => {
  const prefix = `pb-gw-state-${process.pid}-${Date.now()}:`;
  const connections: Redis[] = [];
  let round = 0;
  afterAll(async () => {
    for (const c of connections) c.disconnect();
    await deleteKeys(url as string, prefix);
  });

  gatewayStateContract(async () => {
    round += 1;
    const redis = new Redis(url as string);
    connections.push(redis);
    return {
      state: createRedisGatewayState({ redis, prefix: `${prefix}${round}:` }),
      pass: (ms) => sleep(ms),
    };
  });

  it('every key is under <prefix>gw: and counters carry their window', async () => {
    const redis = new Redis(url as string);
    connections.push(redis);
    const own = `${prefix}keys:`;
    const state = createRedisGatewayState({ redis, prefix: own });
    await state.hit('h', 5_000);
    await state.claim('c', 5_000);
    await state.zoneChanged('acc', 1);
    await state.cache('k', 'v', 5_000);
    await state.addChallenge(challenge());
    const keys: string[] = [];
    for await (const batch of redis.scanStream({ match: `${own}*`, count: 500 }))
      keys.push(...(batch as string[]));
    expect(keys.length).toBe(6);
    for (const key of keys) expect(key.startsWith(`${own}gw:`)).toBe(true);
    const ttl = await redis.pttl(`${own}gw:hit:h`);
    expect(ttl).toBeGreaterThan(4_000);
    expect(ttl).toBeLessThanOrEqual(5_000);
  });
});
