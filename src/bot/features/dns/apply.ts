import { Markup } from 'telegraf';
import { changesToApply, countChanges } from '../../../core/dns-change.js';
import type { HistoryKind } from '../../../core/dns-history.js';
import type { AppliedChange, ImportPlan, PlannedChange } from '../../../core/dns-plan.js';
import { type ChangeFailure, runChanges } from '../../../services/dns-apply.js';
import type { BotContext } from '../../context.js';
import { styled } from '../../kit/bot-api-today.js';
import type { Translate } from '../../kit/i18n.js';
import { screenHtml } from '../../kit/screen.js';
import { describeError } from '../../middlewares/errors.js';
import { encodeCallback } from '../../registry.js';
import { undoButtons } from './history/record.js';
import { checkChangeLive } from './live-check/live-check.js';
import { applyReportScreen } from './plan-views.js';
import type { DnsPorts } from './ports.js';
import type { ShowRecords } from './records/records.js';
import { describeRecord } from './views.js';

/**
 * What an apply did: the calls the provider accepted, in order (what the history records), and
 * how many of the partner's changes were made of how many (`countChanges`: one per plan line).
 */
export interface ApplyOutcome {
  applied: AppliedChange[];
  ok: number;
  total: number;
}

/**
 * The Apply under a previewed plan (an import, a preset, a bulk change): red when applying deletes
 * records (a zone replaced, a preset's replacements, a delete by match), green when it only adds —
 * the preview above counts the deletions, the colour says them before the tap.
 */
export function applyButton(label: string, data: string, deletes: number) {
  return styled(Markup.button.callback(label, data), deletes > 0 ? 'danger' : 'success');
}

/**
 * The second question of a plan over the delete limit: "deletes N of M records, more than 30%"
 * with a button that applies it anyway (`forceData`) and "No" (`dismiss` of `topic`). The texts
 * are `<ns>:massDeleteConfirm` and `<ns>:massDeleteYes` of the asking feature.
 */
export async function askForce(
  ctx: BotContext,
  ns: string,
  plan: { remove: readonly unknown[]; existing: number },
  forceData: string,
  topic: string,
): Promise<void> {
  const count = plan.remove.length;
  await ctx.reply(ctx.t(`${ns}:massDeleteConfirm`, { count, existing: plan.existing }), {
    ...Markup.inlineKeyboard([
      styled(Markup.button.callback(ctx.t(`${ns}:massDeleteYes`, { count }), forceData), 'danger'),
      Markup.button.callback(ctx.t('dns:no'), encodeCallback('dismiss', topic)),
    ]),
  });
}

/** One change the provider refused, with its reason in the chat's language (HTML-safe). */
export interface ApplyFailure {
  change: PlannedChange;
  reason: string;
}

/**
 * The per-change core of every apply (`runChanges` of the services, which the Mini App runs too),
 * each failure worded in the chat's language: a change held back (the other half of a record's
 * change failed) fails with `dns:heldBack`. Sends no message and records nothing: the caller
 * reports and records (one domain, or a whole bulk).
 */
export async function applyChanges(
  ctx: BotContext,
  orderId: number,
  changes: readonly PlannedChange[],
  onProgress?: (done: number) => Promise<void>,
  holdBack?: (change: PlannedChange, failed: readonly PlannedChange[]) => boolean,
): Promise<{ applied: AppliedChange[]; failures: ApplyFailure[] }> {
  const { applied, failures } = await runChanges(await ctx.partnerApi(), orderId, changes, {
    onProgress,
    holdBack,
  });
  return { applied, failures: failures.map((failure) => wordFailure(ctx.t, failure)) };
}

/** A change the services could not make, in the chat's words. */
export function wordFailure(t: Translate, failure: ChangeFailure): ApplyFailure {
  return {
    change: failure.change,
    reason: failure.heldBack ? t('dns:heldBack') : (describeError(failure.error, t) ?? ''),
  };
}

