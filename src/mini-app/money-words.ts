/*
 * Money as «Счета» and the home show it: an invoice, its payments and a statement, in the user's
 * words — amounts with core's formatMoney, days with formatProviderDay, states with the chat's
 * state words (`words:state`). Plain text: the app shows it as text, never as HTML.
 */
import type { Invoice, Payment, Statement } from '../api/index.js';
import { formatMoney, formatProviderDay, isValidDate } from '../core/format.js';
import type { InvoiceOrderFacts } from '../core/invoice-search.js';
import { invoiceStatus } from '../core/invoice-search.js';
import type { InvoiceEntry, Money, PaymentEntry, StatementEntry } from './contract.js';
import type { EndpointCall } from './endpoint-types.js';

/** Currency codes by id (the per-token cached currency list). */
export type CurrencyCodes = ReadonlyMap<number, string>;

/** The account's currency codes, from the API client's per-token cache. */
export async function currencyCodesOf(call: EndpointCall): Promise<CurrencyCodes> {
  const currencies = await call.api.listCurrencies();
  return new Map(currencies.map((c) => [c.currency_id, c.currency_code]));
}

/** A provider day (`DD.MM.YYYY`, a time after it ignored) as `YYYY-MM-DD`; null when it is none. */
export function isoDay(text: string): string | null {
  const match = /^(\d{2})\.(\d{2})\.(\d{4})/.exec(text.trim());
  if (!match || !isValidDate(`${match[1]}.${match[2]}.${match[3]}`)) return null;
  return `${match[3]}-${match[2]}-${match[1]}`;
}

/** A day in words (`27 августа 2026 г.`), or as the provider wrote it when it is no day. */
export const dayText = (call: EndpointCall, text: string) =>
  text.trim() === '' ? call.t('miniapp:money.noDate') : formatProviderDay(text, call.locale);

export function moneyOf(call: EndpointCall, amount: number, currency: string | undefined): Money {
  return { amount, currency: currency ?? null, text: formatMoney(amount, currency, call.locale) };
}

/** The chat's word for a provider state; one without words is shown as sent. */
export function stateText(call: EndpointCall, state: string): string {
  if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(state)) return state;
  const text = call.t(`words:state.${state}`, { defaultValue: '' });
  return text === '' || text === `words:state.${state}` ? state : text;
}

/** What «Счета» lists of one invoice: the chat's words of it, its payments, its order's facts. */
export function invoiceEntryOf(
  call: EndpointCall,
  invoice: Invoice,
  codes: CurrencyCodes,
  payments: readonly Payment[],
  facts: (InvoiceOrderFacts & { what?: string | undefined }) | undefined,
  now: Date,
): InvoiceEntry {
  const currency = codes.get(invoice.currency_id);
  const status = invoiceStatus(invoice, now);
  return {
    id: invoice.invoice_id,
    number: invoice.invoice_number,
    orderId: invoice.order_id,
    created: isoDay(invoice.creation_date),
    createdText: dayText(call, invoice.creation_date),
    expires: isoDay(invoice.expiration_date),
    expiresText: dayText(call, invoice.expiration_date),
    amount: moneyOf(call, invoice.amount, currency),
    status,
    // Overdue is core's reading of a waiting invoice past its day: said so, not «ожидает оплаты».
    statusText: status === 'expired' ? call.t('miniapp:money.statusExpired') : stateText(call, invoice.state),
    payments: payments.map(
      (payment): PaymentEntry => ({
        id: payment.payment_id,
        date: isoDay(payment.payment_date),
        dateText: dayText(call, payment.payment_date),
        amount: moneyOf(call, payment.amount, currency),
      }),
    ),
    ...(facts?.domain === undefined ? {} : { domain: facts.domain }),
    ...(facts?.number === undefined ? {} : { orderNumber: facts.number }),
    ...(facts?.what === undefined ? {} : { what: facts.what }),
    ...(facts?.customer === undefined ? {} : { customer: facts.customer }),
  };
}

/** A statement as the chat's /statements lists it. */
export function statementEntryOf(
  call: EndpointCall,
  statement: Statement,
  codes: CurrencyCodes,
  domain: string | undefined,
): StatementEntry {
  return {
    id: statement.statement_id,
    number: statement.statement_number,
    orderId: statement.order_id,
    from: isoDay(statement.from_date),
    to: isoDay(statement.to_date),
    periodText: call.t('miniapp:money.period', {
      from: dayText(call, statement.from_date),
      to: dayText(call, statement.to_date),
    }),
    amount: moneyOf(call, statement.amount, codes.get(statement.currency_id)),
    ...(domain === undefined ? {} : { domain }),
  };
}
