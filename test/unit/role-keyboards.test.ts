import { Markup } from 'telegraf';
import { describe, expect, it } from 'vitest';
import type { BotContext } from '../../src/bot/context.js';
import { createRoleKeyboards } from '../../src/bot/features/team/role-keyboards.js';
import { disabledButton } from '../../src/bot/kit/bot-api-today.js';
import { loadTranslations } from '../../src/bot/kit/i18n.js';
import { gateKeyboard } from '../../src/bot/kit/outgoing.js';
import { encodeCallback } from '../../src/bot/registry.js';

/* The keyboard pass behind disabled buttons (src/bot/features/team/role-keyboards.ts). */

const lockDelete = (button: { text: string }) =>
  button.text.includes('Удалить') ? disabledButton(`🔒 ${button.text}`) : undefined;

describe('gateKeyboard', () => {
  it('replaces the locked buttons in a copy, leaving the caller’s keyboard as it was', () => {
    const keyboard = {
      inline_keyboard: [
        [{ text: 'Удалить', callback_data: '1:dd:1:2', style: 'danger' }],
        [{ text: 'Назад', callback_data: '1:d:1' }],
      ],
    };
    const payload = { chat_id: -1, text: 'Запись', reply_markup: keyboard };
    const gated = gateKeyboard(payload, lockDelete);
    expect(gated.reply_markup).toEqual({
      inline_keyboard: [[{ text: '🔒 Удалить', disabled: {} }], [{ text: 'Назад', callback_data: '1:d:1' }]],
    });
    expect(payload.reply_markup).toBe(keyboard);
    expect(keyboard.inline_keyboard[0]?.[0]).toEqual({
      text: 'Удалить',
      callback_data: '1:dd:1:2',
      style: 'danger',
    });
  });

  it('hands back the very payload when nothing is locked, and leaves other markups alone', () => {
    for (const payload of [
      { chat_id: -1, text: 'x' },
      { chat_id: -1, text: 'x', reply_markup: { force_reply: true, selective: true } },
      {
        chat_id: -1,
        text: 'x',
        reply_markup: { inline_keyboard: [[{ text: 'Назад', callback_data: '1:d:1' }]] },
      },
    ]) {
      expect(gateKeyboard(payload, lockDelete)).toBe(payload);
    }
  });
});

/*
 * Which outgoing keyboards are drawn for one member (docs/team-chats.md#disabled-buttons): a
 * message he alone sees shows what his role lacks disabled; a message the whole group sees keeps
 * its buttons live (the guard answers a tap his role lacks). No product screen sent to one member
 * carries a button his role lacks today, so the rule is held here, on the middleware.
 */

const t = loadTranslations().forLocale('ru');
const keyboard = Markup.inlineKeyboard([
  [Markup.button.callback('Счета заказа', encodeCallback('orderInvoices', 1101))],
  [Markup.button.callback('📋 Заказы', encodeCallback('page', 'orders', 1, 'all'))],
]).reply_markup;

/** What a viewer's update sends through its own client, method by method, as the server gets it. */
async function sentByViewer(calls: [string, Record<string, unknown>][]) {
  const seen: Record<string, unknown>[] = [];
  // A client per update, its callApi on its prototype, as telegraf's are.
  class Client {
    async callApi(_method: string, payload: Record<string, unknown>) {
      seen.push(payload);
      return true;
    }
  }
  const telegram = new Client();
  const ctx = {
    teamMember: { name: 'Глеб', role: 'viewer' },
    telegram,
    t,
    session: {},
  } as unknown as BotContext;
  const middleware = createRoleKeyboards() as (ctx: BotContext, next: () => Promise<void>) => Promise<void>;
  await middleware(ctx, async () => {
    for (const [method, payload] of calls) await ctx.telegram.callApi(method as never, payload as never);
  });
  return seen.map((payload) =>
    (payload.reply_markup as typeof keyboard).inline_keyboard
      .flat()
      .map((b) => ('disabled' in b ? `${b.text} (off)` : b.text)),
  );
}

describe('a viewer’s keyboards in a bound group', () => {
  it('a message he alone sees locks what his role lacks; one the group sees stays live', async () => {
    const drawn = await sentByViewer([
      [
        'sendMessage',
        {
          chat_id: -1,
          text: 'карточка',
          reply_markup: keyboard,
          ephemeral_message_parameters: { receiver_user_id: 999 },
        },
      ],
      [
        'editEphemeralMessageReplyMarkup',
        { chat_id: -1, receiver_user_id: 999, ephemeral_message_id: 3, reply_markup: keyboard },
      ],
      ['sendMessage', { chat_id: -1, text: 'карточка', reply_markup: keyboard }],
      ['editMessageText', { chat_id: -1, message_id: 5, text: 'карточка', reply_markup: keyboard }],
    ]);
    const locked = ['🔒 Счета заказа · нужна роль «бухгалтер» (off)', '📋 Заказы'];
    const live = ['Счета заказа', '📋 Заказы'];
    expect(drawn).toEqual([locked, locked, live, live]);
  });
});
