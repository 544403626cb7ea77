import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { createKeyring } from '../../src/storage/crypto.js';
import { BotHarness, texts } from '../helpers/bot-harness.js';

const url = process.env.REDIS_URL;
if (!url) console.warn('REDIS_URL is not set: the two-instance test is skipped');

describe.skipIf(!url)('two bot instances on one Redis', () => {
  let sandbox: Sandbox;
  let a: BotHarness;
  let b: BotHarness;
  let connections: Redis[];
  const prefix = `partner-bot-two:${process.pid}:${Date.now()}:`;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    connections = [new Redis(url as string), new Redis(url as string)];
    const keyring = createKeyring([{ id: 'shared', key: Buffer.alloc(32, 3) }]);
    const [ra, rb] = connections as [Redis, Redis];
    a = await BotHarness.start({ sandbox, keyring, redis: { redis: ra, prefix }, firstUpdateId: 1 });
    b = await BotHarness.start({ sandbox, keyring, redis: { redis: rb, prefix }, firstUpdateId: 5_000_000 });
  });

  afterAll(async () => {
    await a.stop();
    await b.stop();
    await sandbox.close();
    const [first] = connections;
    const keys = (await first?.keys(`${prefix}*`)) ?? [];
    if (keys.length > 0) await first?.del(...keys);
    for (const c of connections) c.disconnect();
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
