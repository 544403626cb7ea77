import { describe, expect, it } from 'vitest';
import type { NotificationEvent } from '../../src/core/notify.js';
import {
  backoffMs,
  type ChatFilter,
  CLAIM_TTL_MS,
  claim,
  enqueue,
  INITIAL_STATE,
  readState,
  settle,
} from '../../src/watchers/outbox.js';

const event = (id: number): NotificationEvent => ({
  kind: 'orderCompleted',
  id: `orderCompleted:${id}`,
  orderId: id,
  orderNumber: `ЗК-${id}`,
  domain: undefined,
  completeDate: undefined,
});
const newInvoice = (invoiceId: number): NotificationEvent => ({
  kind: 'newInvoice',
  id: `newInvoice:${invoiceId}`,
  invoiceId,
  invoiceNumber: `СФ-${invoiceId}`,
  orderId: 1,
  order: { id: 1, number: 'ЗК-1', domain: undefined },
  amount: 10,
  currencyId: 1,
  expirationDate: '01.12.2026',
});
const all: ChatFilter = { off: new Set(), createdByBot: new Set(), attached: true };

describe('the outbox', () => {
  it('enqueues each event once per chat, however often it is offered', () => {
    const once = enqueue([], [1, 2], [event(7)]);
    expect(once).toHaveLength(2);
    expect(enqueue(once, [1, 2], [event(7), event(8)])).toHaveLength(4);
  });

  it('a claimed entry is held by one run: a second run claims nothing of it', () => {
    const outbox = enqueue([], [1], [event(7), event(8)]);
    const first = claim(outbox, 1, 'run-a', 1_000, all);
    expect(first.claimed.map((e) => e.notice.id)).toEqual(['orderCompleted:7', 'orderCompleted:8']);
    const second = claim(first.outbox, 1, 'run-b', 1_001, all);
    expect(second.claimed).toEqual([]);
    expect(second.outbox).toEqual(first.outbox);
  });

  it('settling removes what was sent and releases the rest for a later run', () => {
    const { outbox } = claim(enqueue([], [1], [event(7), event(8)]), 1, 'run-a', 0, all);
    const after = settle(outbox, 'run-a', new Set(['orderCompleted:7']));
    expect(after).toEqual([{ chat: 1, notice: event(8) }]);
    expect(claim(after, 1, 'run-b', 5, all).claimed.map((e) => e.notice.id)).toEqual(['orderCompleted:8']);
  });

  it('a run that died after claiming: its entries are dropped after the claim expires, never sent twice', () => {
    const { outbox } = claim(enqueue([], [1], [event(7)]), 1, 'dead-run', 0, all);
    const early = claim(outbox, 1, 'run-b', CLAIM_TTL_MS - 1, all);
    expect(early.claimed).toEqual([]);
    expect(early.abandoned).toEqual([]);
    const late = claim(outbox, 1, 'run-b', CLAIM_TTL_MS, all);
    expect(late.claimed).toEqual([]);
    expect(late.abandoned.map((e) => e.notice.id)).toEqual(['orderCompleted:7']);
    expect(late.outbox).toEqual([]);
  });

  it('settling by another run leaves a run’s claims alone', () => {
    const { outbox } = claim(enqueue([], [1, 2], [event(7)]), 1, 'run-a', 0, all);
    expect(settle(outbox, 'run-b', new Set(['orderCompleted:7']))).toEqual(outbox);
  });

  it('drops what the chat turned off, invoices the bot made, and everything of a chat that left', () => {
    const outbox = enqueue([], [1], [event(7), newInvoice(50), newInvoice(51)]);
    const filtered = claim(outbox, 1, 'r', 0, {
      off: new Set(['orderCompleted']),
      createdByBot: new Set([50]),
      attached: true,
    });
    expect(filtered.claimed.map((e) => e.notice.id)).toEqual(['newInvoice:51']);
    expect(filtered.unwanted.map((e) => e.notice.id)).toEqual(['orderCompleted:7', 'newInvoice:50']);
    const left = claim(outbox, 1, 'r', 0, { ...all, attached: false });
    expect(left.claimed).toEqual([]);
    expect(left.outbox).toEqual([]);
  });

  it('another chat’s entries are never touched', () => {
    const outbox = enqueue([], [1, 2], [event(7)]);
    const result = claim(outbox, 1, 'r', 0, all);
    expect(result.outbox.filter((e) => e.chat === 2)).toEqual([{ chat: 2, notice: event(7) }]);
  });
});

describe('the stored state', () => {
  it('reads its own output back, and anything else as the initial state (a silent first poll)', () => {
    const state = { ...INITIAL_STATE, seq: 3, outbox: enqueue([], [1], [event(7)]), failures: 1, retryAt: 5 };
    expect(readState(JSON.parse(JSON.stringify(state)))).toEqual({
      ...state,
      snapshot: undefined,
      rejected: false,
    });
    expect(readState(undefined)).toEqual(INITIAL_STATE);
    expect(readState({ version: 2 })).toEqual(INITIAL_STATE);
    expect(
      readState({ ...state, outbox: [{ chat: 'x' }, { chat: 1, notice: { kind: 'bogus', id: 'b' } }] })
        .outbox,
    ).toEqual([]);
  });
});

describe('backoff', () => {
  it('doubles per failure from the interval, stays within ±20%, and never exceeds an hour and a fifth', () => {
    expect(backoffMs(300_000, 1, 0.5)).toBe(300_000);
    expect(backoffMs(300_000, 2, 0.5)).toBe(600_000);
    expect(backoffMs(300_000, 3, 0)).toBe(960_000);
    expect(backoffMs(300_000, 30, 1)).toBe(4_320_000);
  });
});
