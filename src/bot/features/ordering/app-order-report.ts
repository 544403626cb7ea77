/*
 * An order placed in the Mini App's order form, told in the chat whose account it was placed
 * for, as the chat's own Confirm tells it: "✅ Заказ создан" with the invoice's link (the message
 * later marked paid), headed by where it came from — in a team group that heading is the team's
 * announcement of the order. Sent outside any update, through the bot's own client; the services
 * call it through their port. In a chat of several accounts it is headed with the account the
 * order was placed with (`report.account`, else the active one), and its buttons carry it.
 */
import type { Telegram } from 'telegraf';
import { toUnicodeDomain } from '../../../core/domain-names.js';
import { escapeHtml } from '../../../core/format.js';
import { orderNumberOf } from '../../../core/order-number.js';
import type { OrderReport, OrderReportPort } from '../../../services/order-placing.js';
import type { ChatData } from '../../../storage/chat-data.js';
import type { Locale } from '../../../storage/chat-store.js';
import { createdOrderMessage } from '../../forms/created-order.js';
import { speakAs, speakerOf } from '../../kit/account-speaker.js';
import type { Translations } from '../../kit/i18n.js';
import { formatPeriod } from '../catalog/views.js';

export interface AppOrderReportDeps {
  telegram: Pick<Telegram, 'sendMessage'>;
  translations: Translations;
  chatData: Pick<ChatData, 'getLocale' | 'rememberInvoiceLink' | 'listAccounts'>;
  defaultLocale: Locale;
}

export function createAppOrderReports(deps: AppOrderReportDeps): OrderReportPort {
  return {
    async reportOrder(report: OrderReport): Promise<void> {
      const { chatId, invoice, invoiceId } = report;
      const t = deps.translations.forLocale((await deps.chatData.getLocale(chatId)) ?? deps.defaultLocale);
      const inGroup = chatId < 0;
      // What was ordered, so that one order is told from another: «shop.by, Оптимальный, 12 мес».
      const { what } = report;
      const subject = [
        report.domain === undefined ? undefined : escapeHtml(toUnicodeDomain(report.domain)),
        what.tariffName === undefined ? undefined : escapeHtml(what.tariffName),
        formatPeriod(t, what.periodType, what.period),
      ]
        .filter((part) => part !== undefined)
        .join(', ');
      const heading = inGroup
        ? t('team:announce.orderCreated', {
            who: escapeHtml(report.who.name),
            role: t(`team:role.${report.role}`),
            kind: t(`order:kind.${report.kind}`),
            subject,
            order: escapeHtml(orderNumberOf({ number: invoice.order?.number, order_id: report.orderId })),
          })
        : t('order:fromForm', { kind: t(`order:kind.${report.kind}`), subject });
      const created = createdOrderMessage(
        t,
        { order_id: report.orderId, invoice_id: invoiceId },
        invoice,
        inGroup ? chatId : undefined,
      );
      const of = await speakerOf(deps.chatData, chatId, t, report.account);
      const { text, ...extra } = speakAs(
        'sendMessage',
        { text: `${heading}\n\n${created.text}`, ...created.extra },
        of?.speaker,
      );
      const sent = await deps.telegram.sendMessage(
        chatId,
        String(text),
        extra as Parameters<Telegram['sendMessage']>[2],
      );
      const { url } = invoice;
      // The message carries the invoice's link: it is marked paid when the payment arrives.
      if (url && invoiceId !== undefined)
        await deps.chatData.rememberInvoiceLink(chatId, invoiceId, sent.message_id);
    },
  };
}
