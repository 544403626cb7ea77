import { Buffer } from 'node:buffer';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Markup, Telegraf, Telegram, TelegramError } from 'telegraf';
import { message } from 'telegraf/filters';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type BotApiServer,
  DEFAULT_USER_ID,
  fileParam,
  RecordedFile,
  startBotApiServer,
} from '../../src/playground/bot-api/index.js';

/** Cleanups run after each test, last registered first. */
const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startDouble(): Promise<BotApiServer> {
  const double = await startBotApiServer();
  cleanups.push(() => double.close());
  return double;
}

interface RunningBot {
  bot: Telegraf;
  errors: unknown[];
  /** bot.stop() and wait for the polling loop (and its offset sync) to end. */
  stop(): Promise<void>;
}

/**
 * Launch a real telegraf bot against the double. bot.launch() resolves only when polling ends, so
 * it is not awaited: the bot is running once its first long poll reaches the double.
 */
async function launchBot(double: BotApiServer, setup: (bot: Telegraf) => void): Promise<RunningBot> {
  const bot = new Telegraf(double.token, { telegram: { apiRoot: double.apiRoot } });
  const errors: unknown[] = [];
  bot.catch((error) => {
    errors.push(error);
  });
  setup(bot);
  const since = double.calls.length;
  let failure: unknown;
  const ended = bot.launch().then(
    () => undefined,
    (error: unknown) => {
      failure = error;
    },
  );
  const polling = double.waitForCall((c) => c.method === 'getUpdates' && c.params.timeout === 50, { since });
  await Promise.race([
    polling,
    ended.then(() => Promise.reject(new Error(`launch ended: ${String(failure)}`))),
  ]);
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    bot.stop('test');
    await ended;
    if (failure !== undefined) throw failure;
  };
  cleanups.push(stop);
  return { bot, errors, stop };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

async function postJson(
  url: string,
  body: Record<string, unknown>,
): Promise<{ status: number; json: unknown }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

