import type { Invoice } from '../../../api/index.js';
import { escapeHtml, formatMoney, formatProviderDay } from '../../../core/format.js';
import { daysUntil } from '../../../core/minsk-time.js';
import type { Locale } from '../../../storage/chat-store.js';
import type { Translate } from '../../kit/i18n.js';
import type { CurrencyCodes } from '../billing/views.js';

/*
 * Inline mode: what the partner sees in the picker (title and description, plain text: Telegram
 * does not parse them) and the card a client reads in the chat it is sent to (HTML). The card
 * carries what a client needs to pay and nothing of the partner's own bookkeeping (no invoice or
 * order ids, no state).
 */

const amountOf = (locale: Locale, codes: CurrencyCodes, invoice: Invoice) =>
  formatMoney(invoice.amount, codes.get(invoice.currency_id), locale);

/** `Счёт № СФ-2026-5008 · 12,00 BYN`: the picker's line for one invoice. */
export function inlineResultTitle(
  t: Translate,
  locale: Locale,
  codes: CurrencyCodes,
  invoice: Invoice,
): string {
  return t('inline:resultTitle', {
    number: invoice.invoice_number,
    amount: amountOf(locale, codes, invoice),
  });
}

/**
 * `shop.com.by · оплатить до 27.08.2026`, or the order id when no domain is known. What the partner
 * reads (the picker, notifications) gives dates as the provider writes them, DD.MM.YYYY; what the
 * client reads (the card and its paid or expired edit) gives the month in words, which no country
 * reads the other way round. `account`: the invoice's account when the partner holds several
 * (`👤 Студия · …`): said to the partner here, never on the card the client reads.
 */
export function inlineResultDescription(
  t: Translate,
  invoice: Invoice,
  domain: string | undefined,
  now: Date,
  account?: string,
): string {
  const due = invoice.expiration_date;
  const line =
    domain === undefined
      ? t('inline:resultOfOrder', { orderId: invoice.order_id, due })
      : t('inline:resultOfDomain', { domain, due });
  // Unpaid and past its date: the partner sees it before sending it to a client.
  const overdue = (daysUntil(invoice.expiration_date, now) ?? 0) < 0;
  const dated = overdue ? `${t('inline:overdue')} · ${line}` : line;
  return account === undefined ? dated : `👤 ${account} · ${dated}`;
}

/** The card posted into the client's chat: number, amount with currency, due date. */
export function renderInvoiceCard(
  t: Translate,
  locale: Locale,
  codes: CurrencyCodes,
  invoice: Invoice,
): string {
  return t('inline:card', {
    number: escapeHtml(invoice.invoice_number),
    amount: escapeHtml(amountOf(locale, codes, invoice)),
    due: escapeHtml(formatProviderDay(invoice.expiration_date, locale)),
  });
}
