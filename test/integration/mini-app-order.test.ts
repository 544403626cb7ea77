/*
 * The order form's API through real HTTP on 127.0.0.1, mounted as main mounts it, over real
 * ChatData storage and the sandbox as the provider: the catalog with each period's price, a domain
 * checked as it is typed, and Confirm — one order per key (a second tap, a retry, a lost answer
 * all make exactly one), refused with the customer's missing fields named, the chat told once.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiFactory, type PartnerTransport } from '../../src/api/index.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { createOrderPlacing, type OrderReport } from '../../src/services/order-placing.js';
import type { ChatData } from '../../src/storage/chat-data.js';
import { apiCaller, signLaunch } from '../helpers/mini-app-api.js';
import { type MiniAppWorld, startMiniAppWorld } from '../helpers/mini-app-world.js';

const BOT_TOKEN = '7000000004:AAH-order-form-test-bot-token_0123456789';
const OWNER = 7001;
const TECH = 7002;
const GROUP = -1009000000021;

let sandbox: Sandbox;
let transport: PartnerTransport;
let chatData: ChatData;
let base: string;
let world: MiniAppWorld | undefined;
const reports: OrderReport[] = [];
const lines: string[] = [];
const bodies: string[] = [];

beforeAll(async () => {
  world = await startMiniAppWorld({
    botToken: BOT_TOKEN,
    name: 'mini-app-order',
    chats: [OWNER, GROUP],
    team: {
      group: GROUP,
      owner: OWNER,
      members: { [OWNER]: 'owner', [TECH]: 'tech' },
      names: { [OWNER]: 'Olga', [TECH]: 'Tim' },
    },
    lines,
    // The chat's report of an order, as the bot would send it: recorded here.
    services: (logger, { chatData }) => ({
      orderPlacing: createOrderPlacing({
        chatData,
        watches: undefined,
        report: { reportOrder: async (report) => void reports.push(report) },
        logger,
      }),
    }),
  });
  ({ sandbox, transport, chatData, base } = world);
});

afterAll(async () => {
  await world?.close();
});

beforeEach(() => {
  sandbox.clearFaults();
  reports.length = 0;
});

/** initData as Telegram signs it for the bot: a user in ru, opened privately or for the group. */
const launch = (id: number, group = false) =>
  signLaunch(BOT_TOKEN, { id, first_name: 'Ольга' }, group ? `g${GROUP}_order` : undefined);

const call = apiCaller(() => base, bodies);

/** A person as a partner saves him in the app: the customer, then (for a .by domain) his passport. */
const PERSON = {
  'c:last_name': 'Иванов',
  'c:first_name': 'Иван',
  'c:middle_name': 'Иванович',
  'c:address.country_code': 'BY',
  'c:address.postal_code': '220030',
  'c:address.region': 'Минская область',
  'c:address.city': 'Минск',
  'c:address.street': 'ул. Немига',
  'c:address.building': '5',
  phone: '+375 29 123-45-67',
  email: 'ivanov@example.by',
};
const PASSPORT = {
  'w:whois_person_requisites.citizenship': 'BY',
  'w:whois_person_requisites.series': 'MP',
  'w:whois_person_requisites.number': '1234567',
  'w:whois_person_requisites.organization': 'Фрунзенский РУВД г. Минска',
  'w:whois_person_requisites.date_of_issue': '01.03.2015',
};

const domainOrders = () =>
  sandbox.requests.filter((r) => r.method === 'POST' && r.path === '/v1/orders/domains');

let customerId = '';
let free = 0;
/** A name the sandbox has not seen yet. */
const freshName = () => `mini-app-order-${Date.now().toString(36)}-${++free}.by`;

