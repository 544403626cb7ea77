import { Composer } from 'telegraf';
import type { InlineKeyboardButton } from 'telegraf/types';
import type { Invoice } from '../../../api/index.js';
import { escapeHtml } from '../../../core/format.js';
import { invoiceNumberKey, UNPAID_INVOICE_STATE } from '../../../core/invoice-search.js';
import { echoInput } from '../../../core/text.js';
import type { ChatData } from '../../../storage/chat-data.js';
import type { BotContext } from '../../context.js';
import { UserInputError } from '../../errors.js';
import { commandWords, parseId, parseOptionalId } from '../../kit/arguments.js';
import { linkKeyboard, sendToClientButton } from '../../kit/keyboards.js';
import { findInAccounts } from '../../kit/other-accounts.js';
import type { PagedLists } from '../../kit/paged-list.js';
import { CallbackSet, type Feature } from '../../registry.js';
import { filterOf, registerBillingLists } from './document-lists.js';
import { renderLink } from './views.js';

/** What an invoice number may look like (`СФ-2026-5001`): letters, digits, dashes, slashes. */
const INVOICE_NUMBER = /^[\p{L}\p{N}][\p{L}\p{N}/._\u2010-\u2015-]{0,39}$/u;

/** Sends a public link as text (to forward) and as a URL button, with `below` under it. */
async function sendLink(
  ctx: BotContext,
  titleKey: string,
  params: Record<string, unknown>,
  url: string,
  below: InlineKeyboardButton[] = [],
) {
  return ctx.reply(renderLink(ctx.t, titleKey, params, url), {
    parse_mode: 'HTML',
    link_preview_options: { is_disabled: true },
    ...linkKeyboard(ctx.t('common:openLink'), url, below, ctx.t('common:copyLink')),
  });
}

