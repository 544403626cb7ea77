import { beforeEach, describe, expect, it } from 'vitest';
import { buttonData, buttons, lastText, texts, type UserOptions } from '../../helpers/bot-harness.js';
import { Conversation } from '../../helpers/conversation.js';
import { CSR_PEM } from '../../helpers/fixtures.js';
import { useBot, withBot } from '../../helpers/use-bot.js';

const { h } = useBot();

/** A conversation with the bot (see test/helpers/conversation.ts). */
class Chat extends Conversation {
  constructor(user: UserOptions = {}) {
    super(() => h, user);
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
  'by',
  '220030',
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
    expect(await chat.answer(...PERSON_RU)).toContain('гражданство');
    await chat.answer('BY', 'MP', '1234567', 'Партизанский РУВД г. Минска', '3140580A001PB1', '01.02.2020');
    expect(await chat.answer('+375 29 123-45-67')).toContain('e-mail');
    expect(await chat.answer('ivan@example.by')).toContain('Сохранить этого заказчика');
    const summary = await chat.answer('[Нет]');
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
    await chat.answer(...PERSON_RU, '+375291234567', 'ivan@example.by');
    expect(await chat.tap('Нет')).toContain('Итог: корпоративная почта');
    confirm = buttonData(chat.last, 'Подтвердить');
  });

  it('a double tap creates one order and the second tap is told it was already sent', async () => {
    const before = createRequests('/v1/orders/corporate-mails').length;
    const first = await h.press(confirm, chat.user);
    expect(lastText(first)).toContain('Заказ создан');
    // The invoice is named as the client sees it, not by its id.
    expect(lastText(first)).toMatch(/счёт: <b>СФ-\d{4}-\d+<\/b>/);
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
    await withBot({ timeoutMs: 300 }, async (quick) => {
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
      last = await quick.send('+375291234567', c.user);
      last = await quick.send('ivan@example.by', c.user);
      await tap('Нет');
      quick.sandbox.addFault({ method: 'POST', path: '/v1/orders/corporate-mails', fault: { kind: 'hang' } });
      const calls = await quick.press(buttonData(last, 'Подтвердить'), c.user);
      const posts = quick.sandbox.requests.filter(
        (r) => r.method === 'POST' && r.path === '/v1/orders/corporate-mails',
      );
      expect(posts).toHaveLength(1);
      const said = texts(calls);
      expect(said.join('\n')).toContain('результат неизвестен');
      expect(said.at(-1)).toContain('похоже, он не создан');
      expect(buttons(calls).some((b) => b.text.includes('Подтвердить'))).toBe(true);
    });
  });
});

