import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BotApiServer, startBotApiServer } from '../../src/playground/bot-api/index.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import {
  type BotProcess,
  eventually,
  freePort,
  privateTextUpdate,
  startBotProcess,
} from '../helpers/bot-process.js';
import { isPostTo, seenText } from '../helpers/seen-text.js';

/*
 * Webhook mode of the real process: Telegram (the double) posts updates to the bot's own HTTP
 * server on 127.0.0.1; the secret header is enforced; answers come before slow work ends.
 */

const SECRET = 'webhook-secret-for-tests_0123456789';
const USER = 555_002;
let sandbox: Sandbox;
let telegram: BotApiServer;
let dataDir: string;
let bot: BotProcess;
let base: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  telegram = await startBotApiServer({ port: 0 });
  dataDir = await mkdtemp(join(tmpdir(), 'partner-bot-webhook-'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  bot = startBotProcess({
    BOT_TOKEN: telegram.token,
    TELEGRAM_API_ROOT: telegram.apiRoot,
    PARTNER_API_URL: sandbox.url,
    DATA_DIR: dataDir,
    PORT: String(port),
    WEBHOOK_URL: `https://127.0.0.1:${port}/tg/hook`,
    WEBHOOK_SECRET: SECRET,
    LOG_LEVEL: 'info',
  });
  await telegram.waitForCall('setWebhook', { timeoutMs: 20_000 });
}, 30_000);

afterAll(async () => {
  await bot.stop();
  await telegram.close();
  await sandbox.close();
  await rm(dataDir, { recursive: true, force: true });
});

function update(id: number, text: string) {
  return privateTextUpdate(id, USER, text, 'en');
}

function post(body: unknown, secret: string | null = SECRET) {
  return fetch(`${base}/tg/hook`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(secret ? { 'x-telegram-bot-api-secret-token': secret } : {}),
    },
    body: JSON.stringify(body),
  });
}

/** The bot's messages to the partner, text or rich (lists come as rich messages with a table). */
const repliesTo = () => telegram.calls.filter(isPostTo(USER));

describe('webhook mode', () => {
  it('registers the webhook with the secret and serves a health check', async () => {
    const setWebhook = telegram.calls.find((c) => c.method === 'setWebhook');
    expect(setWebhook?.params.secret_token).toBe(SECRET);
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', mode: 'webhook' });
  });

  it('handles updates Telegram delivers, and refuses requests without the secret', async () => {
    const since = telegram.calls.length;
    telegram.sendText('/help', { chatId: USER, userId: USER, languageCode: 'en' });
    const reply = await telegram.waitForCall((c) => c.method === 'sendMessage' && c.params.chat_id === USER, {
      since,
    });
    expect(String(reply.params.text)).toContain('What the bot does');

    const before = repliesTo().length;
    expect((await post(update(900_001, '/help'), null)).status).toBe(403);
    expect((await post(update(900_002, '/help'), 'wrong-secret-value-000000000')).status).toBe(403);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(repliesTo().length).toBe(before);
  });

  it('answers at once while the provider is slow, and a duplicate update takes effect once', async () => {
    // Connect a token through the webhook first.
    await post(update(900_010, '/token'));
    await post(update(900_011, sandbox.token));
    await eventually(() => repliesTo().some((c) => seenText(c).includes('Token checked')));

    sandbox.addFault({ path: '/v1/billing/invoices', fault: { kind: 'delay', ms: 2_000 } });
    const before = repliesTo().length;
    const started = Date.now();
    const answer = await post(update(900_020, '/invoices'));
    expect(answer.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect((await post(update(900_020, '/invoices'))).status).toBe(200);
    await eventually(() => repliesTo().length > before);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(repliesTo().length - before).toBe(1);
    const last = repliesTo().at(-1);
    expect(last && seenText(last)).toContain('Invoices');
  }, 20_000);

  it('stops on SIGTERM within 10 s', async () => {
    const { code, ms } = await bot.stop();
    expect(code).toBe(0);
    expect(ms).toBeLessThan(10_000);
    expect(bot.output()).not.toContain(SECRET);
    expect(bot.output()).not.toContain(sandbox.token);
    expect(bot.output()).not.toContain(telegram.token);
  });
});
