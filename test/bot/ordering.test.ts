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
