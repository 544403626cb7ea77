/**
 * The robots' gateway's short-lived state: counters for its limits, once-per-window claims (the
 * folded messages to the chat), the addresses it last saw per host (the `nochg` cache, dropped
 * whenever the zone changes), and the ACME challenge values waiting for their cleanup. On Redis
 * every instance sees the same state; on lowdb (one process) the counters, claims and cache live
 * in memory and only the waiting challenges are kept in a file, so a restart forgets nothing that
 * must be undone.
 *
 * Two implementations, like every store (`stores.ts` picks one): `createLowdbGatewayState` here
 * and `createRedisGatewayState` (`redis-gateway-state.ts`). Buckets and cache keys are the
 * caller's opaque strings (they may carry a key id): neither is ever logged or put in an error.
 */
import path from 'node:path';
import { Low } from 'lowdb';
import { DataFile } from 'lowdb/node';
import { createStoreQueue } from './chat-queue.js';
import { assertHistoryKey } from './dns-history-store.js';
import { createDirectoryMaker } from './files.js';

/** An ACME challenge value a robot presented, to be deleted if no cleanup comes. */
export interface PendingChallenge {
  /** The key that presented it. */
  keyId: string;
  /** The chat the key belongs to. */
  chatId: number;
  orderId: number;
  /** The record's host relative to the zone (`_acme-challenge`, `_acme-challenge.shop`). */
  host: string;
  value: string;
  /** Epoch ms after which it is deleted by the sweep. */
  dueAt: number;
}

/** The gateway's limits, claims, `nochg` cache and waiting ACME challenges. */
export interface GatewayState {
  /**
   * Counts one hit in `bucket`'s current window of `windowMs` (a fixed window starting at its
   * first hit) and returns the count so far, this hit included.
   */
  hit(bucket: string, windowMs: number): Promise<number>;
  /**
   * Claims `bucket` for `ttlMs`: true the first time, false while that claim lives, true again
   * once it lapsed (so something is done at most once per `ttlMs`).
   */
  claim(bucket: string, ttlMs: number): Promise<boolean>;
  /**
   * The zone's generation: bumped by `zoneChanged`, part of every cache key of the zone, so one
   * bump drops all its cached addresses at once.
   */
  zoneGeneration(accountId: string, orderId: number): Promise<number>;
  /** Every change of a zone (the chat, the app, a key) calls this. */
  zoneChanged(accountId: string, orderId: number): Promise<void>;
  /** The cached value of `key` (the caller puts the generation in the key), if not expired. */
  cached(key: string): Promise<string | undefined>;
  cache(key: string, value: string, ttlMs: number): Promise<void>;
  /** Keeps a presented value until `dueAt` (a second present of the same value moves its time). */
  addChallenge(challenge: PendingChallenge): Promise<void>;
  /** Forgets a value (its cleanup came, or the sweep deleted it). */
  removeChallenge(challenge: Pick<PendingChallenge, 'keyId' | 'host' | 'value'>): Promise<void>;
  /** The values whose time has come (`dueAt <= now`), at most `limit`, oldest first. */
  dueChallenges(now: number, limit: number): Promise<PendingChallenge[]>;
  close(): Promise<void>;
}

/**
 * The zone part of a generation's key: the account id and order id as the DNS history checks
 * them (one shape for both stores), so `a:1` can never be read as another zone's key.
 */
export function zoneKeyOf(accountId: string, orderId: number): string {
  assertHistoryKey(accountId, orderId);
  return `${accountId}:${orderId}`;
}

/** The identity of a waiting challenge: one per key, host and value. */
export function challengeIdOf(challenge: Pick<PendingChallenge, 'keyId' | 'host' | 'value'>): string {
  return JSON.stringify([challenge.keyId, challenge.host, challenge.value]);
}

/** A stored challenge, checked; undefined for anything else (a damaged entry is skipped). */
export function readPendingChallenge(value: unknown): PendingChallenge | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const c = value as Record<string, unknown>;
  if (
    typeof c.keyId !== 'string' ||
    !Number.isSafeInteger(c.chatId) ||
    !Number.isSafeInteger(c.orderId) ||
    typeof c.host !== 'string' ||
    typeof c.value !== 'string' ||
    typeof c.dueAt !== 'number' ||
    !Number.isFinite(c.dueAt)
  ) {
    return undefined;
  }
  const { keyId, chatId, orderId, host, value: text, dueAt } = c as unknown as PendingChallenge;
  return { keyId, chatId, orderId, host, value: text, dueAt };
}

/** Entries one in-memory map keeps before it is pruned: the gateway's memory stays bounded. */
const MAX_ENTRIES = 100_000;

/**
 * A map whose entries lapse at their `until`: a lapsed one is dropped when read, and all lapsed
 * ones when the map passes `MAX_ENTRIES`; if it is still full, the oldest written go first (a
 * forgotten counter or claim only lets a request through that a full one would have stopped).
 */
