import type { BulkChange, BulkDecision, BulkDomainPlan, BulkSkip } from '../../../../core/dns-bulk.js';
import { isPresetId } from '../../../../core/dns-presets.js';
import { toUnicodeDomain } from '../../../../core/domain-names.js';
import { escapeHtml } from '../../../../core/format.js';
import { echoInput, joinLinesWithin } from '../../../../core/text.js';
import type { Translate } from '../../../kit/i18n.js';
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

/**
 * The per-domain preview: what each domain gets (+adds −deletes, the records themselves when
 * there are few) or why it is skipped, the delete limit named per domain; beyond PREVIEW_DOMAINS
 * domains, a summary line. Always under 4096 characters.
 */
export function renderBulkPreview(
  t: Translate,
  change: BulkChange,
  plans: readonly BulkDomainPlan[],
  /** `decideBulk(plans, { force: false })`: what Apply would do, by the one gate. */
  decisions: readonly BulkDecision[],
  /** Why the provider did not list a domain's records, by order id (HTML-safe). */
  unlisted: ReadonlyMap<number, string> = new Map(),
): string {
  const skipOf = (i: number) => {
    const d = decisions[i];
    return d && 'skip' in d ? d.skip : undefined;
  };
  const rows = plans.slice(0, PREVIEW_DOMAINS).map((plan, i) => {
    const skip = skipOf(i);
    if (skip !== undefined)
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
    if (change.kind === 'replace') return renderReplaceRow(t, plan);
    const changes = [
      ...(plan.add.length > 0 ? [t('dnsbulk:rowAdd', { count: plan.add.length })] : []),
      ...(plan.remove.length > 0 ? [t('dnsbulk:rowRemove', { count: plan.remove.length })] : []),
    ];
    // A delete by match, or a preset's replacements, name what they delete: a value glob or a
    // conflicting MX may catch more than meant.
    const shown =
      change.kind !== 'add' && plan.remove.length <= 3
        ? plan.remove.map((r) => `   − ${describeRecord(t, r.record)}`)
        : [];
    return [
      t('dnsbulk:rowChanges', { domain: name(plan.domain), changes: changes.join(' ') }),
      ...shown,
    ].join('\n');
  });
  const skipped = plans.filter((_, i) => skipOf(i) !== undefined).length;
  const hidden = plans.slice(PREVIEW_DOMAINS);
  const hiddenSkipped = hidden.filter((_, i) => skipOf(i + PREVIEW_DOMAINS) !== undefined).length;
  const overLimit = plans.filter((_, i) => skipOf(i) === 'limit').length;
  const tail = [
    ...(hidden.length > 0
      ? [
          t('dnsbulk:previewMore', {
            count: hidden.length,
            change: hidden.length - hiddenSkipped,
            skip: hiddenSkipped,
          }),
        ]
      : []),
    '',
    t('dnsbulk:previewTotals', { change: plans.length - skipped, skip: skipped }),
    ...(overLimit > 0 ? [t('dnsbulk:previewLimit', { count: overLimit })] : []),
  ];
  // A preset adds the same records on every domain: they are listed once, from the first domain
  // it changes (a record built from the domain's name reads as that domain's).
  const sample =
    change.kind === 'preset'
      ? plans.find((plan, i) => skipOf(i) === undefined && plan.add.length > 0)
      : undefined;
  const head = [
    t('dnsbulk:previewTitle', { change: describeBulkChange(t, change) }),
    ...(sample
      ? [
          t('dnsbulk:presetAdds', { domain: name(sample.domain) }),
          ...sample.add.map((record) => `+ ${describeRecord(t, record)}`),
          '',
        ]
      : []),
  ].join('\n');
  const tailText = tail.join('\n');
  return `${joinLinesWithin([head, ...rows], MESSAGE_ROOM - tailText.length - 1)}\n${tailText}`;
}

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

/** The one report of a bulk: counts, then each domain done, skipped or failed with the provider's reason. */
export function renderBulkReport(t: Translate, change: BulkChange, outcomes: readonly BulkOutcome[]): string {
  const count = (state: BulkOutcome['state']) => outcomes.filter((o) => o.state === state).length;
  const lines = [
    t('dnsbulk:reportTitle', {
      change: describeBulkChange(t, change),
      done: count('done'),
      skipped: count('skipped'),
      failed: count('failed'),
    }),
    '',
  ];
  // Failures first: they are what the partner has to act on.
  const order = { failed: 0, done: 1, skipped: 2 } as const;
  for (const outcome of [...outcomes].sort((a, b) => order[a.state] - order[b.state])) {
    const domain = name(outcome.domain);
    if (outcome.state === 'skipped')
      lines.push(t('dnsbulk:reportSkipped', { domain, reason: t(`dnsbulk:skipReason.${outcome.reason}`) }));
    else if (outcome.state === 'done')
      lines.push(t('dnsbulk:reportDone', { domain, ok: outcome.ok, total: outcome.total }));
    else {
      lines.push(t('dnsbulk:reportFailed', { domain, ok: outcome.ok, total: outcome.total }));
      lines.push(...outcome.failures.slice(0, FAILURES_SHOWN).map((f) => `   ${f}`));
    }
  }
  if (count('done') + count('failed') > 0) lines.push('', t('dnsbulk:reportHistory'));
  return joinLinesWithin(lines, MESSAGE_ROOM);
}
