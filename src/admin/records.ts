/**
 * Everything the bot keeps, as records an operator's tool can copy, back up and re-seal: a chat's
 * document, a token's watch, a domain order's DNS history, a robot's key. Read and written through the stores'
 * own interfaces, still sealed (nothing here needs a key but re-sealing).
 */

import { isPlainObject } from '../storage/chat-doc.js';
import type { ChatDoc } from '../storage/chat-store.js';
import { type Keyring, type SealOwner, sealedKeyId } from '../storage/crypto.js';
import { historySealOwner } from '../storage/dns-history.js';
import type { StoredHistoryEntry } from '../storage/dns-history-store.js';
import type { StoredRobotKey } from '../storage/robot-key-store.js';
import { keySealOwner } from '../storage/robot-keys.js';
import type { Stores } from '../storage/stores.js';
import { watchSealOwner } from '../storage/watch-data.js';
import type { WatchDoc } from '../storage/watch-store.js';

export type StoredRecord =
  | { kind: 'chat'; id: number; doc: ChatDoc }
  | { kind: 'watch'; id: string; doc: WatchDoc }
  | { kind: 'history'; accountId: string; orderId: number; entries: StoredHistoryEntry[] }
  | { kind: 'robotKey'; id: string; key: StoredRobotKey };

export type RecordKind = StoredRecord['kind'];
export const RECORD_KINDS: readonly RecordKind[] = ['chat', 'watch', 'history', 'robotKey'];

/** Every record of the stores, kind by kind. */
export async function* readRecords(stores: Stores): AsyncGenerator<StoredRecord> {
  for (const id of await stores.chats.ids()) {
    const doc = await stores.chats.read(id);
    if (doc !== undefined) yield { kind: 'chat', id, doc };
  }
  for (const id of await stores.watches.ids()) {
    const doc = await stores.watches.read(id);
    if (doc !== undefined) yield { kind: 'watch', id, doc };
  }
  for (const { accountId, orderId } of await stores.dnsHistory.keys()) {
    const entries = await stores.dnsHistory.list(accountId, orderId);
    if (entries.length > 0) yield { kind: 'history', accountId, orderId, entries };
  }
  for (const key of await stores.robotKeys.all()) yield { kind: 'robotKey', id: key.id, key };
}

/** Whether the stores hold nothing at all. */
export async function isEmpty(stores: Stores): Promise<boolean> {
  return (
    (await stores.chats.count()) === 0 &&
    (await stores.watches.ids()).length === 0 &&
    (await stores.dnsHistory.keys()).length === 0 &&
    (await stores.robotKeys.all()).length === 0
  );
}

/** The record as the target holds it now (undefined when it holds none). */
async function current(stores: Stores, record: StoredRecord): Promise<unknown> {
  switch (record.kind) {
    case 'chat':
      return stores.chats.read(record.id);
    case 'watch':
      return stores.watches.read(record.id);
    case 'history': {
      const entries = await stores.dnsHistory.list(record.accountId, record.orderId);
      return entries.length > 0 ? entries : undefined;
    }
    case 'robotKey':
      return stores.robotKeys.get(record.id);
  }
}

/** Writes the record; false when the target already held exactly it (nothing written). */
export async function writeRecord(stores: Stores, record: StoredRecord): Promise<boolean> {
  if (canonical(await current(stores, record)) === canonical(contentOf(record))) return false;
  switch (record.kind) {
    case 'chat':
      await stores.chats.update(record.id, () => structuredClone(record.doc));
      break;
    case 'watch':
      await stores.watches.update(record.id, () => structuredClone(record.doc));
      break;
    case 'history':
      await stores.dnsHistory.replace(record.accountId, record.orderId, record.entries);
      break;
    case 'robotKey':
      await stores.robotKeys.put(record.key);
      break;
  }
  return true;
}

function contentOf(record: StoredRecord): unknown {
  if (record.kind === 'history') return record.entries;
  return record.kind === 'robotKey' ? record.key : record.doc;
}

/** JSON with sorted keys: two documents with the same content compare equal whatever their order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** Whom the record's sealed values belong to (bound into each seal). */
function ownerOf(record: StoredRecord): SealOwner {
  if (record.kind === 'chat') return record.id;
  if (record.kind === 'watch') return watchSealOwner(record.id);
  if (record.kind === 'robotKey') return keySealOwner(record.id);
  return historySealOwner(record.accountId);
}

/** Notes a value, and the values of the maps in it (a chat's sealed accounts). */
function noteAll(value: unknown, note: (value: unknown) => void): void {
  if (isPlainObject(value)) for (const inner of Object.values(value)) noteAll(inner, note);
  else note(value);
}

/** The ids of the keys the record's sealed values need. */
export function keysNeeded(record: StoredRecord): string[] {
  const ids = new Set<string>();
  const note = (value: unknown) => {
    const id = sealedKeyId(value);
    if (id !== undefined) ids.add(id);
  };
  if (record.kind === 'history') for (const entry of record.entries) note(entry.who);
  else if (record.kind === 'robotKey')
    for (const value of [record.key.sealed, record.key.lastUse]) note(value);
  else for (const value of Object.values(record.doc)) noteAll(value, note);
  return [...ids];
}

/**
 * The record with every value sealed by a key other than the current one opened and sealed
 * again with the current key; undefined when nothing needed it. Throws (SealError) when a value
 * needs a key the ring does not have.
 */
export function resealed(record: StoredRecord, keyring: Keyring): StoredRecord | undefined {
  const owner = ownerOf(record);
  let changed = false;
  const reseal = (value: string): string => {
    const id = sealedKeyId(value);
    if (id === undefined || id === keyring.currentKeyId) return value;
    changed = true;
    return keyring.seal(keyring.open(value, owner), owner);
  };
  // A chat's accounts are sealed one by one inside a map (`accounts`): maps are walked too.
  const resealValue = (value: unknown): unknown =>
    typeof value === 'string' ? reseal(value) : isPlainObject(value) ? sealAll(value) : value;
  const sealAll = <T extends object>(doc: T): T =>
    Object.fromEntries(Object.entries(doc).map(([key, value]) => [key, resealValue(value)])) as T;
  const next: StoredRecord =
    record.kind === 'robotKey'
      ? {
          ...record,
          key: {
            ...record.key,
            sealed: reseal(record.key.sealed),
            ...(record.key.lastUse === undefined ? {} : { lastUse: reseal(record.key.lastUse) }),
          },
        }
      : record.kind === 'history'
        ? { ...record, entries: record.entries.map((entry) => ({ ...entry, who: reseal(entry.who) })) }
        : record.kind === 'chat'
          ? { ...record, doc: sealAll(record.doc) }
          : { ...record, doc: sealAll(record.doc) };
  return changed ? next : undefined;
}
