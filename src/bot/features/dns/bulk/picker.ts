import { randomBytes } from 'node:crypto';
import { Markup } from 'telegraf';
import type { InlineKeyboardButton, InlineKeyboardMarkup, ParseMode } from 'telegraf/types';
import { type BulkDraft, MAX_BULK_DOMAINS, matchDomainList } from '../../../../core/dns-bulk.js';
import { parseDomainList, toAsciiDomain, toUnicodeDomain } from '../../../../core/domain-names.js';
import { escapeHtml } from '../../../../core/format.js';
import { echoInput } from '../../../../core/text.js';
import type { BotContext } from '../../../context.js';
import { UserInputError } from '../../../errors.js';
import type { InputHandler } from '../../../kit/await-input.js';
import { inRows } from '../../../kit/keyboards.js';
import type { CallbackRegistrar } from '../../../registry.js';
import { encodeCallback } from '../../../registry.js';
import { askChange } from './change.js';
import {
  awaitAnswer,
  findAnswerDraft,
  findDraft,
  listDomainOrders,
  refuseStale,
  settleQuestion,
} from './draft.js';
import { joinNames } from './views.js';

/** The await-input purpose of a pasted list of domains. */
export const DOMAINS_PURPOSE = 'dnsBulkDomains';
/** Domain buttons per picker page. */
const PER_PAGE = 10;
/** Unknown names of a pasted list said back, each cut short; the rest only counted. */
const UNKNOWN_SHOWN = 5;

/** The picker as a message: sent once, then edited in place on every press. */
interface PickerMessage {
  text: string;
  extra: { parse_mode: ParseMode; reply_markup: InlineKeyboardMarkup };
}

/**
 * The picker at `page` (held within the pages there are): the chosen count, one page of domain
 * buttons (✅ on the chosen), its page turns, select all / none, and Done with the count.
 */
function renderPicker(
  ctx: BotContext,
  draft: BulkDraft,
  orders: readonly [number, string][],
  page: number,
): PickerMessage {
  const pages = Math.max(1, Math.ceil(orders.length / PER_PAGE));
  const index = Math.min(Math.max(page, 0), pages - 1);
  const chosen = new Set(draft.orderIds);
  const buttons = orders.slice(index * PER_PAGE, (index + 1) * PER_PAGE).map(([orderId, domain]) => {
    const label = `${chosen.has(orderId) ? '✅ ' : ''}${toUnicodeDomain(domain)}`;
    return Markup.button.callback(label, encodeCallback('dnsBulkToggle', draft.nonce, orderId, index));
  });
  // Every button but a domain's is a dnsBulkPick op; each carries the page, so the picker redraws there.
  const pick = (label: string, op: string, to = index) =>
    Markup.button.callback(label, encodeCallback('dnsBulkPick', draft.nonce, op, to));
  // The picker's own page turns (they keep the selection), worded as every list's.
  const pager = [
    ...(index > 0 ? [pick(ctx.t('common:previousPage', { page: index }), 'page', index - 1)] : []),
    ...(index < pages - 1 ? [pick(ctx.t('common:nextPage', { page: index + 2 }), 'page', index + 1)] : []),
  ];
  const keyboard: InlineKeyboardButton[][] = [
    ...inRows(buttons, 2),
    pager,
    [pick(ctx.t('dnsbulk:selectAll'), 'all'), pick(ctx.t('dnsbulk:selectNone'), 'none')],
    [pick(ctx.t('dnsbulk:doneButton', { count: draft.orderIds.length }), 'done')],
  ].filter((row) => row.length > 0);
  const pageNote = pages > 1 ? ` · ${ctx.t('common:pageOf', { page: index + 1, pages })}` : '';
  const text = `${ctx.t('dnsbulk:pickTitle', { count: draft.orderIds.length, total: orders.length })}${pageNote}`;
  return { text, extra: { parse_mode: 'HTML', reply_markup: { inline_keyboard: keyboard } } };
}

/** `/dns bulk`: a new bulk at its first step, the picker on page one; a pasted list answers it too. */
export async function startBulk(ctx: BotContext): Promise<void> {
  const orders = await listDomainOrders(ctx, true);
  if (orders.length === 0) {
    await ctx.reply(ctx.t('dnsbulk:pickNone'));
    return;
  }
  const draft: BulkDraft = { nonce: randomBytes(6).toString('base64url'), stage: 'domains', orderIds: [] };
  await awaitAnswer(ctx, DOMAINS_PURPOSE);
  const { text, extra } = renderPicker(ctx, draft, orders, 0);
  const sent = await ctx.reply(text, extra);
  ctx.session.dnsBulk = { ...draft, questionMessageId: sent.message_id };
}

