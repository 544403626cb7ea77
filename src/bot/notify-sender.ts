/**
 * The bot's side of the watchers' sender port: renders a delivery in the chat's language and sends
 * it with the bot's Telegram client. A payment also edits the message that carried the invoice's
 * link earlier (remembered per chat), so the partner sees "✅ paid" where they sent it from.
 * Answers how it went in the watchers' terms: `sent`, `retry` (Telegram busy or down) or `gone`
 * (the chat blocked the bot or no longer exists: nothing more can be told there).
 */
import { type Telegram, TelegramError } from 'telegraf';
import type { ApiFactory, PartnerApi } from '../api/index.js';
import type { Delivery, NotificationEvent, PaymentArrivedEvent } from '../core/notify.js';
import { splitMessage } from '../core/text.js';
import type { Logger } from '../logger.js';
import type { ChatData } from '../storage/chat-data.js';
import type { Locale } from '../storage/chat-store.js';
import { loadCurrencyCodes } from './commands/billing.js';
import type { Translate, Translations } from './i18n.js';
import { linkKeyboard } from './keyboards/list.js';
import { errorForLog } from './middlewares/errors.js';
import type { CurrencyCodes } from './views/billing.js';
import { invoiceOf, renderDigest, renderNotification, renderPaidLink } from './views/notify.js';

/** What the watchers ask to be told (structurally theirs; the bot does not import them). */
export type NotificationDelivery = Delivery | { readonly kind: 'tokenRejected' };
export type NotificationOutcome = 'sent' | 'retry' | 'gone';

const MESSAGE_LIMIT = 4_096;

export interface NotificationSenderDeps {
  telegram: Telegram;
  chatData: ChatData;
  apiFor: ApiFactory;
  translations: Translations;
  defaultLocale: Locale;
  logger: Logger;
}

export function createNotificationSender(deps: NotificationSenderDeps) {
  const { telegram, chatData, apiFor, translations, logger } = deps;

  const send = (chatId: number, text: string, extra: Parameters<Telegram['sendMessage']>[2] = {}) =>
    telegram.sendMessage(chatId, text, {
      parse_mode: 'HTML',
      link_preview_options: { is_disabled: true },
      ...extra,
    });

  /** The invoice's link as a button under a single event, when the event is about an invoice. */
  async function invoiceButton(t: Translate, api: PartnerApi, event: NotificationEvent) {
    const invoice = invoiceOf(event);
    if (invoice === undefined) return {};
    const url = await api.getInvoiceUrl(invoice.id).catch(() => undefined);
    return url ? linkKeyboard(t('notify:invoiceButton', { number: invoice.number }), url) : {};
  }

  /** Marks the earlier link message of a paid invoice; a failure only costs the mark. */
  async function markPaid(chatId: number, t: Translate, api: PartnerApi, event: PaymentArrivedEvent) {
    const messageId = await chatData.getInvoiceLink(chatId, event.invoiceId);
    if (messageId === undefined || event.invoiceNumber === undefined) return;
    try {
      const url = await api.getInvoiceUrl(event.invoiceId);
      await telegram.editMessageText(
        chatId,
        messageId,
        undefined,
        renderPaidLink(t, event.invoiceNumber, url, event.paymentDate),
        {
          parse_mode: 'HTML',
          link_preview_options: { is_disabled: true },
          ...linkKeyboard(t('common:openLink'), url),
        },
      );
    } catch (error) {
      logger.info({ chatId, messageId, err: errorForLog(error) }, 'could not mark the link message as paid');
    }
  }

  async function deliver(
    chatId: number,
    token: string,
    delivery: NotificationDelivery,
  ): Promise<NotificationOutcome> {
    // A chat that logged out or connected another token meanwhile is told nothing about this one.
    if ((await chatData.getToken(chatId)) !== token) return 'gone';
    const locale = (await chatData.getLocale(chatId)) ?? deps.defaultLocale;
    const t = translations.forLocale(locale);
    try {
      if (delivery.kind === 'tokenRejected') {
        await send(chatId, t('notify:tokenRejected'));
        return 'sent';
      }
      const api = apiFor(token);
      const codes: CurrencyCodes = await loadCurrencyCodes(api).catch(() => new Map());
      const events = delivery.kind === 'single' ? [delivery.event] : delivery.events;
      if (delivery.kind === 'single') {
        const extra = await invoiceButton(t, api, delivery.event);
        await send(chatId, renderNotification(t, locale, codes, delivery.event), extra);
      } else {
        for (const part of splitMessage(renderDigest(t, locale, codes, delivery.events), MESSAGE_LIMIT)) {
          await send(chatId, part);
        }
      }
      for (const event of events) if (event.kind === 'paymentArrived') await markPaid(chatId, t, api, event);
      return 'sent';
    } catch (error) {
      return outcomeOf(error, chatId);
    }
  }

  function outcomeOf(error: unknown, chatId: number): NotificationOutcome {
    if (!(error instanceof TelegramError)) return 'retry';
    if (error.code === 429 || error.code >= 500) return 'retry';
    // 403: the user blocked the bot or it left the group; 400 "chat not found" and the like.
    logger.warn({ chatId, err: errorForLog(error) }, 'a notification cannot be delivered to this chat');
    return 'gone';
  }

  return { deliver };
}
