import { problemMessage } from './dns-fields.js';
import type { SkipReason } from './zone-reader.js';

/*
 * DNS problems in the partner's words, for every face (the chat, the Mini App): the locale keys
 * and their parameters are core's; the translation is the caller's.
 */

/** Translates a locale key (the chat's `ctx.t`, or the Mini App's translation for its locale). */
export type WordsOf = (key: string, options?: Record<string, unknown>) => string;

/** A field's name for the partner (`mail_server` → `dns:fieldName.mailServer`); the name itself when unknown. */
export function fieldName(t: WordsOf, field: string): string {
  const key = field.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
  return t(`dns:fieldName.${key}`, { defaultValue: field });
}

/** Why a field was refused (`dns:reason.<reason>`, with its bounds). */
export function describeFieldReason(t: WordsOf, problem: { field: string; reason: string }): string {
  const { key, params } = problemMessage(problem);
  return t(key, params);
}

/** Why a line was skipped, in the partner's language: `dns:skip.<key>`, a field problem in words. */
export function describeSkipReason(t: WordsOf, reason: SkipReason): string {
  if (reason.key !== 'field') return t(`dns:skip.${reason.key}`, reason.params);
  const { field, reason: code } = reason.params;
  return t('dns:skip.field', {
    field: fieldName(t, field),
    reason: describeFieldReason(t, { field, reason: code }),
  });
}