describe('Bot API double with a real telegraf bot', () => {
  it('serves bot.launch(): /start in, reply out; confirmed updates are not redelivered; stop and close are quick', async () => {
    const double = await startDouble();
    const started: number[] = [];
    const first = await launchBot(double, (bot) => {
      bot.start((ctx) => {
        started.push(ctx.update.update_id);
        return ctx.reply(`Привет, ${ctx.from.first_name}`);
      });
      bot.command('ping', (ctx) => ctx.reply('pong'));
    });
    expect(double.calls.slice(0, 3).map((c) => c.method)).toEqual(['getMe', 'deleteWebhook', 'getUpdates']);

    const start = double.sendText('/start');
    const startId = Number(start.update_id);
    const reply = await double.waitForCall('sendMessage');
    expect(reply.params).toMatchObject({ chat_id: DEFAULT_USER_ID, text: 'Привет, Test' });
    expect(reply.response).toMatchObject({
      ok: true,
      result: { chat: { id: DEFAULT_USER_ID }, text: 'Привет, Test' },
    });

    // The next poll carries offset = id + 1, which confirms /start for good.
    await double.waitForCall((c) => c.method === 'getUpdates' && c.params.offset === startId + 1);
    expect(double.confirmedUpdateIds()).toEqual([startId]);

    const ping = double.sendText('/ping');
    await double.waitForCall((c) => c.method === 'sendMessage' && c.params.text === 'pong');
    expect(started).toEqual([startId]);

    const stopping = Date.now();
    await first.stop();
    expect(Date.now() - stopping).toBeLessThan(1000);
    expect(double.confirmedUpdateIds()).toEqual([startId, Number(ping.update_id)]);
    expect(double.pendingUpdates()).toEqual([]);

    // A restarted bot gets only what came after: nothing handled before is delivered again.
    const texts: string[] = [];
    const second = await launchBot(double, (bot) => {
      bot.on(message('text'), (ctx) => {
        texts.push(ctx.message.text);
        return ctx.reply('ok');
      });
    });
    double.sendText('hello again');
    await double.waitForCall((c) => c.method === 'sendMessage' && c.params.text === 'ok');
    expect(texts).toEqual(['hello again']);
    await second.stop();
    expect(first.errors).toEqual([]);
    expect(second.errors).toEqual([]);

    const closing = Date.now();
    await double.close();
    expect(Date.now() - closing).toBeLessThan(500);
  });

  it('answers a callback press with answerCallbackQuery and editMessageText on the pressed message', async () => {
    const double = await startDouble();
    await launchBot(double, (bot) => {
      bot.command('menu', (ctx) =>
        ctx.reply('Choose', Markup.inlineKeyboard([Markup.button.callback('Invoices', 'v1:inv')])),
      );
      bot.action('v1:inv', async (ctx) => {
        await ctx.answerCbQuery('Loading');
        await ctx.editMessageText('Invoices: none');
      });
    });

    double.sendText('/menu');
    const menu = await double.waitForCall('sendMessage');
    // Recorded as sent (telegraf adds `hide: false`); the message keeps only what Telegram knows.
    expect(menu.params.reply_markup).toEqual({
      inline_keyboard: [[{ text: 'Invoices', callback_data: 'v1:inv', hide: false }]],
    });
    const menuMessage = menu.response?.ok ? (menu.response.result as Record<string, unknown>) : {};
    expect(menuMessage.reply_markup).toEqual({
      inline_keyboard: [[{ text: 'Invoices', callback_data: 'v1:inv' }]],
    });

    const press = double.pressButton('v1:inv');
    const callbackQuery = press.callback_query as Record<string, unknown>;
    expect(callbackQuery.message).toMatchObject({ message_id: menuMessage.message_id, text: 'Choose' });

    const answer = await double.waitForCall('answerCallbackQuery');
    expect(answer.params).toMatchObject({ callback_query_id: callbackQuery.id, text: 'Loading' });
    expect(answer.response?.ok).toBe(true);
    const edit = await double.waitForCall('editMessageText');
    expect(edit.params).toMatchObject({
      chat_id: DEFAULT_USER_ID,
      message_id: menuMessage.message_id,
      text: 'Invoices: none',
    });
    expect(edit.response?.ok).toBe(true);

    // What the user sees now: their command and the edited message, whose keyboard is gone.
    const visible = double.visibleMessages(DEFAULT_USER_ID);
    expect(visible.map((m) => m.text)).toEqual(['/menu', 'Invoices: none']);
    expect(visible[1]?.reply_markup).toBeUndefined();
  });

  it('records ctx.replyWithDocument as multipart: file name and content, reply_markup parsed, chat_id a number', async () => {
    const double = await startDouble();
    const zone = Buffer.from('example.com. 3600 IN A 192.0.2.1\n', 'utf8');
    await launchBot(double, (bot) => {
      bot.command('export', (ctx) =>
        ctx.replyWithDocument(
          { source: zone, filename: 'example.com.zone' },
          { caption: 'Zone file', ...Markup.inlineKeyboard([Markup.button.callback('Back', 'v1:back')]) },
        ),
      );
    });

    double.sendText('/export');
    const upload = await double.waitForCall('sendDocument');
    const file = fileParam(upload, 'document');
    expect(file).toBeInstanceOf(RecordedFile);
    expect(file.filename).toBe('example.com.zone');
    expect(file.content.equals(zone)).toBe(true);
    expect(file.text()).toBe('example.com. 3600 IN A 192.0.2.1\n');
    expect(upload.params).toMatchObject({
      chat_id: DEFAULT_USER_ID,
      caption: 'Zone file',
      reply_markup: { inline_keyboard: [[{ text: 'Back', callback_data: 'v1:back', hide: false }]] },
    });
    expect(upload.params).not.toHaveProperty('method');
    expect(upload.response).toMatchObject({
      ok: true,
      result: { document: { file_name: 'example.com.zone', file_size: zone.length }, caption: 'Zone file' },
    });
  });

  it("lets the bot download a user's document through getFileLink and fetch", async () => {
    const double = await startDouble();
    await launchBot(double, (bot) => {
      bot.on(message('document'), async (ctx) => {
        const link = await ctx.telegram.getFileLink(ctx.message.document.file_id);
        const res = await fetch(link);
        const text = await res.text();
        await ctx.reply(`${ctx.message.document.file_name ?? '?'} (${res.status}): ${text}`);
      });
    });

    double.sendDocument('a 300 A 192.0.2.7', 'records.txt', { caption: 'import' });
    const reply = await double.waitForCall('sendMessage');
    expect(reply.params.text).toBe('records.txt (200): a 300 A 192.0.2.7');
    const getFile = await double.waitForCall('getFile');
    expect(getFile.response).toMatchObject({
      ok: true,
      result: { file_path: 'documents/file_1.txt', file_size: 17 },
    });
  });

  it('makes failNext errors visible to the caller as TelegramError, then recovers', async () => {
    const double = await startDouble();
    const telegram = new Telegram(double.token, { apiRoot: double.apiRoot });

    double.failNext('sendMessage', {
      error_code: 429,
      description: 'Too Many Requests: retry after 7',
      parameters: { retry_after: 7 },
    });
    const error = await rejection(telegram.sendMessage(DEFAULT_USER_ID, 'hi'));
    expect(error).toBeInstanceOf(TelegramError);
    const telegramError = error as TelegramError;
    expect(telegramError.code).toBe(429);
    expect(telegramError.parameters?.retry_after).toBe(7);
    expect(telegramError.description).toBe('Too Many Requests: retry after 7');

    const sent = await telegram.sendMessage(DEFAULT_USER_ID, 'hi');
    expect(sent.text).toBe('hi');

    double.failNext(
      'deleteMessage',
      { error_code: 400, description: "Bad Request: message can't be deleted" },
      2,
    );
    for (let i = 0; i < 2; i += 1) {
      const failed = await rejection(telegram.deleteMessage(DEFAULT_USER_ID, sent.message_id));
      expect(failed).toMatchObject({ code: 400, description: "Bad Request: message can't be deleted" });
    }
    await expect(telegram.deleteMessage(DEFAULT_USER_ID, sent.message_id)).resolves.toBe(true);
    const again = await rejection(telegram.deleteMessage(DEFAULT_USER_ID, sent.message_id));
    expect(again).toMatchObject({ code: 400, description: 'Bad Request: message to delete not found' });
  });

  it('answers a wrong token with 401, on methods, on launch and on file downloads', async () => {
    const double = await startDouble();
    const wrong = new Telegram('123456:not-the-token', { apiRoot: double.apiRoot });
    const error = await rejection(wrong.getMe());
    expect(error).toBeInstanceOf(TelegramError);
    expect(error).toMatchObject({ code: 401, description: 'Unauthorized' });

    const bot = new Telegraf('123456:not-the-token', { telegram: { apiRoot: double.apiRoot } });
    await expect(bot.launch()).rejects.toMatchObject({ code: 401 });

    const file = await fetch(`${double.apiRoot}/file/bot123456:not-the-token/documents/file_1.txt`);
    expect(file.status).toBe(401);
    expect(double.calls).toEqual([]);

    const unknown = await postJson(`${double.apiRoot}/bot${double.token}/sendTelepathy`, {});
    expect(unknown).toEqual({
      status: 404,
      json: { ok: false, error_code: 404, description: 'Not Found: method not found' },
    });
  });
});

