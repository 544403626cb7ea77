import { Markup } from 'telegraf';
import { type BulkChange, type BulkDomainPlan, decideBulk } from '../../../../core/dns-bulk.js';
import { countChanges, heldBackBy } from '../../../../core/dns-change.js';
import { toUnicodeDomain } from '../../../../core/domain-names.js';
import type { BotContext } from '../../../context.js';
import { inRows } from '../../../kit/keyboards.js';
import type { CallbackRegistrar } from '../../../registry.js';
import { encodeCallback } from '../../../registry.js';
import { announce } from '../../team/announce.js';
import { applyChanges, describeFailure } from '../apply.js';
import type { DnsPorts } from '../ports.js';
import { findDraft, refuseStale } from './draft.js';
import { type BulkOutcome, bulkReportScreen, reportDomains } from './report.js';
import { describeBulkChange } from './views.js';

/**
 * Apply on the bulk's preview (`ask`: the domains under the delete limit; `force`: all of them):
 * the plans are applied once, ONE report follows, and a bound team group is told the counts.
 */
export function registerApplyButton(router: CallbackRegistrar, ports: DnsPorts): void {
  router.on(
    'dnsBulkApply',
    async (ctx, nonce, mode) => {
      const draft = findDraft(ctx, nonce, 'preview');
      const { change, plans } = draft ?? {};
      if (!draft || !change || !plans) return refuseStale(ctx);
      await ctx.answerCbQuery(ctx.t('dnsbulk:applyingToast'));
      await ctx.editMessageReplyMarkup(undefined).catch(() => undefined);
      // Single use: a second tap finds no plan.
      ctx.session.dnsBulk = undefined;
      const outcomes = await applyBulk(ctx, ports, change, plans, mode === 'force');
      const done = outcomes.filter((o) => o.state === 'done').length;
      const failed = outcomes.filter((o) => o.state === 'failed').length;
      // The report leads on: each changed domain's records (failed ones first), another bulk.
      const open = reportDomains(outcomes).map(({ domain, orderId }) =>
        Markup.button.callback(`📋 ${toUnicodeDomain(domain)}`, encodeCallback('dns', orderId)),
      );
      const keyboard = inRows(open, 2);
      await ctx.screens.send(ctx, (rich) => ({
        ...bulkReportScreen(ctx.t, change, outcomes, rich),
        keyboard,
      }));
      await announce(ctx, 'bulkApplied', {
        change: describeBulkChange(ctx.t, change),
        done,
        skipped: outcomes.length - done - failed,
        failed,
      });
    },
    { selfAnswer: true },
  );
}

/**
 * Applies each domain's changes with ONE progress message for the whole bulk ("3 of 5 domains"),
 * recording each domain's accepted changes as one history entry of kind `bulk` — of kind `change`
 * for a replace, whose history reads «A www: old → new» as a change made one by one does. A
 * replace's calls come gap-free (decideBulk); a half of a record's replace whose other half failed
 * is held back, so the old record stays rather than the name answering nothing.
 */
async function applyBulk(
  ctx: BotContext,
  ports: DnsPorts,
  change: BulkChange,
  plans: readonly BulkDomainPlan[],
  force: boolean,
): Promise<BulkOutcome[]> {
  const replace = change.kind === 'replace';
  const decisions = decideBulk(plans, { force });
  const total = decisions.filter((d) => 'changes' in d).length;
  const progress = await ctx.reply(ctx.t('dnsbulk:applying', { done: 0, total }));
  const outcomes: BulkOutcome[] = [];
  let done = 0;
  for (const [i, decision] of decisions.entries()) {
    const domain = plans[i]?.domain ?? '';
    const { orderId } = decision;
    if ('skip' in decision) {
      outcomes.push({ domain, orderId, state: 'skipped', reason: decision.skip });
      continue;
    }
    // Per domain, not per change: applyChanges' own progress would count one domain's records.
    const { applied, failures } = await applyChanges(
      ctx,
      decision.orderId,
      decision.changes,
      undefined,
      replace ? heldBackBy : undefined,
    );
    await ports.journal.record(ctx, decision.orderId, replace ? 'change' : 'bulk', { records: applied });
    // The partner's changes, not the calls: a value replaced is one, though an add and a delete.
    const counted = countChanges({ applied, failed: failures.map((f) => f.change) });
    const counts = { ok: counted.done, total: counted.total };
    outcomes.push(
      failures.length === 0
        ? { domain, orderId, state: 'done', ...counts }
        : {
            domain,
            orderId,
            state: 'failed',
            ...counts,
            failures: failures.map((f) => describeFailure(ctx, f)),
          },
    );
    done++;
    await ctx.telegram
      .editMessageText(
        progress.chat.id,
        progress.message_id,
        undefined,
        ctx.t('dnsbulk:applying', { done, total }),
      )
      .catch(() => undefined);
  }
  return outcomes;
}
