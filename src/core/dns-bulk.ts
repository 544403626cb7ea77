import { changesToApply, deletesFirst, orderCalls, planValueReplace } from './dns-change.js';
import { comparableValue } from './dns-fields.js';
import { parseDnsLine, readValues } from './dns-line.js';
import type { ListedRecord, PlannedChange } from './dns-plan.js';
import {
  invalidPresetRecord,
  type PresetDefinition,
  type PresetValues,
  planPreset,
} from './dns-preset-plan.js';
import { type DnsRecordData, type DnsType, fieldValues, isDnsType, sameRecord } from './dns-records.js';

/*
 * Bulk DNS changes (`/dns bulk`): one change — a one-line add, a delete by match, a replace of a
 * value, or a preset — planned for each chosen domain against its records as listed, then held to
 * the same delete limit as imports and presets (changesToApply) per domain. Pure: the bot lists,
 * plans, applies.
 */

/** The most domains one bulk change takes (a session stays small; a report stays readable). */
export const MAX_BULK_DOMAINS = 100;

/**
 * What a delete by match removes: records of `type` at `host` whose value (the type's fields in
 * the one-line order, space separated: `mx.example.by 10`, a TXT's text) matches `value`, a glob
 * where `*` stands for any run of characters, case-insensitive.
 */
export interface RecordMatch {
  type: DnsType;
  host: string;
  value: string;
}

/**
 * The one change a bulk makes on every chosen domain. A replace puts `to` in place of `from` as
 * the value of every record that holds it (an address, a target name, a text: see
 * planValueReplace), keeping each record's type, host and TTL.
 */
export type BulkChange =
  | { kind: 'add'; record: DnsRecordData }
  | { kind: 'delete'; match: RecordMatch }
  | { kind: 'replace'; from: string; to: string }
  | { kind: 'preset'; presetId: string; values: Record<string, string> };

/**
 * Why a replace line is not one: a value is `missing` (or an empty quoted text), a quoted text is
 * not closed (`quote`), a third value follows (`extra`: a text with spaces is quoted), or the two
 * are the same text (`same`).
 */
export type ReplaceLineReason = 'missing' | 'quote' | 'extra' | 'same';

/** Why a line is not a bulk change: the add's own reason (see parseDnsLine), the match's, or the replace's. */
export type BulkLineResult =
  | { ok: true; change: Extract<BulkChange, { kind: 'add' | 'delete' | 'replace' }> }
  | { ok: false; error: 'verb' }
  | { ok: false; error: 'add'; field: string; reason: string; form: string | undefined }
  | { ok: false; error: 'match'; field: 'type' | 'host' | 'value'; reason: 'missing' | 'unknown' }
  | { ok: false; error: 'replace'; field: 'from' | 'to'; reason: ReplaceLineReason };

/**
 * Reads `add <TYPE> <host> <fields…>` (the one-line grammar of `/dns <domain> add`),
 * `del <TYPE> <host> <value glob>` (the glob runs to the end of the line, quotes around it
 * dropped) or `replace <old> <new>` (each a word, or a quoted text as the one-line grammar quotes
 * a TXT).
 */
export function parseBulkLine(line: string): BulkLineResult {
  const match = /^\s*(\S+)\s*([\s\S]*)$/.exec(line);
  const verb = match?.[1]?.toLowerCase();
  const rest = match?.[2] ?? '';
  if (verb === 'add') {
    const read = parseDnsLine(rest);
    return read.ok
      ? { ok: true, change: { kind: 'add', record: read.record } }
      : { ok: false, error: 'add', field: read.field, reason: read.reason, form: read.form };
  }
  if (verb === 'del' || verb === 'delete') {
    const read = parseRecordMatch(rest);
    return 'match' in read ? { ok: true, change: { kind: 'delete', match: read.match } } : read;
  }
  if (verb === 'replace') return parseReplace(rest);
  return { ok: false, error: 'verb' };
}

