/**
 * The DNS change history's storage contract, on lowdb (a temp dir) and on Redis (only when
 * REDIS_URL is set, under a key prefix of its own, deleted afterwards; the server is never flushed).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HISTORY_LIMIT, type HistoryChange } from '../../src/core/dns-history.js';
import { createKeyring } from '../../src/storage/crypto.js';
import { createDnsHistory, type DnsHistory } from '../../src/storage/dns-history.js';
import { createLowdbDnsHistoryStore, type DnsHistoryStore } from '../../src/storage/dns-history-store.js';
import { createRedisDnsHistoryStore } from '../../src/storage/redis-dns-history-store.js';

const TOKEN = 'partner-token-for-history-tests';
const OTHER_TOKEN = 'another-partner-token';
const who = { chatId: 424_242, userId: 424_242, name: 'Анна Секретная' };
const add = (n: number): HistoryChange => ({
  records: [{ op: 'add', record: { type: 'A', host: `h${n}`, ttl: 3600, ipv4: '192.0.2.1' } }],
});

interface Backend {
  store: DnsHistoryStore;
  /** Everything the backend holds, as text (to look for clear-text personal data). */
  rawText(): Promise<string>;
  cleanup(): Promise<void>;
}

function describeContract(name: string, setup: () => Promise<Backend>) {
  describe(name, () => {
    let backend: Backend;
    let history: DnsHistory;
    const keyring = createKeyring([{ id: 't1', key: randomBytes(32) }]);
    beforeEach(async () => {
      backend = await setup();
      history = createDnsHistory({ store: backend.store, keyring });
    });
    afterEach(async () => {
      await backend.store.close();
      await backend.cleanup();
    });

    it('keeps entries per token and domain order, newest first, with the author opened', async () => {
      const first = await history.record(TOKEN, 1006, { kind: 'add', who, change: add(1) });
      const second = await history.record(TOKEN, 1006, {
        kind: 'undo',
        who: { ...who, name: 'Борис' },
        change: add(2),
        undoes: first.id,
      });
      await history.record(TOKEN, 1007, { kind: 'delete', who, change: add(3) });
      await history.record(OTHER_TOKEN, 1006, { kind: 'ns', who, change: add(4) });

      const listed = await history.list(TOKEN, 1006);
      expect(listed.map((e) => e.id)).toEqual([second.id, first.id]);
      expect(listed[0]).toEqual({ ...second, undoes: first.id });
      expect(listed[1]).toMatchObject({ kind: 'add', who, change: add(1) });
      expect(listed[1]?.at).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect((await history.list(TOKEN, 1007)).map((e) => e.kind)).toEqual(['delete']);
      expect((await history.list(OTHER_TOKEN, 1006)).map((e) => e.kind)).toEqual(['ns']);
      expect(await history.list(TOKEN, 9999)).toEqual([]);
    });

    it('lists every (account, order) it holds, and replace sets a history to exactly the given entries', async () => {
      await history.record(TOKEN, 1006, { kind: 'add', who, change: add(1) });
      await history.record(TOKEN, 1006, { kind: 'add', who, change: add(2) });
      await history.record(OTHER_TOKEN, 1007, { kind: 'delete', who, change: add(3) });
      const keys = await backend.store.keys();
      expect(keys).toHaveLength(2);
      const first = keys.find((k) => k.orderId === 1006);
      if (first === undefined) throw new Error('the 1006 history is not listed');
      const entries = await backend.store.list(first.accountId, 1006);
      await backend.store.replace(first.accountId, 1006, entries.slice(1));
      expect(await backend.store.list(first.accountId, 1006)).toEqual(entries.slice(1));
      await backend.store.replace(first.accountId, 1006, entries);
      expect(await backend.store.list(first.accountId, 1006)).toEqual(entries);
    });

    it('keeps the latest 100 per domain order', async () => {
      for (let n = 0; n < HISTORY_LIMIT + 5; n++) {
        await history.record(TOKEN, 1006, { kind: 'add', who, change: add(n) });
      }
      const listed = await history.list(TOKEN, 1006);
      expect(listed).toHaveLength(HISTORY_LIMIT);
      expect(listed[0]?.change).toEqual(add(HISTORY_LIMIT + 4));
      expect(listed.at(-1)?.change).toEqual(add(5));
    });

    it('keeps two writers at once', async () => {
      await Promise.all(
        Array.from({ length: 20 }, (_, n) =>
          history.record(TOKEN, 1006, { kind: 'add', who, change: add(n) }),
        ),
      );
      expect(await history.list(TOKEN, 1006)).toHaveLength(20);
    });

    it('stores neither the author nor the token in clear text', async () => {
      await history.record(TOKEN, 1006, { kind: 'add', who, change: add(1) });
      const raw = await backend.rawText();
      expect(raw).toContain('h1');
      expect(raw).not.toContain('Секретная');
      expect(raw).not.toContain(String(who.userId));
      expect(raw).not.toContain(TOKEN);
    });

    it('an author that no longer opens (its key removed) leaves the change readable', async () => {
      await history.record(TOKEN, 1006, { kind: 'add', who, change: add(1) });
      const unreadable: string[] = [];
      const rotated = createDnsHistory({
        store: backend.store,
        keyring: createKeyring([{ id: 't2', key: randomBytes(32) }]),
        onUnreadable: (event) => unreadable.push(event.entryId),
      });
      const [entry] = await rotated.list(TOKEN, 1006);
      expect(entry?.change).toEqual(add(1));
      expect(entry?.who.name).toBe('');
      expect(unreadable).toEqual([entry?.id]);
    });
  });
}

const dirs: string[] = [];
describeContract('lowdb history store', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'dns-history-'));
  dirs.push(dataDir);
  const folder = join(dataDir, 'dns-history');
  return {
    store: createLowdbDnsHistoryStore({ dataDir }),
    async rawText() {
      const names = await readdir(folder).catch(() => []);
      // One bounded file per account and domain order; the name carries no token.
      for (const n of names) expect(n).toMatch(/^[A-Za-z0-9_-]{32}\.\d+\.json$/);
      return (await Promise.all(names.map((n) => readFile(join(folder, n), 'utf8')))).join('\n');
    },
    cleanup: () => rm(dataDir, { recursive: true, force: true }),
  };
});

const redisUrl = process.env.REDIS_URL;
if (!redisUrl) console.warn('REDIS_URL is not set: the Redis DNS history suite is skipped.');
const runPrefix = `test:dns-history:${randomUUID()}:`;
const connections: Redis[] = [];

describe.skipIf(!redisUrl)('redis', () => {
  describeContract('redis history store', async () => {
    const redis = new Redis(redisUrl ?? '', { maxRetriesPerRequest: 2 });
    connections.push(redis);
    const prefix = `${runPrefix}${randomUUID()}:`;
    return {
      store: createRedisDnsHistoryStore({ redis, prefix }),
      async rawText() {
        const keys = await redis.keys(`${prefix}*`);
        for (const key of keys) expect(key).toMatch(/dnshistory:[A-Za-z0-9_-]{32}:\d+$/);
        const lists = await Promise.all(keys.map((key) => redis.lrange(key, 0, -1)));
        return lists.flat().join('\n');
      },
      async cleanup() {
        const keys = await redis.keys(`${prefix}*`);
        if (keys.length > 0) await redis.del(...keys);
      },
    };
  });
});

afterAll(async () => {
  await Promise.all(connections.map((redis) => redis.quit()));
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});
