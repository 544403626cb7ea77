import { escapeHtml } from '../../../core/format.js';
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
