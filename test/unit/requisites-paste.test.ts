import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CUSTOMER_TYPES } from '../../src/core/requisites.js';
import { parseAddressLine } from '../../src/core/requisites-card-values.js';
import { checkField } from '../../src/core/requisites-fields.js';
import { cardFields, parseRequisitesCard } from '../../src/core/requisites-paste.js';

const COMPANY_CARD = `ООО «Пример Плюс»
УНП: 190123455
Юридический адрес: 220004, Республика Беларусь, г. Минск, ул. Немига, д. 5, пом. 301
Почтовый адрес: 220005, Беларусь, г. Минск, а/я 10, 1
р/с BY15AKBB30120000000040000000 в ОАО «АСБ Беларусбанк»
БИК: AKBBBY2X
Директор: Петров Пётр Петрович
Свидетельство о регистрации: № 190123455 от 01.02.2010, выдано Минским горисполкомом
Тел.: +375 17 200-00-00
E-mail: office@example.by`;

const PERSON_CARD = `ФИО: Иванов Иван Иванович
Паспорт: MP 1234567, выдан Партизанским РУВД г. Минска 01.02.2020
Идентификационный номер: 3140580A001PB1
Дата рождения: 14.05.1980
Гражданство: Беларусь
Адрес: 220030, Беларусь, Минская обл., г. Минск, пр. Независимости, д. 4, кв. 12
Телефон: 8 029 123-45-67
email: ivan@example.by`;

