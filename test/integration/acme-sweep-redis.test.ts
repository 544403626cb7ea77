/**
 * Two instances on one Redis sweep the same forgotten ACME value: the claim per value lets one of
 * them delete it, and the provider sees exactly one delete.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { type AcmeWorld, startAcmeWorld } from '../helpers/acme-world.js';
import { certificateKey } from '../helpers/key-fixtures.js';

const url = process.env.REDIS_URL;
if (!url) console.warn('REDIS_URL is not set: the ACME sweep on Redis is skipped');

describe.skipIf(!url)('the ACME sweep on two instances sharing Redis', () => {
  const prefix = `partner-bot-test:acme-sweep:${process.pid}:${Date.now()}:`;
  let sandbox: Sandbox;
  let redis: Redis;
  let one: AcmeWorld;
  let two: AcmeWorld;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, dns: { port: 0 } });
    redis = new Redis(url as string);
    one = await startAcmeWorld(sandbox, { redis: { client: redis, prefix } });
    two = await startAcmeWorld(sandbox, { redis: { client: redis, prefix } });
    await one.chatData.setToken(7301, sandbox.token);
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis?.quit();
    await sandbox?.close();
  });

  it('deletes a due value once, whichever instance claims it', async () => {
    const { key } = await one.robotKeys.create(certificateKey(7301));
    const value = `sweep${'w'.repeat(38)}`;
    const presented = await one.challenges.present(key, '_acme-challenge.mysite.by', value);
    expect(presented).toMatchObject({ ok: true, added: true, served: true });
    // The other instance sees the waiting value too.
    expect(await two.state.dueChallenges(Number.MAX_SAFE_INTEGER, 10)).toHaveLength(1);
    one.clock.now += 61 * 60_000;
    two.clock.now += 61 * 60_000;
    const deletes = () => sandbox.requests.filter((r) => r.method === 'DELETE').length;
    const before = deletes();
    const swept = await Promise.all([one.challenges.sweep(), two.challenges.sweep()]);
    expect(swept.sort()).toEqual([0, 1]);
    expect(deletes() - before).toBe(1);
    expect(await one.state.dueChallenges(Number.MAX_SAFE_INTEGER, 10)).toEqual([]);
  });
});
