/*
 * The order form's rules (app/src/order-state.ts): the terms a free domain's zone or a chosen
 * tariff offers, the order as it would be sent, and what is still to choose.
 */
import { describe, expect, it } from 'vitest';
import {
  hasChoices,
  type OrderChoices,
  periodsOf,
  requestOf,
  stillNeeded,
} from '../../app/src/order-state.js';
import { orderCatalog, year } from '../helpers/order-catalog.js';

const catalog = orderCatalog([{ name: 'by', periods: [year(1), year(2)] }]);
const empty: OrderChoices = {
  catalog,
  kind: 'domain',
  currencyId: 1,
  tariffId: undefined,
  period: undefined,
  customerId: '',
  domain: '',
  checked: undefined,
};
const free = { available: true, domain: 'xn--80aairftm.by', zone: 'by', message: '✅' };

describe('the order form’s choices', () => {
  it('a domain: no term until the name is free; then its zone’s terms, and the order in ASCII', () => {
    expect(periodsOf(empty)).toEqual([]);
    expect(stillNeeded(empty)).toEqual(['domain', 'period', 'customer']);
    expect(hasChoices(empty)).toBe(false);
    const taken = { ...empty, domain: 'taken.by', checked: { ...free, available: false } };
    expect(periodsOf(taken)).toEqual([]);
    const chosen = { ...empty, domain: 'магазин.by', checked: free, period: 2, customerId: 'c1' };
    expect(periodsOf(chosen).map((p) => p.count)).toEqual([1, 2]);
    expect(stillNeeded(chosen)).toEqual([]);
    expect(requestOf(chosen)).toEqual({
      kind: 'domain',
      currencyId: 1,
      period: 2,
      customerId: 'c1',
      domain: 'xn--80aairftm.by',
    });
    // A term the zone does not offer makes no order.
    expect(requestOf({ ...chosen, period: 5 })).toBeUndefined();
  });

  it('a tariff kind: the tariff’s terms; hosting’s domain only when typed; SSL’s domain needed', () => {
    const hosting = { ...empty, kind: 'hosting' as const, tariffId: 7, period: 1, customerId: 'c1' };
    expect(requestOf(hosting)).toEqual({
      kind: 'hosting',
      currencyId: 1,
      period: 1,
      customerId: 'c1',
      tariffId: 7,
    });
    expect(requestOf({ ...hosting, domain: ' shop.by ' })).toMatchObject({ domain: 'shop.by' });
    const ssl = { ...hosting, kind: 'ssl' as const };
    expect(requestOf(ssl)).toBeUndefined();
    expect(stillNeeded(ssl)).toEqual(['sslDomain']);
    expect(stillNeeded({ ...empty, kind: 'mail' })).toEqual(['tariff', 'period', 'customer']);
    expect(hasChoices({ ...empty, kind: 'mail', tariffId: 7 })).toBe(true);
  });
});
