import { describe, expect, it } from 'vitest';
import { type BotCall, buttonData, buttons, texts, type UserOptions } from '../helpers/bot-harness.js';
import { useBot } from '../helpers/use-bot.js';

/*
 * Input the bot must survive: arguments far too long to quote back, invisible "filled" answers,
 * requisites that are not what their field is, and words that are names of Object.prototype.
 */

const ru: UserOptions = { userId: 8101, chatId: 8101 };
const en: UserOptions = { userId: 8102, chatId: 8102, languageCode: 'en' };
const { h } = useBot({ connect: [ru, en] });

/** Telegram refuses a text over 4,096 UTF-16 units, and one holding half a surrogate pair. */
const MESSAGE_LIMIT = 4096;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Every message of the calls is one Telegram accepts; there is at least one. */
function expectSendable(calls: BotCall[]): string {
  const sent = texts(calls);
  expect(sent.length, 'the bot answered').toBeGreaterThan(0);
  for (const text of sent) {
    expect(text.length).toBeLessThanOrEqual(MESSAGE_LIMIT);
    expect(text).not.toMatch(LONE_SURROGATE);
  }
  return sent.join('\n');
}

/** 5,000 characters; the odd `a` first puts every emoji pair across an even cut. */
const LONG_WORDS = {
  latin: 'x'.repeat(5000),
  emoji: `a${'😀'.repeat(2500)}`,
  mixed: `a${'1😀<&>'.repeat(1000)}`,
};

describe('long arguments are never echoed whole', () => {
  it.each(Object.entries(LONG_WORDS))(
    '/invoice with a 5,000-character %s word gets a short answer',
    async (_, word) => {
      const reply = expectSendable(await h.send(`/invoice ${word}`, ru));
      expect(reply).toContain('не номер');
      expect(reply.length).toBeLessThan(300);
    },
  );

  it.each(['invoices', 'payments', 'statements', 'statement', 'partner_statement'])(
    '/%s with a long argument answers with the usage',
    async (command) => {
      expect(expectSendable(await h.send(`/${command} ${LONG_WORDS.emoji}`, en))).toContain('not a number');
    },
  );

  it('/dns and /ns with a long name answer briefly, without cutting an emoji in half', async () => {
    for (const word of Object.values(LONG_WORDS)) {
      expect(expectSendable(await h.send(`/dns ${word}`, ru))).toContain('не доменное имя');
      expect(expectSendable(await h.send(`/ns mysite.by ${word}`, ru))).toContain('не имя сервера');
      expect(expectSendable(await h.send(`/cert ${word}`, ru))).toContain('не доменное имя');
    }
    expect(expectSendable(await h.send(`/ns mysite.by ns1.example.by=${LONG_WORDS.emoji}`, ru))).toContain(
      'не IP-адрес',
    );
    expectSendable(await h.send(`/dns mysite.by add ${LONG_WORDS.emoji}`, ru));
    expectSendable(await h.send(`/dns mysite.by del ${LONG_WORDS.emoji}`, ru));
  });

  it('/check with a 5,000-character garbage line, or a thousand garbage words, answers within a message', async () => {
    for (const word of Object.values(LONG_WORDS)) {
      expect(expectSendable(await h.send(`/check ${word}`, ru))).toContain('Не нашёл доменов');
    }
    const manyWords = Array.from({ length: 1000 }, (_, i) => `bad_${i}!`).join(' ');
    expect(expectSendable(await h.send(`/check ${manyWords}`, ru))).toContain('Не нашёл доменов');
    const withOne = expectSendable(await h.send(`/check free-name-for-tests.by ${manyWords}`, ru));
    expect(withOne).toContain('free-name-for-tests.by');
  });

  it('/order domain with a long name refuses it briefly and asks for the domain', async () => {
    const reply = expectSendable(await h.send(`/order domain ${LONG_WORDS.emoji}`, ru));
    expect(reply).toContain('не доменное имя');
    expect(reply).toContain('Какой домен');
    expect(expectSendable(await h.send(LONG_WORDS.mixed, ru))).toContain('не доменное имя');
    await h.send('/cancel', ru);
  });

  it.each(['orders', 'prices', 'tariffs', 'order'])(
    '/%s with a long word answers with the usage',
    async (command) => {
      expectSendable(await h.send(`/${command} ${LONG_WORDS.emoji}`, ru));
    },
  );
});