describe('Bot API double long polling rules', () => {
  it('terminates the older waiting getUpdates with 409 when another one arrives', async () => {
    const double = await startDouble();
    const url = `${double.apiRoot}/bot${double.token}/getUpdates`;
    const older = postJson(url, { timeout: 5 });
    await double.waitForCall('getUpdates');
    const newer = postJson(url, { timeout: 5 });
    expect(await older).toEqual({
      status: 409,
      json: {
        ok: false,
        error_code: 409,
        description:
          'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
      },
    });
    await double.waitForCall('getUpdates', { since: 1 });
    const update = double.sendText('hi');
    expect(await newer).toEqual({ status: 200, json: { ok: true, result: [update] } });
  });

  it('ends a waiting long poll promptly on close()', async () => {
    const double = await startBotApiServer();
    const poll = postJson(`${double.apiRoot}/bot${double.token}/getUpdates`, { timeout: 50 });
    await double.waitForCall('getUpdates');
    const closing = Date.now();
    await double.close();
    expect(await poll).toEqual({ status: 200, json: { ok: true, result: [] } });
    expect(Date.now() - closing).toBeLessThan(500);
  });

  it('rejects an edit that changes nothing, as Telegram does', async () => {
    const double = await startDouble();
    const telegram = new Telegram(double.token, { apiRoot: double.apiRoot });
    const sent = await telegram.sendMessage(DEFAULT_USER_ID, 'Same');
    const error = await rejection(
      telegram.editMessageText(DEFAULT_USER_ID, sent.message_id, undefined, 'Same'),
    );
    expect(error).toMatchObject({ code: 400 });
    expect((error as TelegramError).description).toMatch(/^Bad Request: message is not modified/);
  });
});

describe('Bot API double webhook delivery', () => {
  it('POSTs updates to a loopback webhook and records telegraf webhook replies', async () => {
    const double = await startDouble();
    const bot = new Telegraf(double.token, { telegram: { apiRoot: double.apiRoot } });
    bot.start((ctx) => ctx.reply('Hi', Markup.inlineKeyboard([Markup.button.callback('Go', 'v1:go')])));
    bot.action('v1:go', (ctx) => ctx.answerCbQuery('Done'));

    let route: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
    const server = createServer((req, res) => {
      if (route) route(req, res);
      else res.writeHead(503).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    );
    const { port } = server.address() as AddressInfo;
    const callback = await bot.createWebhook({
      domain: `127.0.0.1:${port}`,
      path: '/hook',
      secret_token: 'sekret',
    });
    route = (req, res) => {
      void callback(req, res);
    };
    const setWebhook = await double.waitForCall('setWebhook');
    expect(setWebhook.params).toMatchObject({
      url: `https://127.0.0.1:${port}/hook`,
      secret_token: 'sekret',
    });

    const start = double.sendText('/start');
    const reply = await double.waitForCall('sendMessage');
    expect(reply).toMatchObject({ via: 'request', params: { chat_id: DEFAULT_USER_ID, text: 'Hi' } });

    // telegraf puts answerCbQuery in the webhook response body instead of making a request.
    const press = double.pressButton('v1:go');
    const answer = await double.waitForCall('answerCallbackQuery');
    expect(answer).toMatchObject({
      via: 'webhook-reply',
      params: { text: 'Done' },
      response: { ok: true, result: true },
    });
    expect(answer.params.callback_query_id).toBe((press.callback_query as Record<string, unknown>).id);

    const poll = await postJson(`${double.apiRoot}/bot${double.token}/getUpdates`, {});
    expect(poll.status).toBe(409);
    await expect.poll(() => double.confirmedUpdateIds()).toEqual([start.update_id, press.update_id]);
  });
});
