/*
 * The order form's catalog as `api/order/catalog` answers it, for the app's state tests: a BYN
 * domain catalog with a saved customer and one tariff, each term priced 36 BYN a year.
 */
import type { Catalog } from '../../src/mini-app/contract.js';

/** A term of `count` years at 36 BYN a year. */
export const year = (count: number) => ({
  count,
  label: `${count} г.`,
  price: 36 * count,
  priceText: `${36 * count} BYN`,
});

/** The catalog with these zones (each offering the terms given). */
export function orderCatalog(zones: Catalog['zones']): Catalog {
  return {
    kind: 'domain',
    kinds: [],
    currencyId: 1,
    currencies: [{ id: 1, code: 'BYN' }],
    customers: [{ id: 'c1', label: 'Иванов Иван', typeName: 'Физическое лицо' }],
    zones,
    tariffs: [{ id: 7, name: 'Оптимальный', serviceId: 1, periods: [year(1)] }],
  };
}
