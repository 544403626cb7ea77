import { z } from 'zod';
import { ddmmyyyy, id, price, stringId } from './common.js';

export const currency = z.object({
  currency_id: id,
  currency_code: z.string(),
  currency_name: z.string(),
});

export const priceList = z.object({
  number: stringId,
  description: z.string(),
  as_of_date: z.string(),
});

export const priceListTariff = z.object({
  tariff_id: id,
  tariff_name: z.string(),
  service_id: stringId,
  archived: z.boolean(),
  period_type: z.string(),
  currency_id: id,
  prices: z.array(price),
});

export const priceListTariffs = z.object({
  number: stringId,
  description: z.string(),
  as_of_date: z.string(),
  tariffs: z.array(priceListTariff),
});

export const invoice = z.object({
  invoice_id: id,
  invoice_number: z.string(),
  order_id: id,
  creation_date: z.string(),
  expiration_date: z.string(),
  amount: z.number(),
  currency_id: id,
  state: z.string(),
});

export const payment = z.object({
  payment_id: id,
  invoice_id: id,
  payment_date: z.string(),
  amount: z.number(),
});

export const statement = z.object({
  statement_id: id,
  statement_number: z.string(),
  order_id: id,
  from_date: z.string(),
  to_date: z.string(),
  amount: z.number(),
  currency_id: id,
});

export const partnerStatement = z.object({
  partner_statement_id: id,
  partner_statement_number: z.string(),
  from_date: z.string(),
  to_date: z.string(),
});

export const currenciesResponse = z.object({ currencies: z.array(currency) });
export const priceListsResponse = z.object({ pricelists: z.array(priceList) });
export const invoicesResponse = z.object({ invoices: z.array(invoice) });
export const paymentsResponse = z.object({ payments: z.array(payment) });
export const statementsResponse = z.object({ statements: z.array(statement) });
export const partnerStatementsResponse = z.object({ partner_statements: z.array(partnerStatement) });

export const asOfDateQuery = z.strictObject({ as_of_date: ddmmyyyy.optional() });
export const invoiceQuery = z.strictObject({ order_id: id.optional(), invoice_id: id.optional() });
export const paymentQuery = invoiceQuery;
export const statementQuery = z.strictObject({ order_id: id.optional(), statement_id: id.optional() });
export const partnerStatementQuery = z.strictObject({ statement_id: id.optional() });

export type Currency = z.output<typeof currency>;
export type PriceList = z.output<typeof priceList>;
export type PriceListTariff = z.output<typeof priceListTariff>;
export type PriceListTariffs = z.output<typeof priceListTariffs>;
export type Invoice = z.output<typeof invoice>;
export type Payment = z.output<typeof payment>;
export type Statement = z.output<typeof statement>;
export type PartnerStatement = z.output<typeof partnerStatement>;
export type AsOfDateQuery = z.input<typeof asOfDateQuery>;
export type InvoiceQuery = z.input<typeof invoiceQuery>;
export type PaymentQuery = z.input<typeof paymentQuery>;
export type StatementQuery = z.input<typeof statementQuery>;
export type PartnerStatementQuery = z.input<typeof partnerStatementQuery>;