describe('every kind, every customer type', () => {
  let nextUser = 5_000;
  const fresh = async (languageCode = 'ru') => {
    nextUser += 1;
    const chat = new Chat({ userId: nextUser, chatId: nextUser, languageCode });
    await h.connect(chat.user);
    return chat;
  };

  it('hosting for a juridical person in English: postal address apart, bank requisites, saved for next time', async () => {
    const chat = await fresh('en');
    const [tariff] = await h.api().listHostingTariffs({ service_id: 10 });
    if (!tariff) throw new Error('no hosting tariff');
    expect(await chat.say('/order hosting')).toContain('Which hosting service');
    await chat.tap('Linux');
    expect(await chat.tap(tariff.tariff_name)).toContain('For how long');
    expect(await chat.tap(/^12 months/)).toContain('domain for the hosting');
    expect(await chat.tap('Skip')).toContain('Which currency');
    await chat.answer('[USD]', '[Juridical person]');
    await chat.answer('190000005', 'ООО «Пример»', 'Петров', 'Пётр', 'Петрович', 'Директор');
    await chat.answer('BY', '220004', 'Минская', 'Минск', 'ул. Немига', '5', '301');
    expect(await chat.tap('No')).toContain('Postal address');
    await chat.answer('BY', '220005', 'Минская', 'Минск', 'а/я 10', '1');
    expect(await chat.answer('[Skip]')).toContain('bank requisites');
    expect(await chat.answer('[Yes]', 'Беларусбанк', 'AKBBBY2X', 'BY15AKBB30120000000040000000')).toContain(
      'contact phone',
    );
    await chat.answer('+375 17 200-00-00', 'office@example.by');
    const summary = await chat.answer('[Yes]');
    expect(summary).toContain('Summary: hosting');
    expect(summary).toContain('USD');
    await chat.tap('Confirm');
    expect(lastText(chat.last)).toContain('Order created');
    const body = createRequests('/v1/orders/hostings').at(-1)?.body;
    expect(body).toEqual({
      period_unit_count: 12,
      currency_id: 2,
      tariff_id: tariff.tariff_id,
      phone: '+375172000000',
      email: 'office@example.by',
      juridical_person_requisites: {
        ucn: '190000005',
        company_name: 'ООО «Пример»',
        executive_last_name: 'Петров',
        executive_first_name: 'Пётр',
        executive_middle_name: 'Петрович',
        post_of_executive: 'Директор',
        legal_address: {
          postal_code: '220004',
          country_code: 'BY',
          region: 'Минская',
          city: 'Минск',
          street: 'ул. Немига',
          building: '5',
          room: '301',
        },
        postal_address: {
          postal_code: '220005',
          country_code: 'BY',
          region: 'Минская',
          city: 'Минск',
          street: 'а/я 10',
          building: '1',
          room: '',
        },
        bank_requisites: {
          bank_name: 'Беларусбанк',
          swift: 'AKBBBY2X',
          iban: 'BY15AKBB30120000000040000000',
        },
      },
    });

    // The saved customer comes first next time: a mail order asks no customer field again.
    const [mailTariff] = await h.api().listMailTariffs();
    await chat.say('/order mail');
    await chat.answer(`[${mailTariff?.tariff_name}]`, '[1 month]', '[USD]');
    expect(buttons(chat.last).map((b) => b.text)).toContain('ООО «Пример»');
    expect(await chat.tap('ООО «Пример»')).toContain('Summary: corporate mail');
    await chat.tap('Confirm');
    const mail = createRequests('/v1/orders/corporate-mails').at(-1)?.body as Record<string, unknown>;
    expect(mail.juridical_person_requisites).toEqual(
      (body as Record<string, unknown>).juridical_person_requisites,
    );
    expect(mail.phone).toBe('+375172000000');

    // /requisites lists it, shows it, deletes it after confirmation.
    const list = await chat.say('/requisites');
    expect(list).toContain('Saved customers');
    expect(await chat.tap('ООО «Пример»')).toContain('190000005');
    await chat.tap('Delete');
    expect(await chat.tap('Yes')).toContain('Customer deleted');
    expect(await chat.say('/requisites')).toContain('No saved customers');
  });

  it('/requisites → Add customer asks the customer type straight away, with no complaint', async () => {
    const chat = await fresh('en');
    await chat.say('/requisites');
    const asked = await chat.tap('Add customer');
    expect(asked).toContain('Customer type');
    expect(asked).not.toContain('found no customer requisites');
  });

  it('a saved customer that no longer reads as one answers nothing: the customer is asked for', async () => {
    const chat = await fresh('en');
    // Stored by hand, of another shape (an answer that is an object): parsed on read, never trusted.
    const data = { customerType: 'juridical', 'c:ucn': { digits: '190000005' } };
    await h.chatData.saveProfile(nextUser, { id: 'odd00001', label: 'Odd customer', data });
    const [mailTariff] = await h.api().listMailTariffs();
    await chat.say('/order mail');
    await chat.answer(`[${mailTariff?.tariff_name}]`, '[1 month]', '[USD]');
    expect(await chat.tap('Odd customer')).toContain('Customer type');
    await chat.tap('Cancel');

    // /requisites shows its label alone, and Delete still removes it.
    await chat.say('/requisites');
    const shown = await chat.tap('Odd customer');
    expect(shown).toContain('Odd customer');
    expect(shown).not.toContain('190000005');
    await chat.tap('Delete');
    expect(await chat.tap('Yes')).toContain('Customer deleted');
  });

  it('a .ru domain for an individual businessman sends both WHOIS blocks with the RU fields', async () => {
    const chat = await fresh();
    await chat.say('/order domain newfirm.ru');
    await chat.answer('[1 год]', '[RUB]', '[Индивидуальный предприниматель]');
    await chat.answer(
      '192000012',
      'Сидоров',
      'Сидор',
      '[Пропустить]',
      'RU',
      '125009',
      'Москва',
      'Москва',
      'Тверская',
      '1',
      '[Пропустить]',
    );
    await chat.answer('[Да]', '[Нет]');
    await chat.answer('RU', '4510', '123456', 'ОВД Тверской', '[Пропустить]', '15.03.2015', '01.01.1980');
    await chat.answer('500100732259', '[Пропустить]', '304500116000157');
    const summary = await chat.answer('+79161234567', 'sidorov@example.ru', '[Нет]');
    expect(summary).toContain('newfirm.ru');
    await chat.tap('Подтвердить');
    expect(lastText(chat.last)).toContain('Заказ создан');
    const body = createRequests('/v1/orders/domains').at(-1)?.body as Record<string, unknown>;
    expect(body.tariff_id).toBe(407);
    expect(body.individual_businessman_requisites).toMatchObject({ ucn: '192000012', middle_name: '' });
    expect(body.individual_businessman_requisites).not.toHaveProperty('postal_address');
    expect(body.whois_person_requisites).toEqual({
      citizenship: 'RU',
      series: '4510',
      number: '123456',
      organization: 'ОВД Тверской',
      date_of_issue: '15.03.2015',
      date_of_birth: '01.01.1980',
    });
    expect(body.whois_company_requisites).toEqual({ inn: '500100732259', ogrn: '304500116000157' });
  });

  it('a .com domain asks no WHOIS data; an IDN .бел domain from the /check button', async () => {
    const chat = await fresh();
    await chat.say('/order domain my-new-brand.com');
    await chat.answer('[1 год]', '[BYN]', ...PERSON_RU, '+375291234567', 'ivan@example.by');
    expect(await chat.tap('Нет')).toContain('Итог');
    const com = h.sandbox.requests.filter((r) => r.path === '/v1/domains/check').at(-1)?.body;
    expect(com).toEqual({ domains: ['my-new-brand.com'] });
    await chat.tap('Подтвердить');
    const body = createRequests('/v1/orders/domains').at(-1)?.body as Record<string, unknown>;
    expect(body.tariff_id).toBe(413);
    expect(body).not.toHaveProperty('whois_person_requisites');

    await chat.say('/check новыймагазин.бел');
    expect(await chat.tap('Заказать новыймагазин.бел')).toContain('На сколько лет');
  });

  it('SSL from a CSR sent as a .csr file', async () => {
    const chat = await fresh();
    const [tariff] = await h.api().listSslTariffs();
    await chat.say('/order ssl');
    await chat.answer(`[${tariff?.tariff_name}]`, '[1 год]');
    chat.last = await h.sendFile('not a csr', 'request.csr', chat.user);
    expect(texts(chat.last).join('\n')).toContain('не похоже на CSR');
    chat.last = await h.sendFile(CSR_PEM, 'request.csr', chat.user);
    expect(lastText(chat.last)).toContain('В какой валюте');
    await chat.answer('[BYN]', ...PERSON_RU, '+375291234567', 'ivan@example.by');
    expect(await chat.tap('Нет')).toContain('CSR: вставлен');
    await chat.tap('Подтвердить');
    const body = createRequests('/v1/orders/ssl-certificates').at(-1)?.body as Record<string, unknown>;
    expect(body.csr).toBe(CSR_PEM);
    expect(body).not.toHaveProperty('domain');
  });
});

