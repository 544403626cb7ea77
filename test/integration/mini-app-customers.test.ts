/*
 * The Mini App's saved customers through real HTTP on 127.0.0.1, mounted as main mounts the app
 * (`miniAppRoutes`), over real ChatData in a temp dir: the list the chat's /requisites keeps, the
 * form in the chat's order and words, the checks as you type (a УНП's control digit), a customer
 * saved, read, changed and deleted, a pasted card read; a refusal with each wrong field; a
 * group's customers for its owner and admin, none for a tech. Customers are the account's data
 * alone: no endpoint calls the provider, and neither token nor a customer's data reaches a log.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerApi } from '../../src/api/index.js';
import { readSavedCustomer } from '../../src/core/customer-answers.js';
import type { ChatData } from '../../src/storage/chat-data.js';
import { apiCaller, signLaunch } from '../helpers/mini-app-api.js';
import { type MiniAppWorld, startMiniAppWorld } from '../helpers/mini-app-world.js';

const BOT_TOKEN = '7000000003:AAH-customers-test-bot-token_0123456789';
const PARTNER_TOKEN = 'partner-token-of-the-customers-test-0001';
const OWNER = 6001;
const ADMIN = 6002;
const TECH = 6003;
const GROUP = -1009000000011;

let chatData: ChatData;
let base: string;
let world: MiniAppWorld | undefined;
const lines: string[] = [];
const bodies: string[] = [];

beforeAll(async () => {
  world = await startMiniAppWorld({
    botToken: BOT_TOKEN,
    name: 'mini-app-customers',
    provider: {
      standIn: {
        url: 'https://api.example.by',
        token: PARTNER_TOKEN,
        // Saved customers are the account's own data: the provider is never asked.
        apiFor: () =>
          new Proxy({} as PartnerApi, {
            get: () => async () => {
              throw new Error('the provider is not called for saved customers');
            },
          }),
      },
    },
    chats: [OWNER, GROUP],
    team: {
      group: GROUP,
      owner: OWNER,
      members: { [OWNER]: 'owner', [ADMIN]: 'admin', [TECH]: 'tech' },
      names: { [OWNER]: 'Olga', [ADMIN]: 'Anna', [TECH]: 'Tim' },
    },
    lines,
  });
  ({ chatData, base } = world);
});

afterAll(async () => {
  await world?.close();
});

/** initData as Telegram signs it for the bot: a user in ru, opened privately or for the group. */
const launch = (id: number, group = false) =>
  signLaunch(BOT_TOKEN, { id, first_name: 'Member' }, group ? `g${GROUP}_customers` : undefined);

const call = apiCaller(() => base, bodies);

/** An individual businessman as a partner types him in, the УНП's control digit wrong. */
const TYPED = {
  'c:ucn': '190123456',
  'c:last_name': 'Сидоров',
  'c:first_name': 'Сидор',
  'c:middle_name': '',
  'c:legal_address.country_code': 'by',
  'c:legal_address.postal_code': '220030',
  'c:legal_address.region': 'Минская область',
  'c:legal_address.city': 'Минск',
  'c:legal_address.street': 'ул. Ленина',
  'c:legal_address.building': '1',
  postalSame: true,
  bankWanted: false,
  phone: '+375 29 123-45-67',
  email: 'sidorov@example.by',
};

