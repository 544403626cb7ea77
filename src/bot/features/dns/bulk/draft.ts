import type { BulkDraft } from '../../../../core/dns-bulk.js';
import type { BotContext } from '../../../context.js';
import { AWAIT_INPUT_SCENE, type AwaitedInput } from '../../../kit/await-input.js';
import { dropButtons } from '../presets/presets.js';

/*
 * What every step of `/dns bulk` shares: the draft kept in the session (tied to its buttons by a
 * nonce and to its step by a stage), the partner's domain orders it is picked from, and how a
 * step waits for a typed answer or turns away a stale one.
 */

/** The partner's domain orders, newest first, as [order id, ASCII domain]. */
export async function listDomainOrders(ctx: BotContext, fresh = false): Promise<[number, string][]> {
  const index = await (await ctx.partnerApi()).domainOrderIndex({ fresh });
  return [...index.byOrderId.entries()].sort(([a], [b]) => b - a);
}

/** The draft a button or answer belongs to, at the stage it expects; undefined when stale. */
export function findDraft(
  ctx: BotContext,
  nonce: string | undefined,
  stage: BulkDraft['stage'],
): BulkDraft | undefined {
  const draft = ctx.session.dnsBulk;
  return draft && (nonce === undefined || draft.nonce === nonce) && draft.stage === stage ? draft : undefined;
}

/**
 * The draft a typed answer belongs to. When it is stale the partner is told so: the answer has
 * left the await-input scene, and silence would look like the bot ignoring it.
 */
export async function findAnswerDraft(
  ctx: BotContext,
  stage: BulkDraft['stage'],
  nonce?: string,
): Promise<BulkDraft | undefined> {
  const draft = findDraft(ctx, nonce, stage);
  if (!draft) await ctx.reply(ctx.t('dnsbulk:expired'));
  return draft;
}

/** A button of a bulk that is gone: a toast says so, and the buttons go, so it is not pressed again. */
export async function refuseStale(ctx: BotContext): Promise<void> {
  await ctx.answerCbQuery(ctx.t('dnsbulk:expired'));
  await ctx.editMessageReplyMarkup(undefined).catch(() => undefined);
}

/** The partner's next message is the answer for `purpose` (the bulk has no order of its own: 0). */
export async function awaitAnswer(ctx: BotContext, purpose: string): Promise<void> {
  await ctx.scene.enter(AWAIT_INPUT_SCENE, { purpose, orderId: 0 } satisfies AwaitedInput, true);
}

/** The question answered another way (a list typed, a line sent): its buttons go. */
export function settleQuestion(ctx: BotContext, draft: BulkDraft): Promise<void> {
  return dropButtons(ctx, draft.questionMessageId);
}
