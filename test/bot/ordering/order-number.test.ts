import { describe, expect, it } from 'vitest';
import type { UserOptions } from '../../helpers/bot-harness.js';
import { Conversation } from '../../helpers/conversation.js';
import { useBot } from '../../helpers/use-bot.js';

/*
 * One order has one number wherever the partner meets it: the number the provider gives it and
 * shows its clients (ЗК-2026-001101), not its id in one place and the number in another.
 */
const { h } = useBot();

class Chat extends Conversation {
  constructor(user: UserOptions = {}) {
    super(() => h, user);
  }
}

/** The text as read, without its HTML tags. */
const plain = (html: string): string => html.replace(/<[^>]+>/g, '');

const PERSON = ['[Физическое лицо]', 'Иванов', 'Иван', 'Иванович', 'by', '220030', 'Минская', 'Минск'];

describe('an order’s number', () => {
  it('is the same in the created message, /orders and the order’s card', async () => {
    const chat = new Chat({ userId: 1001, chatId: 1001 });
    await h.connect(chat.user);
    await chat.say('/order domain one-number.by');
    await chat.answer('[1 год]');
    await chat.answer('[BYN]');
    await chat.answer(...PERSON, 'пр. Независимости', '4', '12');
    await chat.answer('BY', 'MP', '1234567', 'Партизанский РУВД г. Минска', '3140580A001PB1', '01.02.2020');
    await chat.answer('+375 29 123-45-67');
    await chat.answer('ivan@example.by');
    await chat.answer('[Нет]');
    const created = plain(await chat.tap('Подтвердить'));
    expect(created).toContain('Заказ создан');
    const number = /ЗК-\d{4}-\d{6}/.exec(created)?.[0];
    expect(number, created).toBeDefined();
    expect(created).toContain(`Заказ № ${number}`);
    expect(created).not.toMatch(/Заказ: \d/);

    const list = plain(await chat.say('/orders'));
    // The orders list: a table whose № column is the number.
    expect(list).toContain(`${number} | Регистрация доменов`);
    const card = plain(await chat.tap(`№ ${number} · one-number.by`));
    expect(card).toContain(`Заказ № ${number}`);
  });
});
