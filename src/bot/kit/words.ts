import { escapeHtml } from '../../core/format.js';
import type { Translate } from './i18n.js';

/*
 * The one home of the provider's words: every state value and period type the API sends is shown
 * through here, from the tables `words:state` and `words:period` of the locales. A value the
 * tables do not know yet is shown as the provider sent it and logged once, so it can be added.
 */

/** What the provider's value is: an order's or invoice's state, a check verdict, a period unit. */
export type WordKind = 'state' | 'period';

/** Where unknown values are reported (the bot's logger fits). */
export interface UnknownWordLog {
  warn(details: object, message: string): void;
}

let log: UnknownWordLog | undefined;
/** `kind:value` pairs already reported: each is logged once per process. */
const reported = new Set<string>();

/** Sets where unknown provider values are logged (createFeatures passes the bot's logger). */
export function logUnknownWordsTo(logger: UnknownWordLog | undefined): void {
  log = logger;
}

function reportUnknown(kind: WordKind, value: string): void {
  const key = `${kind}:${value}`;
  if (log === undefined || reported.has(key)) return;
  reported.add(key);
  log.warn({ kind, value }, 'provider value without words in the locales');
}

/** Key segments come from the provider: only plain identifiers are looked up, never `a.b` paths. */
const LOOKUP = /^[A-Za-z][A-Za-z0-9_]*$/;

/** The words for a value, or `undefined` (reported) when the table has none. */
function lookUp(t: Translate, kind: WordKind, value: string, options: Record<string, unknown> = {}) {
  const key = `words:${kind}.${value}`;
  const text = LOOKUP.test(value) ? t(key, { ...options, defaultValue: '' }) : '';
  if (text === '' || text === key) {
    reportUnknown(kind, value);
    return undefined;
  }
  return text;
}

/** A state (order, invoice, domain check) in the chat's language, HTML-escaped; unknown as sent. */
export function stateWord(t: Translate, state: string): string {
  return escapeHtml(lookUp(t, 'state', state) ?? state);
}

/** Whether the tables know a state (a check verdict the bot can phrase itself). */
export function isKnownState(t: Translate, state: string): boolean {
  return lookUp(t, 'state', state) !== undefined;
}

/** `12 мес`, `2 года`: a count of a period unit, pluralised; unknown units as `2 week`. */
export function periodWords(t: Translate, periodType: string, count: number): string {
  return escapeHtml(lookUp(t, 'period', periodType, { count }) ?? `${count} ${periodType}`);
}

/** `от 1 до 10 лет`, or `1 год` when the two ends are the same. */
export function periodRange(t: Translate, periodType: string, min: number, max: number): string {
  if (min === max) return periodWords(t, periodType, min);
  const unit = lookUp(t, 'period', periodType, { count: max });
  if (unit === undefined) return escapeHtml(`${min}–${max} ${periodType}`);
  return t('words:range', { min, max: escapeHtml(unit) });
}
