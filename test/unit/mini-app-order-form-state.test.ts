/*
 * The order form's state (app/src/order-state.ts): what a new kind or another order forgets, the
 * term taken when only one is offered, the once-only key an order keeps, the total and the hint.
 */
import { describe, expect, it } from 'vitest';
import {
  chooseKind,
  keyFor,
  type OrderFormState,
  settlePeriod,
  startAnother,
  startOrderState,
  summaryOf,
} from '../../app/src/order-state.js';
import { orderWordsFor } from '../../app/src/order-words.js';
import { orderCatalog, year } from '../helpers/order-catalog.js';

const catalog = orderCatalog([
  { name: 'by', periods: [year(1), year(2)] },
  { name: 'бел', periods: [year(1)] },
]);
const free = (zone: string) => ({ available: true, domain: `shop.${zone}`, zone, message: '✅' });
const o = orderWordsFor('ru');

describe('the order form’s state', () => {
  it('starts a domain order with the name the chat named', () => {
    expect(startOrderState('shop.by')).toMatchObject({ kind: 'domain', domain: 'shop.by', customerId: '' });
    expect(startOrderState().domain).toBe('');
  });

  it('takes the only term offered, and drops a term no longer offered', () => {
    const state: OrderFormState = { ...startOrderState('shop.бел'), catalog, checked: free('бел') };
    expect(settlePeriod(state).map((p) => p.count)).toEqual([1]);
    expect(state.period).toBe(1);
    Object.assign(state, { checked: free('by'), period: 2 });
    expect(settlePeriod(state)).toHaveLength(2);
    expect(state.period).toBe(2);
    state.checked = undefined;
    expect(settlePeriod(state)).toEqual([]);
    expect(state.period).toBeUndefined();
  });

  it('a new kind forgets the name, its verdict, the tariff and the term; the customer stays', () => {
    const state = { ...startOrderState('shop.by'), catalog, checked: free('by'), tariffId: 7, period: 1 };
    state.customerId = 'c1';
    chooseKind(state, 'hosting');
    expect(state).toMatchObject({ kind: 'hosting', domain: '', customerId: 'c1' });
    expect([state.checked, state.tariffId, state.period]).toEqual([undefined, undefined, undefined]);
  });

  it('keeps one key for one order, a new one for a changed order, none after «Ещё заказ»', () => {
    const state = startOrderState();
    let n = 0;
    const fresh = () => `k${++n}`;
    const order = { kind: 'domain', period: 1 };
    expect(keyFor(state, order, fresh)).toBe('k1');
    expect(keyFor(state, { ...order }, fresh)).toBe('k1');
    expect(keyFor(state, { ...order, period: 2 }, fresh)).toBe('k2');
    state.placed = true;
    startAnother(state);
    expect([state.placed, state.sent]).toEqual([false, undefined]);
    expect(keyFor(state, { ...order, period: 2 }, fresh)).toBe('k3');
  });

  it('totals the term chosen (a premium name noted) and says what is still to choose', () => {
    const state = { ...startOrderState('shop.by'), catalog };
    expect(summaryOf(state, o)).toEqual({
      total: '',
      hint: 'Осталось выбрать: свободный домен, срок, заказчика.',
    });
    Object.assign(state, { checked: { ...free('by'), premium: true }, period: 2, customerId: 'c1' });
    expect(summaryOf(state, o)).toEqual({
      total: 'Итого: 72 BYN · 2 г. (премиум-домен: регистратор может выставить цену выше)',
      hint: '',
    });
    expect(summaryOf({ ...state, catalog: undefined }, o).hint).toBe('');
  });
});
