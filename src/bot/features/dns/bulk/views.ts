import type { BulkChange, BulkDecision, BulkDomainPlan, BulkSkip } from '../../../../core/dns-bulk.js';
import { isPresetId } from '../../../../core/dns-presets.js';
import { toUnicodeDomain } from '../../../../core/domain-names.js';
import { escapeHtml } from '../../../../core/format.js';
import { echoInput, joinLinesWithin } from '../../../../core/text.js';
import type { Translate } from '../../../kit/i18n.js';
import { fitsRich, screenRich } from '../../../kit/rich-screen.js';
import { type Screen, type ScreenBlock, screenHtml } from '../../../kit/screen.js';
import { planColumns, planCounts, planRow } from '../plan-views.js';
import { presetName } from '../presets/views.js';
import { describeRecord, describeRecordChange } from '../views.js';

/** Domains named one by one in the preview; beyond them, one summary line (4096 characters). */
export const PREVIEW_DOMAINS = 30;
/** Room under Telegram's 4096 characters for the buttons' nothing and a safety margin. */
const MESSAGE_ROOM = 4000;
/** Records a replace lists per domain (before → after); the rest are counted. */
const REPLACED_SHOWN = 5;

const name = (domain: string) => escapeHtml(toUnicodeDomain(domain));

/**
 * The change in a few words: "add TXT @ …", "delete TXT @ “v=spf1*”", "replace “93.125.99.10”
 * with “192.0.2.55”", "record set “Tilda”".
 */
export function describeBulkChange(t: Translate, change: BulkChange): string {
  switch (change.kind) {
    case 'add':
      return t('dnsbulk:changeAdd', { record: describeRecord(t, change.record) });
    case 'delete':
      return t('dnsbulk:changeDelete', {
        type: change.match.type,
        host: escapeHtml(echoInput(change.match.host)),
        value: escapeHtml(echoInput(change.match.value)),
      });
    case 'replace':
      return t('dnsbulk:changeReplace', {
        from: escapeHtml(echoInput(change.from)),
        to: escapeHtml(echoInput(change.to)),
      });
    case 'preset':
      return t('dnsbulk:changePreset', {
        preset: isPresetId(change.presetId) ? presetName(t, change.presetId) : escapeHtml(change.presetId),
      });
  }
}

/** Names (HTML-safe) joined by commas, the first `shown` of them and then "and N more". */
export function joinNames(t: Translate, names: readonly string[], shown: number): string {
  const joined = names.slice(0, shown).join(', ');
  const rest = names.length - shown;
  return rest > 0 ? `${joined} ${t('dnsbulk:listMore', { count: rest })}` : joined;
}

/** Names of the chosen domains, the first few and "and N more". */
export function renderDomainNames(t: Translate, domains: readonly string[], shown = 10): string {
  return joinNames(t, domains.map(name), shown);
}

/**
 * A replace on one domain: how many records, and each as it is and as it will be («A www:
 * 93.125.99.10 → 192.0.2.55»), the first REPLACED_SHOWN of them. `add[i]` replaces `remove[i]`.
 */
function renderReplaceRow(t: Translate, plan: BulkDomainPlan): string {
  const lines = plan.remove.slice(0, REPLACED_SHOWN).flatMap((old, i) => {
    const next = plan.add[i];
    return next === undefined ? [] : [`   ${describeRecordChange(t, old.record, next)}`];
  });
  const more = plan.remove.length - REPLACED_SHOWN;
  return [
    t('dnsbulk:rowReplace', { domain: name(plan.domain), count: plan.remove.length }),
    ...lines,
    ...(more > 0 ? [`   ${t('dnsbulk:rowMore', { count: more })}`] : []),
  ].join('\n');
}

