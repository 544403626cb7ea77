/** Billing operations: currencies, price lists, invoices, payments, statements and their links. */

import { forbidden, notFound } from './api-errors.js';
import type { RouteContext } from './context.js';
import { dayKey, formatDate } from './dates.js';
import { shortLink } from './links.js';
import type { PriceList, PriceListEdition } from './state.js';
import { pathInteger, queryDay, queryInteger } from './validation.js';

export function listCurrencies({ state }: RouteContext): object {
  return {
    currencies: state.currencies.map((c) => ({
      currency_id: c.currency_id,
      currency_code: c.currency_code,
      currency_name: c.currency_name,
    })),
  };
}

/** The edition of a price list in effect on the day (latest `as_of_date` not after it). */
function editionOn(list: PriceList, day: number): PriceListEdition | undefined {
  let found: PriceListEdition | undefined;
  for (const edition of list.editions) {
    const key = dayKey(edition.as_of_date) ?? 0;
    if (key <= day && (found === undefined || key >= (dayKey(found.as_of_date) ?? 0))) found = edition;
  }
  return found;
}

function asOfDay(ctx: RouteContext): number {
  return queryDay(ctx.query, 'as_of_date') ?? dayKey(formatDate(ctx.now)) ?? 0;
}

export function listPriceLists(ctx: RouteContext): object {
  const day = asOfDay(ctx);
  const pricelists: object[] = [];
  for (const list of ctx.state.priceLists) {
    const edition = editionOn(list, day);
    if (edition) {
      pricelists.push({
        number: String(list.number),
        description: list.description,
        as_of_date: edition.as_of_date,
      });
    }
  }
  return { pricelists };
}

export function priceListTariffs(ctx: RouteContext): object {
  const number = pathInteger(ctx.params.number ?? '', 'number');
  const day = asOfDay(ctx);
  const list = ctx.state.priceLists.find((l) => l.number === number);
  const edition = list && editionOn(list, day);
  if (!list || !edition) throw notFound();
  return {
    number: list.number,
    description: list.description,
    as_of_date: edition.as_of_date,
    tariffs: edition.tariffs.map((t) => ({
      tariff_id: t.tariff_id,
      tariff_name: t.tariff_name,
      service_id: String(t.service_id),
      archived: t.archived,
      period_type: t.period_type,
      currency_id: t.currency_id,
      prices: t.prices.map((p) => ({ period: p.period, price: p.price })),
    })),
  };
}

export function listInvoices(ctx: RouteContext): object {
  const orderId = queryInteger(ctx.query, 'order_id');
  const invoiceId = queryInteger(ctx.query, 'invoice_id');
  return {
    invoices: ctx.state.invoices
      .filter((i) => i.owner === 'self')
      .filter((i) => orderId === undefined || i.order_id === orderId)
      .filter((i) => invoiceId === undefined || i.invoice_id === invoiceId)
      .map((i) => ({
        invoice_id: i.invoice_id,
        invoice_number: i.invoice_number,
        order_id: i.order_id,
        creation_date: i.creation_date,
        expiration_date: i.expiration_date,
        amount: i.amount,
        currency_id: i.currency_id,
        state: i.state,
      })),
  };
}

export function listPayments(ctx: RouteContext): object {
  const orderId = queryInteger(ctx.query, 'order_id');
  const invoiceId = queryInteger(ctx.query, 'invoice_id');
  const ownInvoices = new Map(
    ctx.state.invoices.filter((i) => i.owner === 'self').map((i) => [i.invoice_id, i]),
  );
  return {
    payments: ctx.state.payments
      .filter((p) => ownInvoices.has(p.invoice_id))
      .filter((p) => invoiceId === undefined || p.invoice_id === invoiceId)
      .filter((p) => orderId === undefined || ownInvoices.get(p.invoice_id)?.order_id === orderId)
      .map((p) => ({
        payment_id: p.payment_id,
        invoice_id: p.invoice_id,
        payment_date: p.payment_date,
        amount: p.amount,
      })),
  };
}

export function listStatements(ctx: RouteContext): object {
  const orderId = queryInteger(ctx.query, 'order_id');
  const statementId = queryInteger(ctx.query, 'statement_id');
  return {
    statements: ctx.state.statements
      .filter((s) => s.owner === 'self')
      .filter((s) => orderId === undefined || s.order_id === orderId)
      .filter((s) => statementId === undefined || s.statement_id === statementId)
      .map((s) => ({
        statement_id: s.statement_id,
        statement_number: s.statement_number,
        order_id: s.order_id,
        from_date: s.from_date,
        to_date: s.to_date,
        amount: s.amount,
        currency_id: s.currency_id,
      })),
  };
}

export function listPartnerStatements(ctx: RouteContext): object {
  const statementId = queryInteger(ctx.query, 'statement_id');
  return {
    partner_statements: ctx.state.partnerStatements
      .filter((s) => statementId === undefined || s.partner_statement_id === statementId)
      .map((s) => ({
        partner_statement_id: s.partner_statement_id,
        partner_statement_number: s.partner_statement_number,
        from_date: s.from_date,
        to_date: s.to_date,
      })),
  };
}

export function invoiceUrl(ctx: RouteContext): object {
  const id = pathInteger(ctx.params.id ?? '', 'id');
  const invoice = ctx.state.invoices.find((i) => i.invoice_id === id);
  if (!invoice) throw notFound();
  if (invoice.owner !== 'self') throw forbidden();
  return { url: shortLink(ctx.linkBase, 'invoice', id) };
}

export function statementUrl(ctx: RouteContext): object {
  const id = pathInteger(ctx.params.id ?? '', 'id');
  const statement = ctx.state.statements.find((s) => s.statement_id === id);
  if (!statement) throw notFound();
  if (statement.owner !== 'self') throw forbidden();
  return { url: shortLink(ctx.linkBase, 'statement', id) };
}

export function partnerStatementUrl(ctx: RouteContext): object {
  const id = pathInteger(ctx.params.id ?? '', 'id');
  if (!ctx.state.partnerStatements.some((s) => s.partner_statement_id === id)) throw notFound();
  return { url: shortLink(ctx.linkBase, 'partner-statement', id) };
}
