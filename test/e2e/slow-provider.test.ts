import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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
 * A slow provider, on the real process (`node dist/main.js`) over the local Bot API double: one
 * chat's provider call hanging 70 s holds up no other chat in long polling (the default mode) or
 * in webhook mode, that chat's own later message still comes after its first, and a SIGTERM
 * during such a call tells the partner and exits 0 within 10 s.
 */

const HANG_MS = 70_000;
const OTHER_CHATS = 20;
const SECRET = 'slow-provider-secret_0123456789';

/** One test's own provider and Telegram: their faults and webhooks never meet, so tests run side by side. */
interface World {
  sandbox: Sandbox;
  telegram: BotApiServer;
}

const cleanups: (() => Promise<unknown>)[] = [];

afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

async function newWorld(): Promise<World> {
  const sandbox = await startSandbox({ port: 0 });
  const telegram = await startBotApiServer({ port: 0 });
  cleanups.push(
    () => telegram.close(),
    () => sandbox.close(),
  );
  return { sandbox, telegram };
}

async function startBot(
  { sandbox, telegram }: World,
  extra: Record<string, string> = {},
): Promise<BotProcess> {
  const dir = await mkdtemp(join(tmpdir(), 'partner-bot-slow-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return startBotProcess({
    BOT_TOKEN: telegram.token,
    TELEGRAM_API_ROOT: telegram.apiRoot,
    PARTNER_API_URL: sandbox.url,
    // Longer than the hang: the call really waits 70 s instead of timing out.
    PARTNER_API_TIMEOUT_MS: '90000',
    DATA_DIR: dir,
    PORT: '0',
    LOG_LEVEL: 'info',
    // These stories are about chats' handlers; the watchers' own polls would take the faults too.
    NOTIFY_INTERVAL_S: '0',
    ...extra,
  });
}

/** A message to the chat, text or rich (the invoice list is a rich message with a table). */
const isReplyTo = isPostTo;

/** Connects the sandbox token in a chat through the bot, as a partner does. */
async function connect(
  { sandbox, telegram }: World,
  chatId: number,
  send: (text: string) => Promise<void>,
): Promise<void> {
  let since = telegram.calls.length;
  await send('/token');
  await telegram.waitForCall(isReplyTo(chatId), { since, timeoutMs: 15_000 });
  since = telegram.calls.length;
  await send(sandbox.token);
  const saved = await telegram.waitForCall(isReplyTo(chatId), { since, timeoutMs: 15_000 });
  expect(seenText(saved)).toContain('Токен проверен и сохранён');
}

/**
 * Chat `slow` asks for its invoices while the provider hangs on that call, then sends /help; 20
 * other chats send /help meanwhile. Returns how long each other chat waited, and the slow chat's
 * replies in the order they were sent.
 */
async function hangOneChat(
  { sandbox, telegram }: World,
  slow: number,
  send: (chatId: number, text: string) => Promise<void>,
) {
  sandbox.addFault({ path: '/v1/billing/invoices', fault: { kind: 'delay', ms: HANG_MS } });
  const before = sandbox.requests.length;
  const since = telegram.calls.length;
  await send(slow, '/invoices');
  await eventually(() => sandbox.requests.slice(before).some((r) => r.path === '/v1/billing/invoices'));
  await send(slow, '/help');

  const waits = await Promise.all(
    Array.from({ length: OTHER_CHATS }, async (_, i) => {
      const chat = slow + 1 + i;
      const from = telegram.calls.length;
      const sent = Date.now();
      await send(chat, '/help');
      const reply = await telegram.waitForCall(isReplyTo(chat), { since: from, timeoutMs: 10_000 });
      return reply.at - sent;
    }),
  );

  // The slow chat: the invoice list after ~70 s, and only then the answer to its /help.
  await eventually(() => telegram.calls.slice(since).filter(isReplyTo(slow)).length >= 2, HANG_MS + 15_000);
  const replies = telegram.calls.slice(since).filter(isReplyTo(slow)).map(seenText);
  return { waits, replies };
}

describe.concurrent('one chat hangs on the provider for 70 s', () => {
  it('long polling: 20 other chats are each answered in under 1 s; the slow chat keeps its order', async () => {
    const world = await newWorld();
    const { telegram } = world;
    const bot = await startBot(world);
    try {
      const slow = 710_000;
      const send = async (chatId: number, text: string) => {
        telegram.sendText(text, { chatId, userId: chatId, languageCode: 'ru' });
      };
      await connect(world, slow, (text) => send(slow, text));
      const { waits, replies } = await hangOneChat(world, slow, send);
      expect(waits).toHaveLength(OTHER_CHATS);
      expect(Math.max(...waits)).toBeLessThan(1_000);
      expect(replies[0]).toContain('Счета');
      expect(replies[1]).toContain('/invoice');
    } finally {
      await bot.stop();
    }
  }, 150_000);

  it('webhook mode: the same', async () => {
    const port = await freePort();
    const world = await newWorld();
    const { telegram } = world;
    const bot = await startBot(world, {
      PORT: String(port),
      WEBHOOK_URL: `https://127.0.0.1:${port}/tg/hook`,
      WEBHOOK_SECRET: SECRET,
    });
    try {
      await telegram.waitForCall('setWebhook', { timeoutMs: 20_000 });
      let nextId = 900_000;
      const send = async (chatId: number, text: string) => {
        const response = await fetch(`http://127.0.0.1:${port}/tg/hook`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': SECRET },
          body: JSON.stringify(privateTextUpdate(nextId++, chatId, text)),
        });
        expect(response.status).toBe(200);
      };
      const slow = 720_000;
      await connect(world, slow, (text) => send(slow, text));
      const { waits, replies } = await hangOneChat(world, slow, send);
      expect(Math.max(...waits)).toBeLessThan(1_000);
      expect(replies[0]).toContain('Счета');
      expect(replies[1]).toContain('/invoice');
    } finally {
      await bot.stop();
    }
  }, 150_000);
});

describe('SIGTERM while a provider call hangs', () => {
  it('tells the partner the bot is restarting and exits 0 within 10 s', async () => {
    const world = await newWorld();
    const { sandbox, telegram } = world;
    const bot = await startBot(world);
    const chat = 730_000;
    const send = async (text: string) => {
      telegram.sendText(text, { chatId: chat, userId: chat, languageCode: 'ru' });
    };
    await connect(world, chat, send);
    sandbox.addFault({ path: '/v1/billing/payments', fault: { kind: 'delay', ms: HANG_MS } });
    const before = sandbox.requests.length;
    const since = telegram.calls.length;
    await send('/payments');
    await eventually(() => sandbox.requests.slice(before).some((r) => r.path === '/v1/billing/payments'));
    const { code, ms } = await bot.stop();
    expect(code).toBe(0);
    expect(ms).toBeLessThan(10_000);
    const told = telegram.calls.slice(since).filter(isReplyTo(chat));
    expect(told.map(seenText).join('\n')).toContain('Бот перезапускается');
    expect(bot.output()).not.toContain('graceful stop took too long');
  }, 60_000);
});
