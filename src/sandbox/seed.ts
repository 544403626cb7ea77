/**
 * Seed data of the sandbox: a small Belarusian hosting and domain provider with one partner
 * account. Every id here is stable and documented in README.md; `createSeed()` builds a fresh
 * deep copy for each sandbox instance, so instances never share state.
 */

import { domainToASCII } from 'node:url';
import type {
  CustomerType,
  DnsRecord,
  Invoice,
  NameServer,
  Order,
  OrderDetails,
  Owner,
  PartnerStatement,
  Payment,
  Price,
  PriceList,
  PriceListTariff,
  SandboxState,
  Statement,
  Tariff,
  Zone,
} from './state.js';
import { money } from './state.js';

/** Seed ids a client test can rely on. */
export const SEED = {
  currencies: { BYN: 1, USD: 2, EUR: 3, RUB: 4 },
  services: { linuxHosting: 10, wordpressHosting: 11, corporateMail: 20, ssl: 30, domains: 40 },
  tariffs: {
    /** Hosting, periods 1, 3, 6, 12, 24 months. */
    linuxStart: 101,
    linuxOptimal: 102,
    /** Hosting, periods 1, 3, 6, 12 only (24 is "not supported"). */
    linuxBusiness: 103,
    /** Archived: in price list 21 only, not orderable. */
    linuxEconomyArchived: 104,
    wordpressBlog: 111,
    wordpressShop: 112,
    /** Mail, periods 1, 3, 6, 12. */
    mail5: 201,
    mail25: 202,
    mail100: 203,
    /** SSL, periods 1, 2 years. */
    sslDv: 301,
    sslWildcard: 302,
    sslOv: 303,
  },
  zones: { by: 1, bel: 2, comBy: 3, ru: 4, su: 5, rf: 6, com: 7, net: 8, org: 9, eu: 10 },
  priceLists: { hostingMailSsl: 21, domains: 22, domainsUsd: 23 },
  orders: {
    hostingLinux: 1001,
    hostingWordpress: 1002,
    mail: 1003,
    sslIssued: 1004,
    sslWithCsr: 1005,
    domainBy: 1006,
    domainBel: 1007,
    domainComBy: 1008,
    domainRu: 1009,
    domainRf: 1010,
    domainCom: 1011,
    mailNew: 1012,
  },
  /** Orders of another partner: 403 on every per-order call, never listed. */
  foreignOrders: { domain: 9001, hosting: 9002 },
  foreignInvoice: 9101,
  foreignStatement: 9201,
  firstNewOrderId: 1101,
  firstNewInvoiceId: 5101,
} as const;

const MONTH_DISCOUNT: Record<number, number> = { 1: 0, 3: 0.03, 6: 0.05, 12: 0.1, 24: 0.15 };

function monthly(perMonth: number, periods: number[]): Price[] {
  return periods.map((period) => ({
    period,
    price: money(perMonth * period * (1 - (MONTH_DISCOUNT[period] ?? 0))),
  }));
}

function yearly(perYear: number, min: number, max: number): Price[] {
  const prices: Price[] = [];
  for (let period = min; period <= max; period += 1) prices.push({ period, price: money(perYear * period) });
  return prices;
}

const ALL_MONTHS = [1, 3, 6, 12, 24];
const SHORT_MONTHS = [1, 3, 6, 12];

function hostingAndMailTariffs(): Tariff[] {
  const t = (
    tariff_id: number,
    tariff_name: string,
    service_id: number,
    kind: 'hosting' | 'mail',
    perMonth: number,
    periods: number[],
    archived = false,
  ): Tariff => ({
    tariff_id,
    tariff_name,
    service_id,
    kind,
    period_type: 'month',
    archived,
    prices: monthly(perMonth, periods),
  });
  return [
    t(101, 'Linux Старт', 10, 'hosting', 9.9, ALL_MONTHS),
    t(102, 'Linux Оптимальный', 10, 'hosting', 19.9, ALL_MONTHS),
    t(103, 'Linux Бизнес', 10, 'hosting', 39.9, SHORT_MONTHS),
    t(104, 'Linux Эконом', 10, 'hosting', 6.9, ALL_MONTHS, true),
    t(111, 'WordPress Блог', 11, 'hosting', 14.9, ALL_MONTHS),
    t(112, 'WordPress Магазин', 11, 'hosting', 29.9, ALL_MONTHS),
    t(201, 'Почта: 5 ящиков', 20, 'mail', 4.5, SHORT_MONTHS),
    t(202, 'Почта: 25 ящиков', 20, 'mail', 15, ALL_MONTHS),
    t(203, 'Почта: 100 ящиков', 20, 'mail', 45, ALL_MONTHS),
  ];
}

