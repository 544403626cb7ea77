/**
 * Seed data of the sandbox: a small Belarusian hosting and domain provider with one partner
 * account. Every id here is stable and documented in README.md; `createSeed()` builds a fresh
 * deep copy for each sandbox instance, so instances never share state.
 */

import { domainToASCII } from 'node:url';
import { invoices, partnerStatements, payments, statements } from './seed-billing.js';
import { domainTariffs, hostingAndMailTariffs, priceLists, sslTariffs, zones } from './seed-catalog.js';
import { EDITOR_SERVERS, HOSTING_SERVERS, orders, partnerOrders } from './seed-orders.js';
import type { SandboxState } from './state.js';

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

/**
 * The second partner of a sandbox started with `partners: [{ token }]`: its own world, every id
 * and domain unlike the first partner's (ids are the first's plus 10000). A third partner's ids
 * are the first's plus 20000 and its domains `studio-c.by`, `studio-c.com`, and so on.
 */
export const SECOND_PARTNER = {
  orders: {
    /** Hosting, tariff 101, 12 months, `studio-b.by`: Active, paid (invoice 15001, payment 17001). */
    hosting: 11001,
    /** `studio-b.by` (BY): editor name servers, records 40001–40004 (A, CNAME, MX, TXT); Active, registered. */
    domainBy: 11002,
    /** `studio-b.com` (COM), JuridicalPerson: hosting name servers, no records; NewOrder, unpaid (15003). */
    domainCom: 11003,
    /** Mail, tariff 201, 3 months: NewOrder, unpaid (15004). */
    mailNew: 11004,
  },
  domains: { by: 'studio-b.by', com: 'studio-b.com' },
  /** Invoice id = order id + 4000; 15001 and 15002 paid, 15003 and 15004 unpaid. */
  invoices: { hosting: 15001, domainBy: 15002, domainCom: 15003, mailNew: 15004 },
  payments: [17001, 17002],
  /** One per completed order (11001, 11002). */
  statements: [18001, 18002],
  /** Monthly, January to October 2026. */
  partnerStatements: { first: 18501, last: 18510 },
  records: { first: 40001, last: 40004 },
  firstNewOrderId: 11101,
  firstNewInvoiceId: 15101,
  firstNewRecordId: 40021,
} as const;

/**
 * A fresh seed for the sandbox's partner number `n`: 1 = `createSeed()`; 2, 3, … the small world
 * of `partnerOrders` (see SECOND_PARTNER), with the same catalogue and ids offset by (n − 1) × 10000.
 */
export function createPartnerSeed(n: number): SandboxState {
  const state = createSeed();
  if (n <= 1) return state;
  const offset = (n - 1) * 10_000;
  let record = 30001 + offset;
  const orderList = partnerOrders(state.zones, () => record++, n);
  const invoiceList = invoices(orderList, state.tariffs, state.zones);
  state.orders = orderList;
  state.invoices = invoiceList;
  state.payments = payments(invoiceList, 7001 + offset);
  state.statements = statements(orderList, invoiceList, 8001 + offset);
  state.partnerStatements = partnerStatements(8501 + offset);
  state.nextIds = {
    order: SEED.firstNewOrderId + offset,
    invoice: SEED.firstNewInvoiceId + offset,
    record: 30021 + offset,
  };
  return state;
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