describe('a partner’s saved customers, in their own chat', () => {
  it('the form: the chat’s fields in its order and words, the choices, a postal code’s hint by its country', async () => {
    const form = await call('api/customer/form', launch(OWNER), {
      type: 'businessman',
      postalSame: true,
      bankWanted: false,
      answers: { 'c:legal_address.country_code': 'BY' },
    });
    expect(form.status).toBe(200);
    const fields = form.json.fields as {
      id: string;
      label: string;
      hint: string;
      kind: string;
      optional: boolean;
      options?: { value: string; label: string }[];
    }[];
    expect(fields.map((f) => f.id).slice(0, 3)).toEqual(['c:ucn', 'c:last_name', 'c:first_name']);
    expect(fields[0]).toMatchObject({
      label: 'УНП',
      hint: '9 цифр, например 190123455',
      kind: 'digits',
      optional: false,
    });
    expect(fields.find((f) => f.id === 'c:middle_name')).toMatchObject({ label: 'Отчество', optional: true });
    expect(fields.find((f) => f.id === 'c:legal_address.postal_code')).toMatchObject({
      label: 'Юридический адрес — почтовый индекс',
      hint: 'для страны BY — 6 цифр, например 220030',
    });
    expect(fields.slice(-2).map((f) => f.id)).toEqual(['phone', 'email']);
    // The country is a choice: the countries by code with their names, Belarus and Russia first.
    const country = fields.find((f) => f.id === 'c:legal_address.country_code');
    expect(country).toMatchObject({ label: 'Юридический адрес — код страны', kind: 'country' });
    expect(country?.options?.slice(0, 3)).toEqual([
      { value: 'BY', label: 'Беларусь' },
      { value: 'RU', label: 'Россия' },
      { value: 'AU', label: 'Австралия' },
    ]);
    expect(fields.filter((f) => 'options' in f).map((f) => f.id)).toEqual(['c:legal_address.country_code']);
    expect(form.json.choices).toEqual([
      { id: 'postalSame', label: 'Почтовый адрес совпадает с юридическим', value: true },
      { id: 'bankWanted', label: 'Указать банковские реквизиты', value: false },
    ]);
    expect(form.json.types).toContainEqual({ type: 'businessman', name: 'Индивидуальный предприниматель' });

    // The postal address apart, the bank, and a .by zone's WHOIS fields.
    const more = await call('api/customer/form', launch(OWNER), {
      type: 'juridical',
      postalSame: false,
      bankWanted: true,
      whois: 'by',
    });
    const ids = (more.json.fields as { id: string }[]).map((f) => f.id);
    expect(ids).toContain('c:postal_address.city');
    expect(ids).toContain('c:bank_requisites.iban');
    expect(ids).toContain('w:whois_company_requisites.is_government_company');
  });

  it('checks as you type: a УНП whose control digit is wrong, and nothing about fields left empty', async () => {
    const checked = await call('api/customer/check', launch(OWNER), { type: 'businessman', answers: TYPED });
    expect(checked.status).toBe(200);
    expect(checked.json.problems).toEqual([
      { id: 'c:ucn', message: expect.stringMatching(/^Поле «УНП»: последняя цифра номера — контрольная/) },
    ]);
    const fixed = await call('api/customer/check', launch(OWNER), {
      type: 'businessman',
      answers: {
        'c:ucn': '190123455',
        'c:legal_address.country_code': 'DE',
        'c:legal_address.postal_code': '220030',
      },
    });
    // The postal code by its own address's country, as the chat checks it.
    expect(fixed.json.problems).toEqual([
      {
        id: 'c:legal_address.postal_code',
        message: expect.stringContaining('для страны DE индекс — 5 цифр'),
      },
    ]);
  });

  it('refuses to save while anything is wrong (400 badFields, each field’s problem) and saves nothing', async () => {
    const refused = await call('api/customer/save', launch(OWNER), {
      type: 'businessman',
      answers: { ...TYPED, 'c:first_name': '   ' },
    });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({
      error: 'badFields',
      message: 'Некоторые поля заполнены не так — исправьте отмеченные.',
      problems: [
        { id: 'c:ucn', message: expect.stringContaining('контрольная') },
        { id: 'c:first_name', message: 'Заполните поле «Имя».' },
      ],
    });
    expect(await chatData.getProfiles(OWNER)).toEqual([]);
  });

  it('saves the customer with the values as checked, and the chat’s /requisites keeps it', async () => {
    const saved = await call('api/customer/save', launch(OWNER), {
      type: 'businessman',
      answers: { ...TYPED, 'c:ucn': 'УНП 190 123 455' },
    });
    expect(saved.status).toBe(200);
    expect(saved.json).toEqual({ id: expect.stringMatching(/^[0-9a-f]{8}$/), label: 'Сидоров Сидор' });
    const [profile] = await chatData.getProfiles(OWNER);
    expect(profile).toMatchObject({ id: saved.json.id, label: 'Сидоров Сидор' });
    expect(readSavedCustomer(profile?.data)).toMatchObject({
      customerType: 'businessman',
      'c:ucn': '190123455',
      'c:legal_address.country_code': 'BY',
      'c:middle_name': null,
      postalSame: true,
      bankWanted: false,
      phone: '+375291234567',
    });

    const list = await call('api/customers', launch(OWNER));
    expect(list.json).toEqual({
      customers: [
        {
          id: saved.json.id,
          label: 'Сидоров Сидор',
          type: 'businessman',
          typeName: 'Индивидуальный предприниматель',
        },
      ],
    });
    const one = await call(`api/customer?id=${saved.json.id}`, launch(OWNER));
    expect(one.json).toMatchObject({
      id: saved.json.id,
      type: 'businessman',
      answers: { 'c:ucn': '190123455' },
    });
  });

  it('saves it again in place, keeping the WHOIS answers an order stored with it', async () => {
    const [profile] = await chatData.getProfiles(OWNER);
    if (profile === undefined) throw new Error('no profile');
    const data = readSavedCustomer(profile.data) ?? {};
    await chatData.saveProfile(OWNER, {
      ...profile,
      data: { ...data, 'w:whois_person_requisites.series': 'MP' },
    });
    const again = await call('api/customer/save', launch(OWNER), {
      id: profile.id,
      type: 'businessman',
      answers: { ...TYPED, 'c:ucn': '190123455', 'c:first_name': 'Семён' },
    });
    expect(again.json).toEqual({ id: profile.id, label: 'Сидоров Семён' });
    const profiles = await chatData.getProfiles(OWNER);
    expect(profiles).toHaveLength(1);
    expect(readSavedCustomer(profiles[0]?.data)).toMatchObject({
      'c:first_name': 'Семён',
      'w:whois_person_requisites.series': 'MP',
    });
  });

  it('reads a pasted card into the form’s answers, its refused values worded, and saves nothing', async () => {
    const pasted = await call('api/customer/paste', launch(OWNER), {
      text: 'ООО «Пример Плюс»\nУНП: 190123456\nЮридический адрес: 220004, Беларусь, г. Минск, ул. Немига, д. 5\nТел.: +375 17 200-00-00',
    });
    expect(pasted.status).toBe(200);
    expect(pasted.json).toMatchObject({
      type: 'juridical',
      typeName: 'Юридическое лицо',
      answers: {
        customerType: 'juridical',
        'c:company_name': 'ООО «Пример Плюс»',
        'c:legal_address.city': 'Минск',
        postalSame: true,
        phone: '+375172000000',
      },
      refused: [{ id: 'c:ucn', message: expect.stringMatching(/^Поле «УНП»: последняя цифра/) }],
    });
    expect((pasted.json.answers as Record<string, unknown>)['c:ucn']).toBeUndefined();
    const notACard = await call('api/customer/paste', launch(OWNER), { text: 'просто текст' });
    expect(notACard).toMatchObject({ status: 400, json: { error: 'notACard' } });
    expect(await chatData.getProfiles(OWNER)).toHaveLength(1);
  });

  it('deletes a customer; a gone one is 404 in words', async () => {
    const [profile] = await chatData.getProfiles(OWNER);
    const deleted = await call('api/customer/delete', launch(OWNER), { id: profile?.id });
    expect(deleted).toEqual({ status: 200, json: { deleted: true } });
    expect(await chatData.getProfiles(OWNER)).toEqual([]);
    const again = await call('api/customer/delete', launch(OWNER), { id: profile?.id });
    expect(again).toMatchObject({
      status: 404,
      json: { error: 'customerNotFound', message: 'Этого заказчика уже нет: его удалили. Обновите список.' },
    });
    expect(await call(`api/customer?id=${profile?.id}`, launch(OWNER))).toMatchObject({ status: 404 });
  });

  it('a body of another shape is 400 badJson', async () => {
    const wrongType = await call('api/customer/check', launch(OWNER), { type: 'alien', answers: {} });
    expect(wrongType).toMatchObject({ status: 400, json: { error: 'badJson' } });
    const wrongId = await call('api/customer/delete', launch(OWNER), { id: '../../etc' });
    expect(wrongId).toMatchObject({ status: 400, json: { error: 'badJson' } });
  });
});

