/**
 * `DnsHistoryStore` on Redis for several instances: one list per account and domain order
 * (`<prefix>dnshistory:<account>:<orderId>`), appended and trimmed in one MULTI, so two
 * instances recording at once both land and the list never outgrows its limit.
 */
import type { Redis } from 'ioredis';
import { createStoreQueue } from './chat-queue.js';
import { assertHistoryKey, type DnsHistoryStore, readStoredEntry } from './dns-history-store.js';

export function createRedisDnsHistoryStore(options: { redis: Redis; prefix?: string }): DnsHistoryStore {
  const { redis, prefix = 'partner-bot:' } = options;
  // Only its closing is used: a MULTI is atomic already, so nothing here waits in line.
  const queue = createStoreQueue<string>();
  const keyOf = (accountId: string, orderId: number) => {
    assertHistoryKey(accountId, orderId);
    return `${prefix}dnshistory:${accountId}:${orderId}`;
  };

  return {
    async list(accountId, orderId) {
      queue.assertOpen();
      const raw = await redis.lrange(keyOf(accountId, orderId), 0, -1);
      return raw.flatMap((text) => {
        try {
          const entry = readStoredEntry(JSON.parse(text));
          return entry ? [entry] : [];
        } catch {
          return [];
        }
      });
    },
    async append(accountId, orderId, entry, limit) {
      queue.assertOpen();
      const key = keyOf(accountId, orderId);
      await redis.multi().rpush(key, JSON.stringify(entry)).ltrim(key, -limit, -1).exec();
    },
    async keys() {
      queue.assertOpen();
      const found = new Map<string, { accountId: string; orderId: number }>();
      for await (const batch of redis.scanStream({ match: `${prefix}dnshistory:*`, count: 1_000 })) {
        const keys: string[] = batch;
        for (const key of keys) {
          const match = /:([A-Za-z0-9_-]{1,64}):(\d+)$/.exec(key.slice(prefix.length));
          if (match) found.set(key, { accountId: match[1] ?? '', orderId: Number(match[2]) });
        }
      }
      return [...found.values()];
    },
    async replace(accountId, orderId, entries) {
      queue.assertOpen();
      const key = keyOf(accountId, orderId);
      const multi = redis.multi().del(key);
      if (entries.length > 0) multi.rpush(key, ...entries.map((entry) => JSON.stringify(entry)));
      await multi.exec();
    },
    close: () => queue.close(),
  };
}
