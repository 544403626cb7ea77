/*
 * The playground page's files over real HTTP: every ES module of the page folder is served as
 * JavaScript (the browser refuses a module of another type), and nothing outside the folder's own
 * files is reachable, however the path is spelled. And the page's press action: a disabled button
 * or another member's ephemeral message is refused there, and nothing reaches the bot.
 */
import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BotApiServer, startBotApiServer } from '../../src/playground/bot-api/index.js';
import { CHATS, PEOPLE, TEAM_GROUP } from '../../src/playground/people.js';
import { type PlaygroundWeb, startPlaygroundWeb } from '../../src/playground/web.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';

const PAGE_DIR = join('src', 'playground', 'page');

/** A GET with the path sent exactly as written (fetch would resolve `..` before sending it). */
function get(url: string, rawPath: string): Promise<{ status: number; type: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { path: rawPath }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'] });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the playground page over HTTP', () => {
  let botApi: BotApiServer;
  let sandbox: Sandbox;
  let web: PlaygroundWeb;

  beforeAll(async () => {
    botApi = await startBotApiServer({ port: 0 });
    botApi.defineChat(TEAM_GROUP);
    sandbox = await startSandbox({ port: 0 });
    web = await startPlaygroundWeb({ port: 0, botApi, sandbox, chats: CHATS, people: PEOPLE });
  });

  afterAll(async () => {
    await web?.close();
    await sandbox?.close();
    await botApi?.close();
  });

  it('serves every module of the page folder as JavaScript, with its content', async () => {
    const modules = readdirSync(PAGE_DIR).filter((name) => name.endsWith('.js'));
    expect(modules.length).toBeGreaterThan(0);
    for (const name of modules) {
      const response = await fetch(`${web.url}${name}`);
      expect(response.status, name).toBe(200);
      expect(response.headers.get('content-type'), name).toBe('text/javascript; charset=utf-8');
      expect(response.headers.get('cache-control'), name).toBe('no-store');
    }
  });

  it('serves the page at / and its style sheet', async () => {
    expect((await get(web.url, '/')).type).toBe('text/html; charset=utf-8');
    expect((await get(web.url, '/style.css')).type).toBe('text/css; charset=utf-8');
  });

  it('answers 404 for any path that is not one of the folder’s files', async () => {
    for (const path of [
      '/../web.ts',
      '/..%2fweb.ts',
      '/%2e%2e/web.ts',
      '/page/index.html',
      '/missing.js',
      '/__proto__',
      '/constructor',
      '/.%2e/.%2e/package.json',
    ]) {
      expect((await get(web.url, path)).status, path).toBe(404);
    }
  });

  const press = async (body: Record<string, unknown>) => {
    const response = await fetch(`${web.url}api/press`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ lang: 'ru', ...body }),
    });
    return { status: response.status, body: (await response.json()) as { error?: string } };
  };

  /** A bot call to the double at the address the page's state gives, as a browser test makes it. */
  const asBot = async (method: string, params: Record<string, unknown>) => {
    const state = (await (await fetch(`${web.url}api/state`)).json()) as {
      botApi: { apiRoot: string; token: string };
    };
    const response = await fetch(`${state.botApi.apiRoot}/bot${state.botApi.token}/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(params),
    });
    const answer = (await response.json()) as { ok: boolean; result: Record<string, unknown> };
    expect(answer.ok, JSON.stringify(answer)).toBe(true);
    return answer.result;
  };

  it('names the local Bot API server in its state, so a test can act as the bot', async () => {
    const state = (await (await fetch(`${web.url}api/state`)).json()) as { botApi: unknown };
    expect(state.botApi).toEqual({ apiRoot: botApi.apiRoot, token: botApi.token });
  });

  it('refuses a press on a disabled button: 409, and no update for the bot', async () => {
    const [partner] = PEOPLE;
    const sent = await asBot('sendMessage', {
      chat_id: partner?.id,
      text: 'Выбор',
      reply_markup: {
        inline_keyboard: [
          [
            { text: 'Скоро', disabled: {} },
            { text: 'Сейчас', callback_data: 'v1:now' },
          ],
        ],
      },
    });
    const before = botApi.pendingUpdates().length;
    const where = { chatId: partner?.id, userId: partner?.id, messageId: sent.message_id };
    const refused = await press({ ...where, text: 'Скоро' });
    expect(refused).toEqual({ status: 409, body: { error: 'the button "Скоро" is disabled' } });
    expect(botApi.pendingUpdates()).toHaveLength(before);
    const pressed = await press({ ...where, text: 'Сейчас', data: 'v1:now' });
    expect(pressed.status).toBe(200);
    const query = botApi.pendingUpdates().at(-1)?.callback_query as { id: string; data: string };
    expect(query.data).toBe('v1:now');
    expect(pressed.body).toEqual({ callbackQueryId: query.id });
  });

  it('lets only the receiver press an ephemeral message’s button', async () => {
    const [owner, tech] = PEOPLE;
    const sent = await asBot('sendMessage', {
      chat_id: TEAM_GROUP.id,
      text: 'Только Ольге',
      ephemeral_message_parameters: { receiver_user_id: tech?.id },
      reply_markup: { inline_keyboard: [[{ text: 'Ок', callback_data: 'v1:ok' }]] },
    });
    const before = botApi.pendingUpdates().length;
    const where = {
      chatId: TEAM_GROUP.id,
      ephemeralMessageId: sent.ephemeral_message_id,
      text: 'Ок',
      data: 'v1:ok',
    };
    const refused = await press({ ...where, userId: owner?.id });
    expect(refused).toEqual({
      status: 409,
      body: { error: 'only the receiver of an ephemeral message can press its buttons' },
    });
    expect(botApi.pendingUpdates()).toHaveLength(before);
    expect((await press({ ...where, userId: tech?.id })).status).toBe(200);
    expect(botApi.pendingUpdates().at(-1)?.callback_query).toMatchObject({
      from: { id: tech?.id },
      message: { message_id: 0, ephemeral_message_id: sent.ephemeral_message_id },
    });
  });

  it('sends a prepared message only to a chat of its user of an allowed type, and says why not', async () => {
    const post = async (action: string, body: Record<string, unknown>) => {
      const response = await fetch(`${web.url}api/${action}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const saved = await fetch(`${botApi.apiRoot}/bot${botApi.token}/savePreparedInlineMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        user_id: PEOPLE[0]?.id,
        result: {
          type: 'article',
          id: 'invoice-7',
          title: 'Счёт 7',
          input_message_content: { message_text: 'Счёт 7' },
        },
        allow_user_chats: true,
      }),
    });
    const { result } = (await saved.json()) as { result: { id: string } };
    const partner = PEOPLE[0]?.id ?? 0;
    const client = CHATS.find((c) => c.kind === 'private' && c.id !== partner)?.id ?? 0;
    await expect(post('prepared', { id: result.id, userId: partner })).resolves.toEqual({
      status: 200,
      body: { allowed: { user: true, bot: false, group: false, channel: false } },
    });
    await expect(post('prepared', { id: 'nope', userId: partner })).resolves.toEqual({
      status: 409,
      body: { error: 'MESSAGE_EXPIRED' },
    });
    // The group (not allowed), a chat the user is not in, the bot's own chat (not allowed).
    for (const [userId, chatId] of [
      [partner, TEAM_GROUP.id],
      [PEOPLE[1]?.id ?? 0, client],
      [partner, partner],
    ]) {
      await expect(post('sendPrepared', { id: result.id, userId, chatId })).resolves.toEqual({
        status: 409,
        body: { error: 'MESSAGE_SEND_FAILED' },
      });
    }
    const before = botApi.pendingUpdates().length;
    await expect(post('sendPrepared', { id: result.id, userId: partner, chatId: client })).resolves.toEqual({
      status: 200,
      body: {},
    });
    expect(botApi.visibleMessages(client).at(-1)).toMatchObject({
      text: 'Счёт 7',
      via_bot: { is_bot: true },
    });
    expect(botApi.pendingUpdates().slice(before)).toMatchObject([
      { chosen_inline_result: { result_id: 'invoice-7', query: '', from: { id: partner } } },
    ]);
  });
});
