/**
 * The bot's side of the watchers' sender port: renders a delivery in the chat's language and sends
 * it with the bot's Telegram client. A payment also edits the message that carried the invoice's
 * link earlier (remembered per chat), so the partner sees "✅ paid" where they sent it from.
 * Answers how it went in the watchers' terms: `sent`, `retry` (Telegram busy or down) or `gone`
 * (the chat blocked the bot or no longer exists, or holds the token no more: nothing more can be
 * told there).
 *
 * A chat may hold several partner accounts (docs/accounts.md), each watched on its own: a
 * delivery for a token speaks of the chat's account holding it. In a chat of several accounts its
 * messages (and the paid edit of a link message) are headed with that account's name, as the
 * bot's answers are; their buttons always carry the account, so they act on it whatever is active.
 */
import { Markup, type Telegram, TelegramError } from 'telegraf';
import type { ApiFactory, PartnerApi } from '../../../api/index.js';
import { escapeHtml, formatProviderDay } from '../../../core/format.js';
import { daysUntil } from '../../../core/minsk-time.js';
import type { NotificationEvent, OrderRef, PaymentArrivedEvent } from '../../../core/notify.js';
import type { Delivery } from '../../../core/notify-delivery.js';
import { splitMessage } from '../../../core/text.js';
import type { Logger } from '../../../logger.js';
import { errorForLog } from '../../../logger.js';
import type { ChatData } from '../../../storage/chat-data.js';
import type { Locale } from '../../../storage/chat-store.js';
import { type AccountSpeaker, headingLength, speakAs } from '../../kit/account-speaker.js';
import type { Translate, Translations } from '../../kit/i18n.js';
import { linkKeyboard, sendToClientButton } from '../../kit/keyboards.js';
import { accountLabel } from '../../middlewares/account.js';
import { encodeCallback } from '../../registry.js';
import { loadCurrencyCodes } from '../billing/currencies.js';
import type { CurrencyCodes } from '../billing/views.js';
import { invoiceOf, renderDigest, renderNotification, renderPaidLink } from './views.js';

/** What the watchers ask to be told (structurally theirs; the bot does not import them). */
export type NotificationDelivery = Delivery | { readonly kind: 'tokenRejected' };
export type NotificationOutcome = 'sent' | 'retry' | 'gone';

const MESSAGE_LIMIT = 4_096;
/** How many invoice links a digest carries as buttons. */
const MAX_DIGEST_LINKS = 6;

export interface NotificationSenderDeps {
  telegram: Telegram;
  chatData: ChatData;
  apiFor: ApiFactory;
  translations: Translations;
  defaultLocale: Locale;
  logger: Logger;
}

/** The order an event is about, when it names one. */
function orderOf(event: NotificationEvent): OrderRef | undefined {
  switch (event.kind) {
    case 'paymentArrived':
    case 'newInvoice':
    case 'invoiceExpiresTomorrow':
    case 'invoiceExpired':
      return event.order;
    case 'orderCompleted':
      return { id: event.orderId, number: event.orderNumber, domain: event.domain };
    case 'domainExpires':
      return undefined;
  }
}