/** /invoices, /invoice, /payments, /statements, /statement, /partner_statements, /partner_statement. */
export function createBillingFeature(deps: { lists: PagedLists; chatData: ChatData }): Feature {
  const { lists, chatData } = deps;
  const composer = new Composer<BotContext>();
  const callbacks = new CallbackSet();

  const { invoices, payments, statements, partnerStatements } = registerBillingLists(lists);

  /**
   * The link of an invoice, named by its number as the client sees it (`СФ-2026-5001`). An unpaid
   * one can also be sent to the client as a card: the inline picker opens with its number.
   */
  const sendInvoiceLink = async (ctx: BotContext, invoice: Invoice, url: string) => {
    const share =
      invoice.state === UNPAID_INVOICE_STATE ? [sendToClientButton(ctx.t, invoice.invoice_number)] : [];
    const sent = await sendLink(
      ctx,
      'billing:invoiceLink',
      { number: escapeHtml(invoice.invoice_number) },
      url,
      share,
    );
    // Remembered so that the message is marked paid when the payment arrives (/notify).
    if (ctx.chat) await chatData.rememberInvoiceLink(ctx.chat.id, invoice.invoice_id, sent.message_id);
  };
  /** The invoice's link; from a button, of the account the button was made for. */
  const showInvoiceLink = async (ctx: BotContext, invoiceId: number) => {
    const api = await ctx.partnerApi();
    // The list call gives the number to name the invoice by; both calls go out at once.
    const [[invoice], url] = await Promise.all([
      api.listInvoices({ invoice_id: invoiceId }),
      api.getInvoiceUrl(invoiceId),
    ]);
    if (!invoice) throw new UserInputError('billing:invoiceNotFound', { value: invoiceId });
    await sendInvoiceLink(ctx, invoice, url);
  };
  /** Told where an invoice named in a command was found: in another account of the chat. */
  const invoiceElsewhere = (ctx: BotContext, label: string, invoice: Invoice) =>
    ctx.reply(
      ctx.t('accounts:invoiceElsewhere', {
        number: escapeHtml(invoice.invoice_number),
        label: escapeHtml(label),
      }),
      { parse_mode: 'HTML' },
    );
  /** `/invoice 5001`: the account in use's invoice, else another account's (said). */
  const showNamedInvoice = async (ctx: BotContext, invoiceId: number) => {
    if (!ctx.account?.many) return showInvoiceLink(ctx, invoiceId);
    const invoice = await findInAccounts(
      ctx,
      async (api) => (await api.listInvoices({ invoice_id: invoiceId }))[0],
      invoiceElsewhere,
    );
    if (!invoice) throw new UserInputError('billing:invoiceNotFound', { value: invoiceId });
    await sendInvoiceLink(ctx, invoice, await (await ctx.partnerApi()).getInvoiceUrl(invoiceId));
  };
  /** `/invoice СФ-2026-5001`: the number looked up in the invoice lists (one list call per account). */
  const showInvoiceLinkByNumber = async (ctx: BotContext, word: string) => {
    const wanted = invoiceNumberKey(word);
    const invoice = await findInAccounts(
      ctx,
      async (api) => (await api.listInvoices()).find((i) => invoiceNumberKey(i.invoice_number) === wanted),
      invoiceElsewhere,
    );
    if (!invoice) throw new UserInputError('billing:invoiceNotFound', { value: escapeHtml(echoInput(word)) });
    await sendInvoiceLink(ctx, invoice, await (await ctx.partnerApi()).getInvoiceUrl(invoice.invoice_id));
  };
  /** `/invoices 1006`: that order's invoices, of whichever account of the chat holds the order. */
  const showOrderInvoices = async (ctx: BotContext, orderId: number) => {
    if (ctx.account?.many) {
      await findInAccounts(
        ctx,
        async (api) => (await api.listOrders({ order_id: orderId })).find((o) => o.order_id === orderId),
        (found, label) =>
          found.reply(found.t('accounts:orderElsewhere', { id: orderId, label: escapeHtml(label) })),
      );
    }
    await lists.show(ctx, invoices, filterOf(orderId), 0, 'reply');
  };
  const showStatementLink = async (ctx: BotContext, statementId: number) => {
    const url = await (await ctx.partnerApi()).getStatementUrl(statementId);
    await sendLink(ctx, 'billing:statementLink', { id: statementId }, url);
  };
  const showPartnerStatementLink = async (ctx: BotContext, statementId: number) => {
    const url = await (await ctx.partnerApi()).getPartnerStatementUrl(statementId);
    await sendLink(ctx, 'billing:partnerStatementLink', { id: statementId }, url);
  };

  callbacks.on('invoiceLink', showInvoiceLink);
  callbacks.on('statementLink', showStatementLink);
  callbacks.on('partnerStatementLink', showPartnerStatementLink);
  callbacks.on('orderInvoices', (ctx, orderId) => lists.show(ctx, invoices, filterOf(orderId), 0, 'reply'));

  composer.command('invoices', async (ctx) => {
    const orderId = parseOptionalId(commandWords(ctx.payload)[0], 'billing:usageInvoices');
    if (orderId === undefined) await lists.show(ctx, invoices, filterOf(orderId), 0, 'reply');
    else await showOrderInvoices(ctx, orderId);
  });
  composer.command('invoice', async (ctx) => {
    const word = commandWords(ctx.payload).join(' ').replace(/^№\s*/, '');
    // Without an id the list comes, each invoice with its link button.
    if (word === '') await lists.show(ctx, invoices, '-', 0, 'reply');
    else if (/^\d+$/.test(word)) await showNamedInvoice(ctx, parseId(word, 'billing:usageInvoice'));
    else if (INVOICE_NUMBER.test(word) && /\d/.test(word)) await showInvoiceLinkByNumber(ctx, word);
    else parseId(word, 'billing:usageInvoice');
  });
  composer.command('payments', async (ctx) => {
    const orderId = parseOptionalId(commandWords(ctx.payload)[0], 'billing:usagePayments');
    await lists.show(ctx, payments, filterOf(orderId), 0, 'reply');
  });
  composer.command('statements', async (ctx) => {
    const orderId = parseOptionalId(commandWords(ctx.payload)[0], 'billing:usageStatements');
    await lists.show(ctx, statements, filterOf(orderId), 0, 'reply');
  });
  composer.command('statement', async (ctx) => {
    const statementId = parseOptionalId(commandWords(ctx.payload)[0], 'billing:usageStatement');
    if (statementId === undefined) await lists.show(ctx, statements, '-', 0, 'reply');
    else await showStatementLink(ctx, statementId);
  });
  composer.command('partner_statements', (ctx) => lists.show(ctx, partnerStatements, '-', 0, 'reply'));
  composer.command('partner_statement', async (ctx) => {
    const statementId = parseOptionalId(commandWords(ctx.payload)[0], 'billing:usagePartnerStatement');
    if (statementId === undefined) await lists.show(ctx, partnerStatements, '-', 0, 'reply');
    else await showPartnerStatementLink(ctx, statementId);
  });

  return { name: 'billing', composer, callbacks: callbacks.registrations, scenes: [] };
}