describe('a saved customer with every field at its limit', () => {
  it('is shown in several messages within the limit, Delete under the last', async () => {
    const user = { userId: 8300, chatId: 8300 };
    await h.connect(user);
    // About 250 characters a field, each `&` escaped to five: far more than one message holds.
    const long = (name: string) => `${name} ${'&😀'.repeat(75)}`;
    const data: Record<string, unknown> = {
      customerType: 'juridical',
      phone: '+375291234567',
      email: 'a@b.by',
    };
    for (const field of [
      'ucn',
      'company_name',
      'executive_last_name',
      'executive_first_name',
      'post_of_executive',
    ])
      data[`c:${field}`] = long(field);
    for (const block of ['legal_address', 'postal_address'])
      for (const field of ['region', 'city', 'street', 'building', 'room'])
        data[`c:${block}.${field}`] = long(field);
    await h.chatData.saveProfile(8300, { id: 'long0001', label: 'ООО «Длинное»', data });
    const list = await h.send('/requisites', user);
    const shown = await h.press(buttonData(list, 'Длинное'), user);
    const sent = texts(shown);
    expect(sent.length).toBeGreaterThan(1);
    expectSendable(shown);
    expect(sent.join('\n')).toContain(long('post_of_executive').replace(/&/g, '&amp;'));
    const withButtons = shown.filter(
      (c) => c.method === 'sendMessage' && c.payload.reply_markup !== undefined,
    );
    expect(withButtons).toHaveLength(1);
    expect(withButtons[0]).toBe(shown.filter((c) => c.method === 'sendMessage').at(-1));
    expect(buttons(shown).map((b) => b.text)).toEqual(['🗑 Удалить']);
  });
});

/** A conversation: type a text, or tap a button of the bot's last messages by its label. */
class Chat {
  last: BotCall[] = [];
  constructor(readonly user: UserOptions) {}
  async say(text: string): Promise<string> {
    this.last = await h.send(text, this.user);
    return expectSendable(this.last);
  }
  async tap(label: string | RegExp): Promise<string> {
    this.last = await h.press(buttonData(this.last, label), this.user);
    return texts(this.last).join('\n');
  }
  /** The question the bot asked last. */
  question(): string {
    return texts(this.last).at(-1) ?? '';
  }
}

/** Starts /requisites → Add customer of a type, as a fresh chat. */
async function newCustomer(user: UserOptions, typeLabel: string): Promise<Chat> {
  await h.connect(user);
  const chat = new Chat(user);
  await chat.say('/requisites');
  await chat.tap(/Добавить заказчика|Add customer/);
  await chat.tap(typeLabel);
  return chat;
}

describe('invisible characters do not fill a field', () => {
  const INVISIBLE_ANSWERS = {
    'zero-width space': '\u200B',
    'zero-width non-joiner and joiner': '\u200C\u200D',
    'word joiner': '\u2060',
    'byte-order mark': '\uFEFF',
    'no-break spaces': '\u00A0\u00A0',
    'a mix with spaces': ' \u200B\u00A0\u2060 ',
  };

  it.each(
    Object.entries(INVISIBLE_ANSWERS).map(([name, answer], index) => [name, answer, 8200 + index] as const),
  )('%s as a last name is refused and the step asked again', async (_, answer, id) => {
    const chat = await newCustomer({ userId: id, chatId: id }, 'Физическое лицо');
    expect(chat.question()).toContain('фамилия');
    const reply = await chat.say(answer);
    expect(reply).toContain('Пустое значение не подойдёт');
    expect(reply).toContain('невидимые символы');
    expect(chat.question()).toContain('фамилия');
    expect(await chat.say('Иванов')).toContain('Введите: <b>имя</b>');
  });

  it('is dropped from a typed value, so the provider would get clean text', async () => {
    const chat = await newCustomer({ userId: 8210, chatId: 8210 }, 'Физическое лицо');
    expect(await chat.say('Ива\u200Bнов\u2060')).toContain('Введите: <b>имя</b>');
    await chat.say('Иван');
    // An optional field filled with a zero-width space is not "filled" either: Skip is the way.
    expect(await chat.say('\u200B')).toContain('Пустое значение');
    await chat.tap('Пропустить');
    for (const answer of ['BY', '220030', 'Минская', 'Минск', 'ул. Ленина', '1']) await chat.say(answer);
    await chat.tap('Пропустить');
    await chat.say('+375291234567');
    const summary = await chat.say('ivan@example.by');
    expect(summary).toContain('Фамилия: Иванов');
    expect(summary).not.toMatch(/[\u200B-\u200D\u2060\uFEFF]/);
  });
});