export function createNotificationSender(deps: NotificationSenderDeps) {
  const { telegram, chatData, apiFor, translations, logger } = deps;

  const send = (
    chatId: number,
    text: string,
    extra: Parameters<Telegram['sendMessage']>[2] = {},
    speaker?: AccountSpeaker,
  ) => {
    const payload = speakAs(
      'sendMessage',
      { text, parse_mode: 'HTML', link_preview_options: { is_disabled: true }, ...extra },
      speaker,
    );
    const { text: headed, ...rest } = payload;
    return telegram.sendMessage(chatId, String(headed), rest as Parameters<Telegram['sendMessage']>[2]);
  };

  /**
   * The buttons under a single event: an invoice's link and "Send to client" (a new or expiring
   * invoice), or the order's details (a completed order, an expiring domain).
   */
  async function eventKeyboard(t: Translate, api: PartnerApi, event: NotificationEvent, now: Date) {
    const invoice = invoiceOf(event);
    if (invoice !== undefined) {
      const url = await api.getInvoiceUrl(invoice.id).catch(() => undefined);
      if (url === undefined) return {};
      // An invoice past its date is no longer one to send to a client.
      const open = (daysUntil(invoice.due, now) ?? 0) >= 0;
      return linkKeyboard(
        t('notify:invoiceButton', { number: invoice.number }),
        url,
        open ? [sendToClientButton(t, invoice.number)] : [],
        t('common:copyLink'),
      );
    }
    if (event.kind === 'orderCompleted' || event.kind === 'domainExpires') {
      const kind = event.kind === 'domainExpires' ? 'domain' : 'all';
      return Markup.inlineKeyboard([
        [Markup.button.callback(t('notify:orderButton'), encodeCallback('order', kind, event.orderId))],
      ]);
    }
    return {};
  }

  /** A digest keeps the invoices' links as buttons under its last part (the first few). */
  async function digestLinks(t: Translate, api: PartnerApi, events: readonly NotificationEvent[]) {
    const invoices = events.flatMap((event) => invoiceOf(event) ?? []).slice(0, MAX_DIGEST_LINKS);
    const urls = await Promise.all(invoices.map((i) => api.getInvoiceUrl(i.id).catch(() => undefined)));
    const rows = invoices.flatMap((invoice, index) => {
      const url = urls[index];
      return url ? [[Markup.button.url(t('notify:invoiceButton', { number: invoice.number }), url)]] : [];
    });
    return rows.length > 0 ? Markup.inlineKeyboard(rows) : {};
  }

  /** Domains the bot remembers for the orders these events are about (the provider's lists omit them). */
  async function knownDomains(
    chatId: number,
    events: readonly NotificationEvent[],
  ): Promise<Map<number, string>> {
    const ids = new Set<number>();
    for (const event of events) {
      const order = orderOf(event);
      if (order !== undefined && order.domain === undefined) ids.add(order.id);
    }
    const found = new Map<number, string>();
    for (const id of ids) {
      const domain = await chatData.getOrderDomain(chatId, id);
      if (domain !== undefined) found.set(id, domain);
    }
    return found;
  }

  /** Marks the earlier link message of a paid invoice; a failure only costs the mark. */
  async function markPaid(
    chatId: number,
    t: Translate,
    api: PartnerApi,
    event: PaymentArrivedEvent,
    speaker: AccountSpeaker,
  ) {
    const messageId = await chatData.getInvoiceLink(chatId, event.invoiceId);
    if (messageId === undefined || event.invoiceNumber === undefined) return;
    try {
      const url = await api.getInvoiceUrl(event.invoiceId);
      // The link message was headed with its account when it was sent: the edit keeps it so.
      const { text, ...extra } = speakAs(
        'editMessageText',
        {
          text: renderPaidLink(t, event.invoiceNumber, url, event.paymentDate),
          parse_mode: 'HTML',
          link_preview_options: { is_disabled: true },
          ...linkKeyboard(t('common:openLink'), url, [], t('common:copyLink')),
        },
        speaker,
      );
      await telegram.editMessageText(
        chatId,
        messageId,
        undefined,
        String(text),
        extra as Parameters<Telegram['editMessageText']>[4],
      );
    } catch (error) {
      logger.info({ chatId, messageId, err: errorForLog(error) }, 'could not mark the link message as paid');
    }
  }

  /**
   * Settles the cards the partner shared with clients (inline mode) for an invoice that was paid
   * or expired: the text says so and the Pay button goes. Forgotten only after the edits, so a
   * crash in between edits again on the next delivery ("not modified" then, which is fine).
   */
  async function settleSharedCards(chatId: number, invoiceId: number, text: string) {
    const cards = await chatData.getSharedCards(chatId, invoiceId);
    if (cards.length === 0) return;
    for (const inlineMessageId of cards) {
      await telegram
        .editMessageText(undefined, undefined, inlineMessageId, text, { parse_mode: 'HTML' })
        .catch((error: unknown) =>
          logger.info({ chatId, err: errorForLog(error) }, 'could not settle a shared invoice card'),
        );
    }
    await chatData.forgetSharedCards(chatId, invoiceId);
  }

  /** What a shared card of the event's invoice says once it is paid or expired; undefined for other events. */
  function settledCard(
    t: Translate,
    locale: Locale,
    event: NotificationEvent,
  ): { invoiceId: number; text: string } | undefined {
    // The client reads the card: its dates have the month in words, as the card itself.
    const day = (date: string) => escapeHtml(formatProviderDay(date, locale));
    if (event.kind === 'paymentArrived') {
      const number = escapeHtml(event.invoiceNumber ?? String(event.invoiceId));
      const text = t('inline:cardPaid', { number, date: day(event.paymentDate) });
      return { invoiceId: event.invoiceId, text };
    }
    if (event.kind === 'invoiceExpired') {
      const number = escapeHtml(event.invoiceNumber);
      const text = t('inline:cardExpired', { number, date: day(event.expirationDate) });
      return { invoiceId: event.invoiceId, text };
    }
    return undefined;
  }

  async function deliver(
    chatId: number,
    token: string,
    delivery: NotificationDelivery,
    now: Date,
  ): Promise<NotificationOutcome> {
    // A chat that logged out, removed the account or replaced its token meanwhile is told
    // nothing about this one. Every account is opened (to count them and find the token's).
    const accounts = await chatData.listAccounts(chatId);
    const account = accounts.find((a) => a.token === token);
    if (account === undefined) return 'gone';
    const locale = (await chatData.getLocale(chatId)) ?? deps.defaultLocale;
    const t = translations.forLocale(locale);
    const speaker: AccountSpeaker = {
      n: account.n,
      heading: accounts.length > 1 ? accountLabel(t, account) : undefined,
    };
    try {
      if (delivery.kind === 'tokenRejected') {
        await send(chatId, t('notify:tokenRejected'), {}, speaker);
        return 'sent';
      }
      const api = apiFor(token);
      const codes: CurrencyCodes = await loadCurrencyCodes(api).catch(() => new Map());
      const events = delivery.kind === 'single' ? [delivery.event] : delivery.events;
      const context = { now, knownDomains: await knownDomains(chatId, events) };
      if (delivery.kind === 'single') {
        const { event } = delivery;
        const extra = await eventKeyboard(t, api, event, now);
        const sent = await send(chatId, renderNotification(t, locale, codes, event, context), extra, speaker);
        // A message with an invoice's link is marked paid like any other link message.
        const invoice = invoiceOf(event);
        if (invoice !== undefined && 'reply_markup' in extra) {
          await chatData.rememberInvoiceLink(chatId, invoice.id, sent.message_id);
        }
      } else {
        // Each part is headed with the account: room is left for the heading's line.
        const room = MESSAGE_LIMIT - headingLength(speaker);
        const parts = splitMessage(renderDigest(t, locale, codes, delivery.events, context), room);
        const links = await digestLinks(t, api, delivery.events);
        for (const [index, part] of parts.entries()) {
          await send(chatId, part, index === parts.length - 1 ? links : {}, speaker);
        }
      }
      for (const event of events) {
        if (event.kind === 'paymentArrived') await markPaid(chatId, t, api, event, speaker);
        const card = settledCard(t, locale, event);
        if (card !== undefined) await settleSharedCards(chatId, card.invoiceId, card.text);
      }
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
