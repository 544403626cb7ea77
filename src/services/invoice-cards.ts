/*
 * An invoice's card prepared for a user to share from the Mini App: the same card inline mode
 * posts (number, amount, due day, Pay and copy-link buttons), saved with Telegram's
 * `savePreparedInlineMessage` so that the app's `shareMessage(id)` opens the chat picker. The bot
 * owns the Telegram client and implements the port; main hands it to the Mini App's server.
 */
import type { Invoice } from '../api/index.js';
import type { Locale } from '../storage/chat-store.js';

/** What to prepare: whose account the invoice is of, for whom, in which words. */
export interface InvoiceCardRequest {
  /** The chat whose account holds the invoice (the user's private chat, or the team group). */
  chatId: number;
  /** The user the prepared message is saved for (the launch's user). */
  userId: number;
  invoice: Invoice;
  /** The invoice's public payment link (the card's Pay button). */
  url: string;
  /** Currency codes by id (the card's amount). */
  currencyCodes: ReadonlyMap<number, string>;
  /** The card's language: the user's. */
  locale: Locale;
}

/** Telegram's PreparedInlineMessage: its id for `shareMessage`, and until when it may be sent. */
export interface PreparedCard {
  id: string;
  expiresAt: Date;
}

/** Prepares an invoice's card for sharing (the bot implements it; main hands it over). */
export interface InvoiceCardPort {
  prepare(request: InvoiceCardRequest): Promise<PreparedCard>;
}

/**
 * The id of a card's inline result: the invoice, and — for a prepared card, which reaches the
 * bot's `chosen_inline_result` with no query to read the account from — the chat whose account
 * it is of (`invoice-5008-c-100123`). At most 64 bytes, as Telegram allows.
 */
export function invoiceResultId(invoiceId: number, chatId?: number): string {
  return chatId === undefined ? `invoice-${invoiceId}` : `invoice-${invoiceId}-c${chatId}`;
}

/** The invoice and the chat (a prepared card's) a result id names; undefined for another id. */
export function readInvoiceResultId(id: string): { invoiceId: number; chatId?: number } | undefined {
  const match = /^invoice-(\d{1,15})(?:-c(-?\d{1,15}))?$/.exec(id);
  if (!match) return undefined;
  const invoiceId = Number(match[1]);
  return match[2] === undefined ? { invoiceId } : { invoiceId, chatId: Number(match[2]) };
}
