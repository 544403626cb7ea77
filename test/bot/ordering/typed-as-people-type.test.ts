import { describe, expect, it } from 'vitest';
import { lastText, type UserOptions } from '../../helpers/bot-harness.js';
import { Conversation } from '../../helpers/conversation.js';
import { useBot } from '../../helpers/use-bot.js';

/*
 * The chat's customer form taking what a partner types as people write it: the country by its
 * name («Беларусь», not BY), the phone as dialled at home («8 029 123 45 67») and the postal code
 * with a space («220 030»), as its hint promises. The order sends them in the provider's form.
 */

const { h } = useBot();

class Chat extends Conversation {
  constructor(user: UserOptions) {
    super(() => h, user);
  }
}

function lastDomainOrder(): Record<string, unknown> {
  const sent = h.sandbox.requests.filter((r) => r.method === 'POST' && r.path === '/v1/orders/domains');
  return sent.at(-1)?.body as Record<string, unknown>;
}

describe('the customer form takes what people type', () => {
  it('«Беларусь», «220 030» and «8 029 123 45 67» are read as BY, 220030 and +375291234567', async () => {
    const chat = new Chat({ userId: 9_401, chatId: 9_401 });
    await h.connect(chat.user);
    await chat.say('/order domain typed-as-said.com');
    await chat.answer('[1 год]', '[BYN]', '[Физическое лицо]', 'Иванов', 'Иван', 'Иванович');
    expect(lastText(chat.last)).toContain('название или код страны, например Беларусь, Россия или BY');
    const postal = await chat.say('Беларусь');
    expect(postal).not.toContain('Такой страны нет');
    expect(postal).toContain('для страны BY — 6 цифр, например 220030');
    expect(await chat.say('220 030')).toContain('Введите: <b>Адрес — область / регион');
    await chat.answer('Минская', 'Минск', 'пр. Независимости', '4', '12');
    expect(lastText(chat.last)).toContain('8 029 123-45-67');
    expect(await chat.say('8 029 123 45 67')).toContain('Введите: <b>контактный e-mail');
    await chat.say('ivan@example.by');
    const summary = await chat.answer('[Нет]');
    expect(summary).toContain('Итог: регистрация домена');
    expect(summary).toContain('+375291234567');
    expect(summary).toContain('220030');
    await chat.tap('Подтвердить');
    expect(lastText(chat.last)).toContain('Заказ создан');
    expect(lastDomainOrder()).toMatchObject({
      phone: '+375291234567',
      natural_person_requisites: { address: { country_code: 'BY', postal_code: '220030' } },
    });
  });

  it('a Russian mobile as dialled at home, «8 912 345-67-89», and «Россия» are read as +7 and RU', async () => {
    const chat = new Chat({ userId: 9_402, chatId: 9_402 });
    await h.connect(chat.user);
    await chat.say('/order domain typed-in-russia.com');
    await chat.answer('[1 год]', '[BYN]', '[Физическое лицо]', 'Петров', 'Пётр', 'Петрович');
    expect(await chat.say('россия')).toContain('для страны RU — 6 цифр');
    await chat.answer('125 009', 'Московская', 'Москва', 'ул. Тверская', '1', '2');
    await chat.answer('8 912 345-67-89', 'petr@example.ru', '[Нет]');
    await chat.tap('Подтвердить');
    expect(lastDomainOrder()).toMatchObject({
      phone: '+79123456789',
      natural_person_requisites: { address: { country_code: 'RU', postal_code: '125009' } },
    });
  });
});
