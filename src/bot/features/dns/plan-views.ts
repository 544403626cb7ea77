/**
 * The screens of a multi-record plan (a zone import, a preset) and of its apply: a heading, the
 * counts, a table of the records each change touches (Действие | Тип | Хост | Значение | TTL), the
 * skipped lines and the failures as sections. Built for one renderer at a time (`rich`): a rich
 * message lists every record (up to Telegram's limits), the HTML screen keeps today's caps and its
 * 4,000 characters.
 */
import { countChanges, pairChanges } from '../../../core/dns-change.js';
import type { ImportPlan, ListedRecord } from '../../../core/dns-plan.js';
import type { DnsRecordData } from '../../../core/dns-records.js';
import { describeSkipReason } from '../../../core/dns-words.js';
import { toUnicodeDomain } from '../../../core/domain-names.js';
import { escapeHtml } from '../../../core/format.js';
import { cutGraphemes } from '../../../core/text.js';
import type { Translate } from '../../kit/i18n.js';
import { fitsRich, screenRich } from '../../kit/rich-screen.js';
import { fitScreenHtml, type Screen, type ScreenBlock, type TableRow } from '../../kit/screen.js';
import { describeRecord, recordDataCells, type SkippedLine } from './views.js';

/** What a plan does to a record, as its table row says (and the sign its HTML line starts with). */
export type PlanAction = 'add' | 'delete' | 'keep' | 'added' | 'deleted';

const SIGNS: Record<PlanAction, string> = { add: '+', delete: '−', keep: '=', added: '+', deleted: '−' };

/** A plan's table header: the action, then the record's columns. */
export const planColumns = (t: Translate): string[] =>
  ['action', 'type', 'host', 'value', 'ttl'].map((column) => t(`dns:column.${column}`));

/** A record of a plan as a row: its action in words and its cells; in HTML, `+ A www → … · TTL`. */
export function planRow(t: Translate, action: PlanAction, record: DnsRecordData): TableRow {
  return {
    cells: [t(`dns:planAction.${action}`), ...recordDataCells(t, record)],
    html: `${SIGNS[action]} ${describeRecord(t, record)}`,
  };
}

/**
 * A plan's counts as its report will count them (`pairChanges`): a record deleted and one added of
 * the same type and host is one change (a TTL or value change), not an add and a delete.
 */
export function planCounts(
  add: readonly DnsRecordData[],
  remove: readonly ListedRecord[],
): { add: number; change: number; delete: number } {
  const lines = pairChanges([
    ...remove.map((r) => ({ op: 'delete' as const, record: r.record })),
    ...add.map((record) => ({ op: 'add' as const, record })),
  ]);
  const count = (op: 'add' | 'change' | 'delete') => lines.filter((line) => line.op === op).length;
  return { add: count('add'), change: count('change'), delete: count('delete') };
}

/** Records listed per side of an HTML import preview; a rich one lists them all. */
const PREVIEW_RECORDS = 30;
const PREVIEW_SKIPPED = 20;

/** Everything an import preview shows, beside the plan. */
export interface ImportPreview {
  plan: ImportPlan;
  unchanged: readonly ListedRecord[];
  skipped: readonly SkippedLine[];
  /** The paragraphs under it: the merge or replace note, "nothing to change". */
  notes: readonly string[];
}

/** A skipped line of a zone file as a row: its number, its text, why (today's `• строка 3: …` in HTML). */
function skippedRow(t: Translate, line: SkippedLine): TableRow {
  const text = `<code>${escapeHtml(cutGraphemes(line.text, 80))}</code>`;
  const reason = escapeHtml(cutGraphemes(describeSkipReason(t, line.reason), 300));
  return {
    cells: [String(line.line), text, reason],
    html: `• ${t('dns:lineNo', { line: line.line })}: ${text} — ${reason}`,
  };
}

/**
 * The preview of an import: the counts (as the report counts: `planCounts`), a table of the records to add and delete (a rich message
 * lists the unchanged ones too), the skipped lines as a section, then the notes.
 */
