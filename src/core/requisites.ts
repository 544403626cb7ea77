import { normalizeTyped } from './text.js';

/*
 * Customer requisites as partner-api.md describes them: three customer types, their fields,
 * the address block, optional bank requisites, and the WHOIS blocks of BY/БЕЛ and RU/SU/РФ
 * domains. The bot asks for fields in this order and builds request blocks from the answers.
 */

export const CUSTOMER_TYPES = ['natural', 'businessman', 'juridical'] as const;
export type CustomerType = (typeof CUSTOMER_TYPES)[number];

/**
 * How a typed value is checked; each kind has an error message key `order:invalid.<reason>`.
 * `text` is free text (a city, a company name), `name` a person's name, `code` a document
 * series, number or registration number, `digits` a number of a fixed count of digits (УНП,
 * ИНН, КПП, ОГРН), `postalCode` a postal code in the form of the address's country.
 */
export type FieldKind =
  | 'text'
  | 'name'
  | 'code'
  | 'email'
  | 'phone'
  | 'date'
  | 'country'
  | 'digits'
  | 'postalCode'
  | 'swift'
  | 'iban'
  | 'boolean';

/** One value the bot asks for. `optional` fields can be skipped (sent empty or left out). */
export interface FieldSpec {
  /** Dotted path in the request block, e.g. `address.city`. */
  path: string;
  kind: FieldKind;
  optional?: boolean;
  /** For `digits`: allowed lengths. */
  lengths?: readonly number[];
  /** For `digits`: a well-formed value shown in the hint and the error. */
  example?: string;
  /** For `digits`: the number's control digits are checked (УНП, ИНН, ОГРН and ОГРНИП). */
  checksum?: Checksum;
  /** For `date`: a date that has happened (a birth, an issue), so not after today. */
  past?: boolean;
  /** Sent as an empty string when skipped (the provider requires the property). */
  emptyWhenSkipped?: boolean;
}

/** Why a typed value was refused (the suffix of its `order:invalid.*` message key). */
export type FieldReason =
  | 'empty'
  | 'tooLong'
  | 'text'
  | 'name'
  | 'code'
  | 'email'
  | 'phone'
  | 'date'
  | 'pastDate'
  | 'country'
  | 'digits'
  | 'postalCode'
  | 'swift'
  | 'iban'
  | 'checksum'
  | 'useButtons';

/** The facts a refusal's message needs (numbers and examples, never words of one language). */
export interface FieldProblemParams {
  max?: number;
  lengths?: readonly number[];
  example?: string;
  /** For `postalCode`: the address's country and the form its codes take. */
  country?: string;
  postalForm?: PostalForm;
}

/** The result of checkField: the value to send, or why it is refused. */
export type FieldCheck =
  | { ok: true; value: string | boolean }
  | { ok: false; reason: FieldReason; params?: FieldProblemParams };

/** What a value is checked against besides itself. */
export interface FieldContext {
  /** Country code of the same address (for its postal code), when already answered. */
  country?: string | undefined;
  /** "Now", for dates that must not be in the future; tests pass a fixed one. */
  now?: Date;
}

const MAX_LENGTH = 255;

/**
 * Postal code forms by country (ISO 3166 code). A country not listed takes `other`: 3–10 Latin
 * letters, digits, spaces or hyphens, starting and ending with a letter or digit.
 */
export type PostalForm = 'digits6' | 'digits5' | 'pl' | 'lt' | 'lv' | 'us' | 'other';

const POSTAL_FORMS: Record<PostalForm, { pattern: RegExp; example: string | undefined }> = {
  digits6: { pattern: /^\d{6}$/, example: '220030' },
  digits5: { pattern: /^\d{5}$/, example: '10115' },
  pl: { pattern: /^\d{2}-\d{3}$/, example: '00-950' },
  lt: { pattern: /^(LT-)?\d{5}$/, example: 'LT-01100' },
  lv: { pattern: /^LV-\d{4}$/, example: 'LV-1050' },
  us: { pattern: /^\d{5}(-\d{4})?$/, example: '10001' },
  other: { pattern: /^[A-Z0-9][A-Z0-9 -]{1,8}[A-Z0-9]$/, example: undefined },
};

const POSTAL_FORM_OF = new Map<string, PostalForm>([
  ['BY', 'digits6'],
  ['RU', 'digits6'],
  ['KZ', 'digits6'],
  ['UA', 'digits5'],
  ['DE', 'digits5'],
  ['PL', 'pl'],
  ['LT', 'lt'],
  ['LV', 'lv'],
  ['US', 'us'],
]);