describe('a bound group’s saved customers', () => {
  it('its owner and admin work on the group’s list, not their own', async () => {
    const saved = await call('api/customer/save', launch(ADMIN, true), {
      type: 'businessman',
      answers: { ...TYPED, 'c:ucn': '190123455' },
    });
    expect(saved.status).toBe(200);
    expect((await chatData.getProfiles(GROUP)).map((p) => p.label)).toEqual(['Сидоров Сидор']);
    expect(await chatData.getProfiles(ADMIN)).toEqual([]);
    const list = await call('api/customers', launch(OWNER, true));
    expect((list.json.customers as { label: string }[]).map((c) => c.label)).toEqual(['Сидоров Сидор']);
    expect((await call('api/session', launch(ADMIN, true))).json).toMatchObject({ customers: 'edit' });
  });

  it('a tech may not (403, the roles that may named), and the session says so', async () => {
    const session = await call('api/session', launch(TECH, true));
    expect(session.json).toMatchObject({
      customers: 'none',
      customersRefusal: 'Сохранённые заказчики доступны ролям: администратор, владелец. Ваша роль: техник.',
    });
    for (const [path, body] of [
      ['api/customers', undefined],
      ['api/customer/form', { type: 'natural' }],
      ['api/customer/check', { type: 'natural', answers: {} }],
      ['api/customer/save', { type: 'businessman', answers: { ...TYPED, 'c:ucn': '190123455' } }],
      ['api/customer/delete', { id: 'abcdef01' }],
      ['api/customer/paste', { text: 'УНП: 190123455' }],
    ] as const) {
      const refused = await call(path, launch(TECH, true), body);
      expect(refused, path).toMatchObject({
        status: 403,
        json: {
          error: 'roleTooLow',
          message: 'Это доступно ролям: администратор, владелец. Ваша роль: техник.',
        },
      });
    }
    expect(await chatData.getProfiles(GROUP)).toHaveLength(1);
  });
});

describe('secrets and personal data', () => {
  it('no answer carries a token; no log line a token or what a customer is', () => {
    expect(bodies.length).toBeGreaterThan(15);
    expect(lines.length).toBeGreaterThan(0);
    for (const text of [...bodies, ...lines]) {
      expect(text).not.toContain(BOT_TOKEN.split(':')[1]);
      expect(text).not.toContain(PARTNER_TOKEN);
    }
    for (const line of lines) {
      for (const personal of ['Сидоров', '190123455', '190123456', '375291234567', 'sidorov@', 'Пример Плюс'])
        expect(line).not.toContain(personal);
    }
  });
});
