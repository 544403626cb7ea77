import type { DomainZone, PriceList, PriceListTariff, Tariff } from '../../../api/index.js';
import { escapeHtml, formatMoney } from '../../../core/format.js';
import type { Locale } from '../../../storage/chat-store.js';
import type { Translate } from '../../kit/i18n.js';
import { periodRange, periodWords } from '../../kit/words.js';

/** `1 мес — 5,00 BYN · 12 мес — 48,00 BYN`: prices per period exactly as the provider gives them. */
export function renderPrices(
  t: Translate,
  locale: Locale,
  periodType: string,
  prices: readonly { period: number; price: number }[],
  currencyCode: string | undefined,
): string {
  return [...prices]
    .sort((a, b) => a.period - b.period)
    .map((p) => `${formatPeriod(t, periodType, p.period)} — ${formatMoney(p.price, currencyCode, locale)}`)
    .join(' · ');
}

/** `12 мес`, `2 года`: a count of the tariff's period unit, pluralised (words.ts has the table). */
export function formatPeriod(t: Translate, periodType: string, count: number): string {
  return periodWords(t, periodType, count);
}

export function renderTariff(
  t: Translate,
  locale: Locale,
  tariff: Tariff,
  currencyCode: string | undefined,
): string {
  return t('catalog:tariffRow', {
    name: escapeHtml(tariff.tariff_name),
    id: tariff.tariff_id,
    prices: renderPrices(t, locale, tariff.period_type, tariff.prices, currencyCode) || t('catalog:noPrices'),
  });
}

/** A tariff as a row of a tariffs table: its name (struck out when archived) and its prices. */
export function tariffCells(
  t: Translate,
  locale: Locale,
  tariff: Tariff | PriceListTariff,
  currencyCode: string | undefined,
): string[] {
  const name = escapeHtml(tariff.tariff_name);
  const prices =
    renderPrices(t, locale, tariff.period_type, tariff.prices, currencyCode) || t('catalog:noPrices');
  return [
    'archived' in tariff && tariff.archived ? `<s>${name}</s>` : `<b>${name}</b>`,
    prices.replace(/ · /g, '\n'),
  ];
}

export function priceListCells(list: PriceList): string[] {
  return [`<b>${escapeHtml(list.number)}</b>`, escapeHtml(list.description), escapeHtml(list.as_of_date)];
}

export function zoneCells(
  t: Translate,
  locale: Locale,
  zone: DomainZone,
  currencyCode: string | undefined,
): string[] {
  return [
    `<b>${escapeHtml(zone.name.replace(/^\./, '').toUpperCase())}</b>`,
    formatMoney(zone.registration_price, currencyCode, locale),
    formatMoney(zone.renew_price, currencyCode, locale),
    periodRange(t, zone.period_type, zone.min_period, zone.max_period),
  ];
}

/** The catalog tables' headers, by list (keys under `catalog:column`). */
export const catalogColumns = (t: Translate, list: 'priceLists' | 'tariffs' | 'zones'): string[] =>
  ({
    priceLists: ['number', 'description', 'date'],
    tariffs: ['tariff', 'prices'],
    zones: ['zone', 'registration', 'renewal', 'term'],
  })[list].map((column) => t(`catalog:column.${column}`));

export function renderPriceListTariff(
  t: Translate,
  locale: Locale,
  tariff: PriceListTariff,
  currencyCode: string | undefined,
): string {
  return t(tariff.archived ? 'catalog:archivedTariffRow' : 'catalog:tariffRow', {
    name: escapeHtml(tariff.tariff_name),
    id: tariff.tariff_id,
    prices: renderPrices(t, locale, tariff.period_type, tariff.prices, currencyCode) || t('catalog:noPrices'),
  });
}

export function renderPriceList(t: Translate, list: PriceList): string {
  return t('catalog:priceListRow', {
    number: escapeHtml(list.number),
    description: escapeHtml(list.description),
    date: escapeHtml(list.as_of_date),
  });
}

export function renderZone(
  t: Translate,
  locale: Locale,
  zone: DomainZone,
  currencyCode: string | undefined,
): string {
  return t('catalog:zoneRow', {
    name: escapeHtml(zone.name.replace(/^\./, '').toUpperCase()),
    registration: formatMoney(zone.registration_price, currencyCode, locale),
    renewal: formatMoney(zone.renew_price, currencyCode, locale),
    term: periodRange(t, zone.period_type, zone.min_period, zone.max_period),
  });
}
