import { comparableValue } from './dns-fields.js';
import type { ListedRecord } from './dns-plan.js';
import { type DnsRecordData, sameRecord } from './dns-records.js';

/*
 * The history of DNS and name-server changes made through the bot, and their undo. An entry says
 * what one change did (a group of record adds and deletes, or name servers before → after); the
 * undo is computed against the records as they are now, and refused whenever it would touch
 * anything but what the entry changed (octoDNS-style: plan first, apply only the plan).
 */

/** What made a change; the history screen names it. */
export const HISTORY_KINDS = [
  'add',
  'delete',
  'change',
  'import',
  'ns',
  'preset',
  'bulk',
  'undo',
  'auto',
] as const;
export type HistoryKind = (typeof HISTORY_KINDS)[number];

/** How many entries are kept per domain order; older ones are dropped. */
export const HISTORY_LIMIT = 100;

/** One record added or deleted, as the record model has it. */
export interface RecordChange {
  op: 'add' | 'delete';
  record: DnsRecordData;
}

/** A name server as the provider lists and takes it. */
export interface NameServerEntry {
  ns: string;
  ip?: string | undefined;
}

/** What a change did: records added and deleted together, or the name servers replaced. */
export type HistoryChange =
  | { records: RecordChange[] }
  | { nameServers: { before: NameServerEntry[]; after: NameServerEntry[] } };

/** Who made a change (personal data: sealed at rest). */
export interface HistoryAuthor {
  chatId: number;
  userId: number;
  name: string;
  /** A change a robot made with a key (`auto`): the key's name; `name` is who made the key. */
  key?: string | undefined;
  /**
   * The chat's account the change was made on, when it is not the one the chat's task acts on
   * (a robot's key, the Mini App): its token's history gets the entry.
   */
  account?: number | undefined;
}

/** One change of one domain order, as recorded after the provider accepted it. */
export interface HistoryEntry {
  /** Short base64url id, for the Undo button. */
  id: string;
  /** ISO time of the change. */
  at: string;
  who: HistoryAuthor;
  kind: HistoryKind;
  change: HistoryChange;
  /** For an undo: the entry it reversed. */
  undoes?: string | undefined;
}

/** What the undo will do: records to delete (by their current ids) and to add, or name servers to set. */
export type UndoPlan =
  | { type: 'records'; remove: ListedRecord[]; add: DnsRecordData[] }
  /** `servers` empty: the name servers are deleted, as they were before. */
  | { type: 'nameServers'; servers: NameServerEntry[] };

/**
 * Why an undo is refused:
 * - `gone`: an added record is no longer there as it was added (deleted or changed since);
 * - `ambiguous`: several records match an added one, so deleting "it" could delete another;
 * - `present`: a deleted record is there again (nothing to re-add, or someone re-added it);
 * - `nsChanged`: the name servers are not those the change set;
 * - `empty`: the entry changed nothing.
 */
export type UndoRefusal = 'gone' | 'ambiguous' | 'present' | 'nsChanged' | 'empty';

export type UndoResult =
  | { ok: true; plan: UndoPlan; change: HistoryChange }
  | { ok: false; reason: UndoRefusal; record?: DnsRecordData | undefined };

/** One name server reduced for comparison: the name as DNS compares it, the address as given. */
const serverKey = (server: NameServerEntry) =>
  `${comparableValue('name', server.ns)}=${(server.ip ?? '').toLowerCase()}`;

/** Whether two name server lists are the same set (order and the name's case aside). */
export function sameNameServers(a: readonly NameServerEntry[], b: readonly NameServerEntry[]): boolean {
  const left = a.map(serverKey).sort();
  const right = b.map(serverKey).sort();
  return left.length === right.length && left.every((key, i) => key === right[i]);
}

/**
 * The reverse of a recorded change against what is there now. Records: every added record must
 * be there exactly as many times as the change added it, and is deleted by the id it has now (the
 * add call returned none); every deleted record must be absent, and is added back with the same
 * content. Name servers: the current ones must be the change's "after"; the "before" come back.
 * Anything else is refused, so an undo never touches a record the change did not make.
 */
export function planUndo(
  change: HistoryChange,
  now: { records?: readonly ListedRecord[]; nameServers?: readonly NameServerEntry[] },
): UndoResult {
  if ('nameServers' in change) {
    const { before, after } = change.nameServers;
    if (!sameNameServers(now.nameServers ?? [], after)) return { ok: false, reason: 'nsChanged' };
    return {
      ok: true,
      plan: { type: 'nameServers', servers: before.map((s) => ({ ...s })) },
      change: { nameServers: { before: after.map((s) => ({ ...s })), after: before.map((s) => ({ ...s })) } },
    };
  }
  const records = now.records ?? [];
  if (change.records.length === 0) return { ok: false, reason: 'empty' };
  const remove: ListedRecord[] = [];
  const add: DnsRecordData[] = [];
  const claimed = new Set<number>();
  for (const { op, record } of change.records) {
    const matches = records.filter((r) => sameRecord(r.record, record));
    if (op === 'delete') {
      if (matches.length > 0) return { ok: false, reason: 'present', record };
      // The same record deleted twice by one change comes back twice.
      add.push(record);
      continue;
    }
    const copies = change.records.filter((c) => c.op === 'add' && sameRecord(c.record, record)).length;
    if (matches.length === 0) return { ok: false, reason: 'gone', record };
    if (matches.length !== copies) return { ok: false, reason: 'ambiguous', record };
    const next = matches.find((m) => !claimed.has(m.id));
    if (next === undefined) return { ok: false, reason: 'ambiguous', record };
    claimed.add(next.id);
    remove.push(next);
  }
  return {
    ok: true,
    plan: { type: 'records', remove, add },
    change: {
      records: [
        ...remove.map((r): RecordChange => ({ op: 'delete', record: r.record })),
        ...add.map((record): RecordChange => ({ op: 'add', record })),
      ],
    },
  };
}

/** Why an entry of the history cannot be undone now, as the history screen and the undo say it. */
export type UndoBlock = UndoRefusal | 'alreadyUndone';

/**
 * Whether `entry` can be undone cleanly against what stands now: undefined when it can, else why
 * not — an undo of it is already in `entries` (the domain's history), or its plan is refused.
 * The history screen offers «↩ Отменить» only where this is undefined; the undo itself plans
 * again when tapped (the zone may change meanwhile).
 */
export function undoBlockOf(
  entries: readonly HistoryEntry[],
  entry: HistoryEntry,
  now: { records?: readonly ListedRecord[]; nameServers?: readonly NameServerEntry[] },
): UndoBlock | undefined {
  if (entries.some((e) => e.undoes === entry.id)) return 'alreadyUndone';
  const result = planUndo(entry.change, now);
  return result.ok ? undefined : result.reason;
}

/** Adds an entry to a domain's history, newest last, keeping the latest `limit`. */
export function appendBounded<T>(entries: readonly T[], entry: T, limit: number = HISTORY_LIMIT): T[] {
  return [...entries, entry].slice(-limit);
}
