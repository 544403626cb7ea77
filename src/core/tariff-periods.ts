/*
 * A tariff's periods and their prices, as the provider lists them: the periods a tariff accepts
 * (those with a price, and `available_periods` when given) and the price of a whole period.
 */

/** What of a tariff its periods are read from. */
export interface TariffPeriods {
  prices: readonly { period: number; price: number }[];
  available_periods?: readonly number[] | undefined;
}

/** The provider's price of a whole period of a tariff, when it lists one. */
export function findPeriodPrice(tariff: TariffPeriods, period: number): number | undefined {
  return tariff.prices.find((p) => p.period === period)?.price;
}

/** Periods a tariff accepts: those with a price, plus `available_periods` when given. */
export function listTariffPeriods(tariff: TariffPeriods): number[] {
  const periods = new Set(tariff.prices.map((p) => p.period));
  for (const p of tariff.available_periods ?? []) periods.add(p);
  return [...periods].filter((p) => p >= 1 && p <= 36).sort((a, b) => a - b);
}

/**
 * What a term's price is read from: the provider's own figure for the whole term (a tariff's
 * price for that period, `undefined` when it lists none), or the price of one period (a domain
 * zone's registration price, per year).
 */
export type TermPriceSource = { total: number | undefined } | { perPeriod: number };

/**
 * The price of `count` periods as the provider invoices it, in the currency the figures are in:
 * its own figure for the term when it gives one, else one period's price times the count, rounded
 * once to kopecks (cents) — never a rounded price per period times the count. The order form and
 * the chat's summary both show this number.
 */
export function priceOfTerm(source: TermPriceSource, count: number): number | undefined {
  const exact = 'perPeriod' in source ? source.perPeriod * count : source.total;
  // toPrecision drops the binary noise of a product (9.38 × 3 = 28.139999…) before the rounding.
  return exact === undefined ? undefined : Math.round(Number((exact * 100).toPrecision(12))) / 100;
}