function sslTariffs(): Tariff[] {
  const t = (tariff_id: number, tariff_name: string, one: number, two: number): Tariff => ({
    tariff_id,
    tariff_name,
    service_id: 30,
    kind: 'ssl',
    period_type: 'year',
    archived: false,
    prices: [
      { period: 1, price: one },
      { period: 2, price: two },
    ],
  });
  return [t(301, 'DV SSL', 39, 70), t(302, 'DV Wildcard SSL', 189, 340), t(303, 'OV SSL', 250, 450)];
}

function zones(): Zone[] {
  const z = (
    domain_zone_id: number,
    name: string,
    min_period: number,
    max_period: number,
    registration: [number, number],
    renew: [number, number],
    whois: Zone['whois'],
  ): Zone => ({
    domain_zone_id,
    name,
    min_period,
    max_period,
    actual_registration_tariff_id: registration[0],
    registration_price: registration[1],
    actual_renew_tariff_id: renew[0],
    renew_price: renew[1],
    period_type: 'year',
    whois,
  });
  return [
    z(1, 'by', 1, 10, [401, 36], [402, 36], 'by'),
    z(2, 'бел', 1, 10, [403, 30], [404, 30], 'by'),
    z(3, 'com.by', 1, 10, [405, 24], [406, 24], 'none'),
    z(4, 'ru', 1, 1, [407, 19], [408, 21], 'ru'),
    z(5, 'su', 1, 1, [409, 45], [410, 45], 'ru'),
    z(6, 'рф', 1, 1, [411, 19], [412, 21], 'ru'),
    z(7, 'com', 1, 10, [413, 42], [414, 45], 'none'),
    z(8, 'net', 1, 10, [415, 48], [416, 50], 'none'),
    z(9, 'org', 1, 10, [417, 45], [418, 47], 'none'),
    z(10, 'eu', 1, 5, [419, 30], [420, 30], 'none'),
  ];
}

function domainTariffs(zoneList: Zone[]): Tariff[] {
  return zoneList.flatMap((zone): Tariff[] => [
    {
      tariff_id: zone.actual_registration_tariff_id,
      tariff_name: `Регистрация домена .${zone.name}`,
      service_id: 40,
      kind: 'domain',
      period_type: 'year',
      archived: false,
      prices: yearly(zone.registration_price, zone.min_period, zone.max_period),
    },
    {
      tariff_id: zone.actual_renew_tariff_id,
      tariff_name: `Продление домена .${zone.name}`,
      service_id: 40,
      kind: 'domain',
      period_type: 'year',
      archived: false,
      prices: yearly(zone.renew_price, zone.min_period, zone.max_period),
    },
  ]);
}

function inPriceList(
  tariff: Tariff,
  currencyId: number,
  factor: number,
  archived = tariff.archived,
): PriceListTariff {
  return {
    tariff_id: tariff.tariff_id,
    tariff_name: tariff.tariff_name,
    service_id: tariff.service_id,
    archived,
    period_type: tariff.period_type,
    currency_id: currencyId,
    prices: tariff.prices.map((p) => ({ period: p.period, price: money(p.price * factor) })),
  };
}

