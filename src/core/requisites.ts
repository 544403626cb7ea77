import { isValidDate } from './format.js';

/*
 * Customer requisites as partner-api.md describes them: three customer types, their fields,
 * the address block, optional bank requisites, and the WHOIS blocks of BY/БЕЛ and RU/SU/РФ
 * domains. The bot asks for fields in this order and builds request blocks from the answers.
 */

export const CUSTOMER_TYPES = ['natural', 'businessman', 'juridical'] as const;
export type CustomerType = (typeof CUSTOMER_TYPES)[number];

/** How a typed value is checked; each has an error message key `order:invalid.<kind>`. */
export type FieldKind = 'text' | 'email' | 'phone' | 'date' | 'country' | 'digits' | 'boolean';

/** One value the bot asks for. `optional` fields can be skipped (sent empty or left out). */
export interface FieldSpec {
  /** Dotted path in the request block, e.g. `address.city`. */
  path: string;
  kind: FieldKind;
  optional?: boolean;
  /** For `digits`: allowed lengths. */
  lengths?: readonly number[];
  /** Sent as an empty string when skipped (the provider requires the property). */
  emptyWhenSkipped?: boolean;
}

const MAX_LENGTH = 255;

/** Checks one typed value; returns the value to send, or the reason it is refused. */
export function checkField(
  spec: FieldSpec,
  raw: string,
): { ok: true; value: string | boolean } | { ok: false; reason: string } {
  const text = raw.trim();
  if (text === '') return { ok: false, reason: 'empty' };
  if (text.length > MAX_LENGTH) return { ok: false, reason: 'tooLong' };
  switch (spec.kind) {
    case 'email':
      return /^[^\s@]+@[^\s@]+\.[^\s@.]{2,}$/.test(text)
        ? { ok: true, value: text }
        : { ok: false, reason: 'email' };
    case 'phone': {
      const compact = text.replace(/[\s()-]/g, '');
      return /^\+[1-9]\d{6,14}$/.test(compact)
        ? { ok: true, value: compact }
        : { ok: false, reason: 'phone' };
    }
    case 'date':
      return isValidDate(text) ? { ok: true, value: text } : { ok: false, reason: 'date' };
    case 'country':
      return /^[A-Za-z]{2}$/.test(text)
        ? { ok: true, value: text.toUpperCase() }
        : { ok: false, reason: 'country' };
    case 'digits': {
      const digits = text.replace(/\s/g, '');
      const okLength = !spec.lengths || spec.lengths.includes(digits.length);
      return /^\d+$/.test(digits) && okLength ? { ok: true, value: digits } : { ok: false, reason: 'digits' };
    }
    case 'boolean':
      return { ok: false, reason: 'useButtons' };
    default:
      return { ok: true, value: text };
  }
}

const ADDRESS_FIELDS: FieldSpec[] = [
  { path: 'postal_code', kind: 'text' },
  { path: 'country_code', kind: 'country' },
  { path: 'region', kind: 'text' },
  { path: 'city', kind: 'text' },
  { path: 'street', kind: 'text' },
  { path: 'building', kind: 'text' },
  { path: 'room', kind: 'text', optional: true, emptyWhenSkipped: true },
];

const BANK_FIELDS: FieldSpec[] = [
  { path: 'bank_requisites.bank_name', kind: 'text', optional: true },
  { path: 'bank_requisites.swift', kind: 'text', optional: true },
  { path: 'bank_requisites.iban', kind: 'text', optional: true },
];

function under(prefix: string, fields: FieldSpec[]): FieldSpec[] {
  return fields.map((f) => ({ ...f, path: `${prefix}.${f.path}` }));
}

/** The request block each customer type sends. */
export const REQUISITES_BLOCK: Record<CustomerType, string> = {
  natural: 'natural_person_requisites',
  businessman: 'individual_businessman_requisites',
  juridical: 'juridical_person_requisites',
};

