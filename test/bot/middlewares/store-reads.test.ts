/**
 * What one update costs the store and the provider: one `ChatStore.read` per update (language,
 * token and session together), and the provider calls of the lookups that must not repeat.
 */
import { beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { lastText } from '../../helpers/bot-harness.js';
import { useBot } from '../../helpers/use-bot.js';

let reads: MockInstance;
let updates: MockInstance;

const { h } = useBot({
  connect: ['partner'],
  setUp: (bot) => {
    // ChatData holds this very object: spying on its methods sees every store call it makes.
    reads = vi.spyOn(bot.store, 'read');
    updates = vi.spyOn(bot.store, 'update');
  },
});
beforeEach(() => {
  reads.mockClear();
  updates.mockClear();
});

/** What the sandbox received while `task` ran, as `METHOD /path`. */
async function providerCalls(task: () => Promise<unknown>): Promise<string[]> {
  const before = h.sandbox.requests.length;
  await task();
  return h.sandbox.requests.slice(before).map((r) => `${r.method} ${r.path}`);
}

describe('one store read per update', () => {
  it('/invoice 5001: one read for language, token and session; the link and the number; one write', async () => {
    const calls = await providerCalls(async () => {
      expect(lastText(await h.send('/invoice 5001'))).toMatch(/\/s\//);
    });
    expect(reads).toHaveBeenCalledTimes(1);
    // The one write remembers which message carried the link, to mark it paid later (/notify).
    expect(updates).toHaveBeenCalledTimes(1);
    // The invoice itself is asked for its number (СФ-…), at the same time as its link.
    expect([...calls].sort()).toEqual(['GET /v1/billing/invoices', 'GET /v1/billing/invoices/5001/url']);
  });

  it('/help and a message nobody understood: one read each, nothing written', async () => {
    await h.send('/help');
    await h.send('hello there');
    expect(reads).toHaveBeenCalledTimes(2);
    expect(updates).not.toHaveBeenCalled();
  });

  it('/lang en: the switch is written once and the reply already speaks English, one read', async () => {
    const calls = await h.send('/lang en');
    expect(lastText(calls)).toMatch(/English|language/i);
    expect(reads).toHaveBeenCalledTimes(1);
    expect(updates).toHaveBeenCalledTimes(1);
    await h.send('/lang ru');
  });

  it('a scene step (the token dialog) reads once per update and writes the changed session', async () => {
    await h.send('/token');
    expect(reads).toHaveBeenCalledTimes(1);
    expect(updates).toHaveBeenCalledTimes(1);
    await h.send('/cancel');
    expect(reads).toHaveBeenCalledTimes(2);
  });
});

describe('provider calls per lookup', () => {
  it('/invoices <order>: one call, filtered by the order (plus the currency list once per cache TTL)', async () => {
    const invoice = (await h.api().listInvoices())[0];
    if (!invoice) throw new Error('seed has no invoices');
    const show = async () => {
      expect(lastText(await h.send(`/invoices ${invoice.order_id}`))).toContain(String(invoice.order_id));
    };
    // First of this token: the currency codes come along, in parallel (one round trip).
    expect((await providerCalls(show)).sort()).toEqual([
      'GET /v1/billing/currencies',
      'GET /v1/billing/invoices',
    ]);
    const again = await providerCalls(show);
    expect(again).toEqual(['GET /v1/billing/invoices']);
    expect(h.sandbox.requests.at(-1)?.query.order_id).toBe(String(invoice.order_id));
    expect(reads).toHaveBeenCalledTimes(2);
  });

  it('connecting a token asks the provider every time, even right after a check of the same token', async () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      await h.send('/token');
      const calls = await providerCalls(() => h.send(h.sandbox.token));
      expect(calls.length).toBeGreaterThanOrEqual(1);
    }
  });
});