function priceLists(tariffs: Tariff[]): PriceList[] {
  const services = tariffs.filter((t) => t.kind !== 'domain');
  const domains = tariffs.filter((t) => t.kind === 'domain');
  const foreignZones = new Set([413, 414, 415, 416, 417, 418, 419, 420]);
  return [
    {
      number: 21,
      description: 'Виртуальный хостинг, корпоративная почта и SSL-сертификаты',
      editions: [
        // Before the July price rise; the economy tariff was still on sale.
        { as_of_date: '01.01.2026', tariffs: services.map((t) => inPriceList(t, 1, 0.9, false)) },
        { as_of_date: '01.07.2026', tariffs: services.map((t) => inPriceList(t, 1, 1)) },
      ],
    },
    {
      number: 22,
      description: 'Регистрация и продление доменов',
      editions: [{ as_of_date: '01.03.2026', tariffs: domains.map((t) => inPriceList(t, 1, 1)) }],
    },
    {
      number: 23,
      description: 'Домены международных зон для нерезидентов (USD)',
      editions: [
        {
          as_of_date: '01.09.2026',
          tariffs: domains
            .filter((t) => foreignZones.has(t.tariff_id))
            .map((t) => inPriceList(t, 2, 1 / 3.2)),
        },
      ],
    },
  ];
}

export const HOSTING_SERVERS: readonly NameServer[] = [
  { ns: 'ns1.sandbox-host.by', ip: null },
  { ns: 'ns2.sandbox-host.by', ip: null },
];

export const EDITOR_SERVERS: readonly NameServer[] = [
  { ns: 'dns1.sandbox-host.by', ip: null },
  { ns: 'dns2.sandbox-host.by', ip: null },
];

interface OrderSeed {
  id: number;
  owner?: Owner;
  service: number;
  datetime: string;
  period: number;
  customer: CustomerType;
  /** Paid, completed and active, with these completion and expiry dates. */
  active?: { complete: string; expires: string };
  details: OrderDetails;
}

function order(seed: OrderSeed, periodType: string): Order {
  const year = seed.datetime.slice(6, 10);
  return {
    order_id: seed.id,
    owner: seed.owner ?? 'self',
    service_id: seed.service,
    number: `ЗК-${year}-${String(seed.id).padStart(6, '0')}`,
    state: seed.active ? 'Active' : 'NewOrder',
    order_datetime: seed.datetime,
    complete_date: seed.active?.complete ?? null,
    expiration_date: seed.active?.expires ?? null,
    currency_id: 1,
    period_unit_type: periodType,
    period_unit_count: seed.period,
    paid: seed.active !== undefined,
    completed: seed.active !== undefined,
    business_entity_type: seed.customer,
    details: seed.details,
  };
}

function domainDetails(
  domain: string,
  zone: Zone,
  registered: boolean,
  servers: readonly NameServer[],
  records: DnsRecord[],
): OrderDetails {
  return {
    kind: 'domain',
    domain,
    registered,
    renewed: false,
    registration_tariff_id: zone.actual_registration_tariff_id,
    renew_tariff_id: zone.actual_renew_tariff_id,
    servers: servers.map((s) => ({ ...s })),
    records,
  };
}

function zoneNamed(zoneList: Zone[], name: string): Zone {
  const zone = zoneList.find((z) => z.name === name);
  if (!zone) throw new Error(`seed: no zone ${name}`);
  return zone;
}

