import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { runOnce } from '../../src/services/once-only.js';
import { createLowdbOnceKeys, type OnceKeys } from '../../src/storage/once-keys.js';
import { createRedisOnceKeys } from '../../src/storage/redis-once-keys.js';
import { deleteKeys } from '../helpers/two-instances.js';

/** The same stories over each backend: `pair()` gives two instances' views of one store. */
function onceKeysStories(pair: () => Promise<[OnceKeys, OnceKeys]>) {
  it('one key sent to two instances at once: the work runs once, the other gets its outcome', async () => {
    const [a, b] = await pair();
    let runs = 0;
    const work = async () => {
      runs += 1;
      await sleep(150);
      return { value: { applied: 3 }, keep: true };
    };
    const [first, second] = await Promise.all([
      runOnce(a, 'apply:1:k1', work),
      runOnce(b, 'apply:1:k1', work),
    ]);
    expect(runs).toBe(1);
    expect([first.kind, second.kind].sort()).toEqual(['again', 'ran']);
    expect(first.kind === 'busy' || second.kind === 'busy').toBe(false);
    if (first.kind !== 'busy' && second.kind !== 'busy') expect(second.value).toEqual(first.value);
    // Later, on either instance: the stored outcome, nothing run.
    expect(await runOnce(b, 'apply:1:k1', work)).toEqual({ kind: 'again', value: { applied: 3 } });
    expect(runs).toBe(1);
  });

  it('an outcome not kept lets the key run again; a wait that ends first answers busy', async () => {
    const [a, b] = await pair();
    let runs = 0;
    const refused = async () => {
      runs += 1;
      await sleep(100);
      return { value: 'refused', keep: false };
    };
    await Promise.all([runOnce(a, 'order:1:k2', refused), runOnce(b, 'order:1:k2', refused)]);
    expect(runs).toBe(2);
    const slow = runOnce(a, 'order:1:k3', async () => {
      await sleep(400);
      return { value: 'made', keep: true };
    });
    await sleep(20);
    expect(await runOnce(b, 'order:1:k3', refused, { waitMs: 100 })).toEqual({ kind: 'busy' });
    expect(await slow).toEqual({ kind: 'ran', value: 'made' });
  });

  it('a claim whose holder died lapses after its time', async () => {
    const [a, b] = await pair();
    const claim = await a.claim('apply:1:k4', 200);
    expect(claim.state).toBe('claimed');
    expect((await b.claim('apply:1:k4', 200)).state).toBe('busy');
    await sleep(300);
    expect((await b.claim('apply:1:k4', 200)).state).toBe('claimed');
  });
}

describe('once-only keys on lowdb (one process)', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });
  onceKeysStories(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'partner-bot-once-'));
    dirs.push(dir);
    const keys = createLowdbOnceKeys({ dataDir: dir });
    return [keys, keys];
  });

  it('a kept outcome is read again after a restart', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'partner-bot-once-'));
    dirs.push(dir);
    const before = createLowdbOnceKeys({ dataDir: dir });
    await runOnce(before, 'apply:7:k', async () => ({ value: { applied: 1 }, keep: true }));
    await before.close();
    const after = createLowdbOnceKeys({ dataDir: dir });
    expect(await after.claim('apply:7:k', 1_000)).toEqual({ state: 'done', outcome: { applied: 1 } });
    await after.close();
  });
});

const url = process.env.REDIS_URL;
if (!url) console.warn('REDIS_URL is not set: the Redis once-only key tests are skipped');

describe.skipIf(!url)('once-only keys on Redis (two instances)', () => {
  const prefix = `pb-once-keys-${process.pid}-${Date.now()}:`;
  const connections: Redis[] = [];
  let round = 0;
  afterAll(async () => {
    for (const c of connections) c.disconnect();
    await deleteKeys(url as string, prefix);
  });
  onceKeysStories(async () => {
    round += 1;
    const made = [new Redis(url as string), new Redis(url as string)];
    connections.push(...made);
    const [a, b] = made.map((redis) => createRedisOnceKeys({ redis, prefix: `${prefix}${round}:` }));
    return [a as OnceKeys, b as OnceKeys];
  });
});
