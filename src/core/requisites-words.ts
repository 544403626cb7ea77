import type { WordsOf } from './dns-words.js';
import { type FieldCheck, type FieldSpec, postalFormOf } from './requisites-fields.js';

/*
 * A requisites field in the partner's words, for every face (the chat's form, the Mini App's
 * customer editor): its label, the hint for its form, and why a value was refused. The locale keys
 * (`order:field.*`, `order:hint.*`, `order:invalid.*`) and their parameters are core's; the
 * translation is the caller's, so both faces word a field the same way.
 */

/** A value refused by checkField. */
export type RefusedCheck = Extract<FieldCheck, { ok: false }>;

/** `legal_address` → `legalAddress`: API field names as camelCase i18n keys. */
const camelCase = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** Human label of a field path: `legal_address.city` → "Юридический адрес — город". */
export function fieldLabel(t: WordsOf, path: string): string {
  const parts = path.split('.');
  const last = parts.at(-1) ?? path;
  const name = t(`order:field.${camelCase(last)}`, { defaultValue: last });
  const parent = parts.at(-2);
  // The bank's fields name themselves ("банк", "SWIFT/BIC"): "Банк — банк" says nothing more.
  const group =
    parent && parent !== 'bank_requisites' ? t(`order:group.${camelCase(parent)}`, { defaultValue: '' }) : '';
  return group ? `${group} — ${name}` : name;
}

/** A label at the start of a line: "Фамилия", "Юридический адрес — город". */
export function lineLabel(t: WordsOf, path: string): string {
  return fieldLabel(t, path).replace(/^\p{Ll}/u, (c) => c.toUpperCase());
}

/** `10, 12` → "10 или 12": a list of numbers in words of the caller's language. */
function joinNumbersInWords(t: WordsOf, numbers: readonly number[]): string {
  const head = numbers.slice(0, -1).join(', ');
  const last = String(numbers.at(-1) ?? '');
  return head === '' ? last : `${head} ${t('order:or')} ${last}`;
}

/** The postal code form of a country in words, with its example when it has one. */
function describePostalForm(t: WordsOf, country: string | undefined) {
  const { form, example } = postalFormOf(country);
  return {
    format: t(`order:postalForm.${form}`),
    example: example ?? '',
    country: country ?? '',
    withCountry: country !== undefined,
    withExample: example !== undefined,
  };
}

/** Why a value was refused: the `order:invalid.*` key and its parameters in words, never codes. */
export function refusalWords(
  t: WordsOf,
  label: string,
  refused: RefusedCheck,
): { key: string; params: Record<string, unknown> } {
  const params = refused.params ?? {};
  switch (refused.reason) {
    case 'digits': {
      const lengths = params.lengths ?? [];
      return {
        key: 'order:invalid.digits',
        params: {
          label,
          count: lengths.at(-1) ?? 0,
          lengths: joinNumbersInWords(t, lengths),
          example: params.example ?? '',
        },
      };
    }
    case 'postalCode': {
      const words = describePostalForm(t, params.country);
      const key = !words.withCountry
        ? 'order:invalid.postalCodeAny'
        : words.withExample
          ? 'order:invalid.postalCode'
          : 'order:invalid.postalCodeOther';
      return { key, params: { label, ...words } };
    }
    case 'checksum':
      return { key: 'order:invalid.checksum', params: { label, example: params.example ?? '' } };
    case 'ogrnFirstDigit':
    case 'ogrnipFirstDigit':
      return {
        key: `order:invalid.${refused.reason}`,
        params: { label, digit: params.firstDigit ?? '', example: params.example ?? '' },
      };
    default:
      return {
        key: `order:invalid.${refused.reason}`,
        params: { label, ...(params.max === undefined ? {} : { max: params.max }) },
      };
  }
}

/** A refused value of a field (by request path) as one line of words. */
export function describeRefusal(t: WordsOf, path: string, check: RefusedCheck): string {
  const { key, params } = refusalWords(t, lineLabel(t, path), check);
  return t(key, params);
}

/** The line under a field's question that says what form the answer takes ('' when none). */
export function describeFieldForm(t: WordsOf, field: FieldSpec, country: string | undefined): string {
  if (field.kind === 'digits') {
    const lengths = field.lengths ?? [];
    return t('order:hint.digits', {
      count: lengths.at(-1) ?? 0,
      lengths: joinNumbersInWords(t, lengths),
      example: field.example ?? '',
    });
  }
  if (field.kind === 'postalCode') {
    const words = describePostalForm(t, country);
    return t(
      words.withCountry && words.withExample ? 'order:hint.postalCode' : 'order:hint.postalCodeOther',
      words,
    );
  }
  if (field.kind === 'date' && field.past) return t('order:hint.pastDate');
  return t(`order:hint.${field.kind}`, { defaultValue: '' });
}