/** Fields of a customer, in asking order; postal address and bank requisites are asked apart. */
export function customerFields(type: CustomerType): FieldSpec[] {
  switch (type) {
    case 'natural':
      return [
        { path: 'last_name', kind: 'text' },
        { path: 'first_name', kind: 'text' },
        { path: 'middle_name', kind: 'text', optional: true, emptyWhenSkipped: true },
        ...under('address', ADDRESS_FIELDS),
      ];
    case 'businessman':
      return [
        { path: 'ucn', kind: 'text' },
        { path: 'last_name', kind: 'text' },
        { path: 'first_name', kind: 'text' },
        { path: 'middle_name', kind: 'text', optional: true, emptyWhenSkipped: true },
        ...under('legal_address', ADDRESS_FIELDS),
      ];
    case 'juridical':
      return [
        { path: 'ucn', kind: 'text' },
        { path: 'company_name', kind: 'text' },
        { path: 'executive_last_name', kind: 'text' },
        { path: 'executive_first_name', kind: 'text' },
        { path: 'executive_middle_name', kind: 'text', optional: true, emptyWhenSkipped: true },
        { path: 'post_of_executive', kind: 'text' },
        ...under('legal_address', ADDRESS_FIELDS),
      ];
  }
}

/** Whether a customer type has a legal/postal address pair and bank requisites. */
export function hasPostalAndBank(type: CustomerType): boolean {
  return type !== 'natural';
}

export const POSTAL_ADDRESS_FIELDS = under('postal_address', ADDRESS_FIELDS);
export const BANK_REQUISITES_FIELDS = BANK_FIELDS;

/** The WHOIS blocks a domain order needs, by zone rules and customer type (partner-api.md). */
export function whoisBlocks(rules: 'by' | 'ru' | 'none', type: CustomerType): ('person' | 'company')[] {
  if (rules === 'none') return [];
  if (type === 'natural') return ['person'];
  if (type === 'businessman') return ['person', 'company'];
  return ['company'];
}

/** Fields of the WHOIS blocks, zone-specific ones only for their zones. */
export function whoisFields(rules: 'by' | 'ru' | 'none', type: CustomerType): FieldSpec[] {
  const fields: FieldSpec[] = [];
  const blocks = whoisBlocks(rules, type);
  if (blocks.includes('person')) {
    fields.push(
      { path: 'whois_person_requisites.citizenship', kind: 'country' },
      { path: 'whois_person_requisites.series', kind: 'text' },
      { path: 'whois_person_requisites.number', kind: 'text' },
      { path: 'whois_person_requisites.organization', kind: 'text' },
      { path: 'whois_person_requisites.identity_number', kind: 'text', optional: true },
      { path: 'whois_person_requisites.date_of_issue', kind: 'date' },
    );
    if (rules === 'ru') fields.push({ path: 'whois_person_requisites.date_of_birth', kind: 'date' });
  }
  if (blocks.includes('company')) {
    if (rules === 'by') {
      fields.push(
        { path: 'whois_company_requisites.registration_number', kind: 'text' },
        { path: 'whois_company_requisites.registration_organization', kind: 'text' },
        { path: 'whois_company_requisites.registration_issue_number', kind: 'text', optional: true },
        { path: 'whois_company_requisites.registration_issue_date', kind: 'date' },
        { path: 'whois_company_requisites.is_government_company', kind: 'boolean' },
      );
    } else {
      fields.push(
        { path: 'whois_company_requisites.inn', kind: 'digits', lengths: [10, 12] },
        {
          path: 'whois_company_requisites.kpp',
          kind: 'digits',
          lengths: [9],
          optional: type === 'businessman',
        },
        { path: 'whois_company_requisites.ogrn', kind: 'digits', lengths: [13, 15] },
      );
    }
  }
  return fields;
}

/** Sets `value` at a dotted path of a nested plain object. */
export function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    if (typeof next !== 'object' || next === null) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  const last = keys.at(-1);
  if (last !== undefined) node[last] = value;
}

/**
 * Builds nested request data from answers keyed by field path. Skipped fields (`undefined`)
 * are left out, or sent as '' when the provider requires the property.
 */
export function buildFromAnswers(
  fields: readonly FieldSpec[],
  answers: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const value = answers[field.path];
    if (value !== undefined && value !== null) setPath(out, field.path, value);
    else if (field.emptyWhenSkipped) setPath(out, field.path, '');
  }
  return out;
}

/** PEM certificate request, as pasted or sent as a .csr/.pem file. */
export function looksLikeCsr(text: string): boolean {
  const match =
    /^\s*-----BEGIN (NEW )?CERTIFICATE REQUEST-----\r?\n([A-Za-z0-9+/=\r\n]+?)\r?\n?-----END (NEW )?CERTIFICATE REQUEST-----\s*$/.exec(
      text,
    );
  if (!match?.[2]) return false;
  const body = match[2].replace(/\s/g, '');
  return body.length >= 64 && body.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(body);
}
