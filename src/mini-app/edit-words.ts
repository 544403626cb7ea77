/*
 * The editor's plan and outcome in the user's words: the chat's own keys where the chat says the
 * same thing (a field's problem, the CNAME rules, "Done: 3 of 3 changes applied"), the app's own
 * for what only the app says. Plain text: the app shows it as text, never as HTML.
 */
import { ApiHttpError } from '../api/errors.js';
import type { ChangeLine } from '../core/dns-change.js';
import { describeFieldReason, fieldName, type WordsOf } from '../core/dns-words.js';
import { type EditProblem, rowOfRecord, type ZoneRow } from '../core/zone-edits.js';
import type { ChangeFailure } from '../services/dns-apply.js';

/** A row as one line: `A www 93.125.99.10 · TTL 3600`. */
export function rowText(row: ZoneRow): string {
  return `${row.type} ${row.host} ${row.data} · TTL ${row.ttl}`;
}

/** One line of the plan, as the app shows it and the rows it is about. */
export function describeEditLine(t: WordsOf, line: ChangeLine) {
  if (line.op === 'change') {
    const before = rowOfRecord(line.before);
    const after = rowOfRecord(line.after);
    return {
      op: line.op,
      before,
      after,
      text: `${t('miniapp:plan.change')}: ${rowText(before)} → ${rowText(after)}`,
    };
  }
  const row = rowOfRecord(line.record);
  return { op: line.op, row, text: `${t(`miniapp:plan.${line.op}`)}: ${rowText(row)}` };
}

/** The counts: «Добавить: 1 · Изменить: 1 · Удалить: 1», the empty ones left out. */
export function describeCounts(t: WordsOf, lines: readonly ChangeLine[]): string {
  const parts = (['add', 'change', 'delete'] as const).flatMap((op) => {
    const count = lines.filter((line) => line.op === op).length;
    return count === 0 ? [] : [`${t(`miniapp:plan.${op}`)}: ${count}`];
  });
  return parts.length === 0 ? t('miniapp:plan.nothing') : parts.join(' · ');
}

/** Why an edit cannot be made, by the edit: a field's problem names the field as the chat does. */
export function describeProblem(t: WordsOf, problem: EditProblem) {
  const { edit } = problem;
  switch (problem.reason) {
    case 'gone':
    case 'twice':
    case 'nameServers':
      return { edit, message: t(`miniapp:problem.${problem.reason}`) };
    case 'cnameApex':
      return { edit, message: t('dnschange:cnameApex') };
    case 'cnameBeside':
      return {
        edit,
        message: t('dnschange:cnameBeside', { host: problem.host, types: problem.types.join(', ') }),
      };
    default:
      return {
        edit,
        field: problem.field,
        message: `${capitalize(fieldName(t, problem.field))}: ${describeFieldReason(t, problem)}`,
      };
  }
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Why the provider did not make a change (its own words when it gave them). */
export function describeFailure(t: WordsOf, failure: ChangeFailure) {
  const change = failure.change;
  const text = `${t(`miniapp:plan.${change.op}`)}: ${rowText(rowOfRecord(change.record))}`;
  if (failure.heldBack) return { text, reason: t('dns:heldBack') };
  const { error } = failure;
  if (error instanceof ApiHttpError && error.providerMessage && !error.isTokenRejected)
    return { text, reason: t('miniapp:providerSaid', { message: error.providerMessage }) };
  if (error instanceof ApiHttpError && error.isTokenRejected)
    return { text, reason: t('miniapp:error.tokenRejected') };
  return { text, reason: t('miniapp:error.providerUnavailable') };
}