/** A failed change as a report line: `+ TXT @ … — the provider's reason`. */
export function describeFailure(ctx: BotContext, failure: ApplyFailure): string {
  const sign = failure.change.op === 'add' ? '+' : '−';
  return `${sign} ${describeRecord(ctx.t, failure.change.record)} — ${failure.reason}`;
}

/** What an Apply button of a multi-record plan (a zone import, a preset) applies. */
export interface PlanToApply {
  plan: Pick<ImportPlan, 'add' | 'remove' | 'existing'> & { orderId: number };
  force: boolean;
  /** The delete-limit question: its texts' namespace, its force button's data, its "No" topic. */
  ask: { ns: string; forceData: string; topic: string };
  kind: Extract<HistoryKind, 'import' | 'preset'>;
  /** Forgets the plan once it is applied: a second tap finds none. */
  settle(): void;
  /** Tells a bound team group what was applied, after the report. */
  announce(outcome: ApplyOutcome): Promise<void>;
}

/**
 * The one "apply a plan" sequence of every Apply button: the delete-limit gate (asks to force,
 * then stops), the plan settled, the changes made with ONE progress message edited in place, the
 * accepted ones recorded as one history entry of `kind` (undone together), a report naming each
 * failure with the provider's reason and "↩ Undo" for what was done, live-checked; then the team
 * is told and the records are shown. A failed change does not stop the others.
 */
export function createPlanApplier(deps: { ports: DnsPorts; showRecords: ShowRecords }) {
  const { ports, showRecords } = deps;

  const applyWithProgress = async (
    ctx: BotContext,
    orderId: number,
    changes: readonly PlannedChange[],
    kind: HistoryKind,
  ): Promise<ApplyOutcome> => {
    // The partner's changes, not the calls: one whose calls are not all made yet is not done.
    const progressText = (calls: number): string => {
      const { done, total } = countChanges({
        applied: changes.slice(0, calls),
        failed: changes.slice(calls),
      });
      return ctx.t('dns:applying', { done, total });
    };
    const progress = await ctx.reply(progressText(0));
    const { applied, failures } = await applyChanges(ctx, orderId, changes, (calls) =>
      ctx.telegram
        .editMessageText(progress.chat.id, progress.message_id, undefined, progressText(calls))
        .then(
          () => undefined,
          () => undefined,
        ),
    );
    const entry = await ports.journal.record(ctx, orderId, kind, { records: applied });
    const keyboard = entry ? [undoButtons(ctx.t, orderId, entry)] : undefined;
    const reported = failures.map((f) => ({ op: f.change.op, record: f.change.record, reason: f.reason }));
    const sent = await ctx.screens.send(ctx, (rich) => ({
      ...applyReportScreen(ctx.t, { applied, failures: reported }, rich),
      ...(keyboard ? { keyboard } : {}),
    }));
    // The report turns ✅ when the name servers answer with what was accepted.
    if (sent) {
      const message = { html: screenHtml(sent.screen), keyboard: keyboard && { inline_keyboard: keyboard } };
      await checkChangeLive(ports.liveChecks, ctx, sent, message, orderId, {
        added: applied.filter((c) => c.op === 'add').map((c) => c.record),
        removed: applied.filter((c) => c.op === 'delete').map((c) => c.record),
      });
    }
    const { done: ok, total } = countChanges({ applied, failed: failures.map((f) => f.change) });
    return { applied, ok, total };
  };

  return async (ctx: BotContext, request: PlanToApply): Promise<void> => {
    const { plan, ask } = request;
    const changes = changesToApply(plan, { force: request.force });
    if (changes === 'needsForce') return askForce(ctx, ask.ns, plan, ask.forceData, ask.topic);
    request.settle();
    const outcome = await applyWithProgress(ctx, plan.orderId, changes, request.kind);
    await request.announce(outcome);
    await showRecords(ctx, plan.orderId);
  };
}

/** Applies an Apply button's plan (built by `createPlanApplier`). */
export type ApplyPlan = ReturnType<typeof createPlanApplier>;
