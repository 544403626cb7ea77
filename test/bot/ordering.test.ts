import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type BotCall,
  BotHarness,
  buttonData,
  buttons,
  lastText,
  type UserOptions,
} from '../helpers/bot-harness.js';
import { CSR_PEM } from '../helpers/fixtures.js';

let h: BotHarness;

beforeAll(async () => {
  h = await BotHarness.start();
});
afterAll(async () => {
  await h.stop();
});

/** A conversation with the bot: type a text, or tap a button of the last messages by label. */
class Chat {
  last: BotCall[] = [];
  constructor(readonly user: UserOptions = {}) {}
  async say(text: string): Promise<string> {
    this.last = await h.send(text, this.user);
    return lastText(this.last);
  }
  async tap(label: string | RegExp): Promise<string> {
    this.last = await h.press(buttonData(this.last, label), this.user);
    return lastText(this.last);
  }
  /** Answers each prompt in turn: `[label]` taps a button, anything else is typed. */
  async answer(...answers: string[]): Promise<string> {
    let reply = '';
    for (const answer of answers) {
      const tap = /^\[(.+)\]$/.exec(answer);
      reply = tap?.[1] ? await this.tap(tap[1]) : await this.say(answer);
    }
    return reply;
  }
}

function createRequests(path: string) {
  return h.sandbox.requests.filter((r) => r.method === 'POST' && r.path === path);
}

const PERSON_RU = [
  '[Физическое лицо]',
  'Иванов',
  'Иван',
  'Иванович',
  '220030',
  'by',
  'Минская',
  'Минск',
  'пр. Независимости',
  '4',
  '12',
];
const ADDRESS = {
  postal_code: '220030',
  country_code: 'BY',
  region: 'Минская',
  city: 'Минск',
  street: 'пр. Независимости',
  building: '4',
  room: '12',
};

describe('domain order', () => {
  let chat: Chat;
  beforeEach(async () => {
    chat = new Chat({ userId: 1001, chatId: 1001 });
    await h.connect(chat.user);
  });

  it('orders a .by domain for a natural person with WHOIS data, and the provider gets exactly the summary', async () => {
    expect(await chat.say('/order domain newshop.by')).toContain('На сколько лет');
    expect(await chat.answer('[2 года]')).toContain('В какой валюте');
    expect(await chat.answer('[BYN]')).toContain('Тип заказчика');
    await chat.answer(...PERSON_RU);
    expect(await chat.answer('[Нет]')).toContain('гражданство');
    await chat.answer('BY', 'MP', '1234567', 'Партизанский РУВД г. Минска', '3140580A001PB1', '01.02.2020');
    expect(await chat.answer('+375 29 123-45-67')).toContain('e-mail');
    const summary = await chat.answer('ivan@example.by');
    expect(summary).toContain('Итог: регистрация домена');
    expect(summary).toContain('newshop.by');
    expect(summary).toContain('Иванович');
    const before = createRequests('/v1/orders/domains').length;
    const result = await chat.tap('Подтвердить');
    expect(result).toContain('Заказ создан');
    expect(buttons(chat.last).find((b) => b.url)?.url).toMatch(/^http/);
    const sent = createRequests('/v1/orders/domains');
    expect(sent.length - before).toBe(1);
    expect(sent.at(-1)?.body).toEqual({
      period_unit_count: 2,
      currency_id: 1,
      tariff_id: 401,
      domain: 'newshop.by',
      phone: '+375291234567',
      email: 'ivan@example.by',
      natural_person_requisites: {
        last_name: 'Иванов',
        first_name: 'Иван',
        middle_name: 'Иванович',
        address: ADDRESS,
      },
      whois_person_requisites: {
        citizenship: 'BY',
        series: 'MP',
        number: '1234567',
        organization: 'Партизанский РУВД г. Минска',
        identity_number: '3140580A001PB1',
        date_of_issue: '01.02.2020',
      },
    });
  });
});