/** Why a skipped domain is skipped, and what it does not get (the records a limit holds back). */
function skipRow(
  t: Translate,
  change: BulkChange,
  plan: BulkDomainPlan,
  skip: BulkSkip | 'limit',
  unlisted: ReadonlyMap<number, string>,
): string {
  // A replace over the limit deletes its records only to add them back: it says "replaces".
  return t(
    skip === 'limit' && change.kind === 'replace' ? 'dnsbulk:rowLimitReplace' : `dnsbulk:rowSkip.${skip}`,
    {
      domain: name(plan.domain),
      count: plan.remove.length,
      existing: plan.existing,
      reason: unlisted.get(plan.orderId) ?? '',
      value: change.kind === 'replace' ? escapeHtml(echoInput(change.to)) : '',
    },
  );
}

/** One domain's line of the preview (with the records it names under it, as today's HTML has it). */
function domainRow(
  t: Translate,
  change: BulkChange,
  plan: BulkDomainPlan,
  skip: BulkSkip | 'limit' | undefined,
  unlisted: ReadonlyMap<number, string>,
): string {
  if (skip !== undefined) return skipRow(t, change, plan, skip, unlisted);
  if (change.kind === 'replace') return renderReplaceRow(t, plan);
  // Counted as the report counts them: a preset's record replacing one of its type and host is one.
  const counts = planCounts(plan.add, plan.remove);
  const changes = [
    ...(counts.add > 0 ? [t('dnsbulk:rowAdd', { count: counts.add })] : []),
    ...(counts.change > 0 ? [t('dnsbulk:rowChange', { count: counts.change })] : []),
    ...(counts.delete > 0 ? [t('dnsbulk:rowRemove', { count: counts.delete })] : []),
  ];
  // A delete by match, or a preset's replacements, name what they delete: a value glob or a
  // conflicting MX may catch more than meant.
  const shown =
    change.kind !== 'add' && plan.remove.length <= 3
      ? plan.remove.map((r) => `   − ${describeRecord(t, r.record)}`)
      : [];
  return [t('dnsbulk:rowChanges', { domain: name(plan.domain), changes: changes.join(' ') }), ...shown].join(
    '\n',
  );
}

/**
 * A domain of a rich preview: a details block titled with its line (what it gets or why it is
 * skipped), holding a table of every record it adds and deletes (a replace: each record before →
 * after), or, with none, why it is skipped.
 */
function domainSection(
  t: Translate,
  change: BulkChange,
  plan: BulkDomainPlan,
  skip: BulkSkip | 'limit' | undefined,
  unlisted: ReadonlyMap<number, string>,
): ScreenBlock {
  const [first = ''] = domainRow(t, change, plan, skip, unlisted).split('\n');
  // A replace reads each record as it is and as it will be («A www: 93.125.99.10 → 192.0.2.55»).
  if (change.kind === 'replace' && skip === undefined) {
    const lines = plan.remove.flatMap((old, i) => {
      const next = plan.add[i];
      return next === undefined ? [] : [describeRecordChange(t, old.record, next)];
    });
    return {
      type: 'section',
      title: first.replace(/^• /, ''),
      blocks: [{ type: 'text', html: lines.join('\n') }],
    };
  }
  const rows = [
    ...plan.add.map((r) => planRow(t, 'add', r)),
    ...plan.remove.map((r) => planRow(t, 'delete', r.record)),
  ];
  const why = skip === undefined ? '' : (unlisted.get(plan.orderId) ?? t(`dnsbulk:skipReason.${skip}`));
  return {
    type: 'section',
    title: first.replace(/^• /, ''),
    blocks:
      rows.length > 0
        ? [{ type: 'table', columns: planColumns(t), rows, compact: true }]
        : [{ type: 'text', html: why }],
  };
}

/**
 * The per-domain preview: what each domain gets (+adds −deletes, the records themselves when
 * there are few) or why it is skipped, the delete limit named per domain. As HTML, one line per
 * domain for the first PREVIEW_DOMAINS and a summary line for the rest, within 4,000 characters; as
 * a rich message, a details block per domain with its records, for as many as Telegram's limits
 * take (the rest, a summary line).
 */
