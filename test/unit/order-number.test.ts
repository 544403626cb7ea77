import { describe, expect, it } from 'vitest';
import { orderNumberOf } from '../../src/core/order-number.js';

describe('orderNumberOf', () => {
  it('is the provider’s number, which clients see, whenever it is known', () => {
    expect(orderNumberOf({ number: 'ЗК-2026-001101', order_id: 1101 })).toBe('ЗК-2026-001101');
  });

  it('falls back to the id only while the number is unknown', () => {
    expect(orderNumberOf({ number: undefined, order_id: 1101 })).toBe('1101');
    expect(orderNumberOf({ number: '', order_id: 1101 })).toBe('1101');
    expect(orderNumberOf({})).toBe('—');
  });
});
