/**
 * Where robots' keys live (see `core/robot-keys.ts`): by their public id, with each chat's ids
 * beside them for its list. A key's secret is never here, only its SHA-256; what names a person
 * (the key's name, who made it, its last use and the address it came from) arrives sealed
 * (`robot-keys.ts` seals and opens). Two implementations, like every store: lowdb (one file,
 * `<dataDir>/robot-keys.json`) and Redis (`redis-robot-key-store.ts`, one string per key and one
 * set per chat).
 */
import path from 'node:path';
import { Low } from 'lowdb';
import { DataFile } from 'lowdb/node';
import { isKeyId, KEY_KINDS, type KeyKind } from '../core/robot-keys.js';
import { createStoreQueue } from './chat-queue.js';
import { createDirectoryMaker } from './files.js';

/** A key as stored. */
export interface StoredRobotKey {
  id: string;
  chatId: number;
  /** The chat's account the key acts for (chat-data/accounts.ts); absent: made before accounts, account 1. */
  account?: number | undefined;
  kind: KeyKind;
  /** ASCII, lower-case: the host (address) or the domain (certificate). */
  scope: string;
  /** The domain order whose zone holds the scope, and its domain (ASCII). */
  orderId: number;
  domain: string;
  /** CIDR networks requests must come from; empty = anywhere. */
  networks: string[];
  /** SHA-256 of the secret, hex. */
  hash: string;
  createdAt: string;
  /** `{name, createdBy}` as JSON, sealed for `robotkey:<id>`. */
  sealed: string;
  /** The last use `{at, from, what}` as JSON, sealed for `robotkey:<id>`. */
  lastUse?: string | undefined;
  /** acme-dns: the name (relative to the zone) whose TXT its `/update` writes. */
  acmeDnsHost?: string | undefined;
}

/** Robots' keys by id, and each chat's ids. */
export interface RobotKeyStore {
  get(id: string): Promise<StoredRobotKey | undefined>;
  /** Writes a key (new, rotated, its last use): the whole record. */
  put(key: StoredRobotKey): Promise<void>;
  /** Deletes a key; true when there was one. */
  remove(id: string): Promise<boolean>;
  /** The chat's keys, oldest first. */
  listOf(chatId: number): Promise<StoredRobotKey[]>;
  /** Every key (`npm run admin`). */
  all(): Promise<StoredRobotKey[]>;
  close(): Promise<void>;
}

const isKind = (value: unknown): value is KeyKind =>
  typeof value === 'string' && (KEY_KINDS as readonly string[]).includes(value);

/** A stored key, shallowly checked; undefined for anything else (a damaged record is skipped). */
export function readStoredKey(value: unknown): StoredRobotKey | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const k = value as Record<string, unknown>;
  const ok =
    typeof k.id === 'string' &&
    isKeyId(k.id) &&
    typeof k.chatId === 'number' &&
    (k.account === undefined || (typeof k.account === 'number' && Number.isSafeInteger(k.account))) &&
    isKind(k.kind) &&
    typeof k.scope === 'string' &&
    typeof k.orderId === 'number' &&
    typeof k.domain === 'string' &&
    Array.isArray(k.networks) &&
    k.networks.every((n) => typeof n === 'string') &&
    typeof k.hash === 'string' &&
    typeof k.createdAt === 'string' &&
    typeof k.sealed === 'string' &&
    (k.lastUse === undefined || typeof k.lastUse === 'string') &&
    (k.acmeDnsHost === undefined || typeof k.acmeDnsHost === 'string');
  return ok ? (value as StoredRobotKey) : undefined;
}

const byCreation = (a: StoredRobotKey, b: StoredRobotKey) => a.createdAt.localeCompare(b.createdAt);

/** `RobotKeyStore` on lowdb: `<dataDir>/robot-keys.json`; in memory without a dataDir. */
export function createLowdbRobotKeyStore(options: { dataDir?: string } = {}): RobotKeyStore {
  const queue = createStoreQueue<string>();
  const ensureDirectory = createDirectoryMaker();
  const dir = options.dataDir;
  const file = dir === undefined ? undefined : path.join(dir, 'robot-keys.json');
  const memory: { keys: Record<string, StoredRobotKey> } = { keys: {} };
  const db =
    file === undefined
      ? undefined
      : new Low<{ keys: Record<string, StoredRobotKey> }>(
          new DataFile(file, {
            parse: (text) => {
              const value = JSON.parse(text) as { keys?: Record<string, unknown> };
              const keys: Record<string, StoredRobotKey> = {};
              for (const [id, item] of Object.entries(value.keys ?? {})) {
                const key = readStoredKey(item);
                if (key && key.id === id) keys[id] = key;
              }
              return { keys };
            },
            stringify: (data) => `${JSON.stringify(data)}\n`,
          }),
          { keys: {} },
        );
  // Read once, then kept: the data dir lock gives the file one process, and every gateway request
  // looks a key up (re-reading and parsing the whole file each time cost milliseconds at 1,000 keys).
  let loaded = false;
  const read = async () => {
    if (!db) return memory;
    if (!loaded) {
      await db.read();
      loaded = true;
    }
    return db.data;
  };
  const write = async () => {
    if (!db || dir === undefined) return;
    await ensureDirectory(dir);
    await db.write();
  };
  // One file: every operation waits in one line, so a read-modify-write never interleaves.
  const run = <T>(task: () => Promise<T>) => queue.run('keys', task);

  return {
    get: (id) => run(async () => structuredClone((await read()).keys[id])),
    put: (key) =>
      run(async () => {
        (await read()).keys[key.id] = structuredClone(key);
        await write();
      }),
    remove: (id) =>
      run(async () => {
        const data = await read();
        if (!(id in data.keys)) return false;
        delete data.keys[id];
        await write();
        return true;
      }),
    listOf: (chatId) =>
      run(async () =>
        structuredClone(Object.values((await read()).keys).filter((key) => key.chatId === chatId)).sort(
          byCreation,
        ),
      ),
    all: () => run(async () => structuredClone(Object.values((await read()).keys)).sort(byCreation)),
    close: () => queue.close(),
  };
}
