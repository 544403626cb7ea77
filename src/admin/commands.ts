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
import type { Keyring } from '../storage/crypto.js';
import type { Stores } from '../storage/stores.js';
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

const emptyCounts = (): Counts =>
  Object.fromEntries(RECORD_KINDS.map((kind) => [kind, { read: 0, written: 0, unchanged: 0 }])) as Counts;

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
  let end: { counts: Counts; keyIds: string[] } | undefined;
  const lines = createInterface({
    input: createReadStream(file, 'utf8'),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  for await (const line of lines) {
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
    const record = readRecord(value);
    counts[record.kind].read += 1;
    if (await writeRecord(stores, record)) counts[record.kind].written += 1;
    else counts[record.kind].unchanged += 1;
  }
  if (end === undefined)
    throw new AdminError(`${file} is cut short: its last line is missing (an unfinished backup?)`);
  for (const kind of RECORD_KINDS) {
    if (end.counts[kind].written !== counts[kind].read) {
      throw new AdminError(
        `${file} says it holds ${end.counts[kind].written} ${kind} records, but ${counts[kind].read} were read`,
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

function isEnd(value: unknown): value is { end: true; counts: Counts; keyIds: string[] } {
  return typeof value === 'object' && value !== null && 'end' in value && value.end === true;
}

function readRecord(value: unknown): StoredRecord {
  if (typeof value === 'object' && value !== null && 'kind' in value) {
    if (value.kind === 'chat' && 'id' in value && Number.isSafeInteger(value.id) && 'doc' in value) {
      return value as StoredRecord;
    }
    if (value.kind === 'watch' && 'id' in value && typeof value.id === 'string' && 'doc' in value) {
      return value as StoredRecord;
    }
    if (value.kind === 'history' && 'accountId' in value && 'orderId' in value && 'entries' in value) {
      return value as StoredRecord;
    }
  }
  throw new AdminError('a line of the backup is not a record this tool knows');
}

export interface Stats {
  chats: number;
  connectedTokens: number;
  groups: number;
  watches: number;
  historyEntries: number;
}

/** Counts only: nothing personal. */
export async function stats(stores: Stores): Promise<Stats> {
  const result: Stats = { chats: 0, connectedTokens: 0, groups: 0, watches: 0, historyEntries: 0 };
  for await (const record of readRecords(stores)) {
    if (record.kind === 'chat') {
      result.chats += 1;
      if (record.doc.token !== undefined) result.connectedTokens += 1;
      if (record.doc.team !== undefined) result.groups += 1;
    } else if (record.kind === 'watch') {
      result.watches += 1;
    } else {
      result.historyEntries += record.entries.length;
    }
  }
  return result;
}