export function importPreviewScreen(t: Translate, preview: ImportPreview, rich: boolean): Screen {
  const build = (all: boolean): Screen => {
    const { plan, unchanged, skipped } = preview;
    const cap = <T>(list: readonly T[], max: number) => (all ? list : list.slice(0, max));
    const rows = [
      ...cap(plan.add, PREVIEW_RECORDS).map((r) => planRow(t, 'add', r)),
      ...cap(plan.remove, PREVIEW_RECORDS).map((r) => planRow(t, 'delete', r.record)),
      ...(all ? unchanged.map((r) => planRow(t, 'keep', r.record)) : []),
    ];
    const counts = planCounts(plan.add, plan.remove);
    const blocks: ScreenBlock[] = [
      {
        type: 'text',
        html: [
          t('dns:importAdd', { count: counts.add }),
          t('dns:importChange', { count: counts.change }),
          t('dns:importDelete', { count: counts.delete }),
          t('dns:importUnchanged', { count: unchanged.length }),
        ].join('\n'),
      },
      ...(rows.length > 0 ? [{ type: 'table' as const, columns: planColumns(t), rows, compact: true }] : []),
      ...(skipped.length > 0
        ? [
            {
              type: 'section' as const,
              title: t('dns:importUnsupported', { count: skipped.length }),
              blocks: [
                {
                  type: 'table' as const,
                  columns: ['line', 'text', 'reason'].map((c) => t(`dns:column.${c}`)),
                  rows: cap(skipped, PREVIEW_SKIPPED).map((line) => skippedRow(t, line)),
                  compact: true,
                },
              ],
            },
          ]
        : []),
      ...preview.notes.map((html) => ({ type: 'text' as const, html })),
    ];
    return {
      title: t('dns:importTitle', { domain: escapeHtml(toUnicodeDomain(plan.domain)) }),
      blocks,
    };
  };
  return richOrCapped(rich, build);
}

/**
 * A rich screen lists everything when it fits Telegram's limits, else what the HTML screen lists;
 * the HTML screen keeps today's caps and is cut to 4,000 characters.
 */
export function richOrCapped(rich: boolean, build: (all: boolean) => Screen): Screen {
  const capped = build(false);
  if (rich) {
    const whole = build(true);
    if (fitsRich(screenRich(whole))) return whole;
    if (fitsRich(screenRich(capped))) return capped;
  }
  return fitScreenHtml(capped);
}

/** A change the provider refused, as the report lists it: the change, and the provider's reason. */
export interface ReportFailure {
  op: 'add' | 'delete';
  record: DnsRecordData;
  /** The provider's reason, HTML-safe. */
  reason: string;
}

/**
 * The report of an apply: how many of the partner's changes were made (the heading, counted by
 * `countChanges`: a TTL change is one, not its two calls), the failures with the provider's
 * reasons (an open section), and in a rich message a table of what was done.
 */
export function applyReportScreen(
  t: Translate,
  outcome: {
    applied: readonly { op: 'add' | 'delete'; record: DnsRecordData }[];
    failures: readonly ReportFailure[];
  },
  rich: boolean,
): Screen {
  const build = (all: boolean): Screen => {
    const { applied, failures } = outcome;
    const { done: made, total } = countChanges({ applied, failed: failures });
    const done = applied.map((c) => planRow(t, c.op === 'add' ? 'added' : 'deleted', c.record));
    const failed: TableRow[] = failures.map((f) => {
      const row = planRow(t, f.op, f.record);
      return { cells: [...row.cells, f.reason], html: `${row.html} — ${f.reason}` };
    });
    return {
      title: t('dns:applied', { ok: made, total }),
      blocks: [
        ...(all && done.length > 0
          ? [{ type: 'table' as const, columns: planColumns(t), rows: done, compact: true }]
          : []),
        ...(failed.length > 0
          ? [
              {
                type: 'section' as const,
                title: t('dns:applyFailures', { count: failures.length }),
                open: true,
                blocks: [
                  {
                    type: 'table' as const,
                    columns: [...planColumns(t), t('dns:column.reason')],
                    rows: failed,
                    compact: true,
                  },
                ],
              },
            ]
          : []),
      ],
    };
  };
  return richOrCapped(rich, build);
}
