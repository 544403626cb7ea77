import { Composer } from 'telegraf';
import type { InlineQueryResultArticle, InlineQueryResultsButton } from 'telegraf/types';
import { type ApiFactory, ApiHttpError, type Invoice, type PartnerApi } from '../../../api/index.js';
import { toUnicodeDomain } from '../../../core/domain-names.js';
import {
  findUnpaidInvoices,
  type InvoiceOrderFacts,
  mayBeOrderNumber,
} from '../../../core/invoice-search.js';
import { can } from '../../../core/team.js';
import type { Logger } from '../../../logger.js';
import { invoiceResultId, readInvoiceResultId } from '../../../services/invoice-cards.js';
import type { ChatData } from '../../../storage/chat-data.js';
import type { BotContext } from '../../context.js';
import { NoTokenError } from '../../errors.js';
import { readGroupQuery } from '../../kit/keyboards.js';
import { accountLabel } from '../../middlewares/account.js';
import type { Feature } from '../../registry.js';
import { loadCurrencyCodes } from '../billing/currencies.js';
import { invoiceCardArticle } from './invoice-card.js';

/** A group's invoices asked by a user whose role there may not share them (or not a member). */
class NoTeamSeatError extends Error {}

/** How many invoices the picker offers: the latest unpaid ones are what a partner shares. */
export const INLINE_RESULTS_LIMIT = 20;
/** Results are the partner's own and change when an invoice is paid: personal and short-lived. */
const RESULTS_CACHE_S = 10;
/** The `/start` parameter of the picker's button for a user without a (working) token. */
export const CONNECT_START_PARAMETER = 'connect';

/**
 * What the lists say of each invoice's order: the domain (the domain order index, built from the
 * domain order list and kept briefly per token) and, for a query that may be an order number,
 * the order numbers of every kind (the general order list).
 */
function orderFactsOf(
  byOrderId: ReadonlyMap<number, string>,
  orders: readonly { order_id: number; number: string }[],
): Map<number, InvoiceOrderFacts> {
  const facts = new Map<number, InvoiceOrderFacts>();
  for (const [orderId, ascii] of byOrderId) facts.set(orderId, { domain: toUnicodeDomain(ascii) });
  for (const order of orders)
    facts.set(order.order_id, { ...facts.get(order.order_id), number: order.number });
  return facts;
}

/**
 * Where a query's invoices come from: one account's client, and its name when the user holds
 * several accounts (each result then names it; the card sent to the client never does).
 */
interface InvoiceSource {
  readonly api: PartnerApi;
  readonly label: string | undefined;
}

/** What one source's lists gave. */
interface SourceLists {
  readonly source: InvoiceSource;
  readonly invoices: readonly Invoice[];
  readonly byOrderId: ReadonlyMap<number, string>;
  readonly codes: ReadonlyMap<number, string>;
}

/**
 * Runs `task` for every source at once. A source that fails is left out (logged); when every one
 * fails, the first one's failure (the active account's) is the answer.
 */
async function fromEach<T>(
  sources: readonly InvoiceSource[],
  task: (source: InvoiceSource) => Promise<T>,
  logger: Logger,
): Promise<T[]> {
  const settled = await Promise.allSettled(sources.map(task));
  const kept = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason as unknown] : []));
  if (kept.length === 0 && failed.length > 0) throw failed[0];
  if (failed.length > 0) logger.warn({ failed: failed.length }, 'an account left out of an inline answer');
  return kept;
}

/**
 * The unpaid invoices the query names, over every source at once (newest first, an exact match in
 * any account wins over partial ones in all). Invoices, domains and currencies are asked at once
 * (the latter two mostly from the per-token cache); the general order list only when nothing else
 * matched a query that looks like an order number (`ЗК-2026-001008`): a hosting, mail or SSL
 * order's number is in no other list, and an invoice number, the common query, needs none. The
 * provider's invoice and order ids are its own, one sequence for every partner: an invoice seen
 * through two accounts (two tokens of one partner) is one result, of the first account.
 */
