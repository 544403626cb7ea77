import { countryCodeOf } from './countries.js';
import { readPhone } from './phone-numbers.js';
import {
  type Checksum,
  controlDigitsHold,
  hasIssuedFirstDigit,
  ibanChecksumHolds,
} from './requisites-control-digits.js';
import { normalizeTyped } from './text.js';

/*
 * The rules of one requisites field: what kinds of value there are, how a typed value of each
 * kind is normalised and checked, and why it is refused. A value typed in a form step and a value
 * read from a pasted card are both held to checkField.
 */

/**
 * How a typed value is checked; each kind has an error message key `order:invalid.<reason>`.
 * `text` is free text (a city, a company name), `name` a person's name, `code` a document
 * series, number or registration number, `digits` a number of a fixed count of digits (УНП,
 * ИНН, КПП, ОГРН), `postalCode` a postal code in the form of the address's country.
 */
export const FIELD_KINDS = [
  'text',
  'name',
  'code',
  'email',
  'phone',
  'date',
  'country',
  'digits',
  'postalCode',
  'swift',
  'iban',
  'boolean',
] as const;
export type FieldKind = (typeof FIELD_KINDS)[number];

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
  /** For `digits`: the register whose name may be typed before the number («УНП 591705582»). */
  register?: NumberRegister;
  /** For `date`: a date that has happened (a birth, an issue), so not after today. */
  past?: boolean;
  /** Sent as an empty string when skipped (the provider requires the property). */
  emptyWhenSkipped?: boolean;
}

/** The registers whose numbers the digit fields ask for: УНП, ИНН, КПП and ОГРН (ОГРНИП too). */
export type NumberRegister = 'unp' | 'inn' | 'kpp' | 'ogrn';

/**
 * The names a register's number goes by, in Russian and in Latin letters, the longer first where
 * one begins another. People copy a number from a document with its name before it, so a typed
 * answer and a card's line both read the number after one of these.
 */
export const REGISTER_NAMES: Record<NumberRegister, readonly string[]> = {
  unp: ['унп', 'unp', 'ucn'],
  inn: ['инн', 'inn', 'tin'],
  kpp: ['кпп', 'kpp'],
  ogrn: ['огрнип', 'огрн', 'ogrnip', 'ogrn', 'psrn'],
};

/**
 * The text without its register's name before the number: «УНП: 591 705 582» → «591 705 582».
 * Only the field's own register counts, and only when digits follow (a colon or № between is
 * allowed), so «ИНН 591705582» at the УНП step is still refused rather than read as a УНП.
 */
export function stripRegisterName(text: string, register: NumberRegister | undefined): string {
  if (register === undefined) return text;
  const names = REGISTER_NAMES[register].join('|');
  return text.replace(new RegExp(`^(?:${names})(?!\\p{L})\\s*(?:[:№]\\s*)?(?=\\d)`, 'iu'), '');
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
  | 'ogrnFirstDigit'
  | 'ogrnipFirstDigit'
  | 'useButtons';

/** The facts a refusal's message needs (numbers and examples, never words of one language). */
export interface FieldProblemParams {
  max?: number;
  lengths?: readonly number[];
  example?: string;
  /** For a first-digit refusal: the digit the number was typed with. */
  firstDigit?: string;
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

/**
 * A postal code as its country writes it, spaces typed inside it allowed: «220 030» is 220030,
 * «00 950» in Poland 00-950 and «LT 01100» LT-01100 (a space where the form has a hyphen).
 */
function postalCodeIn(text: string, form: PostalForm): string | undefined {
  const code = text.toUpperCase().replace(/\s+/g, ' ');
  // A form that has spaces of its own (a British code) takes them as typed.
  const spaced = form === 'other' ? [] : [code.replace(/ /g, ''), code.replace(/ /g, '-')];
  return [code, ...spaced].find((c) => POSTAL_FORMS[form].pattern.test(c));
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
      const phone = readPhone(text);
      return phone === undefined ? { ok: false, reason: 'phone' } : { ok: true, value: phone };
    }
    case 'date': {
      const date = dayOf(text);
      if (!date) return { ok: false, reason: 'date' };
      if (spec.past && (date.year < EARLIEST_YEAR || date.day > latestToday(context.now ?? new Date())))
        return { ok: false, reason: 'pastDate' };
      return { ok: true, value: text };
    }
    case 'country': {
      const code = countryCodeOf(text);
      return code === undefined ? { ok: false, reason: 'country' } : { ok: true, value: code };
    }
    case 'digits': {
      const digits = stripRegisterName(text, spec.register).replace(/\s/g, '');
      const lengths = spec.lengths ?? [];
      const okLength = lengths.length === 0 || lengths.includes(digits.length);
      const example = spec.example ?? DIGITS_EXAMPLE.slice(0, lengths[0] ?? 9);
      if (!/^\d+$/.test(digits) || !okLength)
        return { ok: false, reason: 'digits', params: { lengths, example } };
      // A wrong first digit says more than a wrong last one: the number is not of this kind at all.
      if (spec.checksum && !hasIssuedFirstDigit(spec.checksum, digits)) {
        const reason = digits.length === 15 ? 'ogrnipFirstDigit' : 'ogrnFirstDigit';
        return { ok: false, reason, params: { lengths, example, firstDigit: digits.charAt(0) } };
      }
      if (spec.checksum && !controlDigitsHold(spec.checksum, digits))
        return { ok: false, reason: 'checksum', params: { lengths, example } };
      return { ok: true, value: digits };
    }
    case 'postalCode': {
      const { form, example } = postalFormOf(context.country);
      const code = postalCodeIn(text, form);
      if (code !== undefined) return { ok: true, value: code };
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
