import { comparableValue } from './dns-fields.js';
import type { RecordChange } from './dns-history.js';
import { type ImportPlan, type ListedRecord, needsForce, type PlannedChange } from './dns-plan.js';
import {
  DNS_RECORD_TYPES,
  type DnsRecordData,
  type DnsType,
  fieldValues,
  ownerName,
  sameRecord,
  validateRecord,
} from './dns-records.js';

/*
 * Changing records, not only adding and deleting them. The provider has no update call, so a
 * change is an add and a delete; made in that order, the name keeps answering throughout (the
 * "never a gap" rule). Where the old and the new cannot stand together — a CNAME beside any other
 * record of its name (RFC 1034 §3.6.2) — the delete goes first, and the partner is told.
 */

/**
 * What a change does: records deleted (by the ids they have now) and added; its calls go in the
 * one gap-free order (`orderCalls`).
 */
export interface RecordChangePlan {
  remove: ListedRecord[];
  add: DnsRecordData[];
  /** A delete goes before an add of its name (a CNAME comes or goes there): the partner is told. */
  deleteFirst: boolean;
}

/**
 * Why a change is not made:
 * - `same`: the records are already so (a change of the TTL alone is a change, not this);
 * - `cnameBeside`: a CNAME would stand beside other records of its name that the change keeps
 *   (`types` names them), which DNS does not allow;
 * - `cnameApex`: a CNAME at the domain itself, where the SOA and NS always stand;
 * - `notFound`: nothing matches what was typed;
 * - `badValue`: the new value fits none of the records whose value it would replace.
 */
export type ChangeRefusal =
  | { reason: 'same' }
  | { reason: 'cnameApex' }
  | { reason: 'badValue' }
  | { reason: 'cnameBeside'; host: string; types: DnsType[] }
  | { reason: 'notFound' };

export type ChangeResult = { ok: true; plan: RecordChangePlan } | ({ ok: false } & ChangeRefusal);

/** Two hosts of one zone are the same name ('@', 'www', in any case or script). */
export function sameHost(a: string, b: string): boolean {
  return comparableValue('host', a) === comparableValue('host', b);
}

/** Two records equal but for their TTL: what `del` and a bulk replace match by. */
export function sameRecordData(a: DnsRecordData, b: DnsRecordData): boolean {
  return sameRecord(a, { ...b, ttl: a.ttl });
}

/**
 * The field a change asks first, the one partners change: the address, the target, the text
 * (an MX's server, an SRV's target); the numbers and an SRV's labels stay as they were.
 */
export function valueField(type: DnsType): string {
  const field = DNS_RECORD_TYPES[type].fields.find((f) => f.kind !== 'uint16' && f.kind !== 'service');
  return field?.name ?? DNS_RECORD_TYPES[type].fields[0]?.name ?? 'host';
}

/** The records of one type and host among those listed. */
export function recordsAt(records: readonly ListedRecord[], type: DnsType, host: string): ListedRecord[] {
  return records.filter((r) => r.record.type === type && sameHost(r.record.host, host));
}

/** The TTL the records share, if they share one: what `set` keeps when the line states none. */
export function keptTtl(records: readonly ListedRecord[]): number | undefined {
  const ttls = new Set(records.map((r) => r.record.ttl));
  const [only] = ttls;
  return ttls.size === 1 ? only : undefined;
}

/**
 * Listed records matching what `del` was given: a type and a host, and, when given, the data
 * (compared without the TTL, as a partner types it).
 */
export function matchRecords(
  records: readonly ListedRecord[],
  type: DnsType,
  host: string,
  data?: DnsRecordData,
): ListedRecord[] {
  const here = recordsAt(records, type, host);
  return data === undefined ? here : here.filter((r) => sameRecordData(r.record, data));
}

/** Checks a plan against the records it leaves: no CNAME beside another record of its name. */
export function checkPlan(
  records: readonly ListedRecord[],
  remove: ListedRecord[],
  add: DnsRecordData[],
): ChangeResult {
  if (remove.length === 0 && add.length === 0) return { ok: false, reason: 'same' };
  if (add.some((a) => a.type === 'CNAME' && sameHost(a.host, '@'))) return { ok: false, reason: 'cnameApex' };
  const removed = new Set(remove.map((r) => r.id));
  const kept = records.filter((r) => !removed.has(r.id)).map((r) => r.record);
  const after = [...kept, ...add];
  for (const record of add) {
    const others = after.filter((r) => r !== record && sameHost(ownerName(r), ownerName(record)));
    const clash =
      record.type === 'CNAME'
        ? others.filter((r) => !(r.type === 'CNAME' && sameRecord(r, record)))
        : others.filter((r) => r.type === 'CNAME');
    if (clash.length > 0) {
      return {
        ok: false,
        reason: 'cnameBeside',
        host: record.host,
        types: [...new Set(clash.map((r) => r.type))],
      };
    }
  }
  return { ok: true, plan: { remove, add, deleteFirst: deletesFirst(orderCalls(remove, add)) } };
}

