import type { Invoice, PartnerStatement, Payment, Statement } from '../../../api/index.js';
import { escapeHtml, formatMoney } from '../../../core/format.js';
import type { Locale } from '../../../storage/chat-store.js';
import type { Translate } from '../../kit/i18n.js';
import { stateWord } from '../../kit/words.js';

/** Currency codes by id, from the (cached) currency list. */
export type CurrencyCodes = ReadonlyMap<number, string>;

export function renderInvoice(t: Translate, locale: Locale, codes: CurrencyCodes, invoice: Invoice): string {
  return t('billing:invoiceRow', {
    number: escapeHtml(invoice.invoice_number),
    amount: formatMoney(invoice.amount, codes.get(invoice.currency_id), locale),
    state: stateWord(t, invoice.state),
    orderId: invoice.order_id,
    created: escapeHtml(invoice.creation_date),
    expires: escapeHtml(invoice.expiration_date),
    id: invoice.invoice_id,
  });
}

export function renderPayment(
  t: Translate,
  locale: Locale,
  payment: Payment,
  invoice: Invoice | undefined,
  codes: CurrencyCodes,
): string {
  return t('billing:paymentRow', {
    id: payment.payment_id,
    date: escapeHtml(payment.payment_date),
    amount: formatMoney(payment.amount, invoice ? codes.get(invoice.currency_id) : undefined, locale),
    invoice: invoice ? escapeHtml(invoice.invoice_number) : String(payment.invoice_id),
  });
}

export function renderStatement(
  t: Translate,
  locale: Locale,
  codes: CurrencyCodes,
  statement: Statement,
): string {
  return t('billing:statementRow', {
    number: escapeHtml(statement.statement_number),
    id: statement.statement_id,
    orderId: statement.order_id,
    from: escapeHtml(statement.from_date),
    to: escapeHtml(statement.to_date),
    amount: formatMoney(statement.amount, codes.get(statement.currency_id), locale),
  });
}

export function renderPartnerStatement(t: Translate, statement: PartnerStatement): string {
  return t('billing:partnerStatementRow', {
    number: escapeHtml(statement.partner_statement_number),
    id: statement.partner_statement_id,
    from: escapeHtml(statement.from_date),
    to: escapeHtml(statement.to_date),
  });
}

/** The billing tables' headers, by list: the keys under `billing:column`. */
export const BILLING_COLUMNS = {
  invoices: ['number', 'amount', 'state', 'order', 'created', 'expires'],
  payments: ['date', 'amount', 'invoice'],
  statements: ['number', 'amount', 'order', 'period'],
  partnerStatements: ['number', 'period'],
} as const;

export const billingColumns = (t: Translate, list: keyof typeof BILLING_COLUMNS): string[] =>
  BILLING_COLUMNS[list].map((column) => t(`billing:column.${column}`));

export function invoiceCells(t: Translate, locale: Locale, codes: CurrencyCodes, invoice: Invoice): string[] {
  return [
    `<b>${escapeHtml(invoice.invoice_number)}</b>`,
    formatMoney(invoice.amount, codes.get(invoice.currency_id), locale),
    stateWord(t, invoice.state),
    String(invoice.order_id),
    escapeHtml(invoice.creation_date),
    escapeHtml(invoice.expiration_date),
  ];
}

export function paymentCells(
  locale: Locale,
  payment: Payment,
  invoice: Invoice | undefined,
  codes: CurrencyCodes,
): string[] {
  return [
    `<b>${escapeHtml(payment.payment_date)}</b>`,
    formatMoney(payment.amount, invoice ? codes.get(invoice.currency_id) : undefined, locale),
    invoice ? escapeHtml(invoice.invoice_number) : String(payment.invoice_id),
  ];
}

export function statementCells(locale: Locale, codes: CurrencyCodes, statement: Statement): string[] {
  return [
    `<b>${escapeHtml(statement.statement_number)}</b>`,
    formatMoney(statement.amount, codes.get(statement.currency_id), locale),
    String(statement.order_id),
    `${escapeHtml(statement.from_date)} — ${escapeHtml(statement.to_date)}`,
  ];
}

export function partnerStatementCells(statement: PartnerStatement): string[] {
  return [
    `<b>${escapeHtml(statement.partner_statement_number)}</b>`,
    `${escapeHtml(statement.from_date)} — ${escapeHtml(statement.to_date)}`,
  ];
}

/** The message that carries a public link: a title and the URL as plain text to forward. */
export function renderLink(
  t: Translate,
  titleKey: string,
  params: Record<string, unknown>,
  url: string,
): string {
  return `${t(titleKey, params)}\n${escapeHtml(url)}`;
}
