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
    close: () => queue.close(),
  };
}
