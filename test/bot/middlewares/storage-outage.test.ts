/*
 * STORAGE=redis and Redis goes away: the user is told, within seconds, that the bot's storage is
 * unavailable for a moment, in words, not "something went wrong"; and when Redis is back the bot
 * answers as before without a restart. The outage is a TCP proxy in front of the machine's Redis.
 */
import type { Redis } from 'ioredis';
import { beforeAll, describe, expect, it } from 'vitest';
import { closeRedis, connectRedis } from '../../../src/storage/redis-connection.js';
import { BotHarness, texts } from '../../helpers/bot-harness.js';
import { eventually } from '../../helpers/bot-process.js';
import { startTcpProxy, type TcpProxy } from '../../helpers/tcp-proxy.js';
import { useBot } from '../../helpers/use-bot.js';

const url = process.env.REDIS_URL;
if (!url) console.warn('REDIS_URL is not set: the storage outage story is skipped');

describe.skipIf(!url)('Redis goes away under the bot', () => {
  const prefix = `partner-bot-test:storage-outage:${process.pid}:${Date.now()}:`;
  let proxy: TcpProxy;
  let redis: Redis;

  beforeAll(async () => {
    const target = new URL(url as string);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    target.hostname = '127.0.0.1';
    target.port = String(proxy.port);
    // As main.ts builds it for STORAGE=redis.
    redis = await connectRedis({ url: target.href });
  });
  const { h: bot } = useBot({
    startWith: () => ({ redis: { redis, prefix } }),
    afterStop: async () => {
      await closeRedis(redis);
      await proxy.close();
      const direct = await connectRedis({ url: url as string });
      const keys = await direct.keys(`${prefix}*`);
      if (keys.length > 0) await direct.del(...keys);
      await closeRedis(direct);
    },
  });

  /** The text the user got for `text`, and how long the update took. */
  async function ask(text: string, languageCode: string, on = bot) {
    const started = Date.now();
    const calls = await on.send(text, { languageCode, userId: 51_001, chatId: 51_001 });
    return { said: texts(calls).join('\n'), ms: Date.now() - started };
  }

  it('says so in a few seconds, then answers again when Redis is back', async () => {
    const before = await ask('/help', 'ru');
    expect(before.said).not.toBe('');

    await proxy.cut();
    const during = await ask('/help', 'ru');
    expect(during.said).toBe('Хранилище бота временно недоступно, повторите через минуту.');
    expect(during.ms).toBeLessThan(3_000);

    await proxy.restore();
    await eventually(async () => (await ask('/help', 'ru')).said === before.said, 10_000);
  }, 30_000);

  it('says it in English where English is the language', async () => {
    // The chat lock fails before the chat's stored language can be read, so the update speaks
    // the bot's default language.
    const english = await BotHarness.start({ redis: { redis, prefix }, defaultLocale: 'en' });
    try {
      await proxy.cut();
      const during = await ask('/help', 'en', english);
      expect(during.said).toBe("The bot's storage is temporarily unavailable. Please try again in a minute.");
      expect(during.ms).toBeLessThan(3_000);
    } finally {
      await proxy.restore();
      await english.stop();
    }
  });
});