export function bulkPreviewScreen(
  t: Translate,
  change: BulkChange,
  plans: readonly BulkDomainPlan[],
  /** `decideBulk(plans, { force: false })`: what Apply would do, by the one gate. */
  decisions: readonly BulkDecision[],
  /** Why the provider did not list a domain's records, by order id (HTML-safe). */
  unlisted: ReadonlyMap<number, string>,
  rich: boolean,
): Screen {
  const skipOf = (i: number) => {
    const d = decisions[i];
    return d && 'skip' in d ? d.skip : undefined;
  };
  const skipped = plans.filter((_, i) => skipOf(i) !== undefined).length;
  const overLimit = plans.filter((_, i) => skipOf(i) === 'limit').length;
  const more = (shown: number): string[] => {
    const hidden = plans.length - shown;
    if (hidden <= 0) return [];
    const hiddenSkipped = plans.slice(shown).filter((_, i) => skipOf(i + shown) !== undefined).length;
    return [t('dnsbulk:previewMore', { count: hidden, change: hidden - hiddenSkipped, skip: hiddenSkipped })];
  };
  const totals = [
    t('dnsbulk:previewTotals', { change: plans.length - skipped, skip: skipped }),
    ...(overLimit > 0 ? [t('dnsbulk:previewLimit', { count: overLimit })] : []),
  ].join('\n');
  // A preset adds the same records on every domain: they are listed once, from the first domain
  // it changes (a record built from the domain's name reads as that domain's).
  const sample =
    change.kind === 'preset'
      ? plans.find((plan, i) => skipOf(i) === undefined && plan.add.length > 0)
      : undefined;
  const head: ScreenBlock[] = sample
    ? [
        {
          type: 'text',
          html: [
            t('dnsbulk:presetAdds', { domain: name(sample.domain) }),
            ...sample.add.map((record) => `+ ${describeRecord(t, record)}`),
          ].join('\n'),
        },
      ]
    : [];
  const screenOf = (blocks: ScreenBlock[]): Screen => ({
    title: t('dnsbulk:previewTitle'),
    titleNote: ` ${describeBulkChange(t, change)}`,
    blocks: [...head, ...blocks, { type: 'text', html: totals }],
  });
  if (rich) {
    const sections = plans.map((plan, i) => domainSection(t, change, plan, skipOf(i), unlisted));
    const withShown = (shown: number) =>
      screenOf([
        { type: 'text', html: t('dnsbulk:previewByDomain') },
        ...sections.slice(0, shown),
        ...more(shown).map((html) => ({ type: 'text' as const, html })),
      ]);
    // The most domains a rich message takes, by halves.
    let [low, high] = [0, plans.length];
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (fitsRich(screenRich(withShown(mid)))) low = mid;
      else high = mid - 1;
    }
    return withShown(low);
  }
  const rows = plans
    .slice(0, PREVIEW_DOMAINS)
    .map((plan, i) => domainRow(t, change, plan, skipOf(i), unlisted));
  const tail = more(Math.min(plans.length, PREVIEW_DOMAINS));
  const rest = screenHtml(screenOf([])).length + 2 + (tail[0] ?? '').length + 1;
  const listed = joinLinesWithin([t('dnsbulk:previewByDomain'), ...rows], MESSAGE_ROOM - rest);
  return screenOf([{ type: 'text', html: [listed, ...tail].join('\n') }]);
}

/** The preview as today's HTML (the HTML renderer of `bulkPreviewScreen`). */
export function renderBulkPreview(
  t: Translate,
  change: BulkChange,
  plans: readonly BulkDomainPlan[],
  decisions: readonly BulkDecision[],
  unlisted: ReadonlyMap<number, string> = new Map(),
): string {
  return screenHtml(bulkPreviewScreen(t, change, plans, decisions, unlisted, false));
}
