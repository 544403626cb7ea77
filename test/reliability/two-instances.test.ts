import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { createKeyring } from '../../src/storage/crypto.js';
import { BotHarness, texts } from '../helpers/bot-harness.js';
import { startTwoInstances, type TwoInstances } from '../helpers/two-instances.js';

const url = process.env.REDIS_URL;
if (!url) console.warn('REDIS_URL is not set: the two-instance test is skipped');

describe.skipIf(!url)('two bot instances on one Redis', () => {
  let sandbox: Sandbox;
  let a: BotHarness;
  let b: BotHarness;
  let pair: TwoInstances;

  beforeAll(async () => {
    pair = await startTwoInstances({
      url: url as string,
      prefix: `partner-bot-two:${process.pid}:${Date.now()}:`,
    });
    ({ sandbox, a, b } = pair);
  });

  afterAll(async () => {
    await pair.stop();
  });

  it('50 chats whose updates alternate between the instances: every step sees the one before', async () => {
    const url5001 = await a.api().getInvoiceUrl(5001);
    const chats = Array.from({ length: 50 }, (_, i) => 60_000 + i);
    await Promise.all(
      chats.map(async (chat) => {
        const user = { userId: chat, chatId: chat };
        // The token step starts on one instance and is answered on the other: the scene state
        // written by A must be what B reads, and the token B stores must be what A uses.
        await a.send('/token', user);
        await b.send(sandbox.token, user);
        const link = texts(await a.send('/invoice 5001', user)).join('\n');
        expect(link).toContain(url5001);
        await b.send('/lang en', user);
        const welcome = texts(await a.send('/start', user)).join('\n');
        expect(welcome).toContain('Welcome back');
      }),
    );
    // Both instances answered; none of the 250 updates was lost or taken twice.
    const replies = [...a.calls, ...b.calls].filter((c) => c.method === 'sendMessage');
    expect(replies.length).toBe(250);
  }, 60_000);
});

describe.skipIf(!url)('one chat, two instances, updates moments apart', () => {
  let sandbox: Sandbox;
  const connections: Redis[] = [];
  const prefix = `partner-bot-order:${process.pid}:${Date.now()}:`;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
  });

  afterAll(async () => {
    await sandbox.close();
    const [first] = connections;
    const keys = (await first?.keys(`${prefix}*`)) ?? [];
    if (keys.length > 0) await first?.del(...keys);
    for (const c of connections) c.disconnect();
  });

  /** How many of 30 chats connect their token when `/token` reaches one instance 20 ms after the token. */
  async function connectedChats(reorderWindowMs: number, base: number): Promise<number> {
    const pair = [new Redis(url as string), new Redis(url as string)] as const;
    connections.push(...pair);
    const keyring = createKeyring([{ id: 'shared', key: Buffer.alloc(32, 5) }]);
    const [a, b] = await Promise.all(
      pair.map((redis) =>
        BotHarness.start({
          sandbox,
          keyring,
          redis: { redis, prefix: `${prefix}${base}:`, reorderWindowMs },
        }),
      ),
    );
    if (!a || !b) throw new Error('no harness');
    try {
      const chats = Array.from({ length: 30 }, (_, i) => base + i);
      const saved = await Promise.all(
        chats.map(async (chat, i) => {
          const user = { userId: chat, chatId: chat };
          const id = 1_000 + i * 2;
          // Telegram numbered /token before the token; instance B happens to receive its update first.
          const [tokenReply] = await Promise.all([
            b.send(sandbox.token, { ...user, updateId: id + 1 }),
            sleep(20).then(() => a.send('/token', { ...user, updateId: id })),
          ]);
          return texts(tokenReply).join('\n').includes('Токен проверен и сохранён');
        }),
      );
      return saved.filter(Boolean).length;
    } finally {
      await a.stop();
      await b.stop();
    }
  }

  it('keeps update-id order across instances: all 30 chats connect (without the window, most do not)', async () => {
    expect(await connectedChats(150, 80_000)).toBe(30);
  }, 60_000);

  it('the check can fail: with no reorder window the later update overtakes the earlier one', async () => {
    expect(await connectedChats(0, 90_000)).toBeLessThan(30);
  }, 60_000);
});