/** Old and new at one name with a CNAME on either side cannot stand together, even for a moment. */
function needsDeleteFirst(remove: readonly ListedRecord[], add: readonly DnsRecordData[]): boolean {
  return add.some((a) =>
    remove.some(
      (r) => sameHost(ownerName(r.record), ownerName(a)) && (a.type === 'CNAME' || r.record.type === 'CNAME'),
    ),
  );
}

/** Replacing one listed record by another (the ✏️ Change of a record's card). */
export function planRecordChange(
  records: readonly ListedRecord[],
  old: ListedRecord,
  next: DnsRecordData,
): ChangeResult {
  if (sameRecord(old.record, next)) return { ok: false, reason: 'same' };
  return checkPlan(records, [old], [next]);
}

/**
 * `set`: makes the records of `wanted`'s type and host exactly `wanted` (one or more of one type
 * and host, duplicates counted once). Records already so are left alone; a TTL that differs is a
 * change.
 */
export function planRecordSet(
  records: readonly ListedRecord[],
  wanted: readonly DnsRecordData[],
): ChangeResult {
  const [first] = wanted;
  if (first === undefined) return { ok: false, reason: 'notFound' };
  const unique = wanted.filter((w, i) => wanted.findIndex((o) => sameRecord(o, w)) === i);
  const current = recordsAt(records, first.type, first.host);
  const remove = current.filter((c) => !unique.some((w) => sameRecord(c.record, w)));
  const add = unique.filter((w) => !current.some((c) => sameRecord(c.record, w)));
  return checkPlan(records, remove, add);
}

/**
 * `replace <old> <new>` over one domain: every record whose value is `from` gets `to` instead,
 * each as its own change (same type, host and TTL). A value is an address, a host name or a text,
 * compared as its field's kind compares it.
 */
export function planValueReplace(
  records: readonly ListedRecord[],
  from: string,
  to: string,
): { changes: { old: ListedRecord; next: DnsRecordData }[]; plan: ChangeResult } {
  const changes: { old: ListedRecord; next: DnsRecordData }[] = [];
  let matched = 0;
  for (const listed of records) {
    const { record } = listed;
    const field = valueField(record.type);
    const values = fieldValues(record);
    const current = values.find(([spec]) => spec.name === field);
    if (current === undefined || typeof current[1] !== 'string') continue;
    if (comparableValue(current[0].kind, current[1]) !== comparableValue(current[0].kind, from)) continue;
    matched += 1;
    const next = DNS_RECORD_TYPES[record.type].build(
      record.host,
      record.ttl,
      Object.fromEntries(values.map(([spec, value]) => [spec.name, spec.name === field ? to : value])),
    );
    // An address replaced by a name (or the other way) fits no record of that type: left alone.
    if (validateRecord(next) === undefined) changes.push({ old: listed, next });
  }
  if (matched > 0 && changes.length === 0) return { changes, plan: { ok: false, reason: 'badValue' } };
  if (changes.length === 0) return { changes, plan: { ok: false, reason: 'notFound' } };
  return {
    changes,
    plan: checkPlan(
      records,
      changes.map((c) => c.old),
      changes.map((c) => c.next),
    ),
  };
}

/**
 * The one order of a plan's provider calls, for every face (the chat's change, `set`, replace,
 * import, preset, undo, bulk, and the Mini App's Apply). Per name (its owner name, as sameHost
 * compares it): a delete that must go first — old and new at one name with a CNAME on either
 * side, which cannot stand together even for a moment — then the adds, then the other deletes.
 * So a name that answers before and after answers at every moment between, but where a CNAME
 * comes or goes (and the partner is told: `deletesFirst`). Names do not depend on each other, so
 * the calls go as three runs over the whole plan: the first deletes, the adds, the rest.
 */
export function orderCalls(remove: readonly ListedRecord[], add: readonly DnsRecordData[]): PlannedChange[] {
  const first = remove.filter((r) =>
    needsDeleteFirst(
      [r],
      add.filter((a) => sameHost(ownerName(a), ownerName(r.record))),
    ),
  );
  const asDelete = (r: ListedRecord): PlannedChange => ({ op: 'delete', id: r.id, record: r.record });
  return [
    ...first.map(asDelete),
    ...add.map((record): PlannedChange => ({ op: 'add', record })),
    ...remove.filter((r) => !first.includes(r)).map(asDelete),
  ];
}

