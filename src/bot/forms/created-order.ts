import { toUnicodeDomain } from '../../core/domain-names.js';
import { escapeHtml } from '../../core/format.js';
import { UNPAID_INVOICE_STATE } from '../../core/invoice-search.js';
import { orderNumberOf } from '../../core/order-number.js';
import { productKindOf } from '../../core/product-kinds.js';
import { type CreatedInvoice, type CreatedOrder, followCreatedOrder } from '../../services/order-submit.js';
import type { Translate } from '../kit/i18n.js';
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
  const { url, invoice, order } = await followCreatedOrder(
    env.api,
    { watches: deps.watches, token: await deps.chatData.getToken(env.account), logger: deps.logger },
    result,
    { chatId },
  );
  const message = createdOrderMessage(ctx.t, result, { url, invoice, order }, draft.team?.chat);
  const sent = await ctx.reply(message.text, message.extra);
  const placed = {
    kind: draft.kind,
    subject: escapeHtml(describeOrderSubject(deps, draft) ?? '—'),
    order: escapeHtml(orderNumberOf({ number: order?.number, order_id: result.order_id })),
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

/**
 * «✅ Заказ создан» with the invoice as the client sees it (СФ-2026-5101; its id when not listed),
 * its link, «Открыть счёт», copy and — while unpaid — «Отправить клиенту», whose picker query names
 * a team group's invoice as the group's (`#<id> …`). What the chat's Confirm and an order from the
 * Mini App both send.
 */
export function createdOrderMessage(
  t: Translate,
  created: CreatedOrder,
  { url, invoice, order }: CreatedInvoice,
  group: number | undefined,
) {
  const text = t('order:created', {
    number: escapeHtml(orderNumberOf({ number: order?.number, order_id: created.order_id })),
    invoiceId: invoice ? escapeHtml(invoice.invoice_number) : (created.invoice_id ?? '—'),
  });
  const share =
    invoice?.state === UNPAID_INVOICE_STATE
      ? [sendToClientButton(t, groupQuery(group, invoice.invoice_number))]
      : [];
  return {
    text: url ? `${text}\n${escapeHtml(url)}` : text,
    extra: {
      parse_mode: 'HTML' as const,
      link_preview_options: { is_disabled: true },
      ...(url ? linkKeyboard(t('order:invoiceButton'), url, share, t('common:copyLink')) : {}),
    },
  };
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