/** `<old> <new>`: two values, a text with spaces quoted (`"v=spf1 a -all"`). */
function parseReplace(text: string): BulkLineResult {
  const fail = (field: 'from' | 'to', reason: ReplaceLineReason) =>
    ({ ok: false, error: 'replace', field, reason }) as const;
  const read = readValues(text);
  const field = (count: number) => (count === 0 ? 'from' : 'to');
  if (!read.ok) return fail(field(read.values.length), 'quote');
  const [from, to, extra] = read.values;
  // An empty quoted text is no value: nothing holds it, and no record may be given it.
  const empty = read.values.indexOf('');
  if (empty >= 0 && empty < 2) return fail(field(empty), 'missing');
  if (from === undefined) return fail('from', 'missing');
  if (to === undefined) return fail('to', 'missing');
  if (extra !== undefined) return fail('to', 'extra');
  if (from === to) return fail('to', 'same');
  return { ok: true, change: { kind: 'replace', from, to } };
}

/** `<TYPE> <host> <value glob>` read as a match. */
export function parseRecordMatch(
  text: string,
):
  | { match: RecordMatch }
  | { ok: false; error: 'match'; field: 'type' | 'host' | 'value'; reason: 'missing' | 'unknown' } {
  const parts = /^\s*(\S+)?\s*(\S+)?\s*([\s\S]*)$/.exec(text);
  const fail = (field: 'type' | 'host' | 'value', reason: 'missing' | 'unknown') =>
    ({ ok: false, error: 'match', field, reason }) as const;
  const typeWord = parts?.[1];
  if (typeWord === undefined) return fail('type', 'missing');
  const type = typeWord.toUpperCase();
  if (!isDnsType(type)) return fail('type', 'unknown');
  const host = parts?.[2];
  if (host === undefined) return fail('host', 'missing');
  let value = (parts?.[3] ?? '').trim();
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
  if (value === '') return fail('value', 'missing');
  return { match: { type, host, value } };
}

/** A record's value as a match reads it: its fields in the one-line order, space separated. */
export function matchableValue(record: DnsRecordData): string {
  return fieldValues(record)
    .map(([, value]) => String(value))
    .join(' ');
}

/** Whether `text` matches the glob (`*` any run of characters), case-insensitive, whole text. */
export function globMatches(glob: string, text: string): boolean {
  const pattern = glob
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[\\s\\S]*');
  return new RegExp(`^${pattern}$`, 'iu').test(text);
}

/** Whether a record is one the match deletes. */
export function recordMatches(match: RecordMatch, record: DnsRecordData): boolean {
  return (
    record.type === match.type &&
    comparableValue('host', record.host) === comparableValue('host', match.host) &&
    globMatches(match.value, matchableValue(record).trim())
  );
}

/**
 * Why a domain gets no change: the record is there already (for a replace: every record holding
 * the old value reads the same with the new one), nothing matched, the preset does not fit, the
 * provider did not list the domain's records (nothing can be planned without them); for a
 * replace: no record holds the old value (`nothingToReplace`), the new value fits none of those
 * that do (`badValue`: an address replaced by a word), or a CNAME would stand beside another
 * record of its name (`cnameBeside`).
 */
export type BulkSkip =
  | 'present'
  | 'noMatch'
  | 'notFit'
  | 'unlisted'
  | 'nothingToReplace'
  | 'badValue'
  | 'cnameBeside';

/** One domain's part of a bulk: what it would add and delete (or why nothing), for the preview and Apply. */
export interface BulkDomainPlan {
  orderId: number;
  /** ASCII form. */
  domain: string;
  add: DnsRecordData[];
  remove: ListedRecord[];
  /** How many records the provider listed (the delete limit's base). */
  existing: number;
  skip?: BulkSkip | undefined;
  /**
   * Set by a replace, whose `add[i]` replaces `remove[i]`: whether a CNAME's delete goes before
   * its name's add (`deletesFirst`). Every kind's calls go in the one order (`orderCalls`).
   */
  deleteFirst?: boolean | undefined;
}

/**
 * The plan of one domain: an add is skipped when the same record (any ttl) is there; a delete
 * takes every listed record the match matches; a preset is planned as on its own (`planPreset`),
 * skipped when it adds and replaces nothing or one of its records does not fit the domain.
 */
