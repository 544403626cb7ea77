import { readCustomerType, STEP, toAnswerId, WHOIS_PREFIX } from '../../../core/customer-answers.js';
import { escapeHtml } from '../../../core/format.js';
import { cardFields } from '../../../core/requisites-paste.js';
import { lineLabel, type RefusedCheck, refusalWords } from '../../../core/requisites-words.js';
import { UserInputError } from '../../errors.js';
import type { Translate } from '../../kit/i18n.js';

/** One line of a customer card: a field (by request path, or `customerType`) and its value. */
export interface CardEntry {
  path: string;
  value: string | boolean;
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

/** The refusal of a value, thrown for the chat to say (the words are core's, as the Mini App's). */
export function buildRefusal(t: Translate, label: string, refused: RefusedCheck): UserInputError {
  const { key, params } = refusalWords(t, label, refused);
  return new UserInputError(key, params);
}
