import { describe, expect, it } from 'vitest';
import { type BotCall, texts } from '../../helpers/bot-harness.js';
import { namesInvoice } from '../../helpers/notify.js';
import { useTwoInstances } from '../../helpers/use-bot.js';

/*
 * Two bot instances on one Redis (STORAGE=redis) polling the same token at the same moment, as a
 * schedule taken over late, or a "soon" poll beside the scheduled one, would: every event is told
 * exactly once, whichever instance wins.
 */

const url = process.env.REDIS_URL;
if (!url) console.warn('REDIS_URL is not set: the two-instance notification test is skipped');

describe.skipIf(!url)('notifications with two instances on one Redis', () => {
  const prefix = `partner-bot-notify2:${process.pid}:${Date.now()}:`;
  const { sandbox, a, b } = useTwoInstances({ url: url as string, prefix, watchers: true });

  const paidMessages = (calls: BotCall[]) => texts(calls).filter((t) => t.includes('Пришла оплата'));

  it('5 payments to 3 chats, each polled by both instances at once: each told exactly once', async () => {
    const chats = [71_001, 71_002, 71_003];
    // Three chats on one token: each is told every payment once.
    for (const chat of chats) await a.connect({ userId: chat, chatId: chat });
    await Promise.all([a.pollWatches(), b.pollWatches()]);

    const unpaid = (await a.api().listInvoices()).filter((i) => i.state === 'WaitingForPayment');
    const payments = unpaid.slice(0, 5);
    expect(payments.length).toBe(5);
    const before = a.calls.length + b.calls.length;
    for (const invoice of payments) {
      sandbox.payInvoice(invoice.invoice_id);
      await Promise.all([a.pollWatches(), b.pollWatches(), a.pollWatches(), b.pollWatches()]);
    }
    const messages = paidMessages([...a.calls, ...b.calls]);
    expect(a.calls.length + b.calls.length).toBeGreaterThan(before);
    // 5 payments × 3 chats, no more, no fewer, whichever instance sent each.
    expect(messages).toHaveLength(15);
    for (const invoice of payments) {
      for (const chat of chats) {
        const toChat = [...a.calls, ...b.calls].filter(
          (c) =>
            c.method === 'sendMessage' &&
            c.payload.chat_id === chat &&
            namesInvoice(String(c.payload.text), invoice.invoice_number),
        );
        expect(toChat).toHaveLength(1);
      }
    }
  }, 60_000);
});
