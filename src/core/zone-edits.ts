import { type ChangeLine, type ChangeRefusal, checkPlan, orderCalls, sameHost } from './dns-change.js';
import { type DnsLineReason, parseDnsLine } from './dns-line.js';
import { type ListedRecord, needsForce, type PlannedChange } from './dns-plan.js';
import { type DnsRecordData, ownerName, recordDataText, sameRecord, validateRecord } from './dns-records.js';
import { isApexNs } from './zone-provider.js';

/*
 * A zone edited as a table (the Mini App's editor): rows changed in place, added and deleted,
 * collected into one plan and checked by the same rules as the chat — the one-line grammar for
 * every row, no CNAME beside another record of its name, the apex name servers left to /ns, the
 * delete limit — and made in the one gap-free order the chat's changes take (`orderCalls`).
 */

/**
 * A record as a table row: its type, host, data and TTL; the data as the chat writes it
 * (`recordDataText`, BIND's order), which the chat's one-line form reads back between host and TTL.
 */
export interface ZoneRow {
  type: string;
  host: string;
  data: string;
  ttl: number;
}

/** One edit of the table: a listed record (by the provider's id) becomes a row, a row added, a record deleted. */
export type ZoneEdit =
  | { op: 'change'; id: number; row: ZoneRow }
  | { op: 'add'; row: ZoneRow }
  | { op: 'delete'; id: number };

/** A record as its row: the data is what the chat shows of it (`10 mx.example.by`). */
export function rowOfRecord(record: DnsRecordData): ZoneRow {
  return { type: record.type, host: record.host, data: recordDataText(record), ttl: record.ttl };
}

/**
 * A row read as the chat reads a line (its data in BIND's order, as rowOfRecord writes it, or in
 * the one-line form's order: parseDnsLine takes both), then its TTL checked as every TTL is.
 */
export function readRow(
  row: ZoneRow,
): { ok: true; record: DnsRecordData } | { ok: false; field: string; reason: DnsLineReason } {
  // An empty host would let the data's first word stand in for it.
  if (row.host.trim() === '') return { ok: false, field: 'host', reason: 'empty' };
  const parsed = parseDnsLine(`${row.type} ${row.host} ${row.data}`);
  if (!parsed.ok) return { ok: false, field: parsed.field, reason: parsed.reason };
  if (parsed.ttlGiven) return { ok: false, field: 'ttl', reason: 'extra' };
  const record = { ...parsed.record, ttl: row.ttl };
  const problem = validateRecord(record);
  return problem === undefined ? { ok: true, record } : { ok: false, ...problem };
}

/**
 * Why an edit cannot be made as it stands (`edit` is its index among the edits):
 * - a field's problem (`field` and the grammar's reason);
 * - `gone`: the record it names is no longer listed (changed elsewhere meanwhile);
 * - `twice`: a record edited by two edits;
 * - `nameServers`: an apex NS record, which /ns sets;
 * - `cnameBeside` / `cnameApex`: the CNAME rules of a record change (`host`, `types`).
 */
export type EditProblem = { edit: number } & (
  | { reason: DnsLineReason; field: string }
  | { reason: 'gone' | 'twice' | 'nameServers' | 'cnameApex' }
  | { reason: 'cnameBeside'; host: string; types: string[] }
);

export interface ZoneEditPlan {
  lines: ChangeLine[];
  /** The provider calls, in the one gap-free order (`orderCalls`, as the chat's). */
  calls: PlannedChange[];
  problems: EditProblem[];
  /** How many records were listed when the plan was made. */
  existing: number;
  /** Deletes more than the limit allows (octoDNS's 30% of ≥ 10): Apply must say so explicitly. */
  needsForce: boolean;
}

/** The plan of a table's edits over the records listed now. Nothing is written. */
export function planZoneEdits(current: readonly ListedRecord[], edits: readonly ZoneEdit[]): ZoneEditPlan {
  const problems: EditProblem[] = [];
  const lines: ChangeLine[] = [];
  const remove: ListedRecord[] = [];
  const add: DnsRecordData[] = [];
  /** Which edit put each added record in (for the CNAME rules' problem). */
  const addedBy = new Map<DnsRecordData, number>();
  const seen = new Set<number>();

  const listed = (edit: number, id: number): ListedRecord | undefined => {
    const found = current.find((c) => c.id === id);
    if (found === undefined) problems.push({ edit, reason: 'gone' });
    else if (seen.has(id)) problems.push({ edit, reason: 'twice' });
    else if (isApexNs(found.record)) problems.push({ edit, reason: 'nameServers' });
    else {
      seen.add(id);
      return found;
    }
    return undefined;
  };
  const read = (edit: number, row: ZoneRow): DnsRecordData | undefined => {
    const result = readRow(row);
    if (!result.ok) problems.push({ edit, reason: result.reason, field: result.field });
    else if (isApexNs(result.record)) problems.push({ edit, reason: 'nameServers' });
    else return result.record;
    return undefined;
  };

  for (const [index, edit] of edits.entries()) {
    if (edit.op === 'delete') {
      const old = listed(index, edit.id);
      if (old === undefined) continue;
      remove.push(old);
      lines.push({ op: 'delete', record: old.record });
    } else if (edit.op === 'add') {
      const record = read(index, edit.row);
      if (record === undefined) continue;
      add.push(record);
      addedBy.set(record, index);
      lines.push({ op: 'add', record });
    } else {
      const old = listed(index, edit.id);
      const next = read(index, edit.row);
      // Edited back to what it was: no change.
      if (old === undefined || next === undefined || sameRecord(old.record, next)) continue;
      remove.push(old);
      add.push(next);
      addedBy.set(next, index);
      lines.push({ op: 'change', before: old.record, after: next });
    }
  }

  // The CNAME rules over the edits that read, so that every problem is told at once.
  if (remove.length > 0 || add.length > 0) {
    const checked = checkPlan(current, remove, add);
    if (!checked.ok) problems.push(cnameProblem(checked, current, remove, add, addedBy));
  }
  return {
    lines,
    calls: orderCalls(remove, add),
    problems,
    existing: current.length,
    needsForce: needsForce({ remove, existing: current.length }),
  };
}

/**
 * A CNAME rule's refusal, pinned on the edit it is about: an added CNAME beside other records of
 * its name names those records' types; a record added beside a CNAME the zone keeps names CNAME.
 */
function cnameProblem(
  refusal: ChangeRefusal,
  current: readonly ListedRecord[],
  remove: readonly ListedRecord[],
  add: readonly DnsRecordData[],
  addedBy: ReadonlyMap<DnsRecordData, number>,
): EditProblem {
  const editOf = (record: DnsRecordData | undefined) => (record && addedBy.get(record)) ?? 0;
  if (refusal.reason !== 'cnameBeside') {
    return {
      edit: editOf(add.find((a) => a.type === 'CNAME' && sameHost(a.host, '@'))),
      reason: 'cnameApex',
    };
  }
  const here = (record: DnsRecordData) => sameHost(ownerName(record), refusal.host);
  const cname = add.find((a) => a.type === 'CNAME' && here(a));
  if (cname === undefined) {
    return { edit: editOf(add.find(here)), reason: 'cnameBeside', host: refusal.host, types: ['CNAME'] };
  }
  const kept = current.filter((c) => !remove.includes(c)).map((c) => c.record);
  const beside = [...kept, ...add].filter((r) => here(r) && r !== cname).map((r) => r.type);
  return { edit: editOf(cname), reason: 'cnameBeside', host: refusal.host, types: [...new Set(beside)] };
}