function orders(zoneList: Zone[], nextRecord: () => number): Order[] {
  const r = (type: DnsRecord['type'], ttl: number, value: string): DnsRecord => ({
    record_id: nextRecord(),
    type,
    ttl,
    value,
  });
  const by = zoneNamed(zoneList, 'by');
  const seeds: Array<[OrderSeed, string]> = [
    [
      {
        id: 1001,
        service: 10,
        datetime: '15.01.2026 10:24',
        period: 12,
        customer: 'NaturalPerson',
        active: { complete: '16.01.2026', expires: '16.01.2027' },
        details: { kind: 'hosting', tariff_id: 102, domain: 'mysite.by' },
      },
      'month',
    ],
    [
      {
        id: 1002,
        service: 11,
        datetime: '03.03.2026 14:05',
        period: 6,
        customer: 'JuridicalPerson',
        details: { kind: 'hosting', tariff_id: 111, domain: null },
      },
      'month',
    ],
    [
      {
        id: 1003,
        service: 20,
        datetime: '20.02.2026 09:30',
        period: 12,
        customer: 'JuridicalPerson',
        active: { complete: '20.02.2026', expires: '20.02.2027' },
        details: { kind: 'mail', tariff_id: 202 },
      },
      'month',
    ],
    [
      {
        id: 1004,
        service: 30,
        datetime: '16.01.2026 11:00',
        period: 1,
        customer: 'NaturalPerson',
        active: { complete: '17.01.2026', expires: '17.01.2027' },
        details: {
          kind: 'ssl',
          tariff_id: 301,
          domain: 'mysite.by',
          use_csr: false,
          valid_from_date: '17.01.2026',
          valid_till_date: '17.01.2027',
        },
      },
      'year',
    ],
    [
      {
        id: 1005,
        service: 30,
        datetime: '10.11.2026 16:45',
        period: 2,
        customer: 'IndividualBusinessman',
        details: {
          kind: 'ssl',
          tariff_id: 302,
          domain: '*.bakery.by',
          use_csr: true,
          valid_from_date: null,
          valid_till_date: null,
        },
      },
      'year',
    ],
    [
      {
        id: 1006,
        service: 40,
        datetime: '14.01.2026 18:12',
        period: 1,
        customer: 'NaturalPerson',
        active: { complete: '15.01.2026', expires: '15.01.2027' },
        details: domainDetails('mysite.by', by, true, EDITOR_SERVERS, [
          r('A', 3600, '@ 93.125.99.10'),
          r('A', 3600, 'www 93.125.99.10'),
          r('AAAA', 3600, '@ 2a00:1760:1:1::10'),
          r('CNAME', 3600, 'ftp mysite.by'),
          r('MX', 3600, '@ 10 mx1.sandbox-host.by'),
          r('MX', 3600, '@ 20 mx2.sandbox-host.by'),
          r('TXT', 3600, '@ v=spf1 include:_spf.sandbox-host.by ~all'),
          r('TXT', 3600, '_dmarc v=DMARC1; p=none; rua=mailto:dmarc@mysite.by'),
          r('SRV', 3600, '@ _sip _tcp 10 60 5060 sip.mysite.by'),
          r('NS', 86400, 'shop ns1.other-dns.by'),
        ]),
      },
      'year',
    ],
    [
      {
        id: 1007,
        service: 40,
        datetime: '05.06.2026 12:00',
        period: 2,
        customer: 'NaturalPerson',
        active: { complete: '06.06.2026', expires: '06.06.2028' },
        details: domainDetails('пример.бел', zoneNamed(zoneList, 'бел'), true, HOSTING_SERVERS, [
          r('A', 3600, '@ 93.125.99.20'),
          r('A', 3600, 'www 93.125.99.20'),
        ]),
      },
      'year',
    ],
    [
      {
        id: 1008,
        service: 40,
        datetime: '22.08.2026 08:15',
        period: 1,
        customer: 'NaturalPerson',
        details: domainDetails('shop.com.by', zoneNamed(zoneList, 'com.by'), false, HOSTING_SERVERS, []),
      },
      'year',
    ],
    [
      {
        id: 1009,
        service: 40,
        datetime: '01.10.2026 10:00',
        period: 1,
        customer: 'IndividualBusinessman',
        active: { complete: '02.10.2026', expires: '02.10.2027' },
        details: domainDetails(
          'mycompany.ru',
          zoneNamed(zoneList, 'ru'),
          true,
          [
            { ns: 'ns1.mycompany.ru', ip: '185.12.34.56' },
            { ns: 'ns2.mycompany.ru', ip: '185.12.34.57' },
          ],
          [r('A', 600, '@ 185.12.34.60'), r('MX', 600, '@ 5 mail.mycompany.ru')],
        ),
      },
      'year',
    ],
    [
      {
        id: 1010,
        service: 40,
        datetime: '12.11.2026 19:40',
        period: 1,
        customer: 'NaturalPerson',
        details: domainDetails('мойсайт.рф', zoneNamed(zoneList, 'рф'), false, EDITOR_SERVERS, [
          r('TXT', 300, '@ "google-site-verification=Zx8fQ2mVb7Lk1Rt0PqWs3NyHc5JdUe9A"'),
        ]),
      },
      'year',
    ],
    [
      {
        id: 1011,
        service: 40,
        datetime: '02.04.2026 09:00',
        period: 3,
        customer: 'JuridicalPerson',
        active: { complete: '02.04.2026', expires: '02.04.2029' },
        details: domainDetails('belbakery.com', zoneNamed(zoneList, 'com'), true, EDITOR_SERVERS, [
          r('A', 3600, '@ 178.124.130.5'),
          r('CNAME', 3600, 'www belbakery.com'),
          r('MX', 3600, '@ 10 mx.yandex.net'),
          r('TXT', 3600, '@ v=spf1 redirect=_spf.yandex.net'),
        ]),
      },
      'year',
    ],
    [
      {
        id: 1012,
        service: 20,
        datetime: '18.11.2026 15:30',
        period: 3,
        customer: 'IndividualBusinessman',
        details: { kind: 'mail', tariff_id: 201 },
      },
      'month',
    ],
    [
      {
        id: 9001,
        owner: 'foreign',
        service: 40,
        datetime: '11.03.2026 13:13',
        period: 1,
        customer: 'NaturalPerson',
        active: { complete: '12.03.2026', expires: '12.03.2027' },
        details: domainDetails('foreign-partner.by', by, true, HOSTING_SERVERS, [
          r('A', 3600, '@ 93.125.99.99'),
        ]),
      },
      'year',
    ],
    [
      {
        id: 9002,
        owner: 'foreign',
        service: 10,
        datetime: '11.03.2026 13:20',
        period: 3,
        customer: 'NaturalPerson',
        details: { kind: 'hosting', tariff_id: 101, domain: 'foreign-partner.by' },
      },
      'month',
    ],
  ];
  return seeds.map(([seed, periodType]) => order(seed, periodType));
}

