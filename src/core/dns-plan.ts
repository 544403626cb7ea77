import { comparableValue } from './dns-fields.js';
import { type DnsRecordData, ownerName, parseListedRecord, sameRecord } from './dns-records.js';
import { isApexNs } from './zone-provider.js';

/*
 * Import planning: what an imported zone changes against the records the provider lists, and
 * when such a change is large enough to need a second, explicit confirmation (octoDNS plan.py's
 * safety threshold). A changed record is a delete plus an add here: the provider has no update.
 */

/** A listed record the plan may delete, with the provider's id. */
export interface ListedRecord {
  id: number;
  record: DnsRecordData;
}

/** The provider's listed records read into the model; a record the bot cannot read is never matched. */
export function readListedRecords(
  listed: readonly { record_id: number; type: string; ttl: number; value: string }[],
): ListedRecord[] {
  return listed.flatMap((l) => {
    const record = parseListedRecord(l);
    return record ? [{ id: l.record_id, record }] : [];
  });
}

/**
 * How an import treats the records it does not mention. `merge` (the default) adds and changes
 * only: a name and type the file gives are set to the file's records, every other record is left
 * alone, so a pasted fragment never deletes the rest of the zone. `replace` makes the zone exactly
 * the file, deleting what it does not list (under the delete limit).
 */
export type ImportMode = 'merge' | 'replace';

/** What applying an imported zone does to one domain order; kept in the session until Apply. */
export interface ImportPlan {
  mode: ImportMode;
  /** The file's records, kept so the partner can turn a merge into a replace without re-sending. */
  wanted: DnsRecordData[];
  /** Ties the Apply button to this plan; a button of an older plan finds none. */
  nonce: string;
  orderId: number;
  /** ASCII form. */
  domain: string;
  add: DnsRecordData[];
  remove: ListedRecord[];
  /** How many records the provider listed when the plan was made. */
  existing: number;
}

/** Zones smaller than this are never held back: every change is shown in the preview anyway. */
export const MIN_EXISTING_FOR_LIMIT = 10;
/** A plan that deletes more than this percentage of the existing records needs force (octoDNS: 30). */
export const MAX_SAFE_DELETE_PERCENT = 30;

/**
 * The plan of an import (a merge unless told): the records to add and to delete, and those left as
 * they are. The apex NS records are the domain's name servers, set with /ns: no import adds or
 * deletes one, so a replace leaves those of the zone as they are (the file's were skipped).
 */
export function planImport(
  target: { nonce: string; orderId: number; domain: string },
  current: readonly ListedRecord[],
  wanted: readonly DnsRecordData[],
  existing: number = current.length,
  mode: ImportMode = 'merge',
): { plan: ImportPlan; unchanged: ListedRecord[] } {
  const nameServers = current.filter((c) => isApexNs(c.record));
  const records = current.filter((c) => !isApexNs(c.record));
  const file = wanted.filter((record) => !isApexNs(record));
  // A merge touches only the record sets (name and type) the file gives.
  const touched = new Set(file.map(recordSetKey));
  const inScope = mode === 'replace' ? records : records.filter((c) => touched.has(recordSetKey(c.record)));
  const untouched = mode === 'replace' ? [] : records.filter((c) => !touched.has(recordSetKey(c.record)));
  const diff = diffZone(inScope, file);
  return {
    plan: { ...target, mode, wanted: file, add: diff.toAdd, remove: diff.toDelete, existing },
    unchanged: [...diff.unchanged, ...untouched, ...nameServers],
  };
}

/** A record set: the records of one name and type (an SRV's name holds its service and protocol). */
function recordSetKey(record: DnsRecordData): string {
  return `${record.type} ${comparableValue('host', ownerName(record))}`;
}

/** Whether the plan changes nothing. */
export function isEmptyPlan(plan: Pick<ImportPlan, 'add' | 'remove'>): boolean {
  return plan.add.length === 0 && plan.remove.length === 0;
}

/**
 * Whether applying the plan needs force: it deletes more than 30% of at least 10 existing
 * records (octoDNS's update/delete threshold).
 */
export function needsForce(plan: Pick<ImportPlan, 'remove' | 'existing'>): boolean {
  return (
    // Whole numbers on both sides: 30% of 70 must not become 20.999….
    plan.existing >= MIN_EXISTING_FOR_LIMIT &&
    plan.remove.length * 100 > plan.existing * MAX_SAFE_DELETE_PERCENT
  );
}

/** One change of an apply: a record to add, or a listed record (with the provider's id) to delete. */
export type PlannedChange =
  | { op: 'delete'; id: number; record: DnsRecordData }
  | { op: 'add'; record: DnsRecordData };

/**
 * A change the provider accepted, as the history records it: what was added, or what was deleted
 * (its content; an added record has no id until it is listed).
 */
export interface AppliedChange {
  op: 'add' | 'delete';
  record: DnsRecordData;
}

/** What to add and delete so that the current records become the wanted ones; `unchanged` are current items kept. */
export interface ZoneDiff<T> {
  toAdd: DnsRecordData[];
  toDelete: T[];
  unchanged: T[];
}

/**
 * What to add and delete so that `current` becomes `wanted` (sameRecord); `current` items carry
 * the caller's ids. Records are matched one to one, so duplicates count: two equal wanted records
 * against one current record keep it and add one.
 */
export function diffZone<T extends { record: DnsRecordData }>(
  current: readonly T[],
  wanted: readonly DnsRecordData[],
): ZoneDiff<T> {
  const kept = new Set<number>();
  const toAdd: DnsRecordData[] = [];
  for (const record of wanted) {
    const match = current.findIndex((item, index) => !kept.has(index) && sameRecord(item.record, record));
    if (match < 0) toAdd.push(record);
    else kept.add(match);
  }
  return {
    toAdd,
    toDelete: current.filter((_, index) => !kept.has(index)),
    unchanged: current.filter((_, index) => kept.has(index)),
  };
}
