/**
 * Where the DNS change history lives (see `core/dns-history.ts`): per partner account — an id
 * derived from the token (`watchIdOf`), so a private chat and a team group on one token share it —
 * and per domain order, the latest entries, oldest first. The author of each entry arrives sealed
 * (`dns-history.ts` seals and opens); the store only keeps and bounds.
 *
 * Two implementations, like `WatchStore`: lowdb (one small file per account and domain order, so
 * a write rewrites one bounded file) and Redis (`redis-dns-history-store.ts`, one list per key).
 */
import path from 'node:path';
import { Low } from 'lowdb';
import { DataFile } from 'lowdb/node';
import { appendBounded, HISTORY_KINDS, type HistoryChange, type HistoryKind } from '../core/dns-history.js';
import { createStoreQueue } from './chat-queue.js';
import { createDirectoryMaker, readdirIfPresent } from './files.js';

/** An entry as stored: its author sealed for `history:<account>`. */
export interface StoredHistoryEntry {
  id: string;
  at: string;
  kind: HistoryKind;
  /** `{chatId, userId, name}` as JSON, sealed. */
  who: string;
  change: HistoryChange;
  undoes?: string;
}

/** Per-account, per-domain-order bounded lists of history entries. */
export interface DnsHistoryStore {
  /** The entries of a domain order, oldest first. */
  list(accountId: string, orderId: number): Promise<StoredHistoryEntry[]>;
  /** Appends an entry and drops the oldest beyond `limit`. */
  append(accountId: string, orderId: number, entry: StoredHistoryEntry, limit: number): Promise<void>;
  /** Every (account, order) with a history (`npm run admin`). */
  keys(): Promise<{ accountId: string; orderId: number }[]>;
  /** Sets a history to exactly these entries (`npm run admin`: copies and re-sealing). */
  replace(accountId: string, orderId: number, entries: StoredHistoryEntry[]): Promise<void>;
  close(): Promise<void>;
}

const ACCOUNT_ID = /^[A-Za-z0-9_-]{1,64}$/;

export function assertHistoryKey(accountId: string, orderId: number): void {
  if (!ACCOUNT_ID.test(accountId)) throw new TypeError('an account id is a short base64url name');
  if (!Number.isSafeInteger(orderId) || orderId < 0) throw new TypeError('an order id is a whole number');
}

const isKind = (value: unknown): value is HistoryKind =>
  typeof value === 'string' && (HISTORY_KINDS as readonly string[]).includes(value);

/** A stored entry, shallowly checked; undefined for anything else (a damaged line is skipped). */
export function readStoredEntry(value: unknown): StoredHistoryEntry | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const e = value as Record<string, unknown>;
  const change = e.change as Record<string, unknown> | null | undefined;
  const changeOk =
    typeof change === 'object' &&
    change !== null &&
    (Array.isArray(change.records) ||
      (typeof change.nameServers === 'object' && change.nameServers !== null));
  if (
    typeof e.id !== 'string' ||
    typeof e.at !== 'string' ||
    !isKind(e.kind) ||
    typeof e.who !== 'string' ||
    !changeOk ||
    (e.undoes !== undefined && typeof e.undoes !== 'string')
  ) {
    return undefined;
  }
  return value as StoredHistoryEntry;
}

/** `DnsHistoryStore` on lowdb: `<dataDir>/dns-history/<account>.<orderId>.json`, atomic writes. */
export function createLowdbDnsHistoryStore(options: { dataDir: string }): DnsHistoryStore {
  const dir = path.join(options.dataDir, 'dns-history');
  const queue = createStoreQueue<string>();
  const ensureDirectory = createDirectoryMaker();

  const open = (accountId: string, orderId: number) => {
    assertHistoryKey(accountId, orderId);
    const file = path.join(dir, `${accountId}.${orderId}.json`);
    const adapter = new DataFile<StoredHistoryEntry[]>(file, {
      parse: (text) => {
        const value: unknown = JSON.parse(text);
        return Array.isArray(value)
          ? value.flatMap((item) => {
              const entry = readStoredEntry(item);
              return entry ? [entry] : [];
            })
          : [];
      },
      stringify: (entries) => `${JSON.stringify(entries)}\n`,
    });
    return { key: file, db: new Low<StoredHistoryEntry[]>(adapter, []) };
  };

  return {
    list(accountId, orderId) {
      const { key, db } = open(accountId, orderId);
      return queue.run(key, async () => {
        await db.read();
        return structuredClone(db.data);
      });
    },
    append(accountId, orderId, entry, limit) {
      const { key, db } = open(accountId, orderId);
      return queue.run(key, async () => {
        await db.read();
        db.data = appendBounded(db.data, structuredClone(entry), limit);
        await ensureDirectory(dir);
        await db.write();
      });
    },
    async keys() {
      return (await readdirIfPresent(dir)).flatMap((name) => {
        const match = /^([A-Za-z0-9_-]{1,64})\.(\d+)\.json$/.exec(name);
        return match ? [{ accountId: match[1] ?? '', orderId: Number(match[2]) }] : [];
      });
    },
    replace(accountId, orderId, entries) {
      const { key, db } = open(accountId, orderId);
      return queue.run(key, async () => {
        db.data = structuredClone(entries);
        await ensureDirectory(dir);
        await db.write();
      });
    },
    close: () => queue.close(),
  };
}
