import { comparableValue } from './dns-fields.js';
import { isDomainName } from './dns-host-names.js';
import type { ListedRecord } from './dns-plan.js';
import { type DnsRecordData, type DnsType, sameRecord, validateRecord } from './dns-records.js';

/*
 * DNS presets: ready record sets of a mail or site provider (the data is in dns-presets.ts), and
 * the planner that turns one, with the partner's parameters, into a plan against the records as
 * they are: what to add, which conflicting records it replaces, and what is there already.
 */

/** What a preset parameter holds, and so how the partner's answer is checked. */
export type PresetParamKind = 'token' | 'githubUser' | 'email';

/** One value a preset asks for before its records can be made. */
export interface PresetParam {
  /** The name the records read it by; also its locale key `dnspresets:ask.<preset>.<name>`. */
  readonly name: string;
  readonly kind: PresetParamKind;
  /** An optional parameter gets a Skip button; its records leave out what needs it. */
  readonly optional?: boolean;
  /**
   * What the provider's instructions show before the value (`google-site-verification=`): the
   * partner may paste the whole string, and the value is what follows it.
   */
  readonly prefix?: string;
}

/**
 * Records the preset replaces: at `host`, those of `types` (every type for `'any'`, as beside a
 * CNAME), and for TXT only those whose text starts with `textPrefix` (another SPF, not every TXT).
 */
export interface PresetConflict {
  readonly host: string;
  readonly types: readonly DnsType[] | 'any';
  readonly textPrefix?: string;
}

/** The parameters' values by name; an optional one the partner skipped is absent. */
export type PresetValues = Readonly<Record<string, string>>;

/** One preset: its parameters, the records it makes from them, and what it replaces. */
export interface PresetDefinition {
  readonly params: readonly PresetParam[];
  /** The records for a domain (ASCII form) and the parameters' values. */
  records(values: PresetValues, domain: string): DnsRecordData[];
  readonly conflicts: readonly PresetConflict[];
}

const TOKEN = /^[A-Za-z0-9_=:.+/-]{1,250}$/;
// GitHub: letters, digits and single inner hyphens, at most 39 characters.
const GITHUB_USER = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;
const EMAIL_LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]{1,64}$/;

/** The partner's answer read as the parameter's value, or why it is refused (the kind). */
export function readPresetParam(
  param: PresetParam,
  text: string,
): { ok: true; value: string } | { ok: false; reason: PresetParamKind } {
  let value = text.trim();
  if (param.prefix && value.toLowerCase().startsWith(param.prefix.toLowerCase()))
    value = value.slice(param.prefix.length).trim();
  const valid =
    param.kind === 'token'
      ? TOKEN.test(value)
      : param.kind === 'githubUser'
        ? GITHUB_USER.test(value)
        : isEmail(value);
  return valid ? { ok: true, value } : { ok: false, reason: param.kind };
}

function isEmail(text: string): boolean {
  const at = text.lastIndexOf('@');
  if (at <= 0) return false;
  return EMAIL_LOCAL.test(text.slice(0, at)) && isDomainName(text.slice(at + 1));
}

/** A preset applied to one domain order; kept in the session until its Apply button. */
export interface PresetPlan {
  presetId: string;
  /** Ties the Apply button to this plan; a button of an older plan finds none. */
  nonce: string;
  orderId: number;
  /** ASCII form. */
  domain: string;
  add: DnsRecordData[];
  /** The conflicting records the preset replaces. */
  remove: ListedRecord[];
  /** The preset's records that are there already (at any ttl). */
  keep: ListedRecord[];
  /** How many records the provider listed when the plan was made (the delete limit's base). */
  existing: number;
}

/** A preset being filled in: the parameters answered so far, then the plan shown for Apply. */
export interface PresetDraft {
  nonce: string;
  orderId: number;
  presetId: string;
  values: Record<string, string>;
  /** Index of the parameter being asked. */
  asked: number;
  /** The question with a Skip button, whose button goes once it is answered. */
  questionMessageId?: number | undefined;
  plan?: PresetPlan | undefined;
  /** Set when the preset is the change of a bulk (`/dns bulk`, that bulk's nonce): no plan here. */
  bulk?: string | undefined;
}

/** The same record whatever its ttl: a preset's MX at 300 s is not replaced by one at 3600 s. */
function sameContent(a: DnsRecordData, b: DnsRecordData): boolean {
  return sameRecord({ ...a, ttl: b.ttl }, b);
}

/** Whether a listed record is one the preset replaces. */
export function isConflict(conflicts: readonly PresetConflict[], record: DnsRecordData): boolean {
  const host = comparableValue('host', record.host);
  return conflicts.some((c) => {
    if (comparableValue('host', c.host) !== host) return false;
    if (c.types !== 'any' && !c.types.includes(record.type)) return false;
    if (c.textPrefix === undefined || record.type !== 'TXT') return true;
    return record.text.trim().toLowerCase().startsWith(c.textPrefix.toLowerCase());
  });
}

/**
 * The plan of a preset against the records as listed: each of its records that is there already
 * (same content, any ttl) is kept, the others are added; the listed records it replaces (its
 * conflicts) are deleted unless they are its own. Nothing else is touched. The delete limit is
 * applied where every plan is applied, by `changesToApply` (dns-change.ts).
 */
export function planPreset(
  target: { nonce: string; orderId: number; domain: string; presetId: string },
  definition: PresetDefinition,
  values: PresetValues,
  current: readonly ListedRecord[],
  existing: number = current.length,
): PresetPlan {
  const wanted = definition.records(values, target.domain);
  const kept = new Set<number>();
  const add: DnsRecordData[] = [];
  for (const record of wanted) {
    const match = current.findIndex((c, i) => !kept.has(i) && sameContent(c.record, record));
    if (match < 0) add.push(record);
    else kept.add(match);
  }
  const keep = current.filter((_, i) => kept.has(i));
  const remove = current.filter((c, i) => !kept.has(i) && isConflict(definition.conflicts, c.record));
  return { ...target, add, remove, keep, existing };
}

/** The first record of a preset that the record checks refuse (a programming error in the data). */
export function invalidPresetRecord(records: readonly DnsRecordData[]): DnsRecordData | undefined {
  return records.find((r) => validateRecord(r) !== undefined);
}