describe('exactly once', () => {
  let chat: Chat;
  let confirm: string;

  let nextUser = 2_000;
  beforeEach(async () => {
    nextUser += 1;
    chat = new Chat({ userId: nextUser, chatId: nextUser });
    await h.connect(chat.user);
    const tariffs = await h.api().listMailTariffs();
    const tariff = tariffs[0];
    if (!tariff) throw new Error('no mail tariff');
    await chat.say('/order mail');
    await chat.tap(tariff.tariff_name);
    await chat.tap(/^1 мес/);
    await chat.tap('BYN');
    await chat.answer(...PERSON_RU, '[Нет]', '+375291234567');
    expect(await chat.say('ivan@example.by')).toContain('Итог: корпоративная почта');
    confirm = buttonData(chat.last, 'Подтвердить');
  });

  it('a double tap creates one order and the second tap is told it was already sent', async () => {
    const before = createRequests('/v1/orders/corporate-mails').length;
    const first = await h.press(confirm, chat.user);
    expect(lastText(first)).toContain('Заказ создан');
    const second = await h.press(confirm, chat.user);
    const answer = second.find((c) => c.method === 'answerCallbackQuery');
    expect(String(answer?.payload.text)).toMatch(/уже отправлен|устарела/);
    expect(createRequests('/v1/orders/corporate-mails').length - before).toBe(1);
  });

  it('three taps with different update ids, sent at once, create one order', async () => {
    const before = createRequests('/v1/orders/corporate-mails').length;
    await Promise.all([
      h.press(confirm, chat.user),
      h.press(confirm, chat.user),
      h.press(confirm, chat.user),
    ]);
    expect(createRequests('/v1/orders/corporate-mails').length - before).toBe(1);
  });

  it('a tap after a restart creates one order, and a tap on an old summary none', async () => {
    await h.restart();
    const before = createRequests('/v1/orders/corporate-mails').length;
    expect(lastText(await h.press(confirm, chat.user))).toContain('Заказ создан');
    await h.restart();
    await h.press(confirm, chat.user);
    expect(createRequests('/v1/orders/corporate-mails').length - before).toBe(1);
  });

  it("an old summary's Confirm is refused after Edit produced a new summary", async () => {
    const before = createRequests('/v1/orders/corporate-mails').length;
    await chat.tap('Изменить');
    await chat.tap('Контакты');
    await chat.answer('+375447654321', '[Оставить]');
    const stale = await h.press(confirm, chat.user);
    expect(String(stale.find((c) => c.method === 'answerCallbackQuery')?.payload.text)).toContain('устарела');
    expect(createRequests('/v1/orders/corporate-mails').length - before).toBe(0);
  });

  it('a lost answer after Confirm is never retried: the order is looked up and found', async () => {
    h.sandbox.addFault({ method: 'POST', path: '/v1/orders/corporate-mails', fault: { kind: 'drop' } });
    const before = createRequests('/v1/orders/corporate-mails').length;
    const calls = await h.press(confirm, chat.user);
    const said = calls.filter((c) => c.method === 'sendMessage').map((c) => String(c.payload.text));
    expect(said[0]).toContain('результат неизвестен');
    expect(said.at(-1)).toContain('Заказ создан');
    expect(createRequests('/v1/orders/corporate-mails').length - before).toBe(1);
  });

  it('a hanging provider after Confirm: one create call, nothing found, Confirm offered again', async () => {
    const quick = await BotHarness.start({ timeoutMs: 300 });
    try {
      const c = new Chat({ userId: 3003, chatId: 3003 });
      const [tariff] = await quick.api().listMailTariffs();
      await quick.send('/token', c.user);
      await quick.send(quick.sandbox.token, c.user);
      let last = await quick.send('/order mail', c.user);
      const tap = async (label: string | RegExp) => {
        last = await quick.press(buttonData(last, label), c.user);
      };
      await tap(tariff?.tariff_name ?? '');
      await tap(/^1 мес/);
      await tap('BYN');
      await tap('Физическое лицо');
      for (const text of PERSON_RU.slice(1)) last = await quick.send(text, c.user);
      await tap('Нет');
      last = await quick.send('+375291234567', c.user);
      last = await quick.send('ivan@example.by', c.user);
      quick.sandbox.addFault({ method: 'POST', path: '/v1/orders/corporate-mails', fault: { kind: 'hang' } });
      const calls = await quick.press(buttonData(last, 'Подтвердить'), c.user);
      const posts = quick.sandbox.requests.filter(
        (r) => r.method === 'POST' && r.path === '/v1/orders/corporate-mails',
      );
      expect(posts).toHaveLength(1);
      const said = calls.filter((x) => x.method === 'sendMessage').map((x) => String(x.payload.text));
      expect(said.join('\n')).toContain('результат неизвестен');
      expect(said.at(-1)).toContain('похоже, он не создан');
      expect(buttons(calls).some((b) => b.text.includes('Подтвердить'))).toBe(true);
    } finally {
      await quick.stop();
    }
  });
});
