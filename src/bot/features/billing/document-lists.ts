import { Markup } from 'telegraf';
import type { InlineKeyboardButton } from 'telegraf/types';
import type { Invoice, PartnerApi, PartnerStatement, Payment, Statement } from '../../../api/index.js';
import { UNPAID_INVOICE_STATE } from '../../../core/invoice-search.js';
import type { BotContext } from '../../context.js';
import { sendToClientButton } from '../../kit/keyboards.js';
import type { ListRow, PagedList, PagedLists } from '../../kit/paged-list.js';
import { encodeCallback } from '../../registry.js';
import { loadCurrencyCodes } from './currencies.js';
import {
  type BILLING_COLUMNS,
  billingColumns,
  invoiceCells,
  partnerStatementCells,
  paymentCells,
  renderInvoice,
  renderPartnerStatement,
  renderPayment,
  renderStatement,
  statementCells,
} from './views.js';

/** A list's filter: an order id, or `-` for the partner's whole list. */
export const filterOf = (id: number | undefined) => (id === undefined ? '-' : String(id));
const idOf = (filter: string) => (filter === '-' ? undefined : Number(filter));

/** What the provider is asked for: one order's documents, or all. */
type OrderQuery = { order_id?: number };

/** A list of billing documents (invoices, payments, statements), newest first. */
interface DocumentList<T> {
  id: string;
  /** The title's key: of the whole list, and of one order's (absent: the list has no per-order form). */
  titleKey: string;
  titleOfOrderKey?: string;
  emptyKey: string;
  /** The table's header (keys under `billing:column`). */
  columns: keyof typeof BILLING_COLUMNS;
  /** The document's id: a larger one is newer. */
  idOf(item: T): number;
  /** The documents and how to render each (with what the rendering needs, loaded at once). */
  load(
    ctx: BotContext,
    api: PartnerApi,
    query: OrderQuery,
  ): Promise<{
    items: T[];
    row(item: T): ListRow;
    footer?(orderId: number | undefined): InlineKeyboardButton[];
  }>;
}

function registerDocumentList<T>(lists: PagedLists, list: DocumentList<T>): PagedList {
  return lists.register({
    id: list.id,
    // One to a row: two «🔗 Счёт СФ-2026-5012» side by side are cut on a phone to «🔗 Счёт СФ-2026-…»,
    // which reads the same on every button (the number is what tells them apart).
    buttonsPerRow: 1,
    async load(ctx, filter) {
      const orderId = idOf(filter);
      const { items, row, footer } = await list.load(
        ctx,
        await ctx.partnerApi(),
        orderId === undefined ? {} : { order_id: orderId },
      );
      items.sort((a, b) => list.idOf(b) - list.idOf(a));
      return {
        title:
          orderId === undefined || list.titleOfOrderKey === undefined
            ? ctx.t(list.titleKey)
            : ctx.t(list.titleOfOrderKey, { orderId }),
        empty: ctx.t(list.emptyKey),
        columns: billingColumns(ctx.t, list.columns),
        rows: items.map(row),
        footer: footer?.(orderId) ?? [],
      };
    },
  });
}

/**
 * The four billing lists: invoices, payments, statements and partner statements. `otherAccounts`
 * gives the buttons to the chat's other accounts' invoices, under the whole list (none in a chat
 * of one account).
 */
export function registerBillingLists(
  lists: PagedLists,
  otherAccounts: (ctx: BotContext) => Promise<InlineKeyboardButton[]> = async () => [],
) {
  const invoices = registerDocumentList<Invoice>(lists, {
    id: 'inv',
    columns: 'invoices',
    titleKey: 'billing:invoicesTitle',
    titleOfOrderKey: 'billing:invoicesOfOrder',
    emptyKey: 'billing:noInvoices',
    idOf: (invoice) => invoice.invoice_id,
    async load(ctx, api, query) {
      const [items, codes, others] = await Promise.all([
        api.listInvoices(query),
        loadCurrencyCodes(api),
        query.order_id === undefined ? otherAccounts(ctx) : [],
      ]);
      return {
        items,
        row: (invoice) => ({
          html: renderInvoice(ctx.t, ctx.locale, codes, invoice),
          cells: invoiceCells(ctx.t, ctx.locale, codes, invoice),
          button: Markup.button.callback(
            ctx.t('billing:invoiceButton', { number: invoice.invoice_number }),
            encodeCallback('invoiceLink', invoice.invoice_id),
          ),
        }),
        // One "Send to client" under the list rather than one per row (the rows' link buttons
        // already fill the keyboard): it opens the picker with the list's unpaid invoices, those
        // of the order when the list is an order's. A list with nothing unpaid has nothing to send.
        footer: (orderId) => [
          ...(items.some((invoice) => invoice.state === UNPAID_INVOICE_STATE)
            ? [sendToClientButton(ctx.t, orderId === undefined ? '' : String(orderId))]
            : []),
          ...others,
        ],
      };
    },
  });

  const payments = registerDocumentList<Payment>(lists, {
    id: 'pay',
    columns: 'payments',
    titleKey: 'billing:paymentsTitle',
    titleOfOrderKey: 'billing:paymentsOfOrder',
    emptyKey: 'billing:noPayments',
    idOf: (payment) => payment.payment_id,
    async load(ctx, api, query) {
      const [items, invoices, codes] = await Promise.all([
        api.listPayments(query),
        api.listInvoices(query),
        loadCurrencyCodes(api),
      ]);
      const byId = new Map(invoices.map((i) => [i.invoice_id, i]));
      return {
        items,
        row: (p) => ({
          html: renderPayment(ctx.t, ctx.locale, p, byId.get(p.invoice_id), codes),
          cells: paymentCells(ctx.locale, p, byId.get(p.invoice_id), codes),
        }),
      };
    },
  });

  const statements = registerDocumentList<Statement>(lists, {
    id: 'st',
    columns: 'statements',
    titleKey: 'billing:statementsTitle',
    titleOfOrderKey: 'billing:statementsOfOrder',
    emptyKey: 'billing:noStatements',
    idOf: (statement) => statement.statement_id,
    async load(ctx, api, query) {
      const [items, codes] = await Promise.all([api.listStatements(query), loadCurrencyCodes(api)]);
      return {
        items,
        row: (s) => ({
          html: renderStatement(ctx.t, ctx.locale, codes, s),
          cells: statementCells(ctx.locale, codes, s),
          button: Markup.button.callback(
            ctx.t('billing:statementButton', { number: s.statement_number }),
            encodeCallback('statementLink', s.statement_id),
          ),
        }),
      };
    },
  });

  const partnerStatements = registerDocumentList<PartnerStatement>(lists, {
    id: 'pst',
    columns: 'partnerStatements',
    titleKey: 'billing:partnerStatementsTitle',
    emptyKey: 'billing:noPartnerStatements',
    idOf: (statement) => statement.partner_statement_id,
    // The provider keeps no partner statement per order: the query is never an order's.
    async load(ctx, api) {
      return {
        items: await api.listPartnerStatements(),
        row: (s) => ({
          html: renderPartnerStatement(ctx.t, s),
          cells: partnerStatementCells(s),
          button: Markup.button.callback(
            ctx.t('billing:statementButton', { number: s.partner_statement_number }),
            encodeCallback('partnerStatementLink', s.partner_statement_id),
          ),
        }),
      };
    },
  });

  return { invoices, payments, statements, partnerStatements };
}
