import { readCustomerType, STEP, toAnswerId, WHOIS_PREFIX } from '../../../core/customer-answers.js';
import { escapeHtml } from '../../../core/format.js';
import { type FieldCheck, type FieldSpec, postalFormOf } from '../../../core/requisites-fields.js';
import { cardFields } from '../../../core/requisites-paste.js';
import { UserInputError } from '../../errors.js';
import type { Translate } from '../../kit/i18n.js';

/** One line of a customer card: a field (by request path, or `customerType`) and its value. */
export interface CardEntry {
  path: string;
  value: string | boolean;
}

/** `legal_address` → `legalAddress`: API field names as camelCase i18n keys. */
const camelCase = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** Human label of a field path: `legal_address.city` → "Юридический адрес — город". */
export function fieldLabel(t: Translate, path: string): string {
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
export function lineLabel(t: Translate, path: string): string {
  return fieldLabel(t, path).replace(/^\p{Ll}/u, (c) => c.toUpperCase());
}

function entryLine(t: Translate, entry: CardEntry): string {
  if (entry.path === 'customerType')
    return `${t('order:cardType')}: ${escapeHtml(t(`order:customerType.${String(entry.value)}`))}`;
  const value =
    entry.value === true ? t('order:yes') : entry.value === false ? t('order:no') : escapeHtml(entry.value);
  return `${escapeHtml(lineLabel(t, entry.path))}: ${value}`;
}

/**
 * A customer's card (a pasted one as read, or a saved profile): a bold title, one line per field
 * in the form's order with its label, then what was refused (already in words), then a note.
 */
export function renderCustomerCard(
  t: Translate,
  card: { title: string; entries: readonly CardEntry[]; problems?: readonly string[]; note?: string },
): string {
  const lines = [`<b>${escapeHtml(card.title)}</b>`, ...card.entries.map((e) => entryLine(t, e))];
  if (card.problems && card.problems.length > 0) lines.push('', ...card.problems.map((p) => `⚠️ ${p}`));
  if (card.note) lines.push('', card.note);
  return lines.join('\n');
}

/**
 * The lines of a customer card, in the order the form asks for them: the type, the fields, the
 * postal address when it differs, the bank, the WHOIS data, the contacts. Answers are read from a
 * draft's answers or a saved profile's data (the same ids).
 */
export function listCardEntries(answers: Record<string, unknown>): CardEntry[] {
  const type = readCustomerType(answers[STEP.customerType]);
  if (!type) return [];
  const entries: CardEntry[] = [{ path: STEP.customerType, value: type }];
  for (const field of cardFields(type)) {
    const value = answers[toAnswerId(field.path)];
    if (typeof value === 'string' && value !== '') entries.push({ path: field.path, value });
  }
  const government = answers[`${WHOIS_PREFIX}whois_company_requisites.is_government_company`];
  if (typeof government === 'boolean')
    entries.push({ path: 'whois_company_requisites.is_government_company', value: government });
  return entries;
}

/** The Yes and No buttons of a boolean question. */
export const yesNoOptions = (t: Translate) => [
  { label: t('order:yes'), value: true },
  { label: t('order:no'), value: false },
];

/** An answer as the summary shows it: Yes/No, a dash for none, else the escaped text. */
export function describeAnswer(t: Translate, value: unknown): string {
  if (value === true) return t('order:yes');
  if (value === false) return t('order:no');
  if (value === null || value === undefined || value === '') return '—';
  return escapeHtml(String(value));
}

/** `10, 12` → "10 или 12": a list of numbers in words of the chat's language. */
function joinNumbersInWords(t: Translate, numbers: readonly number[]): string {
  const head = numbers.slice(0, -1).join(', ');
  const last = String(numbers.at(-1) ?? '');
  return head === '' ? last : `${head} ${t('order:or')} ${last}`;
}

/** The postal code form of a country in words, with its example when it has one. */
function describePostalForm(t: Translate, country: string | undefined) {
  const { form, example } = postalFormOf(country);
  return {
    format: t(`order:postalForm.${form}`),
    example: example ?? '',
    country: country ?? '',
    withCountry: country !== undefined,
    withExample: example !== undefined,
  };
}

/** The message of a refused value: its i18n key and parameters in words, never codes. */
export function buildRefusal(t: Translate, label: string, refused: Extract<FieldCheck, { ok: false }>) {
  const params = refused.params ?? {};
  switch (refused.reason) {
    case 'digits': {
      const lengths = params.lengths ?? [];
      return new UserInputError('order:invalid.digits', {
        label,
        count: lengths.at(-1) ?? 0,
        lengths: joinNumbersInWords(t, lengths),
        example: params.example ?? '',
      });
    }
    case 'postalCode': {
      const words = describePostalForm(t, params.country);
      const key = !words.withCountry
        ? 'order:invalid.postalCodeAny'
        : words.withExample
          ? 'order:invalid.postalCode'
          : 'order:invalid.postalCodeOther';
      return new UserInputError(key, { label, ...words });
    }
    case 'checksum':
      return new UserInputError('order:invalid.checksum', { label, example: params.example ?? '' });
    case 'ogrnFirstDigit':
    case 'ogrnipFirstDigit':
      return new UserInputError(`order:invalid.${refused.reason}`, {
        label,
        digit: params.firstDigit ?? '',
        example: params.example ?? '',
      });
    default:
      return new UserInputError(`order:invalid.${refused.reason}`, {
        label,
        ...(params.max === undefined ? {} : { max: params.max }),
      });
  }
}

/** A refused field of a pasted card as a line of the card's problems. */
export function describeRefusal(
  t: Translate,
  path: string,
  check: Extract<FieldCheck, { ok: false }>,
): string {
  const error = buildRefusal(t, lineLabel(t, path), check);
  return t(error.key, error.params);
}

/** The line under a field's question that says what form the answer takes. */
export function describeFieldForm(t: Translate, field: FieldSpec, country: string | undefined): string {
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