describe('a pasted requisites card', () => {
  it('fills a Belarusian company: ids, addresses split, bank, executive and post, registration, contacts', () => {
    const card = parseRequisitesCard(COMPANY_CARD);
    expect(card.type).toBe('juridical');
    expect(card.refused).toEqual([]);
    expect(card.fields).toMatchObject({
      ucn: '190123455',
      company_name: 'ООО «Пример Плюс»',
      executive_last_name: 'Петров',
      executive_first_name: 'Пётр',
      executive_middle_name: 'Петрович',
      post_of_executive: 'Директор',
      'legal_address.postal_code': '220004',
      'legal_address.country_code': 'BY',
      'legal_address.region': 'Минск',
      'legal_address.city': 'Минск',
      'legal_address.street': 'ул. Немига',
      'legal_address.building': '5',
      'legal_address.room': '301',
      'postal_address.postal_code': '220005',
      'postal_address.street': 'а/я 10',
      'postal_address.building': '1',
      'bank_requisites.bank_name': 'ОАО «АСБ Беларусбанк»',
      'bank_requisites.swift': 'AKBBBY2X',
      'bank_requisites.iban': 'BY15AKBB30120000000040000000',
      'whois_company_requisites.registration_number': '190123455',
      'whois_company_requisites.registration_organization': 'Минским горисполкомом',
      'whois_company_requisites.registration_issue_date': '01.02.2010',
      phone: '+375172000000',
      email: 'office@example.by',
    });
  });

  it('fills a natural person with passport data, and a Belarusian phone dialled at home', () => {
    const card = parseRequisitesCard(PERSON_CARD);
    expect(card.type).toBe('natural');
    expect(card.fields).toEqual({
      last_name: 'Иванов',
      first_name: 'Иван',
      middle_name: 'Иванович',
      'address.country_code': 'BY',
      'address.postal_code': '220030',
      'address.region': 'Минская обл.',
      'address.city': 'Минск',
      'address.street': 'пр. Независимости',
      'address.building': '4',
      'address.room': '12',
      'whois_person_requisites.citizenship': 'BY',
      'whois_person_requisites.series': 'MP',
      'whois_person_requisites.number': '1234567',
      'whois_person_requisites.organization': 'Партизанским РУВД г. Минска',
      'whois_person_requisites.identity_number': '3140580A001PB1',
      'whois_person_requisites.date_of_issue': '01.02.2020',
      'whois_person_requisites.date_of_birth': '14.05.1980',
      phone: '+375291234567',
      email: 'ivan@example.by',
    });
  });

  it('reads English labels, a Russian INN/KPP pair and an OGRN', () => {
    const card = parseRequisitesCard(
      [
        'Company name: ООО "Ромашка"',
        'INN/KPP: 7707083893/770701001',
        'OGRN: 1027700132195',
        'Legal address: 101000, Russia, Moscow, Myasnitskaya st, 1',
        'CEO: Сидоров Семён Семёнович',
        'Position: Генеральный директор',
        'Phone: +7 495 123-45-67',
        'E-mail: info@example.ru',
      ].join('\n'),
    );
    expect(card.type).toBe('juridical');
    expect(card.fields).toMatchObject({
      company_name: 'ООО "Ромашка"',
      post_of_executive: 'Генеральный директор',
      executive_last_name: 'Сидоров',
      'whois_company_requisites.inn': '7707083893',
      'whois_company_requisites.kpp': '770701001',
      'whois_company_requisites.ogrn': '1027700132195',
      'legal_address.country_code': 'RU',
      'legal_address.postal_code': '101000',
      'legal_address.city': 'Moscow',
      'legal_address.street': 'Myasnitskaya st',
      'legal_address.building': '1',
      phone: '+74951234567',
    });
    // A 10-digit ИНН is not a 9-digit УНП: the ucn is left to ask, not filled wrong.
    expect(card.fields.ucn).toBeUndefined();
  });

  it('reads the Russian labels ИНН, КПП, ОГРН and ОГРНИП, with a colon or a space', () => {
    const company = parseRequisitesCard(
      ['Наименование: ООО «Ромашка»', 'ИНН: 7707083893', 'КПП 770701001', 'ОГРН: 1027700132195'].join('\n'),
    );
    expect(company.fields).toMatchObject({
      'whois_company_requisites.inn': '7707083893',
      'whois_company_requisites.kpp': '770701001',
      'whois_company_requisites.ogrn': '1027700132195',
    });
    // A Russian ИНН is not refused as a УНП the card never gave; a 9-digit «ИНН» is a УНП.
    expect(company.refused).toEqual([]);
    expect(parseRequisitesCard('Наименование: ООО «Ромашка»\nИНН: 591705582').fields.ucn).toBe('591705582');
    // A person's name with an ОГРНИП is an individual businessman.
    const businessman = parseRequisitesCard('ФИО: Сидоров Сидор Сидорович\nОГРНИП: 304500116000157');
    expect(businessman.type).toBe('businessman');
    expect(businessman.fields['whois_company_requisites.ogrn']).toBe('304500116000157');
  });

  it('reads УНП, ИНН and ОГРН after their name as a form step does: a space, a colon, none, Latin letters', () => {
    const company = (line: string) => parseRequisitesCard(`ООО «Пример»\n${line}`).fields;
    for (const line of [
      'УНП 591705582',
      'УНП: 591705582',
      'UNP 591705582',
      'unp591705582',
      'УНП591705582',
      'УНП 591 705 582',
    ]) {
      expect(company(line).ucn, line).toBe('591705582');
    }
    for (const line of ['ИНН 7707083893', 'INN 7707083893', 'inn7707083893', 'ИНН 770 708 3893']) {
      expect(company(line)['whois_company_requisites.inn'], line).toBe('7707083893');
    }
    for (const line of [
      'ОГРН 1027700132195',
      'OGRN 1027700132195',
      'ogrn1027700132195',
      'ОГРН 1 027 700 132 195',
    ]) {
      expect(company(line)['whois_company_requisites.ogrn'], line).toBe('1027700132195');
    }
    // A person with an УНП written with spaces is a businessman, as with one written without.
    expect(parseRequisitesCard('ФИО: Козлов Андрей Викторович\nУНП 191 234 563').type).toBe('businessman');
  });

  it('takes "ИП Фамилия Имя" with an УНП as an individual businessman', () => {
    const card = parseRequisitesCard('ИП Козлов Андрей Викторович\nУНП 191234563\nТел: +375 29 765-43-21');
    expect(card.type).toBe('businessman');
    expect(card.fields).toMatchObject({
      ucn: '191234563',
      last_name: 'Козлов',
      first_name: 'Андрей',
      middle_name: 'Викторович',
      phone: '+375297654321',
    });
  });

  it('reports a value its field refuses instead of filling it', () => {
    const card = parseRequisitesCard(
      'Наименование: ООО «Тест»\nУНП: 1234\nE-mail: not-an-email\nIBAN: BY00AKBB30120000000040000000',
    );
    expect(card.type).toBe('juridical');
    expect(card.fields.ucn).toBeUndefined();
    expect(card.refused.map((r) => [r.path, r.check.reason])).toEqual([
      ['ucn', 'digits'],
      ['bank_requisites.iban', 'iban'],
      ['email', 'email'],
    ]);
  });

  it('refuses a record number (ГРН) given as the ОГРН, as a form step does', () => {
    const card = parseRequisitesCard('Наименование: ООО «Тест»\nИНН: 7707083893\nОГРН: 2027700132194');
    expect(card.fields['whois_company_requisites.ogrn']).toBeUndefined();
    expect(card.refused.find((r) => r.path === 'whois_company_requisites.ogrn')?.check).toMatchObject({
      reason: 'ogrnFirstDigit',
      params: { firstDigit: '2' },
    });
  });

  it('is no card when nothing is labelled: chatter, a domain, a number', () => {
    for (const text of ['привет', 'example.by', '190123455', '', '::::', 'Да']) {
      expect(parseRequisitesCard(text)).toEqual({ type: undefined, fields: {}, refused: [] });
    }
  });

  it('splits an address written on one line', () => {
    expect(parseAddressLine('Беларусь, 220030, г. Минск, пр-т Независимости 4, кв. 12')).toEqual({
      country_code: 'BY',
      postal_code: '220030',
      region: 'Минск',
      city: 'Минск',
      street: 'пр-т Независимости',
      building: '4',
      room: '12',
    });
    expect(parseAddressLine('225710, Брестская обл., г. Пинск, ул. Ленина, д. 1А')).toMatchObject({
      postal_code: '225710',
      region: 'Брестская обл.',
      city: 'Пинск',
      street: 'ул. Ленина',
      building: '1А',
    });
  });
});

