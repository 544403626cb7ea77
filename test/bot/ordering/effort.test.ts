import { describe, expect, it } from 'vitest';
import { buttons, lastText, type UserOptions } from '../../helpers/bot-harness.js';
import { Conversation } from '../../helpers/conversation.js';
import { PERSON_ANSWERS } from '../../helpers/fixtures.js';
import { useBot } from '../../helpers/use-bot.js';

/*
 * Effort stories: what the partner does, counted as messages sent plus buttons tapped, from the
 * command to the invoice link (or the summary). Each asserts what the partner sees on the way.
 */

const { h } = useBot();

/** A conversation that counts the partner's effort: every message, file and tap is one. */
class Chat extends Conversation {
  constructor(user: UserOptions) {
    super(() => h, user);
  }
}

let nextUser = 9_100;
async function fresh(languageCode = 'ru'): Promise<Chat> {
  nextUser += 1;
  const chat = new Chat({ userId: nextUser, chatId: nextUser, languageCode });
  await h.connect(chat.user);
  return chat;
}

function lastDomainOrder(): Record<string, unknown> {
  const sent = h.sandbox.requests.filter((r) => r.method === 'POST' && r.path === '/v1/orders/domains');
  return sent.at(-1)?.body as Record<string, unknown>;
}

const PASSPORT = ['BY', 'MP', '1234567', 'Партизанский РУВД г. Минска', '3140580A001PB1', '01.02.2020'];
const WHOIS_PERSON = {
  citizenship: 'BY',
  series: 'MP',
  number: '1234567',
  organization: 'Партизанский РУВД г. Минска',
  identity_number: '3140580A001PB1',
  date_of_issue: '01.02.2020',
};
const PERSON = PERSON_ANSWERS;

const COMPANY_CARD = `ООО «Пример Плюс»
УНП: 190123455
Юридический адрес: 220004, Республика Беларусь, г. Минск, ул. Немига, д. 5, пом. 301
Почтовый адрес: 220005, Республика Беларусь, г. Минск, ул. Притыцкого, д. 10
р/с BY15AKBB30120000000040000000 в ОАО «АСБ Беларусбанк»
БИК: AKBBBY2X
Директор: Петров Пётр Петрович
Свидетельство о регистрации: № 190123455 от 01.02.2010, выдано Минским горисполкомом
Тел.: +375 17 200-00-00
E-mail: office@example.by`;