function priceOf(tariffs: Tariff[], zoneList: Zone[], o: Order): number {
  const details = o.details;
  if (details.kind === 'domain') {
    const zone = zoneList.find((z) => z.actual_registration_tariff_id === details.registration_tariff_id);
    return money((zone?.registration_price ?? 0) * o.period_unit_count);
  }
  const tariff = tariffs.find((t) => t.tariff_id === details.tariff_id);
  return tariff?.prices.find((p) => p.period === o.period_unit_count)?.price ?? 0;
}

function shiftDate(date: string, days: number): string {
  const [d, m, y] = date.split('.').map(Number);
  const shifted = new Date(Date.UTC(y ?? 2026, (m ?? 1) - 1, (d ?? 1) + days));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(shifted.getUTCDate())}.${pad(shifted.getUTCMonth() + 1)}.${shifted.getUTCFullYear()}`;
}

function invoices(orderList: Order[], tariffs: Tariff[], zoneList: Zone[]): Invoice[] {
  return orderList.map((o) => {
    const id = o.owner === 'foreign' ? (o.order_id === 9001 ? 9101 : 9102) : o.order_id + 4000;
    const created = o.order_datetime.slice(0, 10);
    return {
      invoice_id: id,
      owner: o.owner,
      invoice_number: `СФ-${created.slice(6)}-${id}`,
      order_id: o.order_id,
      creation_date: created,
      expiration_date: shiftDate(created, 5),
      amount: priceOf(tariffs, zoneList, o),
      currency_id: o.currency_id,
      state: o.paid ? 'Paid' : 'WaitingForPayment',
    };
  });
}

function payments(invoiceList: Invoice[]): Payment[] {
  const list: Payment[] = [];
  let id = 7001;
  for (const invoice of invoiceList) {
    if (invoice.state !== 'Paid' || invoice.owner === 'foreign') continue;
    const paidOn = shiftDate(invoice.creation_date, 1);
    if (invoice.invoice_id === 5001) {
      // Paid in two parts.
      const first = money(invoice.amount / 2);
      list.push({
        payment_id: id++,
        invoice_id: invoice.invoice_id,
        payment_date: invoice.creation_date,
        amount: first,
      });
      list.push({
        payment_id: id++,
        invoice_id: invoice.invoice_id,
        payment_date: paidOn,
        amount: money(invoice.amount - first),
      });
    } else {
      list.push({
        payment_id: id++,
        invoice_id: invoice.invoice_id,
        payment_date: paidOn,
        amount: invoice.amount,
      });
    }
  }
  return list;
}

function statements(orderList: Order[], invoiceList: Invoice[]): Statement[] {
  const list: Statement[] = [];
  let id = 8001;
  for (const o of orderList) {
    if (!o.completed || o.complete_date === null) continue;
    const invoice = invoiceList.find((i) => i.order_id === o.order_id);
    const statementId = o.owner === 'foreign' ? 9201 : id++;
    list.push({
      statement_id: statementId,
      owner: o.owner,
      statement_number: `АКТ-${o.complete_date.slice(6)}-${statementId}`,
      order_id: o.order_id,
      from_date: o.complete_date,
      to_date: o.expiration_date ?? o.complete_date,
      amount: invoice?.amount ?? 0,
      currency_id: o.currency_id,
    });
  }
  return list;
}

function partnerStatements(): PartnerStatement[] {
  const lastDay = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31];
  return lastDay.map((days, index) => {
    const month = String(index + 1).padStart(2, '0');
    return {
      partner_statement_id: 8501 + index,
      partner_statement_number: `ОП-2026-${month}`,
      from_date: `01.${month}.2026`,
      to_date: `${days}.${month}.2026`,
    };
  });
}

/** A fresh, independent copy of the seed state. */
export function createSeed(): SandboxState {
  const zoneList = zones();
  const tariffs = [...hostingAndMailTariffs(), ...sslTariffs(), ...domainTariffs(zoneList)];
  let record = 30001;
  const orderList = orders(zoneList, () => record++);
  const invoiceList = invoices(orderList, tariffs, zoneList);
  const state: SandboxState = {
    currencies: [
      { currency_id: 1, currency_code: 'BYN', currency_name: 'Белорусский рубль', rate: 1 },
      { currency_id: 2, currency_code: 'USD', currency_name: 'Доллар США', rate: 3.2 },
      { currency_id: 3, currency_code: 'EUR', currency_name: 'Евро', rate: 3.5 },
      { currency_id: 4, currency_code: 'RUB', currency_name: 'Российский рубль', rate: 0.035 },
    ],
    services: [
      { service_id: 10, canonical_name: 'hosting-linux', name: 'Виртуальный хостинг Linux', kind: 'hosting' },
      { service_id: 11, canonical_name: 'hosting-wordpress', name: 'Хостинг для WordPress', kind: 'hosting' },
      { service_id: 20, canonical_name: 'corporate-mail', name: 'Корпоративная почта', kind: 'mail' },
      { service_id: 30, canonical_name: 'ssl-certificates', name: 'SSL-сертификаты', kind: 'ssl' },
      { service_id: 40, canonical_name: 'domains', name: 'Регистрация доменов', kind: 'domain' },
    ],
    tariffs,
    zones: zoneList,
    priceLists: priceLists(tariffs),
    orders: orderList,
    invoices: invoiceList,
    payments: payments(invoiceList),
    statements: statements(orderList, invoiceList),
    partnerStatements: partnerStatements(),
    takenDomains: ['example.by', 'google.com', 'yandex.ru', 'tut.by', 'onliner.by', 'яндекс.рф'].map((d) =>
      domainToASCII(d),
    ),
    hostingServers: HOSTING_SERVERS.map((s) => ({ ...s })),
    editorServers: EDITOR_SERVERS.map((s) => ({ ...s })),
    nextIds: { order: SEED.firstNewOrderId, invoice: SEED.firstNewInvoiceId, record },
  };
  return structuredClone(state);
}
