import { ApiInterruptedError } from '../../api/index.js';
import { isOutcomeUnknown, submitOrderOnce } from '../../services/order-submit.js';
import type { BotContext } from '../context.js';
import { describeError } from '../middlewares/errors.js';
import { reportCreatedOrder } from './created-order.js';
import { loadEnv, type OrderEngineDeps, persistSession, resolveFlow } from './form-state.js';
import { formOwnerKey } from './member-scenes.js';
import { resumeScreen } from './navigation.js';
import { submissionOf } from './recovery.js';
import { showSummary } from './rendering.js';
import { ORDER_SCENE, type StepEnv } from './types.js';

/**
 * The Confirm button. Its nonce is single-use: the first tap marks the draft as submitting and
 * writes the session, takes the order list, writes the session again with that list, and only
 * then calls the provider, once. Any later tap (a double tap, a tap re-sent with a new update id,
 * a tap on an older summary) is answered "already submitted" or "expired" and calls nothing.
 */
export async function confirmOrder(
  deps: OrderEngineDeps,
  submitting: Set<string>,
  ctx: BotContext,
  nonce: string,
): Promise<void> {
  const env = ctx.scene.current?.id === ORDER_SCENE ? await loadEnv(deps, ctx) : undefined;
  const draft = env?.draft;
  if (!env || !draft || draft.nonce !== nonce) {
    const submitted = draft?.status === 'submitting';
    // A second tap on a Confirm that went through says so, not that the button is old.
    const done = ctx.session.confirmed?.nonce === nonce ? ctx.session.confirmed.toast : undefined;
    await ctx.answerCbQuery(ctx.t(submitted ? 'order:alreadySubmitted' : (done ?? 'order:confirmExpired')));
    await ctx.editMessageReplyMarkup(undefined).catch(() => undefined);
    if (env && draft?.status === 'editing' && draft.unsent)
      await resumeScreen(deps, env, ctx.t('order:reasked'));
    return;
  }
  if (draft.status !== 'editing') {
    await ctx.answerCbQuery(ctx.t('order:alreadySubmitted'));
    return;
  }
  const form = formOwnerKey(ctx);
  submitting.add(form);
  try {
    await submitOrder(deps, env);
  } finally {
    submitting.delete(form);
  }
}

/**
 * Carries out a Confirm: the draft stored as submitting, the order list taken and stored, then the
 * one create call (or a form's last action).
 */
async function submitOrder(deps: OrderEngineDeps, env: StepEnv): Promise<void> {
  const { ctx, draft } = env;
  const flow = resolveFlow(deps, draft.kind);
  if (draft.nonce !== undefined)
    ctx.session.confirmed = {
      nonce: draft.nonce,
      toast: flow.submit ? 'order:alreadySubmitted' : 'order:alreadyConfirmed',
    };
  draft.status = 'submitting';
  draft.nonce = undefined;
  // The nonce proves the summary was shown.
  draft.unsent = undefined;
  // A list from an earlier attempt would say a create call may have been made; none has yet.
  draft.knownOrderIds = undefined;
  await persistSession(deps, ctx);
  await ctx.answerCbQuery(ctx.t(flow.submittingKey ?? 'order:submitting'));
  await ctx.editMessageReplyMarkup(undefined).catch(() => undefined);

  if (!flow.submit) {
    try {
      await flow.finish?.(env);
    } catch (error) {
      // The outcome is unknown: the draft stays 'submitting', and the next update settles it.
      if (isOutcomeUnknown(error) || error instanceof ApiInterruptedError) throw error;
      // Refused (e.g. a 400 naming a field): nothing changed; show why and the summary again.
      await showSummary(deps, env, describeError(error, ctx.t));
      return;
    }
    draft.status = 'done';
    await ctx.scene.leave();
    return;
  }
  const outcome = await submitOrderOnce(
    submissionOf(env, flow, flow.submit),
    env.api,
    {
      // Stored before the call: if this process dies while the call is out, the next one knows the
      // order may exist and which orders were there before it.
      beforeCreate: async (known) => {
        draft.knownOrderIds = known;
        await persistSession(deps, ctx);
      },
      outcomeUnknown: async () => {
        await ctx.reply(ctx.t('order:unknownOutcome'));
      },
      logFields: { chatId: ctx.chat?.id },
    },
    deps.logger,
  );
  switch (outcome.kind) {
    case 'created':
      await reportCreatedOrder(deps, env, outcome.created);
      return;
    case 'refused':
      // The provider refused, or nothing was sent (the list failed): nothing was created; show
      // why and offer the summary again (showSummary reopens the draft).
      await showSummary(deps, env, describeError(outcome.error, ctx.t));
      return;
    case 'unknown':
      await showSummary(
        deps,
        env,
        ctx.t(outcome.lookup === 'notFound' ? 'order:notFoundAfterTimeout' : 'order:lookupFailed'),
      );
      return;
  }
}
