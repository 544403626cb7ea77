/**
 * The operator's commands over the bot's stores: copy everything to the other backend, re-seal
 * with the current key, back up and restore, count. Each works record by record, so an
 * interrupted run leaves every record either as it was or complete, and running it again
 * finishes the job.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { accountNumbers } from '../storage/chat-data/accounts.js';
import { parseChatDoc } from '../storage/chat-doc.js';
import type { Keyring } from '../storage/crypto.js';
import { readStoredEntry } from '../storage/dns-history-store.js';
import { readStoredKey } from '../storage/robot-key-store.js';
import type { Stores } from '../storage/stores.js';
import { parseWatchDoc } from '../storage/watch-store.js';
import {
  isEmpty,
  keysNeeded,
  RECORD_KINDS,
  type RecordKind,
  readRecords,
  resealed,
  type StoredRecord,
  writeRecord,
} from './records.js';

export type Counts = Record<RecordKind, { read: number; written: number; unchanged: number }>;

const emptyCounts = (): Counts => ({
  chat: { read: 0, written: 0, unchanged: 0 },
  watch: { read: 0, written: 0, unchanged: 0 },
  history: { read: 0, written: 0, unchanged: 0 },
  robotKey: { read: 0, written: 0, unchanged: 0 },
});

/** Copies every record, still sealed; a record the target already holds is left as it is. */
export async function migrate(from: Stores, to: Stores): Promise<{ counts: Counts; keyIds: string[] }> {
  const counts = emptyCounts();
  const keyIds = new Set<string>();
  for await (const record of readRecords(from)) {
    const count = counts[record.kind];
    count.read += 1;
    for (const id of keysNeeded(record)) keyIds.add(id);
    if (await writeRecord(to, record)) count.written += 1;
    else count.unchanged += 1;
  }
  return { counts, keyIds: [...keyIds] };
}

/** Re-seals with the current key whatever an older key sealed; then counts what still needs one. */
export async function rotateKeys(
  stores: Stores,
  keyring: Keyring,
): Promise<{ resealed: Counts; stillOld: number; keyIds: string[] }> {
  const counts = emptyCounts();
  for await (const record of readRecords(stores)) {
    counts[record.kind].read += 1;
    const next = resealed(record, keyring);
    if (next !== undefined && (await writeRecord(stores, next))) counts[record.kind].written += 1;
    else counts[record.kind].unchanged += 1;
  }
  let stillOld = 0;
  const keyIds = new Set<string>();
  for await (const record of readRecords(stores)) {
    const ids = keysNeeded(record);
    for (const id of ids) keyIds.add(id);
    if (ids.some((id) => id !== keyring.currentKeyId)) stillOld += 1;
  }
  return { resealed: counts, stillOld, keyIds: [...keyIds] };
}

export const BACKUP_FORMAT = 'partner-bot-backup';
const BACKUP_VERSION = 1;

interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
}

/**
 * Writes every record as JSON lines after a header, sealed as stored (never a key), to a temporary
 * file renamed into place at the end: a backup file is complete or absent. The last line counts
 * the records and names the key ids a restore will need.
 */
export async function backup(stores: Stores, file: string): Promise<{ counts: Counts; keyIds: string[] }> {
  const counts = emptyCounts();
  const keyIds = new Set<string>();
  const temporary = `${file}.${randomUUID()}.partial`;
  const handle = await open(temporary, 'wx', 0o600);
  try {
    const header: BackupHeader = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      createdAt: new Date().toISOString(),
    };
    await handle.write(`${JSON.stringify(header)}\n`);
    for await (const record of readRecords(stores)) {
      counts[record.kind].read += 1;
      counts[record.kind].written += 1;
      for (const id of keysNeeded(record)) keyIds.add(id);
      await handle.write(`${JSON.stringify(record)}\n`);
    }
    await handle.write(`${JSON.stringify({ end: true, counts, keyIds: [...keyIds] })}\n`);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  await rename(temporary, file);
  return { counts, keyIds: [...keyIds] };
}

export class AdminError extends Error {
  override name = 'AdminError';
}

