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
