import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createKeyring } from '../../src/storage/crypto.js';
import { createRedisRobotKeyStore } from '../../src/storage/redis-robot-key-store.js';
import { createLowdbRobotKeyStore, type RobotKeyStore } from '../../src/storage/robot-key-store.js';
import { createRobotKeys, type NewRobotKey } from '../../src/storage/robot-keys.js';

const keyring = createKeyring([{ id: 'test', key: Buffer.alloc(32, 7) }]);
const fresh: NewRobotKey = {
  chatId: 501,
  kind: 'address',
  name: 'Роутер офиса',
  scope: 'office.client.by',
  orderId: 3,
  domain: 'client.by',
  networks: ['198.51.100.0/24'],
  createdBy: { userId: 501, name: 'Ирина Петрова' },
};

function contract(name: string, open: () => Promise<{ store: RobotKeyStore; raw: () => Promise<string> }>) {
  describe(name, () => {
    it('shows a secret once, keeps only its hash, and seals who made it', async () => {
      const { store, raw } = await open();
      const keys = createRobotKeys({ store, keyring });
      const { key, secret } = await keys.create(fresh);
      expect(key).toMatchObject({ ...fresh, id: expect.stringMatching(/^k[a-z2-7]{12}$/) });
      const text = await raw();
      expect(text).not.toContain(secret);
      expect(text).not.toContain('Роутер');
      expect(text).not.toContain('Ирина');
      expect(await keys.verify(key.id, secret)).toMatchObject({ id: key.id, name: 'Роутер офиса' });
      expect(
        await keys.verify(key.id, `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`),
      ).toBeUndefined();
      expect(await keys.verify('k234567abcdef', secret)).toBeUndefined();
      expect(await keys.verify('not a key', secret)).toBeUndefined();
      await store.close();
    });

    it('rotates a secret under the same id, lists per chat, notes a use, revokes', async () => {
      const { store, raw } = await open();
      const keys = createRobotKeys({ store, keyring, now: () => new Date('2026-11-28T10:00:00Z') });
      const first = await keys.create(fresh);
      const other = await keys.create({ ...fresh, chatId: 777, name: 'NAS' });
      const rotated = await keys.rotate(first.key.id);
      expect(rotated?.key.id).toBe(first.key.id);
      expect(await keys.verify(first.key.id, first.secret)).toBeUndefined();
      expect(await keys.verify(first.key.id, rotated?.secret ?? '')).toBeDefined();
      expect((await keys.list(501)).map((k) => k.id)).toEqual([first.key.id]);
      await keys.noteUse(first.key.id, {
        at: '2026-11-28T10:05:00Z',
        from: '198.51.100.9',
        action: 'good',
        detail: '198.51.100.9',
      });
      expect((await keys.get(first.key.id))?.lastUse).toEqual({
        at: '2026-11-28T10:05:00Z',
        from: '198.51.100.9',
        action: 'good',
        detail: '198.51.100.9',
      });
      expect(await raw()).not.toContain('198.51.100.9');
      expect((await keys.revoke(first.key.id))?.name).toBe('Роутер офиса');
      expect(await keys.verify(first.key.id, rotated?.secret ?? '')).toBeUndefined();
      expect(await keys.list(501)).toEqual([]);
      expect((await keys.list(777)).map((k) => k.id)).toEqual([other.key.id]);
      await store.close();
    });
  });
}

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

contract('robot keys on lowdb', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'robot-keys-'));
  dirs.push(dir);
  return {
    store: createLowdbRobotKeyStore({ dataDir: dir }),
    raw: () => readFile(path.join(dir, 'robot-keys.json'), 'utf8'),
  };
});

describe.skipIf(!process.env.REDIS_URL)('on Redis', () => {
  const redis = new Redis(process.env.REDIS_URL ?? '', { lazyConnect: true });
  const prefix = `test-robot-keys-${process.pid}-${Date.now()}:`;
  afterAll(async () => {
    const names = await redis.keys(`${prefix}*`);
    if (names.length > 0) await redis.del(...names);
    await redis.quit();
  });
  let run = 0;
  contract('robot keys on Redis', async () => {
    run += 1;
    const own = `${prefix}${run}:`;
    return {
      store: createRedisRobotKeyStore({ redis, prefix: own }),
      raw: async () => {
        const names = await redis.keys(`${own}*`);
        const values = await Promise.all(
          names.map((n) =>
            redis
              .type(n)
              .then((t) => (t === 'string' ? redis.get(n) : redis.smembers(n).then((m) => m.join(',')))),
          ),
        );
        return values.join('\n');
      },
    };
  });
});