export function planBulkDomain(
  target: { orderId: number; domain: string },
  change: BulkChange,
  current: readonly ListedRecord[],
  preset?: PresetDefinition,
  existing: number = current.length,
): BulkDomainPlan {
  const none = (skip: BulkSkip): BulkDomainPlan => ({ ...target, add: [], remove: [], existing, skip });
  switch (change.kind) {
    case 'add': {
      const there = current.some((c) => sameRecord({ ...change.record, ttl: c.record.ttl }, c.record));
      return there ? none('present') : { ...target, add: [change.record], remove: [], existing };
    }
    case 'delete': {
      const remove = current.filter((c) => recordMatches(change.match, c.record));
      return remove.length === 0 ? none('noMatch') : { ...target, add: [], remove, existing };
    }
    case 'replace':
      return planReplace(target, change, current, existing);
    case 'preset': {
      if (preset === undefined) return none('notFit');
      const values: PresetValues = change.values;
      if (invalidPresetRecord(preset.records(values, target.domain))) return none('notFit');
      const plan = planPreset(
        { ...target, nonce: '-', presetId: change.presetId },
        preset,
        values,
        current,
        existing,
      );
      if (plan.add.length === 0 && plan.remove.length === 0) return none('present');
      return { ...target, add: plan.add, remove: plan.remove, existing };
    }
  }
}

/**
 * A replace on one domain (planValueReplace): each record holding the old value, and its
 * replacement; a record whose replacement reads the same (a name in another case) is left alone.
 */
function planReplace(
  target: { orderId: number; domain: string },
  change: Extract<BulkChange, { kind: 'replace' }>,
  current: readonly ListedRecord[],
  existing: number,
): BulkDomainPlan {
  const none = (skip: BulkSkip): BulkDomainPlan => ({ ...target, add: [], remove: [], existing, skip });
  const { changes, plan } = planValueReplace(current, change.from, change.to);
  if (!plan.ok) {
    if (plan.reason === 'badValue' || plan.reason === 'cnameBeside') return none(plan.reason);
    return none(plan.reason === 'same' ? 'present' : 'nothingToReplace');
  }
  const real = changes.filter((c) => !sameRecord(c.old.record, c.next));
  if (real.length === 0) return none('present');
  const remove = real.map((c) => c.old);
  const add = real.map((c) => c.next);
  return { ...target, add, remove, existing, deleteFirst: deletesFirst(orderCalls(remove, add)) };
}

/** What Apply does to one domain: its changes, or why it is left alone (`limit`: over the delete limit). */
export type BulkDecision =
  | { orderId: number; changes: PlannedChange[] }
  | { orderId: number; skip: BulkSkip | 'limit' };

/**
 * Each domain through the one gate (changesToApply): a domain whose plan deletes more than the
 * limit allows is left alone unless `force`, which only the partner's separate button sets. The
 * calls go in the one gap-free order: the new records of a name are there before its old ones
 * go, so every name keeps answering during the move (but where a CNAME comes or goes).
 */
export function decideBulk(plans: readonly BulkDomainPlan[], options: { force: boolean }): BulkDecision[] {
  return plans.map((plan) => {
    if (plan.skip) return { orderId: plan.orderId, skip: plan.skip };
    const changes = changesToApply(plan, options);
    if (changes === 'needsForce') return { orderId: plan.orderId, skip: 'limit' };
    return { orderId: plan.orderId, changes };
  });
}

/** How many domains are over the delete limit (and so wait for the explicit force button). */
export function countOverLimit(plans: readonly BulkDomainPlan[]): number {
  return decideBulk(plans, { force: false }).filter((d) => 'skip' in d && d.skip === 'limit').length;
}

/**
 * A pasted list matched against the partner's domain orders (ASCII name → order id): the order ids
 * found, in the list's order without repeats, and how many pieces are not among them.
 */
export function matchDomainList(
  pieces: readonly string[],
  orders: ReadonlyMap<string, number>,
): { orderIds: number[]; unknown: string[] } {
  const orderIds: number[] = [];
  const unknown: string[] = [];
  for (const piece of pieces) {
    const id = orders.get(piece);
    if (id === undefined) unknown.push(piece);
    else if (!orderIds.includes(id)) orderIds.push(id);
  }
  return { orderIds, unknown };
}

/** A bulk change being put together; kept in the session (so it survives a restart) until Apply. */
export interface BulkDraft {
  /** Ties the buttons to this bulk; a button of an older one finds none. */
  nonce: string;
  /** Picking domains, then waiting for the change, then the preview waiting for Apply. */
  stage: 'domains' | 'change' | 'preview';
  /** The chosen domain orders (at most MAX_BULK_DOMAINS). */
  orderIds: number[];
  change?: BulkChange | undefined;
  plans?: BulkDomainPlan[] | undefined;
  /** The open question (the picker, or "what to do?"), whose buttons go once it is answered. */
  questionMessageId?: number | undefined;
}
