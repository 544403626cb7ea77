import { randomBytes } from 'node:crypto';
import { Markup } from 'telegraf';
import type { InlineKeyboardButton } from 'telegraf/types';
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
import type { DnsPorts } from '../ports.js';
import { registerApplyButton } from './apply.js';
import {
  type AskPresetParams,
  answerChange,
  askChange,
  CHANGE_PURPOSE,
  registerPresetButton,
  takePresetChange,
} from './change.js';
import {
  awaitAnswer,
  findAnswerDraft,
  findDraft,
  listDomainOrders,
  refuseStale,
  settleQuestion,
} from './draft.js';

/** The await-input purpose of a pasted list of domains. */
const DOMAINS_PURPOSE = 'dnsBulkDomains';
/** Domain buttons per picker page. */
const PER_PAGE = 10;
/** Unknown names of a pasted list said back, each cut short; the rest only counted. */
const UNKNOWN_SHOWN = 5;

/**
 * `/dns bulk`: pick domains (buttons, paged, ✅ toggles, select all / none; or a pasted list) →
 * one change (a one-line add, `del <TYPE> <host> <value glob>`, or a preset with its parameters
 * asked by the presets' own questions) → a per-domain preview under the delete limit (a domain
 * over it is skipped unless the separate force button) → Apply with ONE progress message → ONE
 * report. Each domain's accepted changes are one history entry of kind `bulk`.
 */
export function createDnsBulk(deps: {
  router: CallbackRegistrar;
  askPresetParams: AskPresetParams;
  ports: DnsPorts;
}) {
  const { router, askPresetParams, ports } = deps;
  registerApplyButton(router, ports);
  registerPresetButton(router, askPresetParams);

  const picker = (ctx: BotContext, draft: BulkDraft, orders: [number, string][], page: number) => {
    const pages = Math.max(1, Math.ceil(orders.length / PER_PAGE));
    const index = Math.min(Math.max(page, 0), pages - 1);
    const chosen = new Set(draft.orderIds);
    const buttons = orders.slice(index * PER_PAGE, (index + 1) * PER_PAGE).map(([orderId, domain]) => {
      const label = `${chosen.has(orderId) ? '✅ ' : ''}${toUnicodeDomain(domain)}`;
      return Markup.button.callback(label, encodeCallback('dnsBulkToggle', draft.nonce, orderId, index));
    });
    // The picker's own page turns (they keep the selection), worded as every list's.
    const turn = (label: string, to: number) =>
      Markup.button.callback(label, encodeCallback('dnsBulkPick', draft.nonce, 'page', to));
    const pager = [
      ...(index > 0 ? [turn(ctx.t('common:previousPage', { page: index }), index - 1)] : []),
      ...(index < pages - 1 ? [turn(ctx.t('common:nextPage', { page: index + 2 }), index + 1)] : []),
    ];
    const keyboard: InlineKeyboardButton[][] = [
      ...inRows(buttons, 2),
      pager,
      [
        Markup.button.callback(
          ctx.t('dnsbulk:selectAll'),
          encodeCallback('dnsBulkPick', draft.nonce, 'all', index),
        ),
        Markup.button.callback(
          ctx.t('dnsbulk:selectNone'),
          encodeCallback('dnsBulkPick', draft.nonce, 'none', index),
        ),
      ],
      [
        Markup.button.callback(
          ctx.t('dnsbulk:doneButton', { count: draft.orderIds.length }),
          encodeCallback('dnsBulkPick', draft.nonce, 'done', index),
        ),
      ],
    ].filter((row) => row.length > 0);
    const pageNote = pages > 1 ? ` · ${ctx.t('common:pageOf', { page: index + 1, pages })}` : '';
    const text = `${ctx.t('dnsbulk:pickTitle', { count: draft.orderIds.length, total: orders.length })}${pageNote}`;
    return { text, extra: { parse_mode: 'HTML' as const, reply_markup: { inline_keyboard: keyboard } } };
  };

  const start = async (ctx: BotContext) => {
    const orders = await listDomainOrders(ctx, true);
    if (orders.length === 0) {
      await ctx.reply(ctx.t('dnsbulk:pickNone'));
      return;
    }
    const draft: BulkDraft = { nonce: randomBytes(6).toString('base64url'), stage: 'domains', orderIds: [] };
    await awaitAnswer(ctx, DOMAINS_PURPOSE);
    const { text, extra } = picker(ctx, draft, orders, 0);
    const sent = await ctx.reply(text, extra);
    ctx.session.dnsBulk = { ...draft, questionMessageId: sent.message_id };
  };

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
      const next = { ...draft, orderIds };
      ctx.session.dnsBulk = next;
      const { text, extra } = picker(ctx, next, await listDomainOrders(ctx), page);
      await ctx.editMessageText(text, extra).catch(() => undefined);
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
      await ctx.answerCbQuery(
        op === 'all' && orders.length > MAX_BULK_DOMAINS
          ? ctx.t('dnsbulk:tooMany', { max: MAX_BULK_DOMAINS })
          : undefined,
      );
      const next = { ...draft, orderIds };
      ctx.session.dnsBulk = next;
      const { text, extra } = picker(ctx, next, orders, page);
      await ctx.editMessageText(text, extra).catch(() => undefined);
    },
    { selfAnswer: true },
  );

  /** A pasted list: the partner's domains among it are the choice; the others are named briefly. */
  const answerDomains: InputHandler = async (ctx, _input, text) => {
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
      const shown = notOurs.slice(0, UNKNOWN_SHOWN).map((n) => escapeHtml(echoInput(n)));
      const rest = notOurs.length - shown.length;
      const names =
        rest > 0 ? `${shown.join(', ')} ${ctx.t('dnsbulk:listMore', { count: rest })}` : shown.join(', ');
      await ctx.reply(ctx.t('dnsbulk:listUnknown', { count: notOurs.length, names }), { parse_mode: 'HTML' });
    }
    await askChange(ctx, { ...draft, orderIds, questionMessageId: undefined });
  };

  return {
    start,
    presetChosen: takePresetChange,
    inputHandlers: { [DOMAINS_PURPOSE]: answerDomains, [CHANGE_PURPOSE]: answerChange },
  };
}
