/**
 * The local Bot API server's prepared inline messages (savePreparedInlineMessage, Bot API 8.0) and
 * the menu button (setChatMenuButton / getChatMenuButton), as Telegram answers them; and a prepared
 * message sent by its user into a chat: posted "via @bot" as a picked inline result is, with a
 * chosen_inline_result for the bot.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  type BotApiServer,
  DEFAULT_USER_ID,
  PREPARED_MESSAGE_TTL_S,
  PreparedRefused,
  startBotApiServer,
} from '../../src/playground/bot-api/index.js';
import { call, result } from '../helpers/bot-api-call.js';

const servers: BotApiServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function start(now?: () => number): Promise<BotApiServer> {
  const server = await startBotApiServer(now ? { now } : {});
  servers.push(server);
  return server;
}

const USER = DEFAULT_USER_ID;
const CLIENT_CHAT = 200_002;

/** The card inline mode sends: an article with a Pay button. */
const CARD = {
  type: 'article',
  id: 'invoice-1001',
  title: 'Счёт 1001',
  input_message_content: { message_text: '<b>Счёт 1001</b>: 120 BYN', parse_mode: 'HTML' },
  reply_markup: { inline_keyboard: [[{ text: 'Оплатить', url: 'https://pay.example/1001' }]] },
};

describe('savePreparedInlineMessage', () => {
  it('stores the result for its user and answers PreparedInlineMessage, valid for 24 hours', async () => {
    const now = 1_790_000_000_000;
    const server = await start(() => now);
    const prepared = await result(server, 'savePreparedInlineMessage', {
      user_id: USER,
      result: CARD,
      allow_user_chats: true,
      allow_group_chats: true,
    });
    expect(prepared).toEqual({
      id: expect.stringMatching(/^[\w-]+$/),
      expiration_date: now / 1000 + PREPARED_MESSAGE_TTL_S,
    });
    expect(PREPARED_MESSAGE_TTL_S).toBe(86_400);
    expect(server.preparedMessage(String(prepared.id), USER)).toEqual({
      user: true,
      bot: false,
      group: true,
      channel: false,
    });
    // Another user's, an unknown one: as the Mini App is told.
    expect(() => server.preparedMessage(String(prepared.id), USER + 1)).toThrow(PreparedRefused);
    expect(() => server.preparedMessage('nope', USER)).toThrow('MESSAGE_EXPIRED');
  });

  it('refuses as Telegram: no chat type allowed, a result answerInlineQuery would refuse, no user', async () => {
    const server = await start();
    await expect(call(server, 'savePreparedInlineMessage', { user_id: USER, result: CARD })).resolves.toEqual(
      {
        ok: false,
        error_code: 400,
        description: 'Bad Request: at least one chat type must be allowed',
      },
    );
    await expect(
      call(server, 'savePreparedInlineMessage', {
        user_id: USER,
        result: { ...CARD, input_message_content: { message_text: ' ' } },
        allow_user_chats: true,
      }),
    ).resolves.toMatchObject({ ok: false, description: 'Bad Request: MESSAGE_EMPTY' });
    await expect(
      call(server, 'savePreparedInlineMessage', {
        user_id: USER,
        result: { ...CARD, title: '' },
        allow_user_chats: true,
      }),
    ).resolves.toMatchObject({ ok: false, description: 'Bad Request: RESULT_TITLE_EMPTY' });
    await expect(
      call(server, 'savePreparedInlineMessage', { user_id: USER, allow_user_chats: true }),
    ).resolves.toMatchObject({ ok: false, description: 'Bad Request: parameter "result" is required' });
    await expect(
      call(server, 'savePreparedInlineMessage', { result: CARD, allow_user_chats: true }),
    ).resolves.toMatchObject({ ok: false, error_code: 400 });
  });

  it('sent by its user to a chat: posted "via @bot" with its keyboard, and chosen_inline_result queued', async () => {
    const server = await start();
    const { id } = await result(server, 'savePreparedInlineMessage', {
      user_id: USER,
      result: CARD,
      allow_user_chats: true,
    });
    const update = server.sendPreparedMessage(String(id), {
      userId: USER,
      chatId: CLIENT_CHAT,
      kind: 'user',
    });
    const chosen = update.chosen_inline_result as Record<string, unknown>;
    expect(chosen).toEqual({
      result_id: 'invoice-1001',
      from: expect.objectContaining({ id: USER }),
      query: '',
      inline_message_id: expect.any(String),
    });
    const posted = server.visibleMessages(CLIENT_CHAT).at(-1);
    expect(posted).toMatchObject({
      text: 'Счёт 1001: 120 BYN',
      entities: [{ type: 'bold', offset: 0, length: 9 }],
      from: { id: USER },
      via_bot: { is_bot: true },
      reply_markup: CARD.reply_markup,
    });
    // The card is the inline message the bot edits when it is paid.
    expect(server.inlineMessage(String(chosen.inline_message_id))).toMatchObject({
      text: 'Счёт 1001: 120 BYN',
    });
    expect(server.pendingUpdates()).toContainEqual(update);
  });

  it('is not sent where the bot did not allow it, nor after it expired', async () => {
    let now = 1_790_000_000_000;
    const server = await start(() => now);
    const { id } = await result(server, 'savePreparedInlineMessage', {
      user_id: USER,
      result: CARD,
      allow_user_chats: true,
    });
    expect(() =>
      server.sendPreparedMessage(String(id), { userId: USER, chatId: -4_000_000_001, kind: 'group' }),
    ).toThrow('MESSAGE_SEND_FAILED');
    now += PREPARED_MESSAGE_TTL_S * 1000;
    expect(() =>
      server.sendPreparedMessage(String(id), { userId: USER, chatId: CLIENT_CHAT, kind: 'user' }),
    ).toThrow('MESSAGE_EXPIRED');
    expect(server.visibleMessages(CLIENT_CHAT)).toEqual([]);
    expect(server.pendingUpdates()).toEqual([]);
  });
});

