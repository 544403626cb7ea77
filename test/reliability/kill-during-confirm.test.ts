import { describe, expect, it } from 'vitest';
import { eventually } from '../helpers/bot-process.js';
import { ProcessChat } from '../helpers/process-chat.js';
import { useWebhookWorld } from '../helpers/webhook-world.js';

/*
 * The real process (webhook mode) killed with SIGKILL while its create call hangs at the provider.
 * After the restart, the next update of each chat learns what became of the order before anything
 * else: one chat's order was never created (a text gets the summary again, and Confirm creates
 * exactly one), the other's was created by the provider after all (/cancel shows it, truthfully).
 */

const NOT_CREATED = 720_001;
const CREATED = 720_002;
const STOPPED = 720_003;
const MAIL_PATH = '/v1/orders/corporate-mails';

const world = useWebhookWorld({ name: 'kill-confirm', chats: [NOT_CREATED, CREATED, STOPPED] });
const startBot = () => world.startBot();

/** A mail order up to its summary. */
async function toSummary(chat: ProcessChat, tariff: string): Promise<void> {
  await chat.say('/order mail', /mail tariff/);
  await chat.tap(tariff, /how long/i);
  await chat.tap('1 month', /currency/i);
  await chat.tap('BYN', /Customer type/);
  await chat.tap('Natural person', /last name/);
  const answers: [string, RegExp][] = [
    ['Ivanov', /first name/],
    ['Ivan', /middle name/],
    ['Ivanovich', /country/],
    ['BY', /postal/],
    ['220030', /region/],
    ['Minsk region', /city/],
    ['Minsk', /street/],
    ['Nezavisimosti', /building/],
    ['4', /flat/],
    ['12', /phone/],
    ['+375291234567', /e-mail/],
    ['ivan@example.by', /Save this customer/],
  ];
  for (const [text, next] of answers) await chat.say(text, next);
  await chat.tap('No', /Summary: corporate mail/);
}

const creates = () => world.sandbox.requests.filter((r) => r.method === 'POST' && r.path === MAIL_PATH);

describe('kill -9 while Confirm waits for the provider', () => {
  it('after the restart, the next update finds out what became of the order and says so', async () => {
    let bot = await startBot();
    const notCreated = new ProcessChat(world.telegram, NOT_CREATED);
    const created = new ProcessChat(world.telegram, CREATED);
    await toSummary(notCreated, '25 ящиков');
    await toSummary(created, '100 ящиков');

    world.sandbox.addFault({ method: 'POST', path: MAIL_PATH, times: 2, fault: { kind: 'hang' } });
    notCreated.press('Confirm');
    created.press('Confirm');
    await eventually(() => creates().length === 2);
    bot.child.kill('SIGKILL');
    await bot.exited;
    world.sandbox.clearFaults();
    // The provider did carry out one of the two hanging calls after all.
    const lost = creates().find((r) => (r.body as { tariff_id?: number }).tariff_id === 203);
    const made = await fetch(`${world.sandbox.url}${MAIL_PATH}?version=1.0`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-token': world.sandbox.token },
      body: JSON.stringify(lost?.body),
    });
    expect(made.status).toBe(200);
    const { order_id: orderId } = (await made.json()) as { order_id: number };

    bot = await startBot();
    try {
      // Any text first settles the interrupted Confirm: not created, the summary offered again.
      const told = await notCreated.say('hello?', /Summary: corporate mail/);
      expect(told.text).toContain('was not created');
      expect(told.text).toContain('Summary: corporate mail');
      const before = creates().length;
      const result = await notCreated.tap('Confirm', /Order created/);
      expect(result?.buttons.find((b) => b.url)?.url).toMatch(/^http/);
      expect(creates().length - before).toBe(1);

      // /cancel first looks: the order exists, so it is shown, and nothing is said to be cancelled.
      const cancelled = await created.say('/cancel', /nothing to cancel/);
      expect(cancelled.text).toContain('Order created');
      expect(cancelled.text).toContain(String(orderId));
      expect(cancelled.text).not.toContain('Nothing was sent');
      expect(cancelled.buttons.find((b) => b.url)?.url).toMatch(/^http/);
      expect(creates().length - before).toBe(1);
    } finally {
      expect((await bot.stop()).code).toBe(0);
    }
  }, 60_000);

  it('SIGTERM while the create call hangs: the partner is told, and the next process looks the order up', async () => {
    let bot = await startBot();
    const chat = new ProcessChat(world.telegram, STOPPED);
    await toSummary(chat, 'Почта: 5 ящиков');
    world.sandbox.addFault({ method: 'POST', path: MAIL_PATH, fault: { kind: 'hang' } });
    const since = world.telegram.calls.length;
    const before = creates().length;
    chat.press('Confirm');
    await eventually(() => creates().length === before + 1);
    const stopped = await bot.stop();
    expect(stopped.code).toBe(0);
    expect((await chat.after(since, /restarting/)).text).toContain('check whether it was created');
    world.sandbox.clearFaults();

    bot = await startBot();
    try {
      const told = await chat.say('so?', /Summary: corporate mail/);
      expect(told.text).toContain('was not created');
      await chat.tap('Confirm', /Order created/);
      expect(creates().length - before).toBe(2);
    } finally {
      expect((await bot.stop()).code).toBe(0);
    }
  }, 60_000);
});
