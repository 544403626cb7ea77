import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BotHarness, texts } from '../helpers/bot-harness.js';

let h: BotHarness;

beforeAll(async () => {
  h = await BotHarness.start({ timeoutMs: 1_500 });
  for (let chat = 1; chat <= 50; chat++) await h.connect({ userId: chat, chatId: chat });
}, 60_000);
afterAll(async () => {
  await h.stop();
});

describe('reliability', () => {
  it('100 updates whose handlers fail: 0 crashes, every user answered', async () => {
    h.sandbox.addFault({
      path: '/v1/billing/invoices',
      times: Number.POSITIVE_INFINITY,
      fault: { kind: 'status', status: 500 },
    });
    try {
      const results = await Promise.allSettled(
        Array.from({ length: 100 }, (_, i) =>
          h.send('/invoices', { userId: 1 + (i % 50), chatId: 1 + (i % 50) }),
        ),
      );
      expect(results.filter((r) => r.status === 'rejected')).toHaveLength(0);
      const answered = results.map((r) => (r.status === 'fulfilled' ? texts(r.value).join('\n') : ''));
      expect(answered.filter((t) => t.includes('недоступен'))).toHaveLength(100);
    } finally {
      h.sandbox.clearFaults();
    }
  }, 60_000);

  it('a hanging provider: other chats answered within 1 s, the stuck call aborted at its deadline', async () => {
    h.sandbox.addFault({ path: '/v1/billing/payments', fault: { kind: 'hang' } });
    const started = Date.now();
    const stuck = h.send('/payments', { userId: 1, chatId: 1 });
    const others = await Promise.all(
      [2, 3, 4].map(async (chat) => {
        const calls = await h.send('/help', { userId: chat, chatId: chat });
        return { ms: Date.now() - started, text: texts(calls).join('') };
      }),
    );
    for (const other of others) {
      expect(other.ms).toBeLessThan(1_000);
      expect(other.text).toContain('Что умеет бот');
    }
    const stuckText = texts(await stuck).join('');
    const waited = Date.now() - started;
    expect(stuckText).toContain('недоступен');
    expect(waited).toBeGreaterThanOrEqual(1_400);
    expect(waited).toBeLessThan(4_000);
  }, 20_000);

  it('1,000 updates from 50 chats interleaved: per-chat order kept, no write lost', async () => {
    const chats = Array.from({ length: 50 }, (_, i) => 1 + i);
    const sends: Promise<unknown>[] = [];
    // 20 alternating language switches per chat, all in flight at once, chats interleaved.
    for (let step = 0; step < 20; step++) {
      for (const chat of chats)
        sends.push(h.send(`/lang ${step % 2 === 0 ? 'en' : 'ru'}`, { userId: chat, chatId: chat }));
    }
    const before = h.calls.length;
    await Promise.all(sends);
    const replies = h.calls.slice(before).filter((c) => c.method === 'sendMessage');
    expect(replies).toHaveLength(1_000);
    for (const chat of chats) {
      const mine = replies.filter((c) => c.payload.chat_id === chat).map((c) => String(c.payload.text));
      // Answered in the order sent: English, Russian, English, …
      expect(mine.map((t) => (t.includes('English') ? 'en' : 'ru'))).toEqual(
        Array.from({ length: 20 }, (_, step) => (step % 2 === 0 ? 'en' : 'ru')),
      );
      expect(await h.chatData.getLocale(chat)).toBe('ru');
      // The token written long before is still there: no write clobbered the document.
      expect(await h.chatData.getToken(chat)).toBe(h.sandbox.token);
    }
  }, 60_000);
});