describe('a .by domain for a saved customer', () => {
  it('keeps the WHOIS answers with the saved profile: the next .by order takes 5 messages and taps to the invoice link (was 11)', async () => {
    const chat = await fresh();
    // The first order enters everything once and saves the customer.
    await chat.say('/order domain effort-first.by');
    await chat.answer('[1 год]', '[BYN]', '[Физическое лицо]', ...PERSON);
    expect(lastText(chat.last)).toContain('гражданство');
    await chat.answer(...PASSPORT, '+375291234567', 'ivan@example.by');
    expect(await chat.tap('Да')).toContain('Итог: регистрация домена');
    await chat.tap('Подтвердить');
    expect(lastText(chat.last)).toContain('Заказ создан');

    // The next one: domain → period → currency → saved customer → Confirm.
    chat.effort = 0;
    expect(await chat.say('/order domain effort-second.by')).toContain('На сколько лет');
    expect(await chat.tap('2 года')).toContain('В какой валюте');
    expect(chat.buttonTexts()[0]).toMatch(/^BYN/); // the last used currency first
    expect(await chat.tap(/^BYN/)).toContain('Кто заказчик');
    const summary = await chat.tap('Иванов Иван');
    expect(summary).toContain('Итог: регистрация домена');
    expect(summary).not.toContain('Введите');
    expect(summary).toContain('WHOIS — серия документа: MP');
    const result = await chat.tap('Подтвердить');
    expect(result).toContain('Заказ создан');
    expect(buttons(chat.last).find((b) => b.url)?.url).toMatch(/^http/);
    expect(chat.effort).toBe(5);
    expect(chat.effort).toBeLessThanOrEqual(6);
    expect(lastDomainOrder()).toMatchObject({
      domain: 'effort-second.by',
      period_unit_count: 2,
      whois_person_requisites: WHOIS_PERSON,
    });
  });

  it('a profile saved without WHOIS data is asked only for it once; the order after asks nothing', async () => {
    const chat = await fresh();
    // Saved from /requisites, where no zone asks for a passport.
    await chat.say('/requisites');
    await chat.tap('Добавить заказчика');
    await chat.answer('[Физическое лицо]', ...PERSON, '+375291234567', 'ivan@example.by');
    await chat.tap('Сохранить');
    expect(lastText(chat.last)).toContain('Заказчик сохранён');

    await chat.say('/order domain effort-third.by');
    await chat.answer('[1 год]', '[BYN]');
    // Only what the profile lacks: the WHOIS fields, not the name or the address.
    expect(await chat.tap('Иванов Иван')).toContain('гражданство');
    await chat.answer(...PASSPORT);
    expect(lastText(chat.last)).toContain('Итог: регистрация домена');
    await chat.tap('Подтвердить');
    expect(lastDomainOrder().whois_person_requisites).toEqual(WHOIS_PERSON);

    chat.effort = 0;
    await chat.say('/order domain effort-fourth.by');
    await chat.answer('[1 год]', '[BYN]');
    expect(await chat.tap('Иванов Иван')).toContain('Итог: регистрация домена');
    await chat.tap('Подтвердить');
    expect(lastText(chat.last)).toContain('Заказ создан');
    expect(chat.effort).toBe(5);
    expect(lastDomainOrder().whois_person_requisites).toEqual(WHOIS_PERSON);

    // The card of the profile lists its fields in the form's order, WHOIS data included.
    await chat.say('/requisites');
    const card = await chat.tap('Иванов Иван');
    const order = [
      'Заказчик: Физическое лицо',
      'Фамилия: Иванов',
      'Адрес — город: Минск',
      'WHOIS — серия документа: MP',
      'Контактный телефон',
    ];
    const positions = order.map((line) => card.indexOf(line));
    expect(
      positions.every((p) => p >= 0),
      card,
    ).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });
});