/** Label: value lines from the labels the parser knows, with values of every sort. */
const LABELS = [
  'УНП',
  'ИНН',
  'КПП',
  'ОГРН',
  'Наименование',
  'Юридический адрес',
  'Почтовый адрес',
  'Адрес',
  'Банк',
  'IBAN',
  'р/с',
  'БИК',
  'SWIFT',
  'Руководитель',
  'Директор',
  'Должность',
  'ФИО',
  'Фамилия',
  'Имя',
  'Отчество',
  'Паспорт',
  'Серия',
  'Номер',
  'Кем выдан',
  'Дата выдачи',
  'Идентификационный номер',
  'Дата рождения',
  'Гражданство',
  'Телефон',
  'E-mail',
  'Company',
  'Legal address',
  'Full name',
  'Registration number',
  'Дата регистрации',
  'Свидетельство о регистрации',
  'Регистрирующий орган',
];
const VALUE_PIECES = [
  '190123455',
  '7707083893',
  '220004',
  'BY',
  'Беларусь',
  'г. Минск',
  'ул. Немига',
  'д. 5',
  'пом. 301',
  'ООО «Пример»',
  'ИП',
  'Иванов Иван Иванович',
  'MP 1234567',
  '01.02.2020',
  '31.02.2020',
  '01.02.2999',
  'AKBBBY2X',
  'BY15AKBB30120000000040000000',
  '+375 29 123-45-67',
  'ivan@example.by',
  '😀',
  'ℹ️',
  '\u200B',
  '-1',
  "'; DROP TABLE x;--",
  'выдан',
  '№',
  'от',
  ',',
  ' ',
  '/',
  ':',
  '\n',
];
const cardText = fc
  .array(
    fc.tuple(
      fc.constantFrom(...LABELS),
      fc.constantFrom(': ', ' — ', ' ', '\t', ':'),
      fc.array(fc.oneof(fc.constantFrom(...VALUE_PIECES), fc.string({ maxLength: 12 })), { maxLength: 6 }),
    ),
    { maxLength: 25 },
  )
  .map((lines) => lines.map(([label, sep, pieces]) => `${label}${sep}${pieces.join(' ')}`).join('\n'));

describe('parseRequisitesCard on any paste', () => {
  const everyFilledFieldIsValid = (text: string) => {
    const card = parseRequisitesCard(text);
    if (!card.type) {
      expect(card.fields).toEqual({});
      return;
    }
    const specs = new Map(cardFields(card.type).map((f) => [f.path, f]));
    for (const [path, value] of Object.entries(card.fields)) {
      const spec = specs.get(path);
      expect(spec, path).toBeDefined();
      if (!spec) continue;
      const dot = path.lastIndexOf('.');
      const country = card.fields[dot < 0 ? 'country_code' : `${path.slice(0, dot)}.country_code`];
      // The same check as a typed answer, and it gives back the very value filled.
      expect(checkField(spec, value, { country }), `${path}: ${value}`).toEqual({ ok: true, value });
    }
  };

  it('never throws on arbitrary text, and every field it fills passes the typed-input check', () => {
    fc.assert(fc.property(fc.string({ maxLength: 2000 }), everyFilledFieldIsValid), { numRuns: 500 });
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 500 }), everyFilledFieldIsValid), {
      numRuns: 300,
    });
  });

  it('never throws on card-like pastes, and every field it fills passes the typed-input check', () => {
    fc.assert(fc.property(cardText, everyFilledFieldIsValid), { numRuns: 1500 });
  });

  it('the field list covers every customer type', () => {
    for (const type of CUSTOMER_TYPES) expect(cardFields(type).length).toBeGreaterThan(10);
  });
});
