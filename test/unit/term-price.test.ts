import { describe, expect, it } from 'vitest';
import { priceOfTerm } from '../../src/core/tariff-periods.js';

describe('the price of a term, as the provider invoices it', () => {
  it('takes the provider’s own figure for the whole term as it is', () => {
    expect(priceOfTerm({ total: 106.92 }, 12)).toBe(106.92);
    expect(priceOfTerm({ total: undefined }, 24)).toBeUndefined();
  });

  it('multiplies one period’s price by the count and rounds once, without binary noise', () => {
    // 9.38 × 3 is 28.139999… in binary: still 28.14, as the invoice says.
    expect(priceOfTerm({ perPeriod: 9.38 }, 3)).toBe(28.14);
    expect(priceOfTerm({ perPeriod: 13.13 }, 10)).toBe(131.3);
    expect(priceOfTerm({ perPeriod: 1028.57 }, 7)).toBe(7199.99);
    // A per-period price with more than kopecks is rounded after the product, not before.
    expect(priceOfTerm({ perPeriod: 9.375 }, 2)).toBe(18.75);
  });
});
