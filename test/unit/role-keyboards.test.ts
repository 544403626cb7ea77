import { describe, expect, it } from 'vitest';
import { gateKeyboard } from '../../src/bot/features/team/role-keyboards.js';
import { disabledButton } from '../../src/bot/kit/bot-api-today.js';

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
