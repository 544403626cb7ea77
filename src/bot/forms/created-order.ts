import { toUnicodeDomain } from '../../core/domain-names.js';
import { escapeHtml } from '../../core/format.js';
import { UNPAID_INVOICE_STATE } from '../../core/invoice-search.js';
import { productKindOf } from '../../core/product-kinds.js';
import { type CreatedOrder, followCreatedOrder } from '../../services/order-submit.js';
import { groupQuery, linkKeyboard, sendToClientButton } from '../kit/keyboards.js';
import type { OrderEngineDeps } from './form-state.js';
import type { OrderDraft, StepEnv } from './types.js';

/**
 * Ends the form with its order created: the invoice noted as the bot's own, the partner told with
 * the invoice's link, the group or the bound chat told too.
 */
export async function reportCreatedOrder(
  deps: OrderEngineDeps,
  env: StepEnv,
  result: CreatedOrder,
): Promise<void> {
  const { ctx, draft } = env;
  draft.status = 'done';
  await ctx.scene.leave();
  deps.logger.info({ chatId: ctx.chat?.id, orderId: result.order_id, kind: draft.kind }, 'order created');
  const chatId = ctx.chat?.id;
  const invoiceId = result.invoice_id;
  const { url, invoice } = await followCreatedOrder(
    env.api,
    { watches: deps.watches, token: await deps.chatData.getToken(env.account), logger: deps.logger },
    result,
    { chatId },
  );
  // The invoice as the client sees it (СФ-2026-5101) when the list gave it, else its id.
  const text = ctx.t('order:created', {
    orderId: result.order_id ?? '—',
    invoiceId: invoice ? escapeHtml(invoice.invoice_number) : (invoiceId ?? '—'),
  });
  // A group's invoice is the group's account's: the picker's query names the group (`#<id> …`).
  const share =
    invoice?.state === UNPAID_INVOICE_STATE
      ? [sendToClientButton(ctx.t, groupQuery(draft.team?.chat, invoice.invoice_number))]
      : [];
  const sent = await ctx.reply(url ? `${text}\n${escapeHtml(url)}` : text, {
    parse_mode: 'HTML',
    link_preview_options: { is_disabled: true },
    ...(url ? linkKeyboard(ctx.t('order:invoiceButton'), url, share, ctx.t('common:copyLink')) : {}),
  });
  const placed = {
    kind: draft.kind,
    subject: escapeHtml(describeOrderSubject(deps, draft) ?? '—'),
    order: result.order_id ?? '—',
  };
  if (draft.team && (await deps.teams.announceGroupOrder(ctx, draft.team, placed, { url, invoiceId }))) {
    return;
  }
  // The message carries the invoice's link: it is marked paid when the payment arrives.
  if (url && invoiceId !== undefined && chatId !== undefined) {
    await deps.chatData.rememberInvoiceLink(chatId, invoiceId, sent.message_id);
  }
  await deps.teams.announceInChat(ctx, placed);
}

/** What an order is for, from the answer its kind's prefill step holds (a domain, a site). */
function describeOrderSubject(deps: OrderEngineDeps, draft: OrderDraft): string | undefined {
  const kind = productKindOf(draft.kind);
  const step = kind === undefined ? null : deps.productFlows[kind].prefillStep;
  const answer = step === null ? undefined : draft.answers[step];
  if (typeof answer === 'string') return answer;
  if (typeof answer !== 'object' || answer === null) return undefined;
  if ('ascii' in answer && typeof answer.ascii === 'string') return toUnicodeDomain(answer.ascii);
  if ('domain' in answer && typeof answer.domain === 'string') return answer.domain;
  return undefined;
}
