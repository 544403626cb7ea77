/**
 * What makes a request once-only across retries and instances (the Mini App's Apply, its order
 * form's submit): a key is claimed while its work runs — the in-flight guard — and its outcome
 * kept a while after, so a repeat, on this instance or another, joins it instead of doing the
 * work again. Two implementations, like every store (`stores.ts` picks one): lowdb for one process
 * (the claims in its memory, the outcomes in `<dataDir>/once-keys.json`), and Redis for several
 * (`redis-once-keys.ts`: `SET NX PX` for a claim, one key per outcome), as the chat's update
 * dedupe is kept.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Low } from 'lowdb';
import { DataFile } from 'lowdb/node';
import { createStoreQueue } from './chat-queue.js';
import { createDirectoryMaker } from './files.js';

/** Where a key stands when it is claimed. */
export type OnceClaim =
  /** Ours now: do the work, then `settle` or `release` with this token. */
  | { state: 'claimed'; token: string }
  /** Done before: its stored outcome (JSON). */
  | { state: 'done'; outcome: unknown }
  /** Claimed by someone else (this instance or another) whose work is running. */
  | { state: 'busy' };

/** Claims and outcomes of once-only keys, shared by every instance on the same backend. */
export interface OnceKeys {
  /** Claims `key` for `ttlMs` (a claimer that dies lets it lapse), unless done or claimed. */
  claim(key: string, ttlMs: number): Promise<OnceClaim>;
  /** Keeps a claim still ours alive for `ttlMs` more. */
  extend(key: string, token: string, ttlMs: number): Promise<void>;
  /** Stores the work's outcome (JSON) for `keepMs` and drops the claim. */
  settle(key: string, token: string, outcome: unknown, keepMs: number): Promise<void>;
  /** Drops the claim without an outcome: the key may be tried again. */
  release(key: string, token: string): Promise<void>;
  close(): Promise<void>;
}

/** A claim's token: tells the claimer's own claim from a later one after it lapsed. */
export function newClaimToken(): string {
  return randomBytes(12).toString('base64url');
}

/** Outcomes kept at most in one process's file; the oldest go first. */
const MAX_KEPT = 2_000;

interface KeptOutcome {
  until: number;
  outcome: unknown;
}

/**
 * Once-only keys of one process. The claims live in memory: the data dir lock lets one process
 * use DATA_DIR, and a claim must die with the process that made it. The outcomes go to
 * `<dataDir>/once-keys.json` when a `dataDir` is given (so a retry after a restart still finds
 * them), else stay in memory too (tests, and services built without storage).
 */
export function createLowdbOnceKeys(options: { dataDir?: string; now?: () => number } = {}): OnceKeys {
  const now = options.now ?? Date.now;
  const claims = new Map<string, { token: string; until: number }>();
  const queue = createStoreQueue<string>();
  const ensureDirectory = createDirectoryMaker();
  const file = options.dataDir === undefined ? undefined : path.join(options.dataDir, 'once-keys.json');
  const db = new Low<Record<string, KeptOutcome>>(
    file === undefined
      ? { read: async () => null, write: async () => undefined }
      : new DataFile<Record<string, KeptOutcome>>(file, {
          parse: (text) => {
            const value: unknown = JSON.parse(text);
            return typeof value === 'object' && value !== null && !Array.isArray(value)
              ? (value as Record<string, KeptOutcome>)
              : {};
          },
          stringify: (data) => `${JSON.stringify(data)}\n`,
        }),
    {},
  );
  let loaded = false;
  /** Every call goes through one queue entry: a claim and a settle never interleave. */
  const locked = <T>(task: () => Promise<T>) =>
    queue.run('once', async () => {
      if (!loaded) {
        await db.read();
        loaded = true;
      }
      return task();
    });
  const liveOutcome = (key: string): KeptOutcome | undefined => {
    const kept = db.data[key];
    return kept !== undefined && kept.until > now() ? kept : undefined;
  };

  return {
    claim: (key, ttlMs) =>
      locked(async () => {
        const kept = liveOutcome(key);
        if (kept) return { state: 'done', outcome: structuredClone(kept.outcome) };
        const held = claims.get(key);
        if (held && held.until > now()) return { state: 'busy' };
        const token = newClaimToken();
        claims.set(key, { token, until: now() + ttlMs });
        return { state: 'claimed', token };
      }),
    extend: (key, token, ttlMs) =>
      locked(async () => {
        const held = claims.get(key);
        if (held?.token === token) held.until = now() + ttlMs;
      }),
    settle: (key, token, outcome, keepMs) =>
      locked(async () => {
        if (claims.get(key)?.token === token) claims.delete(key);
        const at = now();
        const fresh = Object.entries(db.data).filter(([k, kept]) => k !== key && kept.until > at);
        db.data = Object.fromEntries([
          ...fresh.slice(-(MAX_KEPT - 1)),
          [key, { until: at + keepMs, outcome: structuredClone(outcome) }],
        ]);
        if (file !== undefined) await ensureDirectory(path.dirname(file));
        await db.write();
      }),
    release: (key, token) =>
      locked(async () => {
        if (claims.get(key)?.token === token) claims.delete(key);
      }),
    close: () => queue.close(),
  };
}
