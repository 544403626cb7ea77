/*
 * An invoice's card as an inline result: what inline mode lists in the picker and what the Mini
 * App's Share prepares (`savePreparedInlineMessage`) — one builder, so the card a client reads is
 * the same whichever way it was sent.
 */
import type { Telegram } from 'telegraf';
import type { InlineKeyboardButton, InlineQueryResultArticle } from 'telegraf/types';
import type { Invoice } from '../../../api/index.js';
import {
  type InvoiceCardPort,
  type InvoiceCardRequest,
  invoiceResultId,
  type PreparedCard,
} from '../../../services/invoice-cards.js';
import type { Locale } from '../../../storage/chat-store.js';
import { callBotApi, copyTextButton } from '../../kit/bot-api-today.js';
import type { Translate, Translations } from '../../kit/i18n.js';
import type { CurrencyCodes } from '../billing/views.js';
import { inlineResultDescription, inlineResultTitle, renderInvoiceCard } from './views.js';

/** What a card needs: the invoice, its link, the words, and what the picker says of it. */
export interface InvoiceCardFacts {
  t: Translate;
  locale: Locale;
  codes: CurrencyCodes;
  invoice: Invoice;
  /** The public payment link (the Pay button). */
  url: string;
  /** The result's id (`invoiceResultId`). */
  id: string;
  /** The order's domain as shown, when known (the picker's description). */
  domain?: string | undefined;
  /** The account's name when the user holds several (the picker's description, never the card). */
  account?: string | undefined;
  now?: Date;
}

/** The card as an InlineQueryResultArticle: title and description for the picker, the card and its buttons. */
export function invoiceCardArticle(facts: InvoiceCardFacts): InlineQueryResultArticle {
  const { t, locale, codes, invoice, url } = facts;
  return {
    type: 'article',
    id: facts.id,
    title: inlineResultTitle(t, locale, codes, invoice),
    description: inlineResultDescription(t, invoice, facts.domain, facts.now ?? new Date(), facts.account),
    input_message_content: {
      message_text: renderInvoiceCard(t, locale, codes, invoice),
      parse_mode: 'HTML',
      link_preview_options: { is_disabled: true },
    },
    reply_markup: { inline_keyboard: [payRow(t('inline:pay'), url, t('common:copyLink'))] },
  };
}

/** The card's Pay button, and one that copies the link for a client who pays from another device. */
function payRow(pay: string, url: string, copyLabel: string): InlineKeyboardButton[] {
  const copy = copyTextButton(copyLabel, url);
  return copy ? [{ text: pay, url }, copy] : [{ text: pay, url }];
}

/**
 * The Mini App's Share: the card saved for the user as a prepared inline message, sendable to
 * users, groups and channels (never to bots). Its result id names the account's chat, so the
 * bot's `chosen_inline_result` keeps the card with the right account (it has no query to read).
 */
export function createInvoiceCardPort(deps: {
  telegram: Pick<Telegram, 'callApi'>;
  translations: Pick<Translations, 'forLocale'>;
}): InvoiceCardPort {
  return {
    async prepare(request: InvoiceCardRequest): Promise<PreparedCard> {
      const result = invoiceCardArticle({
        t: deps.translations.forLocale(request.locale),
        locale: request.locale,
        codes: request.currencyCodes,
        invoice: request.invoice,
        url: request.url,
        id: invoiceResultId(request.invoice.invoice_id, request.chatId),
      });
      const prepared = await callBotApi(deps.telegram, 'savePreparedInlineMessage', {
        user_id: request.userId,
        // telegraf's article type and the Bot API's are one wire shape (the copy button aside).
        result: result as unknown as Parameters<typeof callBotApi<'savePreparedInlineMessage'>>[2]['result'],
        allow_user_chats: true,
        allow_group_chats: true,
        allow_channel_chats: true,
        allow_bot_chats: false,
      });
      return { id: prepared.id, expiresAt: new Date(prepared.expiration_date * 1000) };
    },
  };
}