describe('bad input never reaches the provider', () => {
  it('each kind of wrong answer repeats the step with a message naming the problem', async () => {
    const chat = new Chat({ userId: 6001, chatId: 6001 });
    await h.connect(chat.user);
    const posts = () =>
      h.sandbox.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/v1/orders')).length;
    const before = posts();
    expect(await chat.say('/order domain not_a_domain')).toContain('не доменное имя');
    expect(lastText(chat.last)).toContain('Какой домен');
    const taken = await chat.say('taken-name.by');
    expect(taken).toContain('taken-name.by</b> — занят');
    expect(taken).not.toContain('NotAvailable');
    // A name the registry calls invalid is never called taken.
    const verdict = { domain: 'odd-name.by', is_available: false, is_premium: false, state: 'Invalid' };
    const body = JSON.stringify({ results: [verdict] });
    h.sandbox.addFault({
      method: 'POST',
      path: '/v1/domains/check',
      fault: { kind: 'malformed', status: 200, body },
    });
    const invalid = await chat.say('odd-name.by');
    expect(invalid).toContain('не доменное имя, которое можно зарегистрировать');
    expect(invalid).not.toContain('занят');
    expect(await chat.say('shop.xyz')).toContain('не обслуживает');
    expect(await chat.say('premium.by')).toContain('На сколько лет');
    expect(texts(chat.last).join('\n')).toContain('премиум');
    const oldPeriodButton = buttonData(chat.last, '1 год');
    await chat.answer('[1 год]', '[BYN]');
    // A stale button from an earlier step.
    const stale = await h.press(oldPeriodButton, chat.user);
    expect(lastText(stale)).toContain('устарела');
    await chat.tap('Физическое лицо');
    expect(await chat.say('   ')).toContain('Пустое значение');
    expect(await chat.say('x'.repeat(300))).toContain('Слишком длинно');
    expect(await chat.say('/help')).toContain('Сейчас идёт заказ');
    expect(lastText(chat.last)).toContain('фамилия');
    await chat.answer('Иванов', 'Иван', 'Иванович');
    expect(await chat.say('Атлантида')).toContain('Такой страны нет в списке');
    await chat.answer(
      'BY',
      '220030',
      'Минская',
      'Минск',
      'Независимости',
      '4',
      '12',
      'BY',
      'MP',
      '1',
      'РУВД',
      '[Пропустить]',
    );
    expect(await chat.say('31.02.2020')).toContain('ДД.ММ.ГГГГ');
    await chat.say('01.02.2020');
    expect(await chat.say('8 029 123')).toContain('не похоже на телефон');
    await chat.say('+375291234567');
    expect(await chat.say('ivan@')).toContain('не похоже на e-mail');
    expect(posts()).toBe(before);
    expect(await chat.say('/cancel')).toContain('Отменено');
    expect(posts()).toBe(before);
  });

  it('Back re-asks the previous step with the earlier answer offered to keep', async () => {
    const chat = new Chat({ userId: 6002, chatId: 6002 });
    await h.connect(chat.user);
    await chat.say('/order domain backtest.by');
    await chat.answer('[3 года]', '[BYN]', '[Физическое лицо]', 'Иванов', 'Иван');
    const back = await chat.tap('Назад');
    expect(back).toContain('имя');
    expect(
      buttons(chat.last).some((b) => b.text === 'Оставить: Иван' || b.text.startsWith('Оставить: имя: Иван')),
    ).toBe(true);
    expect(await chat.tap('Оставить')).toContain('отчество');
    await chat.answer('Иванович', 'BY', '220030', 'Минская', 'Минск', 'Независимости', '4', '12');
    await chat.answer(
      'BY',
      'MP',
      '1',
      'РУВД',
      '[Пропустить]',
      '01.02.2020',
      '+375291234567',
      'ivan@example.by',
    );
    const summary = await chat.tap('Нет');
    expect(summary).toContain('Иван');
    expect(summary).toContain('3');
    // Edit the period from the summary: other answers stay.
    await chat.tap('Изменить');
    await chat.tap('Период');
    const again = await chat.tap('5 лет');
    expect(again).toContain('Итог');
    await chat.tap('Подтвердить');
    const body = createRequests('/v1/orders/domains').at(-1)?.body as Record<string, unknown>;
    expect(body.period_unit_count).toBe(5);
    expect(body.natural_person_requisites).toMatchObject({ first_name: 'Иван', middle_name: 'Иванович' });
  });
});

describe('a restart mid-flow', () => {
  it('keeps the answers given so far and goes on where it stopped', async () => {
    const chat = new Chat({ userId: 7001, chatId: 7001 });
    await h.connect(chat.user);
    await chat.say('/order domain restart-test.by');
    await chat.answer('[1 год]', '[BYN]', '[Физическое лицо]', 'Иванов');
    await h.restart();
    expect(await chat.say('Иван')).toContain('отчество');
    await chat.answer('Иванович', 'BY', '220030', 'Минская', 'Минск', 'Независимости', '4', '12');
    await chat.answer(
      'BY',
      'MP',
      '1',
      'РУВД',
      '[Пропустить]',
      '01.02.2020',
      '+375291234567',
      'ivan@example.by',
    );
    await chat.tap('Нет');
    await chat.tap('Подтвердить');
    const body = createRequests('/v1/orders/domains').at(-1)?.body as Record<string, unknown>;
    expect(body.domain).toBe('restart-test.by');
    expect(body.natural_person_requisites).toMatchObject({ last_name: 'Иванов', first_name: 'Иван' });
  });
});