describe('requisites are checked by their format', () => {
  const NOT_A_NUMBER = [
    '😀',
    '-1',
    '1; DROP TABLE orders; --',
    "' OR '1'='1",
    '19012345',
    '1901234567',
    '19O123456',
  ];

  it('emoji, -1, SQL and wrong lengths are refused as УНП, with the form and an example', async () => {
    const chat = await newCustomer({ userId: 8220, chatId: 8220 }, 'Индивидуальный предприниматель');
    expect(chat.question()).toContain('УНП');
    for (const answer of NOT_A_NUMBER) {
      const reply = await chat.say(answer);
      expect(reply, answer).toContain('Поле «УНП»: нужно 9 цифр, пример 190123455');
      expect(chat.question(), answer).toContain('Введите: <b>УНП</b>');
    }
    // Nine digits with a typo: the control digit says so, in words, and the question stays.
    const typo = await chat.say('190 123 456');
    expect(typo).toContain(
      'Поле «УНП»: последняя цифра номера — контрольная, и она не сходится с остальными',
    );
    expect(chat.question()).toContain('Введите: <b>УНП</b>');
    expect(await chat.say('190 123 455')).toContain('фамилия');
  });

  it('emoji, -1 and SQL are refused as a postal code, in the form of the address country', async () => {
    const chat = await newCustomer({ userId: 8221, chatId: 8221 }, 'Физическое лицо');
    await chat.say('Иванов');
    await chat.say('Иван');
    await chat.tap('Пропустить');
    expect(chat.question()).toContain('код страны');
    expect(await chat.say('BY')).toContain('для страны BY — 6 цифр, например 220030');
    for (const answer of ['😀', '-1', "' OR 1=1 --", '2200301', '22003', '220 03O']) {
      const reply = await chat.say(answer);
      expect(reply, answer).toContain('для страны BY индекс — 6 цифр, пример 220030');
      expect(chat.question(), answer).toContain('почтовый индекс');
    }
    expect(await chat.say('220030')).toContain('область');
  });

  it('speaks English to an English chat, and takes a Polish code in its own form', async () => {
    const chat = await newCustomer(
      { userId: 8222, chatId: 8222, languageCode: 'en' },
      'Individual businessman',
    );
    expect(await chat.say('-1')).toContain('Field “tax number (UCN)”: 9 digits are needed, e.g. 190123455.');
    await chat.say('190123455');
    await chat.say('Kowalski');
    await chat.say('Jan');
    await chat.tap('Skip');
    await chat.say('pl');
    expect(await chat.say('00950')).toContain(
      'a postal code of PL is two digits, a hyphen and three digits, e.g. 00-950',
    );
    expect(await chat.say('00-950')).toContain('region');
  });

  it('a postal code kept from before is not offered again when the new country does not take it', async () => {
    const chat = await newCustomer({ userId: 8224, chatId: 8224 }, 'Физическое лицо');
    await chat.say('Иванов');
    await chat.say('Иван');
    await chat.tap('Пропустить');
    await chat.say('BY');
    await chat.say('220030');
    expect(chat.question()).toContain('область');
    await chat.tap('Назад');
    await chat.tap('Назад');
    expect(chat.question()).toContain('код страны');
    await chat.say('RU');
    // Six digits fit Russia too: the earlier code is offered to keep.
    expect(buttons(chat.last).some((b) => b.text.startsWith('Оставить') && b.text.includes('220030'))).toBe(
      true,
    );
    await chat.tap('Назад');
    expect(await chat.say('PL')).toContain('для страны PL — две цифры, дефис и три цифры, например 00-950');
    expect(buttons(chat.last).some((b) => b.text.startsWith('Оставить'))).toBe(false);
  });

  it('refuses a name made of digits or emoji', async () => {
    const chat = await newCustomer({ userId: 8223, chatId: 8223 }, 'Физическое лицо');
    for (const answer of ['-1', '😀', '12345', 'ℹ️', 'ㅤ']) {
      expect(await chat.say(answer), answer).toContain('Поле «фамилия»: только буквы');
    }
    expect(await chat.say("O'Brien-Иванова")).toContain('Введите: <b>имя</b>');
  });
});

describe('words that are names of Object.prototype', () => {
  // The word is lower-cased first: `__proto__` and `constructor` in any case reach Object.prototype.
  it.each(['__proto__', 'constructor', 'CONSTRUCTOR'])('/orders %s answers with the usage', async (word) => {
    expect(expectSendable(await h.send(`/orders ${word}`, ru))).toContain('/orders domain');
    expect(expectSendable(await h.send(`/tariffs ${word}`, ru))).toContain('/tariffs hosting');
    expect(expectSendable(await h.send(`/order ${word}`, ru))).toContain('/order domain');
  });
});