describe('the order form', () => {
  it('the catalog: kinds, currencies, a zone’s periods priced in words, the saved customers', async () => {
    const saved = await call('api/customer/save', launch(OWNER), {
      type: 'natural',
      answers: PERSON,
    });
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    customerId = String(saved.json.id);

    const catalog = await call('api/order/catalog?kind=domain', launch(OWNER));
    expect(catalog.status).toBe(200);
    expect(catalog.json.kinds).toContainEqual({ kind: 'domain', name: expect.stringMatching(/Домен/) });
    const zones = catalog.json.zones as {
      name: string;
      periods: { count: number; label: string; priceText: string }[];
    }[];
    const by = zones.find((z) => z.name === 'by');
    expect(by?.periods[0]).toMatchObject({ count: 1, label: '1 год' });
    expect(by?.periods[0]?.priceText).toMatch(/BYN|Br/);
    expect(catalog.json.customers).toContainEqual({
      id: customerId,
      label: 'Иванов Иван',
      typeName: 'Физическое лицо',
    });

    const hosting = await call('api/order/catalog?kind=hosting', launch(OWNER));
    const tariffs = hosting.json.tariffs as { name: string; periods: { label: string }[] }[];
    expect(tariffs.length).toBeGreaterThan(0);
    expect(tariffs[0]?.periods.length).toBeGreaterThan(0);
  });

  it('a domain is checked as it is typed: free, taken, not a name, a zone not served', async () => {
    const freeName = freshName();
    const ok = await call(`api/order/domain?name=${freeName}`, launch(OWNER));
    expect(ok.json).toMatchObject({ available: true, zone: 'by', message: `✅ ${freeName} — свободен` });
    const taken = await call('api/order/domain?name=taken-site.by', launch(OWNER));
    expect(taken.json).toMatchObject({ available: false, message: '❌ taken-site.by — занят' });
    const junk = await call('api/order/domain?name=not%20a%20domain', launch(OWNER));
    expect(junk.json).toMatchObject({ available: false, message: expect.stringMatching(/не доменное имя/) });
    const zone = await call('api/order/domain?name=site.zz', launch(OWNER));
    expect(zone.json.message).toMatch(/не обслуживает/);
  });

  it('Confirm with a customer lacking the .by WHOIS data: refused, the fields named, nothing sent', async () => {
    const before = domainOrders().length;
    const catalog = await call('api/order/catalog?kind=domain', launch(OWNER));
    const answer = await call('api/order/submit', launch(OWNER), {
      key: 'key-incomplete-0001',
      kind: 'domain',
      currencyId: catalog.json.currencyId,
      period: 1,
      customerId,
      domain: freshName(),
    });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ error: 'customerIncomplete', whois: 'by' });
    expect(answer.json.message).toMatch(/Паспорт|паспорт|Гражданство|гражданство/);
    expect(domainOrders().length).toBe(before);
    expect(reports).toEqual([]);
  });

  it('Confirm: one order, the chat told once; the same key again answers the same order and sends nothing', async () => {
    const completed = await call('api/customer/save', launch(OWNER), {
      id: customerId,
      type: 'natural',
      whois: 'by',
      answers: { ...PERSON, ...PASSPORT },
    });
    expect(completed.status, JSON.stringify(completed.json)).toBe(200);
    const catalog = await call('api/order/catalog?kind=domain', launch(OWNER));
    const domain = freshName();
    const order = {
      key: 'key-first-order-0001',
      kind: 'domain',
      currencyId: catalog.json.currencyId,
      period: 2,
      customerId,
      domain,
    };
    const before = domainOrders().length;
    const placed = await call('api/order/submit', launch(OWNER), order);
    expect(placed.status, JSON.stringify(placed.json)).toBe(200);
    expect(placed.json).toMatchObject({
      again: false,
      linkSentTo: 'Ссылка на счёт — в чате с ботом.',
      message: expect.stringMatching(/^✅ Заказ № ЗК-\d{4}-\d{6} оформлен, счёт /),
    });
    const sent = domainOrders().slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toMatchObject({
      domain,
      period_unit_count: 2,
      natural_person_requisites: { last_name: 'Иванов', first_name: 'Иван' },
      whois_person_requisites: { citizenship: 'BY', series: 'MP', number: '1234567' },
    });
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({
      chatId: OWNER,
      kind: 'domain',
      domain,
      what: { tariffName: undefined, period: 2, periodType: 'year' },
      orderId: placed.json.orderId,
    });
    expect(reports[0]?.invoice.url).toMatch(/^http/);

    const again = await call('api/order/submit', launch(OWNER), order);
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ again: true, orderId: placed.json.orderId });
    expect(domainOrders().length).toBe(before + 1);
    expect(reports).toHaveLength(1);
  });

  it('the answer lost after the provider made the order: found by its domain, never sent twice', async () => {
    const catalog = await call('api/order/catalog?kind=domain', launch(OWNER));
    const domain = freshName();
    sandbox.addFault({ method: 'POST', path: '/v1/orders/domains', fault: { kind: 'drop' } });
    const before = domainOrders().length;
    const placed = await call('api/order/submit', launch(OWNER), {
      key: 'key-lost-answer-0001',
      kind: 'domain',
      currencyId: catalog.json.currencyId,
      period: 1,
      customerId,
      domain,
    });
    expect(placed.status, JSON.stringify(placed.json)).toBe(200);
    expect(placed.json.orderId).toEqual(expect.any(Number));
    expect(domainOrders().length).toBe(before + 1);
    expect(reports).toHaveLength(1);
  });

  it('a Confirm a killed process left half-done is settled by looking the order up, not sent again', async () => {
    const catalog = await call('api/order/catalog?kind=domain', launch(OWNER));
    const api = createApiFactory(transport)(sandbox.token);
    const known = (await api.listDomainOrders()).map((o) => o.order_id);
    const domain = freshName();
    const order = { kind: 'domain', currencyId: catalog.json.currencyId, period: 1, customerId, domain };
    // The call reached the provider (here: under another key) while this key's record says only
    // that it was being sent, with the orders listed before it: what a kill -9 mid-call leaves.
    const made = await call('api/order/submit', launch(OWNER), { ...order, key: 'key-made-before-kill' });
    await chatData.putAppOrder(OWNER, {
      key: 'key-killed-midcall-01',
      kind: 'domain',
      mark: { domain },
      status: 'submitting',
      knownOrderIds: known,
    });
    reports.length = 0;
    const before = domainOrders().length;
    const settled = await call('api/order/submit', launch(OWNER), { ...order, key: 'key-killed-midcall-01' });
    expect(settled.status, JSON.stringify(settled.json)).toBe(200);
    expect(settled.json.orderId).toBe(made.json.orderId);
    expect(domainOrders().length).toBe(before);
    expect(reports).toHaveLength(1);
  });

  it('a group’s tech may not order (the chat’s /order is `all` work): 403 naming who may', async () => {
    const refused = await call('api/order/catalog?kind=domain', launch(TECH, true));
    expect(refused.status).toBe(403);
    expect(refused.json.error).toBe('roleTooLow');
    const owner = await call('api/order/catalog?kind=domain', launch(OWNER, true));
    expect(owner.status).toBe(200);
  });

  it('no answer and no log line carries the partner’s token or the bot’s', () => {
    for (const text of [...bodies, ...lines]) {
      expect(text).not.toContain(sandbox.token);
      expect(text).not.toContain(BOT_TOKEN);
    }
  });
});