async function findInvoices(sources: readonly InvoiceSource[], typed: string, logger: Logger) {
  const lists = await fromEach(
    sources,
    async (source): Promise<SourceLists> => {
      const [invoices, index, codes] = await Promise.all([
        source.api.listInvoices(),
        source.api.domainOrderIndex(),
        loadCurrencyCodes(source.api),
      ]);
      return { source, invoices, byOrderId: index.byOrderId, codes };
    },
    logger,
  );
  const owner = new Map<Invoice, InvoiceSource>();
  const seen = new Set<number>();
  for (const list of lists) {
    for (const invoice of list.invoices) {
      if (seen.has(invoice.invoice_id)) continue;
      seen.add(invoice.invoice_id);
      owner.set(invoice, list.source);
    }
  }
  const invoices = [...owner.keys()];
  const byOrderId = new Map(lists.flatMap((list) => [...list.byOrderId]));
  const codes = new Map(lists.flatMap((list) => [...list.codes]));
  let facts = orderFactsOf(byOrderId, []);
  let found = findUnpaidInvoices(invoices, facts, typed, INLINE_RESULTS_LIMIT);
  if (found.length === 0 && mayBeOrderNumber(typed)) {
    const orders = await fromEach(
      lists.map((list) => list.source),
      (source) => source.api.listOrders(),
      logger,
    );
    facts = orderFactsOf(byOrderId, orders.flat());
    found = findUnpaidInvoices(invoices, facts, typed, INLINE_RESULTS_LIMIT);
  }
  return {
    found: found.flatMap((invoice) => {
      const source = owner.get(invoice);
      return source === undefined ? [] : [{ invoice, source }];
    }),
    facts,
    codes,
  };
}

/**
 * The public links of the invoices shown, asked in parallel, each from its own account. An
 * invoice whose link fails is left out (a card without its Pay button is of no use to the
 * client); when every link fails, or a token is refused, the failure is the answer.
 */
async function linksOf(found: readonly { invoice: Invoice; source: InvoiceSource }[]) {
  const settled = await Promise.allSettled(
    found.map(({ invoice, source }) => source.api.getInvoiceUrl(invoice.invoice_id)),
  );
  const failures = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason as unknown] : []));
  const refused = failures.find((error) => error instanceof ApiHttpError && error.isTokenRejected);
  if (refused !== undefined) throw refused;
  if (found.length > 0 && failures.length === found.length) throw failures[0];
  return {
    withLinks: found.flatMap((shown, i) => {
      const link = settled[i];
      return link?.status === 'fulfilled' ? [{ ...shown, url: link.value }] : [];
    }),
    dropped: failures.length,
  };
}

/** The account a query is about: the user's own, or a group where their role may share invoices. */
async function accountOf(
  chatData: Pick<ChatData, 'getTeam'>,
  userId: number,
  query: string,
): Promise<{ account: number; typed: string } | undefined> {
  const { groupId, typed } = readGroupQuery(query);
  if (groupId === undefined) return { account: userId, typed };
  const role = (await chatData.getTeam(groupId))?.members[String(userId)];
  return role !== undefined && can(role, 'billing') ? { account: groupId, typed } : undefined;
}

/** Whether a user may share the invoices of `chatId`: their own private chat, or a group where their role has billing. */
async function mayShareOf(chatData: Pick<ChatData, 'getTeam'>, userId: number, chatId: number) {
  if (chatId > 0) return chatId === userId;
  const team = await chatData.getTeam(chatId);
  if (team === undefined) return false;
  const role = userId === team.owner ? 'owner' : team.members[String(userId)];
  return role !== undefined && can(role, 'billing');
}

/** The button above an empty picker: what went wrong, leading to the private chat to fix it. */
function failureButton(ctx: BotContext, error: unknown): InlineQueryResultsButton {
  if (error instanceof NoTeamSeatError)
    return { text: ctx.t('inline:noGroupSeat'), start_parameter: 'inline' };
  if (error instanceof NoTokenError)
    return { text: ctx.t('inline:connectToken'), start_parameter: CONNECT_START_PARAMETER };
  if (error instanceof ApiHttpError && error.isTokenRejected)
    return { text: ctx.t('inline:tokenRejected'), start_parameter: CONNECT_START_PARAMETER };
  return { text: ctx.t('inline:providerUnavailable'), start_parameter: 'inline' };
}

/**
 * Inline mode: `@bot [invoice number | order | domain]` in any chat lists the partner's unpaid
 * invoices; the chosen one is posted there as a card with a Pay button. The update has no chat:
 * the user's private chat gives the language and the token (see the chat context).
 */
