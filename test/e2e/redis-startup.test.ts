import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BotApiServer, startBotApiServer } from '../../src/playground/bot-api/index.js';
import { freePort, startBotProcess } from '../helpers/bot-process.js';

/*
 * STORAGE=redis with a Redis that is not there: the real process says so in one line and exits 1
 * within seconds, instead of starting a bot whose every update hangs and fails.
 */

let telegram: BotApiServer;
let dataDir: string;

beforeAll(async () => {
  telegram = await startBotApiServer({ port: 0 });
  dataDir = await mkdtemp(join(tmpdir(), 'partner-bot-redis-start-'));
});
afterAll(async () => {
  await telegram.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('start with STORAGE=redis', () => {
  it('exits 1 within 5 s with one clear line when Redis is not reachable, never the password', async () => {
    const port = await freePort();
    const started = Date.now();
    const bot = startBotProcess({
      BOT_TOKEN: telegram.token,
      TELEGRAM_API_ROOT: telegram.apiRoot,
      PARTNER_API_URL: 'http://127.0.0.1:9/',
      DATA_DIR: dataDir,
      PORT: '0',
      STORAGE: 'redis',
      REDIS_URL: `redis://default:redis-pass-0123456789@127.0.0.1:${port}/0`,
      ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
      LOG_LEVEL: 'info',
    });
    const timeout = setTimeout(() => bot.child.kill('SIGKILL'), 10_000);
    const code = await bot.exited;
    clearTimeout(timeout);
    expect(code).toBe(1);
    expect(Date.now() - started).toBeLessThan(5_000);
    const output = bot.output().trim();
    expect(output).toBe(
      `Redis at redis://127.0.0.1:${port} is not reachable: connect ECONNREFUSED 127.0.0.1:${port}`,
    );
    expect(output).not.toContain('redis-pass');
    // It never got as far as Telegram.
    expect(telegram.calls.map((c) => c.method)).toEqual([]);
  });

  it('refuses STORAGE=redis without ENCRYPTION_KEYS before touching anything', async () => {
    const bot = startBotProcess({
      BOT_TOKEN: telegram.token,
      TELEGRAM_API_ROOT: telegram.apiRoot,
      PARTNER_API_URL: 'http://127.0.0.1:9/',
      DATA_DIR: dataDir,
      STORAGE: 'redis',
      REDIS_URL: 'redis://127.0.0.1:6379',
    });
    expect(await bot.exited).toBe(1);
    expect(bot.output()).toContain('ENCRYPTION_KEYS is required when STORAGE=redis');
  });
});
