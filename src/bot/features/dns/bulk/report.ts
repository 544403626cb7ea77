/** The one report of a bulk: how each domain ended, as a rich message or as today's HTML. */
import type { BulkChange, BulkSkip } from '../../../../core/dns-bulk.js';
import { toUnicodeDomain } from '../../../../core/domain-names.js';
import { escapeHtml } from '../../../../core/format.js';
import type { Translate } from '../../../kit/i18n.js';
import { fitsRich, screenRich } from '../../../kit/rich-screen.js';
import {
  fitScreenHtml,
  type Screen,
  type ScreenBlock,
  screenHtml,
  type TableRow,
} from '../../../kit/screen.js';
import { describeBulkChange } from './views.js';

/** Room under Telegram's 4096 characters for a safety margin. */
const MESSAGE_ROOM = 4000;

const name = (domain: string) => escapeHtml(toUnicodeDomain(domain));

/** How one domain of a bulk ended. */
export type BulkOutcome = { domain: string; orderId: number } & (
  | { state: 'done'; ok: number; total: number }
  | { state: 'failed'; ok: number; total: number; failures: string[] }
  | { state: 'skipped'; reason: BulkSkip | 'limit' }
);

/** Failures shown per domain; the rest are counted in its "ok of total". */
const FAILURES_SHOWN = 3;

/** Domains of a report given a button to their records: the failed ones first, then the changed. */
const REPORT_BUTTONS = 6;

/** The domains the report offers to open (their records list), failed first, at most REPORT_BUTTONS. */
export function reportDomains(outcomes: readonly BulkOutcome[]): { domain: string; orderId: number }[] {
  const failed = outcomes.filter((o) => o.state === 'failed');
  const done = outcomes.filter((o) => o.state === 'done');
  return [...failed, ...done].slice(0, REPORT_BUTTONS).map(({ domain, orderId }) => ({ domain, orderId }));
}

/** A domain's outcome in the report's table: ✅ 2 из 2, ⏭ why, ❌ 1 из 3. */
function resultOf(t: Translate, outcome: BulkOutcome): string {
  return outcome.state === 'skipped'
    ? t('dnsbulk:result.skipped', { reason: t(`dnsbulk:skipReason.${outcome.reason}`) })
    : t(`dnsbulk:result.${outcome.state}`, { ok: outcome.ok, total: outcome.total });
}

/**
 * The one report of a bulk: counts, then each domain done, skipped or failed with the provider's
 * reason, failures first. As HTML, a line per domain (three failures under a failed one) within
 * 4,000 characters; as a rich message, a table of the domains and an open details block per failed
 * domain with every failure.
 */
export function bulkReportScreen(
  t: Translate,
  change: BulkChange,
  outcomes: readonly BulkOutcome[],
  rich: boolean,
): Screen {
  const count = (state: BulkOutcome['state']) => outcomes.filter((o) => o.state === state).length;
  // Failures first: they are what the partner has to act on.
  const order = { failed: 0, done: 1, skipped: 2 } as const;
  const sorted = [...outcomes].sort((a, b) => order[a.state] - order[b.state]);
  const rows: TableRow[] = sorted.map((outcome) => {
    const domain = name(outcome.domain);
    const cells = [domain, resultOf(t, outcome)];
    if (outcome.state === 'skipped')
      return {
        cells,
        html: t('dnsbulk:reportSkipped', { domain, reason: t(`dnsbulk:skipReason.${outcome.reason}`) }),
      };
    if (outcome.state === 'done')
      return { cells, html: t('dnsbulk:reportDone', { domain, ok: outcome.ok, total: outcome.total }) };
    return {
      cells,
      html: [
        t('dnsbulk:reportFailed', { domain, ok: outcome.ok, total: outcome.total }),
        ...outcome.failures.slice(0, FAILURES_SHOWN).map((f) => `   ${f}`),
      ].join('\n'),
    };
  });
  const failures: ScreenBlock[] = rich
    ? sorted.flatMap((outcome) =>
        outcome.state === 'failed'
          ? [
              {
                type: 'section' as const,
                title: t('dnsbulk:reportFailed', {
                  domain: name(outcome.domain),
                  ok: outcome.ok,
                  total: outcome.total,
                }),
                open: true,
                blocks: [{ type: 'text' as const, html: outcome.failures.join('\n') }],
              },
            ]
          : [],
      )
    : [];
  const screen: Screen = {
    title: t('dnsbulk:reportTitle'),
    titleNote: ` ${describeBulkChange(t, change)}`,
    blocks: [
      {
        type: 'text',
        html: t('dnsbulk:reportCounts', {
          done: count('done'),
          skipped: count('skipped'),
          failed: count('failed'),
        }),
      },
      ...(rows.length > 0
        ? [
            {
              type: 'table' as const,
              columns: ['domain', 'result'].map((c) => t(`dnsbulk:column.${c}`)),
              rows,
              compact: true,
            },
          ]
        : []),
      ...failures,
      ...(count('done') + count('failed') > 0
        ? [{ type: 'text' as const, html: t('dnsbulk:reportHistory') }]
        : []),
    ],
  };
  if (!rich) return fitScreenHtml(screen, MESSAGE_ROOM);
  return fitsRich(screenRich(screen))
    ? screen
    : fitScreenHtml(bulkReportScreen(t, change, outcomes, false), MESSAGE_ROOM);
}

/** The report as today's HTML (the HTML renderer of `bulkReportScreen`). */
export function renderBulkReport(t: Translate, change: BulkChange, outcomes: readonly BulkOutcome[]): string {
  return screenHtml(bulkReportScreen(t, change, outcomes, false));
}