/** The form postal codes of a country take, and an example of one (none for `other`). */
export function postalFormOf(country: string | undefined): { form: PostalForm; example: string | undefined } {
  const form = (country && POSTAL_FORM_OF.get(country.toUpperCase())) || 'other';
  return { form, example: POSTAL_FORMS[form].example };
}

/** Well-formed values of the digit fields, shown in hints and errors. */
const DIGITS_EXAMPLE = '123456789012345';

/** A letter, a digit, and what may sit between them in a name or a code. */
const HAS_LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const NAME = /^[\p{L}\p{M}]+(?:(?:[ '’.-]|\. )[\p{L}\p{M}]+)*\.?$/u;
const CODE = /^[\p{L}\p{N}](?:[\p{L}\p{N} ./-]*[\p{L}\p{N}])?$/u;
/** Emoji and control characters have no place in requisites a registry keeps. */
const NOT_TEXT = /[\p{Extended_Pictographic}\p{Cc}\p{Co}\p{Cn}]/u;
/**
 * Not part of a name though Unicode calls them letters: emoji that are letters (ℹ, the
 * "information" emoji), emoji presentation and the Hangul fillers, which look like nothing.
 */
const NOT_NAME = /\p{Extended_Pictographic}|\p{Emoji_Presentation}|\uFE0F|[\u3164\u115F\u1160\uFFA0]/u;
/** The local part of an address: ASCII letters, digits and the usual signs, dots not doubled. */
const EMAIL_LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const EMAIL_DOMAIN_LABEL = /^(?!-)[\p{L}\p{N}-]{1,63}(?<!-)$/u;
const EARLIEST_YEAR = 1900;

/** Which registry's control digits a number carries. */
export type Checksum = 'unp' | 'inn' | 'ogrn';

const weighted = (digits: readonly number[], weights: readonly number[]): number =>
  weights.reduce((sum, weight, i) => sum + weight * (digits[i] ?? 0), 0);

/** The remainder of a long decimal number, digit by digit (ОГРН does not fit a double exactly). */
const remainder = (digits: readonly number[], by: number): number =>
  digits.reduce((rest, digit) => (rest * 10 + digit) % by, 0);

/**
 * Whether a number's control digits hold. УНП (Belarus): the 9th digit is the sum of the first 8
 * weighted 29 23 19 17 13 7 5 3, mod 11 (10 never is one). ИНН (Russia): 10 digits, one control
 * digit; 12 digits, two (the FNS weights, mod 11, mod 10). ОГРН: the first 12 digits mod 11, mod 10;
 * ОГРНИП: the first 14 mod 13, mod 10.
 */
export function controlDigitsHold(kind: Checksum, number: string): boolean {
  const d = [...number].map(Number);
  const last = d.at(-1);
  switch (kind) {
    case 'unp': {
      const check = weighted(d, [29, 23, 19, 17, 13, 7, 5, 3]) % 11;
      return d.length === 9 && check !== 10 && check === last;
    }
    case 'inn':
      if (d.length === 10) return (weighted(d, [2, 4, 10, 3, 5, 9, 4, 6, 8]) % 11) % 10 === last;
      return (
        d.length === 12 &&
        (weighted(d, [7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) % 11) % 10 === d[10] &&
        (weighted(d, [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) % 11) % 10 === last
      );
    case 'ogrn':
      if (d.length === 13) return remainder(d.slice(0, 12), 11) % 10 === last;
      return d.length === 15 && remainder(d.slice(0, 14), 13) % 10 === last;
  }
}

/** Whether an IBAN's check digits hold (ISO 13616: the number moved and read mod 97 is 1). */
function ibanChecksumHolds(iban: string): boolean {
  const moved = `${iban.slice(4)}${iban.slice(0, 4)}`;
  let rest = 0;
  for (const char of moved) {
    const value = /\d/.test(char) ? Number(char) : char.charCodeAt(0) - 55;
    rest = (rest * (value > 9 ? 100 : 10) + value) % 97;
  }
  return rest === 1;
}

function isEmail(text: string): boolean {
  if (text.length > 254) return false;
  const at = text.lastIndexOf('@');
  const local = text.slice(0, at);
  const labels = text.slice(at + 1).split('.');
  const top = labels.at(-1) ?? '';
  return (
    at > 0 &&
    local.length <= 64 &&
    EMAIL_LOCAL.test(local) &&
    labels.length >= 2 &&
    labels.every((label) => EMAIL_DOMAIN_LABEL.test(label)) &&
    /^\p{L}{2,}$|^xn--[a-z0-9-]+$/iu.test(top)
  );
}

/** A `DD.MM.YYYY` date as a UTC day number, or undefined when there is no such date. */
function dayOf(text: string): { day: number; year: number } | undefined {
  const match = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(text);
  if (!match) return undefined;
  const [, d, m, y] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d)
    return undefined;
  return { day: date.getTime() / 86_400_000, year: y };
}

/**
 * The latest calendar day that is "today" somewhere (UTC+14): a date typed today is never
 * refused as future, whatever the user's time zone.
 */
function latestToday(now: Date): number {
  return Math.floor((now.getTime() + 14 * 3_600_000) / 86_400_000);
}

/**
 * Checks one typed value by the format of its field; returns the value to send, or the reason it
 * is refused. The text is read as normalizeTyped leaves it: an answer of only invisible
 * characters or spaces is empty.
 */
export function checkField(spec: FieldSpec, raw: string, context: FieldContext = {}): FieldCheck {
  const text = normalizeTyped(raw);
  if (text === '') return { ok: false, reason: 'empty' };
  if (text.length > MAX_LENGTH) return { ok: false, reason: 'tooLong', params: { max: MAX_LENGTH } };
  switch (spec.kind) {
    case 'email':
      return isEmail(text) ? { ok: true, value: text } : { ok: false, reason: 'email' };
    case 'phone': {
      const compact = text.replace(/[\s()-]/g, '');
      return /^\+[1-9]\d{6,14}$/.test(compact)
        ? { ok: true, value: compact }
        : { ok: false, reason: 'phone' };
    }
    case 'date': {
      const date = dayOf(text);
      if (!date) return { ok: false, reason: 'date' };
      if (spec.past && (date.year < EARLIEST_YEAR || date.day > latestToday(context.now ?? new Date())))
        return { ok: false, reason: 'pastDate' };
      return { ok: true, value: text };
    }
    case 'country':
      return /^[A-Za-z]{2}$/.test(text)
        ? { ok: true, value: text.toUpperCase() }
        : { ok: false, reason: 'country' };
    case 'digits': {
      const digits = text.replace(/\s/g, '');
      const lengths = spec.lengths ?? [];
      const okLength = lengths.length === 0 || lengths.includes(digits.length);
      const example = spec.example ?? DIGITS_EXAMPLE.slice(0, lengths[0] ?? 9);
      if (!/^\d+$/.test(digits) || !okLength)
        return { ok: false, reason: 'digits', params: { lengths, example } };
      if (spec.checksum && !controlDigitsHold(spec.checksum, digits))
        return { ok: false, reason: 'checksum', params: { lengths, example } };
      return { ok: true, value: digits };
    }
    case 'postalCode': {
      const code = text.toUpperCase();
      const { form, example } = postalFormOf(context.country);
      if (POSTAL_FORMS[form].pattern.test(code)) return { ok: true, value: code };
      return {
        ok: false,
        reason: 'postalCode',
        params: {
          postalForm: form,
          ...(context.country ? { country: context.country.toUpperCase() } : {}),
          ...(example ? { example } : {}),
        },
      };
    }
    case 'swift': {
      const code = text.replace(/\s/g, '').toUpperCase();
      return /^[A-Z]{6}[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/.test(code)
        ? { ok: true, value: code }
        : { ok: false, reason: 'swift' };
    }
    case 'iban': {
      const iban = text.replace(/\s/g, '').toUpperCase();
      return /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban) && ibanChecksumHolds(iban)
        ? { ok: true, value: iban }
        : { ok: false, reason: 'iban' };
    }
    case 'name':
      return NAME.test(text) && !NOT_NAME.test(text)
        ? { ok: true, value: text }
        : { ok: false, reason: 'name' };
    case 'code':
      return CODE.test(text) && !NOT_NAME.test(text)
        ? { ok: true, value: text }
        : { ok: false, reason: 'code' };
    case 'boolean':
      return { ok: false, reason: 'useButtons' };
    case 'text':
      return HAS_LETTER_OR_DIGIT.test(text) && !NOT_TEXT.test(text)
        ? { ok: true, value: text }
        : { ok: false, reason: 'text' };
  }
}

/** The path of a field next to `path` in the same block: `legal_address.postal_code` → `legal_address.country_code`. */
export function siblingPath(path: string, name: string): string {
  const dot = path.lastIndexOf('.');
  return dot < 0 ? name : `${path.slice(0, dot + 1)}${name}`;
}

// The country comes first: the postal code is checked in the form of that country.
const ADDRESS_FIELDS: FieldSpec[] = [
  { path: 'country_code', kind: 'country' },
  { path: 'postal_code', kind: 'postalCode' },
  { path: 'region', kind: 'text' },
  { path: 'city', kind: 'text' },
  { path: 'street', kind: 'text' },
  { path: 'building', kind: 'text' },
  { path: 'room', kind: 'text', optional: true, emptyWhenSkipped: true },
];

const BANK_FIELDS: FieldSpec[] = [
  { path: 'bank_requisites.bank_name', kind: 'text', optional: true },
  { path: 'bank_requisites.swift', kind: 'swift', optional: true },
  { path: 'bank_requisites.iban', kind: 'iban', optional: true },
];

/** УНП, the Belarusian taxpayer number the provider takes as `ucn`: nine digits. */
const UCN: FieldSpec = { path: 'ucn', kind: 'digits', lengths: [9], example: '190123455', checksum: 'unp' };

function under(prefix: string, fields: FieldSpec[]): FieldSpec[] {
  return fields.map((f) => ({ ...f, path: `${prefix}.${f.path}` }));
}

/**
 * The request block each customer type sends: the one home of that mapping (the bot builds the
 * block a customer's answers make through it). Exhaustive: a new customer type fails `tsc` here.
 */
export const REQUISITES_BLOCK = {
  natural: 'natural_person_requisites',
  businessman: 'individual_businessman_requisites',
  juridical: 'juridical_person_requisites',
} as const satisfies Record<CustomerType, string>;

/** The name of a customer requisites block in an order request. */
export type RequisitesBlock = (typeof REQUISITES_BLOCK)[CustomerType];

/** Fields of a customer, in asking order; postal address and bank requisites are asked apart. */
export function customerFields(type: CustomerType): FieldSpec[] {
  switch (type) {
    case 'natural':
      return [
        { path: 'last_name', kind: 'name' },
        { path: 'first_name', kind: 'name' },
        { path: 'middle_name', kind: 'name', optional: true, emptyWhenSkipped: true },
        ...under('address', ADDRESS_FIELDS),
      ];
    case 'businessman':
      return [
        UCN,
        { path: 'last_name', kind: 'name' },
        { path: 'first_name', kind: 'name' },
        { path: 'middle_name', kind: 'name', optional: true, emptyWhenSkipped: true },
        ...under('legal_address', ADDRESS_FIELDS),
      ];
    case 'juridical':
      return [
        UCN,
        { path: 'company_name', kind: 'text' },
        { path: 'executive_last_name', kind: 'name' },
        { path: 'executive_first_name', kind: 'name' },
        { path: 'executive_middle_name', kind: 'name', optional: true, emptyWhenSkipped: true },
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
      { path: 'whois_person_requisites.series', kind: 'code' },
      { path: 'whois_person_requisites.number', kind: 'code' },
      { path: 'whois_person_requisites.organization', kind: 'text' },
      { path: 'whois_person_requisites.identity_number', kind: 'code', optional: true },
      { path: 'whois_person_requisites.date_of_issue', kind: 'date', past: true },
    );
    if (rules === 'ru')
      fields.push({ path: 'whois_person_requisites.date_of_birth', kind: 'date', past: true });
  }
  if (blocks.includes('company')) {
    if (rules === 'by') {
      fields.push(
        { path: 'whois_company_requisites.registration_number', kind: 'code' },
        { path: 'whois_company_requisites.registration_organization', kind: 'text' },
        { path: 'whois_company_requisites.registration_issue_number', kind: 'code', optional: true },
        { path: 'whois_company_requisites.registration_issue_date', kind: 'date', past: true },
        { path: 'whois_company_requisites.is_government_company', kind: 'boolean' },
      );
    } else {
      fields.push(
        // An individual businessman has a person's ИНН (12 digits) and an ОГРНИП (15), and no КПП
        // of his own; an organisation has a 10-digit ИНН and a 13-digit ОГРН.
        type === 'businessman'
          ? {
              path: 'whois_company_requisites.inn',
              kind: 'digits',
              lengths: [12],
              example: '500100732259',
              checksum: 'inn',
            }
          : {
              path: 'whois_company_requisites.inn',
              kind: 'digits',
              lengths: [10],
              example: '7707083893',
              checksum: 'inn',
            },
        {
          path: 'whois_company_requisites.kpp',
          kind: 'digits',
          lengths: [9],
          example: '770701001',
          optional: type === 'businessman',
        },
        type === 'businessman'
          ? {
              path: 'whois_company_requisites.ogrn',
              kind: 'digits',
              lengths: [15],
              example: '304500116000157',
              checksum: 'ogrn',
            }
          : {
              path: 'whois_company_requisites.ogrn',
              kind: 'digits',
              lengths: [13],
              example: '1027700132195',
              checksum: 'ogrn',
            },
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