function createExpiringMap<V>(now: () => number) {
  const entries = new Map<string, { value: V; until: number }>();
  return {
    get(key: string): V | undefined {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      if (entry.until > now()) return entry.value;
      entries.delete(key);
      return undefined;
    },
    set(key: string, value: V, ttlMs: number): void {
      // Re-inserted, so the map's order stays the order of writing for the pruning below.
      entries.delete(key);
      entries.set(key, { value, until: now() + ttlMs });
      if (entries.size <= MAX_ENTRIES) return;
      const at = now();
      for (const [k, entry] of entries) if (entry.until <= at) entries.delete(k);
      for (const k of entries.keys()) {
        if (entries.size <= MAX_ENTRIES * 0.9) break;
        entries.delete(k);
      }
    },
    /** The value written with its `until` kept (a counter's window does not move on a hit). */
    update(key: string, value: V): void {
      const entry = entries.get(key);
      if (entry !== undefined) entry.value = value;
    },
    clear: () => entries.clear(),
  };
}

/**
 * `GatewayState` of one process. Counters, claims, generations and the cache live in memory (the
 * data dir lock lets one process use DATA_DIR; losing them in a restart only resets limits and
 * empties a cache). The waiting challenges go to `<dataDir>/acme-challenges.json` (atomic writes,
 * as every lowdb store), so the sweep still deletes after a restart what it was to delete; without
 * a `dataDir` (tests) they stay in memory too.
 */
export function createLowdbGatewayState(
  options: { dataDir?: string; now?: () => number } = {},
): GatewayState {
  const now = options.now ?? Date.now;
  const hits = createExpiringMap<number>(now);
  const claims = createExpiringMap<true>(now);
  const cached = createExpiringMap<string>(now);
  const generations = new Map<string, number>();
  /** What a zone not in `generations` reads (0 until the map was first emptied). */
  let floor = 0;
  const queue = createStoreQueue<string>();
  const ensureDirectory = createDirectoryMaker();
  const file = options.dataDir === undefined ? undefined : path.join(options.dataDir, 'acme-challenges.json');
  const db = new Low<PendingChallenge[]>(
    file === undefined
      ? { read: async () => null, write: async () => undefined }
      : new DataFile<PendingChallenge[]>(file, {
          parse: (text) => {
            const value: unknown = JSON.parse(text);
            return Array.isArray(value)
              ? value.flatMap((item) => {
                  const challenge = readPendingChallenge(item);
                  return challenge ? [challenge] : [];
                })
              : [];
          },
          stringify: (data) => `${JSON.stringify(data)}\n`,
        }),
    [],
  );
  let loaded = false;
  /** The challenges' file is read once, then every change goes through one queue entry. */
  const locked = <T>(task: () => Promise<T>) =>
    queue.run('challenges', async () => {
      if (!loaded) {
        await db.read();
        loaded = true;
      }
      return task();
    });
  const save = async () => {
    if (file !== undefined) await ensureDirectory(path.dirname(file));
    await db.write();
  };
  const without = (id: string) => db.data.filter((c) => challengeIdOf(c) !== id);

  return {
    async hit(bucket, windowMs) {
      queue.assertOpen();
      const count = (hits.get(bucket) ?? 0) + 1;
      if (count === 1) hits.set(bucket, count, windowMs);
      else hits.update(bucket, count);
      return count;
    },
    async claim(bucket, ttlMs) {
      queue.assertOpen();
      if (claims.get(bucket)) return false;
      claims.set(bucket, true, ttlMs);
      return true;
    },
    async zoneGeneration(accountId, orderId) {
      queue.assertOpen();
      return generations.get(zoneKeyOf(accountId, orderId)) ?? floor;
    },
    async zoneChanged(accountId, orderId) {
      queue.assertOpen();
      const key = zoneKeyOf(accountId, orderId);
      generations.set(key, (generations.get(key) ?? floor) + 1);
      if (generations.size > MAX_ENTRIES) {
        // Forgotten zones read a floor above every generation given so far, so no zone ever
        // reads a generation again that an old cache key may still carry.
        for (const generation of generations.values()) floor = Math.max(floor, generation);
        floor += 1;
        generations.clear();
      }
    },
    async cached(key) {
      queue.assertOpen();
      return cached.get(key);
    },
    async cache(key, value, ttlMs) {
      queue.assertOpen();
      cached.set(key, value, ttlMs);
    },
    addChallenge: (challenge) =>
      locked(async () => {
        const kept = readPendingChallenge(challenge);
        if (kept === undefined) throw new TypeError('not a pending challenge');
        db.data = [...without(challengeIdOf(kept)), kept];
        await save();
      }),
    removeChallenge: (challenge) =>
      locked(async () => {
        const rest = without(challengeIdOf(challenge));
        if (rest.length === db.data.length) return;
        db.data = rest;
        await save();
      }),
    dueChallenges: (at, limit) =>
      locked(async () =>
        db.data
          .filter((c) => c.dueAt <= at)
          .sort((a, b) => a.dueAt - b.dueAt)
          .slice(0, Math.max(0, limit))
          .map((c) => ({ ...c })),
      ),
    close: () => queue.close(),
  };
}