/** Keeps the new choice in the draft and redraws the pressed picker with it, at `page`. */
async function showChoice(
  ctx: BotContext,
  draft: BulkDraft,
  orderIds: number[],
  orders: readonly [number, string][],
  page: number,
): Promise<void> {
  const next = { ...draft, orderIds };
  ctx.session.dnsBulk = next;
  const { text, extra } = renderPicker(ctx, next, orders, page);
  await ctx.editMessageText(text, extra).catch(() => undefined);
}

/**
 * The picker's buttons: a domain toggled (refused past MAX_BULK_DOMAINS), a page turned, select
 * all (the newest MAX_BULK_DOMAINS) / none, and Done, which goes on to the change.
 */
export function registerPickerButtons(router: CallbackRegistrar): void {
  router.on(
    'dnsBulkToggle',
    async (ctx, nonce, orderId, page) => {
      const draft = findDraft(ctx, nonce, 'domains');
      if (!draft) return refuseStale(ctx);
      const chosen = draft.orderIds.includes(orderId);
      if (!chosen && draft.orderIds.length >= MAX_BULK_DOMAINS) {
        await ctx.answerCbQuery(ctx.t('dnsbulk:tooMany', { max: MAX_BULK_DOMAINS }));
        return;
      }
      await ctx.answerCbQuery();
      const orderIds = chosen ? draft.orderIds.filter((id) => id !== orderId) : [...draft.orderIds, orderId];
      await showChoice(ctx, draft, orderIds, await listDomainOrders(ctx), page);
    },
    { selfAnswer: true },
  );

  router.on(
    'dnsBulkPick',
    async (ctx, nonce, op, page) => {
      const draft = findDraft(ctx, nonce, 'domains');
      if (!draft) return refuseStale(ctx);
      const orders = await listDomainOrders(ctx);
      if (op === 'done') {
        if (draft.orderIds.length === 0) {
          await ctx.answerCbQuery(ctx.t('dnsbulk:noneSelected'));
          return;
        }
        await ctx.answerCbQuery();
        await ctx.editMessageReplyMarkup(undefined).catch(() => undefined);
        return askChange(ctx, { ...draft, questionMessageId: undefined });
      }
      let orderIds = draft.orderIds;
      if (op === 'all') orderIds = orders.slice(0, MAX_BULK_DOMAINS).map(([id]) => id);
      if (op === 'none') orderIds = [];
      // Every tap says what it did, also when there was nothing to do.
      const toast =
        op === 'all'
          ? orders.length > MAX_BULK_DOMAINS
            ? ctx.t('dnsbulk:tooMany', { max: MAX_BULK_DOMAINS })
            : ctx.t('dnsbulk:allSelected', { count: orderIds.length })
          : op === 'none'
            ? ctx.t(draft.orderIds.length === 0 ? 'dnsbulk:nothingSelected' : 'dnsbulk:noneNowSelected')
            : undefined;
      await ctx.answerCbQuery(toast);
      await showChoice(ctx, draft, orderIds, orders, page);
    },
    { selfAnswer: true },
  );
}

/** A pasted list: the partner's domains among it are the choice; the others are named briefly. */
export const answerDomains: InputHandler = async (ctx, _input, text) => {
  const draft = await findAnswerDraft(ctx, 'domains');
  if (!draft) return;
  const list = parseDomainList(text);
  const ascii = list.valid.map((name) => toAsciiDomain(name) ?? name);
  const orders = await listDomainOrders(ctx, true);
  const { orderIds, unknown } = matchDomainList(ascii, new Map(orders.map(([id, domain]) => [domain, id])));
  const notOurs = [...list.invalid, ...unknown.map(toUnicodeDomain)];
  if (orderIds.length === 0) throw new UserInputError('dnsbulk:listNoneKnown');
  if (orderIds.length > MAX_BULK_DOMAINS)
    throw new UserInputError('dnsbulk:tooMany', { max: MAX_BULK_DOMAINS });
  await settleQuestion(ctx, draft);
  if (notOurs.length > 0) {
    const names = joinNames(
      ctx.t,
      notOurs.map((n) => escapeHtml(echoInput(n))),
      UNKNOWN_SHOWN,
    );
    await ctx.reply(ctx.t('dnsbulk:listUnknown', { count: notOurs.length, names }), { parse_mode: 'HTML' });
  }
  await askChange(ctx, { ...draft, orderIds, questionMessageId: undefined });
};
