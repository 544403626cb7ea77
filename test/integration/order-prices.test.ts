/*
 * One price: for every term and currency the sandbox offers — every zone of a domain, every
 * hosting and mail tariff — the order form's price (`api/order/catalog`, as main mounts it) is
 * the amount of the invoice the sandbox makes for that very order, to the kopeck.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiFactory, type PartnerApi, PartnerTransport } from '../../src/api/index.js';
import { toAsciiDomain } from '../../src/core/domain-names.js';
import { whoisRulesOf } from '../../src/core/zones.js';
import type { BotServer } from '../../src/http-server.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { type ChatData, createChatData } from '../../src/storage/chat-data.js';
import { parseEncryptionKeys } from '../../src/storage/crypto.js';
import { createLowdbStore } from '../../src/storage/lowdb-store.js';
import { apiCaller, signLaunch, startMiniAppApi } from '../helpers/mini-app-api.js';

const BOT_TOKEN = '7000000005:AAH-order-prices-test-bot-token_012345678';
const OWNER = 7101;

let sandbox: Sandbox;
let transport: PartnerTransport;
let server: BotServer;
let dataDir: string;
let chatData: ChatData;
let api: PartnerApi;
let call: ReturnType<typeof apiCaller>;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  transport = new PartnerTransport({ baseUrl: sandbox.url, retryDelayMs: 1 });
  dataDir = await mkdtemp(join(tmpdir(), 'order-prices-'));
  chatData = createChatData({
    store: createLowdbStore({ dataDir: join(dataDir, 'data') }),
    keyring: parseEncryptionKeys(`k:${randomBytes(32).toString('base64')}`),
  });
  await chatData.setToken(OWNER, sandbox.token);
  api = createApiFactory(transport)(sandbox.token);
  let base = '';
  ({ server, base } = await startMiniAppApi({
    botToken: BOT_TOKEN,
    partnerApiUrl: sandbox.url,
    chatData,
    apiFor: createApiFactory(transport),
    lines: [],
  }));
  call = apiCaller(() => base, []);
});

afterAll(async () => {
  await server?.close();
  await transport?.close();
  await sandbox?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const launch = () => signLaunch(BOT_TOKEN, { id: OWNER, first_name: 'Ольга' });

interface Period {
  count: number;
  price: number | null;
}
interface Catalog {
  currencyId: number;
  currencies: { id: number; code: string }[];
  zones?: { name: string; periods: Period[] }[];
  tariffs?: { id: number; name: string; periods: Period[] }[];
}

const address = {
  postal_code: '220030',
  country_code: 'BY',
  region: 'Минская область',
  city: 'Минск',
  street: 'ул. Немига',
  building: '5',
  room: '12',
};
const contacts = { phone: '+375291234567', email: 'ivanov@example.by' };
const natural_person_requisites = {
  last_name: 'Иванов',
  first_name: 'Иван',
  middle_name: 'Иванович',
  address,
};
const passport = {
  citizenship: 'BY',
  series: 'MP',
  number: '1234567',
  organization: 'Московское РУВД г. Минска',
  identity_number: '3010190A001PB1',
  date_of_issue: '10.02.2020',
};

async function catalogOf(kind: string, currencyId?: number): Promise<Catalog> {
  const answer = await call(
    `api/order/catalog?kind=${kind}${currencyId === undefined ? '' : `&currency=${currencyId}`}`,
    launch(),
  );
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  return answer.json as unknown as Catalog;
}

async function invoicedAmount(invoiceId: number | undefined): Promise<number | undefined> {
  const [invoice] = invoiceId === undefined ? [] : await api.listInvoices({ invoice_id: invoiceId });
  return invoice?.amount;
}

let names = 0;
/** A free name in the zone, Cyrillic in a Cyrillic zone, in ASCII as the form sends it. */
const freeName = (zone: string) =>
  toAsciiDomain(`${/[а-я]/.test(zone) ? 'цена' : 'price'}-${Date.now()}-${++names}.${zone}`) ?? '';

describe('the order form’s price is the invoice’s amount, for every term and currency', () => {
  it('domains: every zone, every year count, every currency', async () => {
    const { currencies } = await catalogOf('domain');
    expect(currencies.map((c) => c.code)).toEqual(['BYN', 'USD', 'EUR', 'RUB']);
    const zones = (await api.listDomainZones({ currency_id: 1 })).map((z) => z);
    const seen: string[] = [];
    const differ: string[] = [];
    for (const currency of currencies) {
      const catalog = await catalogOf('domain', currency.id);
      expect(catalog.currencyId).toBe(currency.id);
      for (const zone of catalog.zones ?? []) {
        const tariffId = zones.find((z) => z.name === zone.name)?.actual_registration_tariff_id ?? 0;
        const rules = whoisRulesOf(zone.name);
        for (const period of zone.periods) {
          const created = await api.createDomainOrder({
            ...contacts,
            period_unit_count: period.count,
            currency_id: currency.id,
            tariff_id: tariffId,
            domain: freeName(zone.name),
            natural_person_requisites,
            ...(rules === 'by' ? { whois_person_requisites: passport } : {}),
            ...(rules === 'ru'
              ? { whois_person_requisites: { ...passport, date_of_birth: '01.01.1990' } }
              : {}),
          });
          const amount = await invoicedAmount(created.invoice_id);
          const term = `${zone.name} ${period.count} ${currency.code}: form ${period.price}, invoice ${amount}`;
          seen.push(term);
          if (period.price !== amount) differ.push(term);
        }
      }
    }
    // 68 terms (by, бел, com.by, com, net, org 1–10 years; ru, su, рф 1; eu 1–5) in 4 currencies.
    expect(seen).toHaveLength(68 * 4);
    expect(differ).toEqual([]);
  }, 120_000);

  it.each([
    ['hosting', 'createHostingOrder'],
    ['mail', 'createMailOrder'],
  ] as const)(
    '%s: every tariff, every period, every currency',
    async (kind, create) => {
      const { currencies } = await catalogOf(kind);
      const differ: string[] = [];
      let seen = 0;
      for (const currency of currencies) {
        const catalog = await catalogOf(kind, currency.id);
        for (const tariff of catalog.tariffs ?? []) {
          for (const period of tariff.periods) {
            const created = await api[create]({
              ...contacts,
              period_unit_count: period.count,
              currency_id: currency.id,
              tariff_id: tariff.id,
              natural_person_requisites,
            });
            const amount = await invoicedAmount(created.invoice_id);
            seen += 1;
            if (period.price !== amount)
              differ.push(
                `${tariff.name} ${period.count} ${currency.code}: form ${period.price}, invoice ${amount}`,
              );
          }
        }
      }
      expect(seen).toBeGreaterThan(40);
      expect(differ).toEqual([]);
    },
    120_000,
  );
});
