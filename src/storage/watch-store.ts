/**
 * What the watchers keep per connected partner token (a "watch"): the sealed token, the chats it
 * tells, the invoices the bot itself created, and the watchers' own sealed state. Chats are
 * stored per chat (`ChatStore`); a watch is stored per token, under an id derived from the token
 * (`watchIdOf`), so many chats on one token share one poll.
 *
 * Two implementations, like `ChatStore`: lowdb (one small file per watch, one process) and Redis
 * (one key per watch plus a set of ids, compare-and-set updates, several processes).
 */
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { Low } from 'lowdb';
import { DataFile } from 'lowdb/node';
import { createStoreQueue } from './chat-queue.js';
import { createDirectoryMaker, unlinkIfPresent } from './files.js';

/** One watch as stored. Everything personal in it is sealed for `watch:<id>`. */
export interface WatchDoc {
  /** The partner token, sealed. */
  token: string;
  /** Chats told about the token's events, in connecting order. */
  chats: number[];
  /** Invoices the bot created with this token (the latest 500): never announced as "new". */
  createdByBot?: number[];
  /** The watchers' state (snapshot, outbox, backoff), sealed JSON; absent before the first poll. */
  state?: string;
}

/** Per-token documents for the watchers. */
export interface WatchStore {
  read(id: string): Promise<WatchDoc | undefined>;
  /**
   * Read-modify-write of one watch: `change` gets a copy of the current document (undefined when
   * none) and returns the new one, or undefined to delete it. Atomic per watch, across processes
   * on Redis; `change` may run more than once there, so it must not have side effects.
   */
  update(
    id: string,
    change: (doc: WatchDoc | undefined) => WatchDoc | undefined,
  ): Promise<WatchDoc | undefined>;
  /** Ids of every stored watch. */
  ids(): Promise<string[]>;
  close(): Promise<void>;
}

/** The id of a token's watch: a hash, so neither file names nor keys carry the token. */
export function watchIdOf(token: string): string {
  return createHash('sha256').update(`partner-bot watch\n${token}`).digest('base64url').slice(0, 32);
}

const WATCH_ID = /^[A-Za-z0-9_-]{1,64}$/;

function assertWatchId(id: string): void {
  if (!WATCH_ID.test(id)) throw new TypeError('a watch id is a short base64url name');
}

/** A stored watch document, checked; throws on anything else (a damaged record). */
export function parseWatchDoc(text: string, where: string): WatchDoc {
  const value: unknown = JSON.parse(text);
  if (!isWatchDoc(value)) throw new TypeError(`${where} is not a watch document`);
  return value;
}

function isWatchDoc(value: unknown): value is WatchDoc {
  if (typeof value !== 'object' || value === null) return false;
  const doc = value as Record<string, unknown>;
  const ints = (list: unknown) => Array.isArray(list) && list.every((n) => Number.isSafeInteger(n));
  return (
    typeof doc.token === 'string' &&
    ints(doc.chats) &&
    (doc.createdByBot === undefined || ints(doc.createdByBot)) &&
    (doc.state === undefined || typeof doc.state === 'string')
  );
}

function copyOf(doc: WatchDoc | undefined): WatchDoc | undefined {
  return doc === undefined ? undefined : structuredClone(doc);
}

/** `WatchStore` on lowdb: `<dataDir>/watches/<id>.json`, written atomically (temp file + rename). */
export function createLowdbWatchStore(options: { dataDir: string }): WatchStore {
  const dir = path.join(options.dataDir, 'watches');
  const queue = createStoreQueue<string>();
  const ensureDirectory = createDirectoryMaker();

  const open = (id: string) => {
    assertWatchId(id);
    const file = path.join(dir, `${id}.json`);
    const adapter = new DataFile<WatchDoc | null>(file, {
      parse: (text) => parseWatchDoc(text, file),
      stringify: (doc) => `${JSON.stringify(doc)}\n`,
    });
    // lowdb wants default data; `null` stands for "no file yet".
    return { file, db: new Low<WatchDoc | null>(adapter, null) };
  };

  return {
    read(id) {
      return queue.run(id, async () => {
        const { db } = open(id);
        await db.read();
        return copyOf(db.data ?? undefined);
      });
    },
    update(id, change) {
      return queue.run(id, async () => {
        const { db, file } = open(id);
        await db.read();
        const current = db.data ?? undefined;
        const next = change(copyOf(current));
        if (JSON.stringify(next) === JSON.stringify(current)) return copyOf(next);
        if (next === undefined) {
          await unlinkIfPresent(file);
          return undefined;
        }
        await ensureDirectory(dir);
        db.data = next;
        await db.write();
        return copyOf(next);
      });
    },
    async ids() {
      const names = await readdir(dir).catch(() => []);
      return names.filter((name) => name.endsWith('.json')).map((name) => name.slice(0, -'.json'.length));
    },
    close: () => queue.close(),
  };
}