/** Restores a backup into the stores; refuses stores that hold anything unless `force`. */
export async function restore(
  stores: Stores,
  file: string,
  options: { force: boolean },
): Promise<{ counts: Counts; keyIds: string[] }> {
  if (!options.force && !(await isEmpty(stores))) {
    throw new AdminError(
      'the target store is not empty; restore into an empty store, or add --force to write over what it holds',
    );
  }
  const counts = emptyCounts();
  let header: BackupHeader | undefined;
  let end: { counts?: Partial<Counts>; keyIds: string[] } | undefined;
  const lines = createInterface({
    input: createReadStream(file, 'utf8'),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber += 1;
    if (line.trim() === '') continue;
    const value: unknown = JSON.parse(line);
    if (header === undefined) {
      header = readHeader(value);
      continue;
    }
    if (isEnd(value)) {
      end = value;
      continue;
    }
    const record = readRecord(value, lineNumber);
    counts[record.kind].read += 1;
    if (await writeRecord(stores, record)) counts[record.kind].written += 1;
    else counts[record.kind].unchanged += 1;
  }
  if (end === undefined)
    throw new AdminError(`${file} is cut short: its last line is missing (an unfinished backup?)`);
  for (const kind of RECORD_KINDS) {
    const said = end.counts?.[kind]?.written;
    if (said !== counts[kind].read) {
      throw new AdminError(
        `${file} says it holds ${String(said)} ${kind} records, but ${counts[kind].read} were read`,
      );
    }
  }
  return { counts, keyIds: end.keyIds };
}

function readHeader(value: unknown): BackupHeader {
  if (
    typeof value !== 'object' ||
    value === null ||
    !('format' in value) ||
    value.format !== BACKUP_FORMAT ||
    !('version' in value) ||
    value.version !== BACKUP_VERSION
  ) {
    throw new AdminError('not a partner-bot backup (or a version this tool does not read)');
  }
  return {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    createdAt: 'createdAt' in value ? String(value.createdAt) : '',
  };
}

/** The last line: the counts a restore checks against (read defensively: the file is input). */
function isEnd(value: unknown): value is { end: true; counts?: Partial<Counts>; keyIds: string[] } {
  return typeof value === 'object' && value !== null && 'end' in value && value.end === true;
}

/**
 * A backup line as a record, checked by the stores' own readers (a chat document, a watch, history
 * entries): a backup is input from outside, like a file on disk.
 */
function readRecord(value: unknown, line: number): StoredRecord {
  const where = `backup line ${line}`;
  if (typeof value === 'object' && value !== null && 'kind' in value) {
    if (
      value.kind === 'chat' &&
      'id' in value &&
      typeof value.id === 'number' &&
      Number.isSafeInteger(value.id) &&
      'doc' in value
    ) {
      return { kind: 'chat', id: value.id, doc: parseChatDoc(JSON.stringify(value.doc), where) };
    }
    if (value.kind === 'watch' && 'id' in value && typeof value.id === 'string' && 'doc' in value) {
      return { kind: 'watch', id: value.id, doc: parseWatchDoc(JSON.stringify(value.doc), where) };
    }
    if (
      value.kind === 'history' &&
      'accountId' in value &&
      typeof value.accountId === 'string' &&
      'orderId' in value &&
      typeof value.orderId === 'number' &&
      'entries' in value &&
      Array.isArray(value.entries)
    ) {
      const entries = value.entries.map((entry: unknown) => {
        const read = readStoredEntry(entry);
        if (read === undefined) throw new AdminError(`${where}: a DNS history entry this tool does not read`);
        return read;
      });
      return { kind: 'history', accountId: value.accountId, orderId: value.orderId, entries };
    }
    if (value.kind === 'robotKey' && 'key' in value) {
      const key = readStoredKey(value.key);
      if (key === undefined) throw new AdminError(`${where}: a robot's key this tool does not read`);
      return { kind: 'robotKey', id: key.id, key };
    }
  }
  throw new AdminError(`${where} is not a record this tool knows`);
}

export interface Stats {
  chats: number;
  /** Accounts of private chats (a bound group's copy of its owner's token is counted in `groups`). */
  partnerAccounts: number;
  /** Private chats holding more than one account. */
  severalAccounts: number;
  groups: number;
  watches: number;
  historyEntries: number;
  robotKeys: number;
}

/** Counts only: nothing personal. */
export async function stats(stores: Stores): Promise<Stats> {
  const result: Stats = {
    chats: 0,
    partnerAccounts: 0,
    severalAccounts: 0,
    groups: 0,
    watches: 0,
    historyEntries: 0,
    robotKeys: 0,
  };
  for await (const record of readRecords(stores)) {
    if (record.kind === 'chat') {
      result.chats += 1;
      const accounts = accountNumbers(record.doc).length;
      if (record.doc.team !== undefined) result.groups += 1;
      else {
        result.partnerAccounts += accounts;
        if (accounts > 1) result.severalAccounts += 1;
      }
    } else if (record.kind === 'watch') {
      result.watches += 1;
    } else if (record.kind === 'history') {
      result.historyEntries += record.entries.length;
    } else {
      result.robotKeys += 1;
    }
  }
  return result;
}