describe('a new juridical person from one pasted card', () => {
  it('reaches the summary of a .by order in 6 messages and taps (was 28), and the provider gets the card', async () => {
    const chat = await fresh();
    await chat.say('/order domain effort-company.by');
    await chat.answer('[1 год]', '[BYN]');
    expect(lastText(chat.last)).toContain('вставить реквизиты');
    const shown = await chat.say(COMPANY_CARD);
    // The card as read, labels in the form's order, then the one thing it cannot say.
    expect(shown).toContain('Из карточки взято:');
    expect(shown).toContain('Заказчик: Юридическое лицо');
    expect(shown).toContain('УНП: 190123455');
    expect(shown).toContain('Юридический адрес — улица: ул. Немига');
    expect(shown).toContain('Банк: ОАО «АСБ Беларусбанк»');
    expect(shown).not.toContain('Банк — банк');
    expect(lastText(chat.last)).toContain('Это государственная организация');
    expect(await chat.tap('Нет')).toContain('Сохранить этого заказчика');
    const summary = await chat.tap('Да');
    expect(summary).toContain('Итог: регистрация домена');
    expect(chat.effort).toBe(6);
    expect(chat.effort).toBeLessThanOrEqual(8);

    await chat.tap('Подтвердить');
    expect(lastDomainOrder()).toEqual({
      period_unit_count: 1,
      currency_id: 1,
      tariff_id: expect.any(Number),
      domain: 'effort-company.by',
      phone: '+375172000000',
      email: 'office@example.by',
      juridical_person_requisites: {
        ucn: '190123455',
        company_name: 'ООО «Пример Плюс»',
        executive_last_name: 'Петров',
        executive_first_name: 'Пётр',
        executive_middle_name: 'Петрович',
        post_of_executive: 'Директор',
        legal_address: {
          postal_code: '220004',
          country_code: 'BY',
          region: 'Минск',
          city: 'Минск',
          street: 'ул. Немига',
          building: '5',
          room: '301',
        },
        postal_address: {
          postal_code: '220005',
          country_code: 'BY',
          region: 'Минск',
          city: 'Минск',
          street: 'ул. Притыцкого',
          building: '10',
          room: '',
        },
        bank_requisites: {
          bank_name: 'ОАО «АСБ Беларусбанк»',
          swift: 'AKBBBY2X',
          iban: 'BY15AKBB30120000000040000000',
        },
      },
      whois_company_requisites: {
        registration_number: '190123455',
        registration_organization: 'Минским горисполкомом',
        registration_issue_date: '01.02.2010',
        is_government_company: false,
      },
    });
  });

  it('pasted at the first field after choosing the type, the card fills the rest: the summary in 7 (was 31)', async () => {
    const chat = await fresh();
    await chat.say('/order domain effort-later.by');
    await chat.answer('[1 год]', '[BYN]');
    expect(await chat.tap('Юридическое лицо')).toContain('Введите: <b>УНП</b>');
    const shown = await chat.say(COMPANY_CARD);
    expect(shown).not.toContain('Слишком длинно');
    expect(shown).toContain('Из карточки взято:');
    expect(shown).toContain('Юридический адрес — улица: ул. Немига');
    expect(lastText(chat.last)).toContain('Это государственная организация');
    expect(await chat.tap('Нет')).toContain('Сохранить этого заказчика');
    expect(await chat.tap('Да')).toContain('Итог: регистрация домена');
    expect(chat.effort).toBe(7);
    expect(chat.effort).toBeLessThanOrEqual(8);
    await chat.tap('Подтвердить');
    expect(lastDomainOrder()).toMatchObject({
      domain: 'effort-later.by',
      phone: '+375172000000',
      juridical_person_requisites: { ucn: '190123455', company_name: 'ООО «Пример Плюс»' },
    });
  });

  it('pasted at a later field or sent as a .txt there, the card fills what it has; a field it lacks is asked', async () => {
    const chat = await fresh();
    await chat.say('/order domain effort-mid.com');
    await chat.answer('[1 год]', '[BYN]', '[Юридическое лицо]', '190123455');
    expect(lastText(chat.last)).toContain('Введите: <b>полное наименование');
    // The card without its УНП line, as a file: the УНП typed before stays.
    const withoutUnp = COMPANY_CARD.replace(/^УНП: .*\n/m, '');
    const shown = await chat.file(withoutUnp, 'card.txt');
    expect(shown).toContain('Из карточки взято:');
    expect(shown).toContain('УНП: 190123455');
    expect(lastText(chat.last)).toContain('Сохранить этого заказчика');
    // A card that lacks the very field asked: the rest is taken and that field asked.
    const other = await fresh();
    await other.say('/order domain effort-mid2.com');
    await other.answer('[1 год]', '[BYN]', '[Юридическое лицо]');
    const told = await other.say(withoutUnp);
    expect(told).toContain('Из карточки взято:');
    expect(told).toContain('В карточке нет поля «УНП» — введите его.');
    expect(lastText(other.last)).toContain('Введите: <b>УНП</b>');
    expect(await other.say('190123455')).toContain('Сохранить этого заказчика');
  });

  it('asks only what the card got wrong, saying why', async () => {
    const chat = await fresh();
    await chat.say('/order domain effort-wrong.com');
    await chat.answer('[1 год]', '[BYN]');
    const shown = await chat.say(COMPANY_CARD.replace('УНП: 190123455', 'УНП: 1901234'));
    expect(shown).toContain('⚠️ Поле «УНП»: нужно 9 цифр');
    expect(lastText(chat.last)).toContain('Введите: <b>УНП</b>');
    expect(await chat.say('190123455')).toContain('Сохранить этого заказчика');
  });

  it('pasted where a saved customer is offered, the card is a new customer', async () => {
    const chat = await fresh();
    await chat.say('/requisites');
    await chat.tap('Добавить заказчика');
    await chat.answer('[Физическое лицо]', ...PERSON, '+375291234567', 'ivan@example.by');
    await chat.tap('Сохранить');
    await chat.say('/order domain effort-paste-new.com');
    await chat.answer('[1 год]', '[BYN]');
    expect(lastText(chat.last)).toContain('Кто заказчик');
    expect(lastText(chat.last)).toContain('вставить реквизиты');
    const shown = await chat.say(COMPANY_CARD);
    expect(shown).toContain('Заказчик: Юридическое лицо');
    expect(lastText(chat.last)).toContain('Сохранить этого заказчика');
    const summary = await chat.tap('Нет');
    expect(summary).toContain('Полное наименование с формой собственности: ООО «Пример Плюс»');
    expect(summary).not.toContain('Иванов');
  });

  it('a text that is no card is refused and the question asked again', async () => {
    const chat = await fresh();
    await chat.say('/order domain effort-chatter.com');
    await chat.answer('[1 год]', '[BYN]');
    expect(await chat.say('просто текст')).toContain('Не нашёл в тексте реквизитов');
    expect(lastText(chat.last)).toContain('Тип заказчика');
  });

  it('in English, from a .txt file under /requisites: saved with its passport data, shown in the form order', async () => {
    const chat = await fresh('en');
    await chat.say('/requisites');
    await chat.tap('Add customer');
    const card = [
      'Full name: Иванов Иван Иванович',
      'Passport: MP 1234567, issued by Партизанский РУВД г. Минска 01.02.2020',
      'Identity number: 3140580A001PB1',
      'Citizenship: Belarus',
      'Address: 220030, Belarus, Minsk, Nezavisimosti ave, 4, 12',
      'Phone: +375 29 123-45-67',
      'E-mail: ivan@example.by',
    ].join('\n');
    const shown = await chat.file(card, 'customer.txt');
    expect(shown).toContain('Taken from the card:');
    expect(shown).toContain('Customer: Natural person');
    expect(lastText(chat.last)).toContain('New customer');
    await chat.tap('Save');
    await chat.say('/requisites');
    const profile = await chat.tap('Иванов Иван');
    expect(profile).toContain('Address — city: Minsk');
    expect(profile).toMatch(/series[^\n]*: MP/);

    chat.effort = 0;
    await chat.say('/order domain effort-english.by');
    await chat.answer('[1 year]', '[BYN]');
    expect(await chat.tap('Иванов Иван')).toContain('Summary: domain registration');
    expect(chat.effort).toBe(4);
  });
});

