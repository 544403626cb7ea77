/** The sandbox seed's catalogue: hosting, mail and SSL tariffs, domain zones and their price lists. */
import type { Price, PriceList, PriceListTariff, Tariff, Zone } from './state.js';
import { money } from './state.js';

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

export function hostingAndMailTariffs(): Tariff[] {
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

export function sslTariffs(): Tariff[] {
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

export function zones(): Zone[] {
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

export function domainTariffs(zoneList: Zone[]): Tariff[] {
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

/**
 * A domain tariff in another currency as its orders are invoiced (`domainTermAmount`): the yearly
 * price converted at `rate`, then times the years — so the list, the zone list and the invoice
 * agree to the kopeck.
 */
function domainInCurrency(tariff: Tariff, currencyId: number, rate: number): PriceListTariff {
  const perYear = money((tariff.prices.find((p) => p.period === 1)?.price ?? 0) / rate);
  return {
    ...inPriceList(tariff, currencyId, 1),
    prices: tariff.prices.map((p) => ({ period: p.period, price: money(perYear * p.period) })),
  };
}

export function priceLists(tariffs: Tariff[]): PriceList[] {
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
            .map((t) => domainInCurrency(t, 2, 3.2)),
        },
      ],
    },
  ];
}
