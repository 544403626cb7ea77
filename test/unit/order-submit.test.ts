/*
 * The exactly-once submit both faces run (services/order-submit.ts): the list stored before the
 * one create call, and an unknown outcome settled by looking for the new order, never by a second
 * create.
 */
import { describe, expect, it } from 'vitest';
import { ApiHttpError, ApiInterruptedError, ApiTimeoutError } from '../../src/api/index.js';
import { orderMatches } from '../../src/core/order-marks.js';
import { createLogger } from '../../src/logger.js';
import { type ListedOrder, submitOrderOnce } from '../../src/services/order-submit.js';

const call = { operation: 'createDomainOrder', method: 'POST', path: '/orders/domain' };
const logger = createLogger({ level: 'silent' });

/** A provider with a list of orders; `create` does what the case says and counts its calls. */
function provider(create: (orders: ListedOrder[]) => ListedOrder | Error) {
  const orders: ListedOrder[] = [{ order_id: 1, advanced: { domain: 'old.by' } }];
  const seen = { creates: 0, stored: undefined as number[] | undefined, events: [] as string[] };
  return {
    seen,
    orders,
    submission: {
      listOrders: async () => {
        seen.events.push('list');
        return [...orders];
      },
      create: async () => {
        seen.creates += 1;
        seen.events.push('create');
        const made = create(orders);
        if (made instanceof Error) throw made;
        return { order_id: made.order_id, invoice_id: 900 + made.order_id };
      },
      matches: (order: ListedOrder) => orderMatches({ domain: 'новый.by' }, order),
    },
    api: {
      listInvoices: async ({ order_id }: { order_id?: number }) => [{ invoice_id: 900 + (order_id ?? 0) }],
    },
    hooks: {
      beforeCreate: async (known: number[]) => {
        seen.stored = known;
        seen.events.push('stored');
      },
      outcomeUnknown: async () => {
        seen.events.push('unknown');
      },
    },
  };
}

const placed = (orders: ListedOrder[]) => {
  const order = { order_id: 2, advanced: { domain: 'xn--b1aoke0e.by' } };
  orders.push(order);
  return order;
};

describe('submitting an order exactly once', () => {
  it('lists, stores the list, then creates once', async () => {
    const p = provider(placed);
    const outcome = await submitOrderOnce(p.submission, p.api as never, p.hooks, logger);
    expect(outcome).toEqual({
      kind: 'created',
      created: { order_id: 2, invoice_id: 902 },
      afterUnknown: false,
    });
    expect(p.seen.events).toEqual(['list', 'stored', 'create']);
    expect(p.seen.stored).toEqual([1]);
  });

  it('a timeout after the provider created it: the new order is found, never created again', async () => {
    const p = provider((orders) => {
      placed(orders);
      return new ApiTimeoutError(call, 30_000);
    });
    const outcome = await submitOrderOnce(p.submission, p.api as never, p.hooks, logger);
    expect(outcome).toEqual({
      kind: 'created',
      created: { order_id: 2, invoice_id: 902 },
      afterUnknown: true,
    });
    expect(p.seen.creates).toBe(1);
    expect(p.seen.events).toEqual(['list', 'stored', 'create', 'unknown', 'list']);
  });

  it('a timeout before the provider created it: unknown, not found, nothing created twice', async () => {
    const p = provider(() => new ApiTimeoutError(call, 30_000));
    const outcome = await submitOrderOnce(p.submission, p.api as never, p.hooks, logger);
    expect(outcome).toEqual({ kind: 'unknown', lookup: 'notFound' });
    expect(p.seen.creates).toBe(1);
  });

  it('a refusal creates nothing and is returned; a failing list sends nothing', async () => {
    const refused = provider(() => new ApiHttpError(call, 400, 'bad request'));
    const outcome = await submitOrderOnce(refused.submission, refused.api as never, refused.hooks, logger);
    expect(outcome.kind).toBe('refused');
    const down = provider(placed);
    down.submission.listOrders = async () => {
      throw new ApiHttpError(call, 503, 'down');
    };
    expect((await submitOrderOnce(down.submission, down.api as never, down.hooks, logger)).kind).toBe(
      'refused',
    );
    expect(down.seen.creates).toBe(0);
    expect(down.seen.stored).toBeUndefined();
  });

  it('a stopping process is thrown on with the list already stored', async () => {
    const p = provider(() => new ApiInterruptedError(call));
    await expect(submitOrderOnce(p.submission, p.api as never, p.hooks, logger)).rejects.toBeInstanceOf(
      ApiInterruptedError,
    );
    expect(p.seen.stored).toEqual([1]);
  });

  it('recognises an order by its domain in either spelling, or by its tariff', () => {
    expect(orderMatches({ domain: 'новый.by' }, { advanced: { domain: 'xn--b1aoke0e.by' } })).toBe(true);
    expect(orderMatches({ domain: 'новый.by' }, { advanced: { domain: 'other.by' } })).toBe(false);
    expect(orderMatches({ tariffId: 7 }, { advanced: { tariff_id: 7 } })).toBe(true);
    expect(orderMatches({ tariffId: 7 }, {})).toBe(false);
  });
});
