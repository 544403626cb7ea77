import { Markup } from 'telegraf';
import {
  type BulkChange,
  type BulkDecision,
  type BulkDomainPlan,
  type BulkDraft,
  countOverLimit,
  decideBulk,
  planBulkDomain,
} from '../../../../core/dns-bulk.js';
import { readListedRecords } from '../../../../core/dns-plan.js';
import { isPresetId, presetOf } from '../../../../core/dns-presets.js';
import type { BotContext } from '../../../context.js';
import { styled } from '../../../kit/bot-api-today.js';
import { describeError } from '../../../middlewares/errors.js';
import { encodeCallback } from '../../../registry.js';
import { applyButton } from '../apply.js';
import { listDomainOrders } from './draft.js';
import { bulkPreviewScreen } from './views.js';

/**
 * The chosen domains' plans for the change, in the draft's order; a domain the provider does not
 * list is a plan skipped as `unlisted`, with the provider's reason (HTML-safe) by order id.
 */
async function planDomains(
  ctx: BotContext,
  orderIds: readonly number[],
  change: BulkChange,
): Promise<{ plans: BulkDomainPlan[]; unlisted: Map<number, string> }> {
  const api = await ctx.partnerApi();
  const orders = new Map(await listDomainOrders(ctx));
  const preset =
    change.kind === 'preset' && isPresetId(change.presetId) ? presetOf(change.presetId) : undefined;
  const plans: BulkDomainPlan[] = [];
  const unlisted = new Map<number, string>();
  for (const orderId of orderIds) {
    const domain = orders.get(orderId);
    if (domain === undefined) continue;
    // One domain the provider does not list is skipped with its reason, not the whole bulk.
    const listed = await api.listDnsRecords(orderId).catch((error: unknown) => {
      unlisted.set(orderId, describeError(error, ctx.t) ?? '');
      return undefined;
    });
    if (listed === undefined) {
      plans.push({ orderId, domain, add: [], remove: [], existing: 0, skip: 'unlisted' });
      continue;
    }
    const current = readListedRecords(listed);
    plans.push(planBulkDomain({ orderId, domain }, change, current, preset, listed.length));
  }
  return { plans, unlisted };
}

/**
 * The preview's buttons: Apply only when some domain would change under the delete limit, "No",
 * and, when domains are over the limit, a separate force button, so forcing is never the default.
 */
function renderPreviewButtons(
  ctx: BotContext,
  nonce: string,
  decisions: readonly BulkDecision[],
  overLimit: number,
) {
  const canApply = decisions.some((d) => 'changes' in d);
  const deletes = decisions
    .flatMap((d) => ('changes' in d ? d.changes : []))
    .filter((c) => c.op === 'delete');
  const apply = applyButton(
    ctx.t('dnsbulk:applyButton'),
    encodeCallback('dnsBulkApply', nonce, 'ask'),
    deletes.length,
  );
  const row = [
    ...(canApply ? [apply] : []),
    Markup.button.callback(ctx.t('dns:no'), encodeCallback('dismiss', 'bulk')),
  ];
  const force = styled(
    Markup.button.callback(
      ctx.t('dnsbulk:forceButton', { count: overLimit }),
      encodeCallback('dnsBulkApply', nonce, 'force'),
    ),
    'danger',
  );
  return Markup.inlineKeyboard([row, ...(overLimit > 0 ? [[force]] : [])]);
}

/**
 * Lists each domain's records, plans the change on it, and shows the per-domain preview; the
 * draft waits at `preview` for Apply. When no domain would change even forced, it says so and
 * the bulk ends.
 */
export async function showPreview(ctx: BotContext, draft: BulkDraft, change: BulkChange): Promise<void> {
  const { plans, unlisted } = await planDomains(ctx, draft.orderIds, change);
  const decisions = decideBulk(plans, { force: false });
  const screen = (rich: boolean) => bulkPreviewScreen(ctx.t, change, plans, decisions, unlisted, rich);
  const needsChange = decideBulk(plans, { force: true }).some((d) => 'changes' in d);
  if (!needsChange) {
    ctx.session.dnsBulk = undefined;
    await ctx.screens.send(ctx, (rich) => {
      const shown = screen(rich);
      return { ...shown, blocks: [...shown.blocks, { type: 'text', html: ctx.t('dnsbulk:nothing') }] };
    });
    return;
  }
  ctx.session.dnsBulk = { ...draft, stage: 'preview', change, plans, questionMessageId: undefined };
  const keyboard = renderPreviewButtons(ctx, draft.nonce, decisions, countOverLimit(plans)).reply_markup;
  await ctx.screens.send(ctx, (rich) => ({ ...screen(rich), keyboard: keyboard.inline_keyboard }));
}