describe('setChatMenuButton / getChatMenuButton', () => {
  const WEB_APP = { type: 'web_app', text: 'Открыть', web_app: { url: 'http://127.0.0.1:3001/app/' } };

  it('keeps the default and a chat’s own; a chat with none shows the default', async () => {
    const server = await start();
    await expect(result(server, 'getChatMenuButton', {})).resolves.toEqual({ type: 'default' });
    await expect(result(server, 'setChatMenuButton', { menu_button: WEB_APP })).resolves.toBe(true);
    await expect(result(server, 'getChatMenuButton', {})).resolves.toEqual(WEB_APP);
    await expect(result(server, 'getChatMenuButton', { chat_id: USER })).resolves.toEqual(WEB_APP);
    await result(server, 'setChatMenuButton', { chat_id: USER, menu_button: { type: 'commands' } });
    await expect(result(server, 'getChatMenuButton', { chat_id: USER })).resolves.toEqual({
      type: 'commands',
    });
    expect(server.menuButton(USER + 1)).toEqual(WEB_APP);
    // MenuButtonDefault (or none) for the chat: back to the default one.
    await result(server, 'setChatMenuButton', { chat_id: USER });
    expect(server.menuButton(USER)).toEqual(WEB_APP);
    expect(server.eventsSince(0).filter((e) => e.type === 'profile')).toHaveLength(3);
  });

  it('refuses a web_app button without text or URL, and an unknown type', async () => {
    const server = await start();
    for (const menu_button of [
      { ...WEB_APP, text: '' },
      { type: 'web_app', text: 'Открыть' },
      { type: 'web_app', text: 'Открыть', web_app: { url: 'javascript:alert(1)' } },
      { type: 'game' },
    ]) {
      await expect(call(server, 'setChatMenuButton', { menu_button })).resolves.toMatchObject({
        ok: false,
        error_code: 400,
      });
    }
    expect(server.menuButton()).toEqual({ type: 'default' });
  });
});
