import { Composer, Markup } from 'telegraf';
import { ApiHttpError, type PartnerApi } from '../../../api/index.js';
import { toAsciiDomain, toUnicodeDomain } from '../../../core/domain-names.js';
import { escapeHtml } from '../../../core/format.js';
import { orderNumberOf } from '../../../core/order-number.js';
import { echoInput } from '../../../core/text.js';
import type { ChatData } from '../../../storage/chat-data.js';
import type { BotContext } from '../../context.js';
import { NoTokenError } from '../../errors.js';
import { othersWithForms } from '../../forms/member-scenes.js';
import { CallbackSet, callbackFits, encodeCallback, type Feature } from '../../registry.js';
import { checkDomains } from '../domains/domains.js';

type Keyboard = ReturnType<typeof Markup.inlineKeyboard>;
type Answer = { text: string; keyboard: Keyboard };

/** An invoice number as the client sees it (`СФ-2026-5001`), an order number (`ЗК-2026-001012`). */
const INVOICE_NUMBER = /^(?:СФ|SF)-\d{4}-\d{1,10}$/i;
const ORDER_NUMBER = /^(?:ЗК|ZK)-\d{4}-\d{1,10}$/i;
const BARE_ID = /^\d{1,10}$/;

/** A filtered list the provider answers "not found" for is an empty one. */
async function orNone<T>(list: Promise<T[]>): Promise<T[]> {
  try {
    return await list;
  } catch (error) {
    if (error instanceof ApiHttpError && error.status === 404) return [];
    throw error;
  }
}

const sameNumber = (a: string, b: string) => a.localeCompare(b, 'ru', { sensitivity: 'base' }) === 0;

function invoiceAnswer(ctx: BotContext, invoice: { invoice_id: number; invoice_number: string }): Answer {
  return {
    text: ctx.t('common:freeText.invoice', { number: escapeHtml(invoice.invoice_number) }),
    keyboard: Markup.inlineKeyboard([
      Markup.button.callback(
        ctx.t('common:freeText.invoiceLink'),
        encodeCallback('invoiceLink', invoice.invoice_id),
      ),
    ]),
  };
}

function domainOrderButtons(ctx: BotContext, orderId: number) {
  return [
    Markup.button.callback(ctx.t('common:freeText.dns'), encodeCallback('dns', orderId)),
    Markup.button.callback(ctx.t('common:freeText.ns'), encodeCallback('nameServers', orderId)),
    Markup.button.callback(ctx.t('common:freeText.cert'), encodeCallback('certificate', orderId)),
  ];
}

async function orderAnswer(
  ctx: BotContext,
  api: PartnerApi,
  order: { order_id: number; number: string },
): Promise<Answer> {
  const domain = (await api.domainOrderIndex()).byOrderId.get(order.order_id);
  return {
    text: ctx.t('common:freeText.order', { number: escapeHtml(orderNumberOf(order)) }),
    keyboard: Markup.inlineKeyboard([
      [
        Markup.button.callback(
          ctx.t('common:freeText.orderDetails'),
          encodeCallback('order', 'all', order.order_id),
        ),
        Markup.button.callback(
          ctx.t('common:freeText.orderInvoices'),
          encodeCallback('orderInvoices', order.order_id),
        ),
      ],
      ...(domain === undefined ? [] : [domainOrderButtons(ctx, order.order_id)]),
    ]),
  };
}