describe('summaries show names, not ids', () => {
  it('zone, period in words, price per year and the total; the Keep button quotes the value', async () => {
    const chat = await fresh();
    const zones = await h.api().listDomainZones({ currency_id: 1 });
    const by = zones.find((z) => z.name.toLowerCase() === 'by');
    if (!by) throw new Error('no BY zone');
    await chat.say('/order domain effort-names.by');
    await chat.answer('[2 года]', '[BYN]', COMPANY_CARD, '[Нет]');
    const summary = await chat.tap('Нет');
    expect(summary).toContain('Зона: BY\n');
    expect(summary).toContain('Срок: 2 года');
    expect(summary).toMatch(/Цена: [\d\s,.]+BYN за год × 2 года = [\d\s,.]+BYN/);
    const total = (by.registration_price * 2).toFixed(2).replace('.', ',');
    expect(summary.replace(/\s/g, ' ')).toContain(total);
    expect(summary).not.toContain('тариф регистрации');
    expect(summary).not.toContain('Период (единиц)');
    expect(summary).not.toMatch(/Банк — банк|\(id \d+\)/);

    // Keep on a long field offers the value itself, not the field's name.
    await chat.tap('Изменить');
    await chat.tap('Заказчик');
    await chat.tap('Оставить: Юридическое лицо');
    expect(await chat.tap('Оставить: 190123455')).toContain('полное наименование');
    expect(chat.buttonTexts().find((t) => t.startsWith('Оставить'))).toMatch(/^Оставить: ООО «Пример Плюс»/);
  });

  it('a hosting summary names the tariff and gives the price of the period with the price per month', async () => {
    const chat = await fresh();
    const [tariff] = await h.api().listHostingTariffs({ service_id: 10 });
    if (!tariff) throw new Error('no hosting tariff');
    await chat.say('/order hosting');
    await chat.tap('Linux');
    await chat.tap(tariff.tariff_name);
    await chat.tap(/^12 мес/);
    await chat.answer('[Пропустить]', '[BYN]', COMPANY_CARD);
    const summary = await chat.tap('Нет');
    expect(summary).toContain(`Тариф: ${tariff.tariff_name}\n`);
    expect(summary).toContain('Срок: 12 мес');
    expect(summary).toMatch(/Цена: [\d\s,.]+BYN за 12 мес\S* \([\d\s,.]+BYN за мес\S*\)/);
  });
});