export function createInlineFeature(deps: {
  logger: Logger;
  chatData: Pick<ChatData, 'rememberSharedCard' | 'getTeam' | 'listAccounts'>;
  /** A client per account of the user's private chat (the update has no chat to choose one). */
  apiFor: ApiFactory;
}): Feature {
  const composer = new Composer<BotContext>();

  /**
   * Where the query's invoices come from: a team group's one account; else every account of the
   * user's private chat, the active one first (named when there are several).
   */
  const sourcesOf = async (ctx: BotContext, chatId: number): Promise<InvoiceSource[]> => {
    if (chatId !== ctx.from?.id) return [{ api: await ctx.partnerApi(chatId), label: undefined }];
    const accounts = await deps.chatData.listAccounts(chatId);
    if (accounts.length === 0) throw new NoTokenError();
    const many = accounts.length > 1;
    return [...accounts]
      .sort((a, b) => Number(b.active) - Number(a.active))
      .map((account) => ({
        api: deps.apiFor(account.token),
        label: many ? accountLabel(ctx.t, account) : undefined,
      }));
  };

  /** The picker's results: one article per unpaid invoice the query names, each with its card. */
  const resultsFor = async (ctx: BotContext & { inlineQuery: { query: string } }) => {
    const seat = await accountOf(deps.chatData, ctx.inlineQuery.from.id, ctx.inlineQuery.query);
    if (seat === undefined) throw new NoTeamSeatError();
    const sources = await sourcesOf(ctx, seat.account);
    const { found, facts, codes } = await findInvoices(sources, seat.typed, deps.logger);
    const { withLinks, dropped } = await linksOf(found);
    if (dropped > 0) deps.logger.warn({ dropped }, 'invoice links missing from an inline answer');
    return withLinks.map(
      ({ invoice, source, url }): InlineQueryResultArticle =>
        // A result's id names the invoice, so that the chosen result can be told apart.
        invoiceCardArticle({
          t: ctx.t,
          locale: ctx.locale,
          codes,
          invoice,
          url,
          id: invoiceResultId(invoice.invoice_id),
          domain: facts.get(invoice.order_id)?.domain,
          account: source.label,
        }),
    );
  };

  composer.on('inline_query', async (ctx) => {
    let results: InlineQueryResultArticle[];
    try {
      results = await resultsFor(ctx);
    } catch (error) {
      // Not cached: once the token is connected (or the provider is back) the next query shows the list.
      await ctx.answerInlineQuery([], {
        is_personal: true,
        cache_time: 0,
        button: failureButton(ctx, error),
      });
      // The error boundary logs it as for any update; with no chat, it replies nothing.
      throw error;
    }
    await ctx.answerInlineQuery(results, { is_personal: true, cache_time: RESULTS_CACHE_S });
  });

  // The card is already in the client's chat (Telegram posted it); there is nothing to answer.
  // With /setinlinefeedback on, Telegram names the card (inline_message_id, when it has a button):
  // kept, sealed, in the partner's chat, so that the payment can be shown on it.
  // The card is already in the client's chat (Telegram posted it); there is nothing to answer.
  // With /setinlinefeedback on, Telegram names the card (inline_message_id, when it has a button):
  // kept, sealed, in the partner's chat, so that the payment can be shown on it. A card shared
  // from the Mini App (a prepared message) has no query: its result id names the account's chat,
  // kept only while the user may still see that chat's billing.
  composer.on('chosen_inline_result', async (ctx) => {
    const { result_id, inline_message_id, query } = ctx.chosenInlineResult;
    const chosen = readInvoiceResultId(result_id);
    deps.logger.debug({ invoiceId: chosen?.invoiceId }, 'invoice card sent in inline mode');
    if (chosen === undefined || inline_message_id === undefined) return;
    // Kept with the account the invoice is of: its watcher (the group's, for a group's invoice) sees the payment.
    const account =
      chosen.chatId === undefined
        ? (await accountOf(deps.chatData, ctx.from.id, query))?.account
        : (await mayShareOf(deps.chatData, ctx.from.id, chosen.chatId))
          ? chosen.chatId
          : undefined;
    if (account !== undefined)
      await deps.chatData.rememberSharedCard(account, chosen.invoiceId, inline_message_id);
  });

  return { name: 'inline', composer, callbacks: [], scenes: [] };
}