/** What the lone word names among the partner's things, or undefined when nothing. */
async function recognise(ctx: BotContext, api: PartnerApi, word: string): Promise<Answer | undefined> {
  if (INVOICE_NUMBER.test(word)) {
    const invoice = (await api.listInvoices()).find((i) => sameNumber(i.invoice_number, word));
    return invoice && invoiceAnswer(ctx, invoice);
  }
  if (ORDER_NUMBER.test(word)) {
    const order = (await api.listOrders()).find((o) => sameNumber(o.number, word));
    return order && orderAnswer(ctx, api, order);
  }
  if (BARE_ID.test(word)) {
    // A bare number may be an invoice id or an order id: both are offered when both exist.
    const id = Number(word);
    const [invoices, orders] = await Promise.all([
      orNone(api.listInvoices({ invoice_id: id })),
      orNone(api.listOrders({ order_id: id })),
    ]);
    const invoice = invoices.find((i) => i.invoice_id === id);
    const order = orders.find((o) => o.order_id === id);
    if (!invoice && !order) return undefined;
    if (invoice && !order) return invoiceAnswer(ctx, invoice);
    const forOrder = await orderAnswer(ctx, api, order ?? { order_id: id, number: word });
    if (!invoice) return forOrder;
    const rows = forOrder.keyboard.reply_markup.inline_keyboard;
    return {
      text: `${invoiceAnswer(ctx, invoice).text}\n${forOrder.text}`,
      keyboard: Markup.inlineKeyboard([
        ...invoiceAnswer(ctx, invoice).keyboard.reply_markup.inline_keyboard,
        ...rows,
      ]),
    };
  }
  // At least two labels: "ok." or ".net" is chatter, not a domain.
  const ascii = /^[^.]+(?:\.[^.]+)+$/.test(word) ? toAsciiDomain(word) : undefined;
  if (!ascii) return undefined;
  const domain = escapeHtml(toUnicodeDomain(ascii));
  const orderId = (await api.domainOrderIndex()).byDomain.get(ascii);
  if (orderId !== undefined) {
    return {
      text: ctx.t('common:freeText.domainOrder', { domain, id: orderId }),
      keyboard: Markup.inlineKeyboard([domainOrderButtons(ctx, orderId)]),
    };
  }
  return {
    text: ctx.t('common:freeText.domainFree', { domain }),
    // A name as long as DNS allows does not fit in a button's data: then it is told, not offered.
    keyboard: Markup.inlineKeyboard(
      callbackFits('orderDomain', ascii) && callbackFits('checkDomain', ascii)
        ? [
            Markup.button.callback(ctx.t('common:freeText.check'), encodeCallback('checkDomain', ascii)),
            Markup.button.callback(
              ctx.t('common:freeText.orderDomain'),
              encodeCallback('orderDomain', ascii),
            ),
          ]
        : [],
    ),
  };
}

/**
 * Text nobody else took, wired last: a bare invoice id or number, an order number or a domain
 * gets buttons for what can be done with it; anything else (or anything without a token) the
 * help pointer. Its one button of its own checks a domain typed this way.
 */
export function createFreeTextFeature(deps: { chatData: ChatData }): Feature {
  const callbacks = new CallbackSet();
  callbacks.on('checkDomain', (ctx, ascii) => checkDomains(ctx, ascii));
  return {
    name: 'freeText',
    composer: new Composer<BotContext>().on('message', async (ctx) => {
      if (await answeredAnothersForm(ctx, deps.chatData)) return;
      await answerFreeText(ctx);
    }),
    callbacks: callbacks.registrations,
    scenes: [],
  };
}

/**
 * In a group, a member with no form of their own who answers the bot while someone else's form is
 * open most likely answered that question: it is not theirs to answer (the form is per member,
 * middlewares/member-scenes.ts), and they are told so instead of "I didn't understand".
 */
async function answeredAnothersForm(ctx: BotContext, chatData: ChatData): Promise<boolean> {
  const chat = ctx.chat;
  if (chat === undefined || chat.type === 'private') return false;
  const others = othersWithForms(ctx);
  if (others.length === 0) return false;
  const team = await chatData.getTeam(chat.id);
  const names = others.map((id) => team?.names[id]).filter((name) => name !== undefined);
  await ctx.reply(
    names.length === 0
      ? ctx.t('team:formOfAnother')
      : ctx.t('team:formOfNamed', { names: escapeHtml(names.join(', ')) }),
    {
      parse_mode: 'HTML',
      ...(ctx.message ? { reply_parameters: { message_id: ctx.message.message_id } } : {}),
    },
  );
  return true;
}

async function answerFreeText(ctx: BotContext): Promise<void> {
  const message = ctx.message;
  const text = message && 'text' in message ? message.text.trim() : '';
  const word = /^\S{1,253}$/.test(text) ? text : undefined;
  if (word !== undefined) {
    let api: PartnerApi | undefined;
    try {
      api = await ctx.partnerApi();
    } catch (error) {
      if (!(error instanceof NoTokenError)) throw error;
    }
    const answer = api && (await recognise(ctx, api, word));
    if (answer) {
      await ctx.reply(answer.text, { parse_mode: 'HTML', ...answer.keyboard });
      return;
    }
    if (api && (INVOICE_NUMBER.test(word) || ORDER_NUMBER.test(word) || BARE_ID.test(word))) {
      await ctx.reply(ctx.t('common:freeText.notFound', { value: escapeHtml(echoInput(word)) }), {
        parse_mode: 'HTML',
      });
      return;
    }
  }
  await ctx.reply(ctx.t('common:notUnderstood'));
}
