/*
 * «Счета»: every invoice of the account with its payments, an invoice's public link and its card
 * prepared for sharing, the statements and a statement's file. An id the account does not hold is
 * `invoiceNotFound` / `statementNotFound` (404): another tenant's ids look like nothing, never
 * like something forbidden.
 */
import type { Invoice, Statement } from '../api/index.js';
import { toUnicodeDomain } from '../core/domain-names.js';
import { type InvoiceOrderFacts, searchInvoices } from '../core/invoice-search.js';
import type { AnswerOf } from './contract.js';
import { type CallOf, type EndpointCall, EndpointError } from './endpoint-types.js';
import { currencyCodesOf, invoiceEntryOf, statementEntryOf } from './money-words.js';

/** What the lists tell of an order: its domain, its number, and what it is (its service's name). */
type OrderFacts = InvoiceOrderFacts & { what?: string | undefined };

/**
 * What the lists tell of each order: its domain (the cached domain order index), its number, and
 * what was ordered — the service's name, as the chat's /orders names it (the cached service list).
 */
function orderFactsOf(
  byOrderId: ReadonlyMap<number, string>,
  orders: readonly { order_id: number; number: string; service_id?: string }[] = [],
  serviceNames: ReadonlyMap<string, string> = new Map(),
): Map<number, OrderFacts> {
  const facts = new Map<number, OrderFacts>();
  for (const [orderId, ascii] of byOrderId) facts.set(orderId, { domain: toUnicodeDomain(ascii) });
  for (const order of orders) {
    const what = order.service_id === undefined ? undefined : serviceNames.get(order.service_id);
    facts.set(order.order_id, {
      ...facts.get(order.order_id),
      number: order.number,
      ...(what === undefined ? {} : { what }),
    });
  }
  return facts;
}

/** Every invoice of the account, newest first, with its payments and its order's domain and number. */
export async function invoicesOf(call: CallOf<'billing/invoices'>): Promise<AnswerOf<'billing/invoices'>> {
  const [invoices, payments, codes, index, orders, services] = await Promise.all([
    call.api.listInvoices(),
    call.api.listPayments(),
    currencyCodesOf(call),
    call.api.domainOrderIndex(),
    call.api.listOrders(),
    call.api.listServices(),
  ]);
  const names = new Map(services.map((service) => [service.service_id, service.name] as const));
  const facts = orderFactsOf(index.byOrderId, orders, names);
  const now = call.clock();
  return {
    invoices: searchInvoices(invoices, (invoice) => facts.get(invoice.order_id), '').map((invoice) =>
      invoiceEntryOf(
        call,
        invoice,
        codes,
        payments.filter((payment) => payment.invoice_id === invoice.invoice_id),
        facts.get(invoice.order_id),
        now,
      ),
    ),
  };
}

/** The account's invoice of that id; another account's, or none, is `invoiceNotFound`. */
export async function invoiceOfAccount(call: EndpointCall, invoiceId: number): Promise<Invoice> {
  const found = (await call.api.listInvoices({ invoice_id: invoiceId })).find(
    (invoice) => invoice.invoice_id === invoiceId,
  );
  if (found === undefined) throw new EndpointError(404, 'invoiceNotFound');
  return found;
}

/** The invoice's public payment link (the chat's /invoice). */
export async function linkOf(call: CallOf<'billing/link'>): Promise<AnswerOf<'billing/link'>> {
  const invoice = await invoiceOfAccount(call, call.input.invoiceId);
  return { url: await call.api.getInvoiceUrl(invoice.invoice_id) };
}

/**
 * The invoice's card prepared for this user by the bot (`savePreparedInlineMessage`): the card
 * inline mode sends; the app opens the chat picker with `shareMessage(id)`.
 */
export async function shareOf(call: CallOf<'billing/share'>): Promise<AnswerOf<'billing/share'>> {
  const invoice = await invoiceOfAccount(call, call.input.invoiceId);
  const [url, codes] = await Promise.all([call.api.getInvoiceUrl(invoice.invoice_id), currencyCodesOf(call)]);
  let prepared: Awaited<ReturnType<typeof call.services.invoiceCards.prepare>>;
  try {
    prepared = await call.services.invoiceCards.prepare({
      chatId: call.account.chatId,
      userId: call.launch.userId,
      invoice,
      url,
      currencyCodes: codes,
      locale: call.locale,
    });
  } catch {
    throw new EndpointError(502, 'shareFailed');
  }
  return { id: prepared.id, expiresAt: prepared.expiresAt.toISOString() };
}

/** The account's statements (the chat's /statements), newest first, with their order's domain. */
export async function statementsOf(
  call: CallOf<'billing/statements'>,
): Promise<AnswerOf<'billing/statements'>> {
  const [statements, codes, index] = await Promise.all([
    call.api.listStatements(),
    currencyCodesOf(call),
    call.api.domainOrderIndex(),
  ]);
  return {
    statements: [...statements]
      .sort((a, b) => b.statement_id - a.statement_id)
      .map((statement) => {
        const ascii = index.byOrderId.get(statement.order_id);
        return statementEntryOf(
          call,
          statement,
          codes,
          ascii === undefined ? undefined : toUnicodeDomain(ascii),
        );
      }),
  };
}

/** The account's statement of that id; another account's, or none, is `statementNotFound`. */
export async function statementOfAccount(call: EndpointCall, statementId: number): Promise<Statement> {
  const found = (await call.api.listStatements({ statement_id: statementId })).find(
    (statement) => statement.statement_id === statementId,
  );
  if (found === undefined) throw new EndpointError(404, 'statementNotFound');
  return found;
}

/**
 * A statement's file for the app's `downloadFile`: a signed, short-lived address on this server
 * (statement-files.ts) and the file's name, its extension from what the provider serves.
 */
export async function statementFileOf(
  call: CallOf<'billing/statement-file'>,
): Promise<AnswerOf<'billing/statement-file'>> {
  const statement = await statementOfAccount(call, call.input.statementId);
  const link = await call.api.getStatementUrl(statement.statement_id);
  // The provider's document server, not its API: a failure there is the provider's all the same.
  const type = await call.files.contentTypeOf(link).catch(() => {
    throw new EndpointError(502, 'providerUnavailable');
  });
  const fileName = call.files.fileName(call.t, statement.statement_number, type);
  const { url, expiresAt } = call.files.link({
    chatId: call.account.chatId,
    n: call.account.n,
    statementId: statement.statement_id,
    userId: call.launch.userId,
    fileName,
  });
  return { url, fileName, expiresAt: expiresAt.toISOString() };
}