/**
 * Whether some delete comes before an add at its name: for that moment the name answered
 * nothing, and the partner is told. Read from the calls themselves, so a change stored in an
 * older order is described as it was made.
 */
export function deletesFirst(calls: readonly PlannedChange[]): boolean {
  return calls.some(
    (call, index) =>
      call.op === 'delete' &&
      calls
        .slice(index + 1)
        .some((later) => later.op === 'add' && sameHost(ownerName(later.record), ownerName(call.record))),
  );
}

/**
 * The one gate of every apply that touches several records (an import, a preset, a bulk): the
 * calls to make, in the one gap-free order (`orderCalls`), or `'needsForce'` when the plan deletes
 * more than the limit allows and the partner has not chosen it explicitly.
 */
export function changesToApply(
  plan: Pick<ImportPlan, 'add' | 'remove' | 'existing'>,
  options: { force: boolean },
): PlannedChange[] | 'needsForce' {
  if (needsForce(plan) && !options.force) return 'needsForce';
  return orderCalls(plan.remove, plan.add);
}

/**
 * Whether a call of a record change must not be made because a call before it failed: the two
 * halves of one record's change (its type and host) go together. A delete whose add was refused
 * would leave the name answering nothing; an add whose CNAME's delete was refused would stand
 * beside it. Either way the old record stays, as it was.
 */
export function heldBackBy(call: PlannedChange, failed: readonly PlannedChange[]): boolean {
  return failed.some(
    (f) =>
      f.op !== call.op && f.record.type === call.record.type && sameHost(f.record.host, call.record.host),
  );
}

/**
 * A change between its provider calls, kept in the chat's session and written before each call:
 * a process killed between the add and the delete leaves it there, and the chat's next update
 * finishes it (or says why it could not), never forgets it.
 */
export interface PendingChange {
  /** Short id, for the "finish" button of a change that stopped half-way. */
  id: string;
  orderId: number;
  /**
   * The calls, in the order `orderCalls` gave them — or, for a change stored by an older version,
   * the order it gave then (the whole plan's deletes first when one name needed it): finishing
   * goes on in the stored order, and `deletesFirst(calls)` tells what was done. Such a change may
   * still carry the `deleteFirst` flag it was stored with; nothing reads it.
   */
  calls: PlannedChange[];
  /** How many of `calls` the provider has accepted, in order. */
  done: number;
  /** A call failed: the partner was told and holds the button to finish; no update retries it. */
  stalled?: boolean | undefined;
}

/**
 * One line of a change as a partner reads it: a record that became another, or one added or
 * deleted — in the chat's report and history and in the Mini App's plan alike.
 */
export type ChangeLine =
  | { op: 'change'; before: DnsRecordData; after: DnsRecordData }
  | { op: 'add' | 'delete'; record: DnsRecordData };

/**
 * Pairs each deleted record with a record added of the same type and host («A www: old → new»);
 * what has no partner stays an add or a delete. Order: as the change lists them.
 */
export function pairChanges(records: readonly RecordChange[]): ChangeLine[] {
  const adds = records.filter((c) => c.op === 'add');
  const used = new Set<RecordChange>();
  const lines: ChangeLine[] = [];
  for (const change of records) {
    if (change.op !== 'delete') continue;
    const partner = adds.find(
      (a) =>
        !used.has(a) && a.record.type === change.record.type && sameHost(a.record.host, change.record.host),
    );
    if (partner === undefined) {
      lines.push({ op: 'delete', record: change.record });
      continue;
    }
    used.add(partner);
    lines.push({ op: 'change', before: change.record, after: partner.record });
  }
  for (const add of adds) if (!used.has(add)) lines.push({ op: 'add', record: add.record });
  return lines;
}

/**
 * How many of an apply's changes were made, as the partner counts them: one per line of its plan
 * (`pairChanges`), so a TTL or value change is one though the provider takes it as an add and a
 * delete. A change is made only when every call of it was accepted: one whose add went through but
 * whose delete failed (or was held back) is not. What the chat's report and the Mini App's answer
 * both say.
 */
export function countChanges(outcome: {
  applied: readonly RecordChange[];
  failed: readonly RecordChange[];
}): { done: number; total: number } {
  const didFail = (op: RecordChange['op'], record: DnsRecordData): boolean =>
    outcome.failed.some((f) => f.op === op && sameRecord(f.record, record));
  const lines = pairChanges([...outcome.applied, ...outcome.failed]);
  const made = lines.filter((line) =>
    line.op === 'change'
      ? !didFail('delete', line.before) && !didFail('add', line.after)
      : !didFail(line.op, line.record),
  );
  return { done: made.length, total: lines.length };
}
