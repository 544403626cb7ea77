/**
 * Ephemeral messages (Bot API 10.2–10.3) on the local Bot API server, over HTTP as the bot calls
 * it: sent to one member of a group (never to a non-member, never in a private chat), edited and
 * deleted by their ephemeral_message_id, pressed only by their receiver, shown in place of a
 * pressed message; a member's `is_ephemeral` command arriving as an ephemeral message, answered
 * within 15 s by an ephemeral reply; long polling and the webhook carry them like any update.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Telegraf } from 'telegraf';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type BotApiServer,
  EPHEMERAL_REFUSALS,
  PressRefused,
  startBotApiServer,
} from '../../src/playground/bot-api/index.js';
import type { ChatEvent } from '../../src/playground/events.js';
import { call, result } from '../helpers/bot-api-call.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const GROUP = -4_000_000_001;
const OWNER = 100_001;
const TECH = 100_002;
const STRANGER = 100_009;

/** A server whose group has the owner and the tech as members; its clock is the test's. */
async function start(): Promise<{ server: BotApiServer; clock: { ms: number } }> {
  const clock = { ms: 1_800_000_000_000 };
  const server = await startBotApiServer({ now: () => clock.ms });
  cleanups.push(() => server.close());
  server.defineUser({ id: OWNER, first_name: 'Андрей' });
  server.defineUser({ id: TECH, first_name: 'Ольга' });
  server.defineChat({ id: GROUP, type: 'group', title: 'Команда', members: [OWNER, TECH] });
  return { server, clock };
}

async function refusal(
  server: BotApiServer,
  method: string,
  params: Record<string, unknown>,
): Promise<string> {
  const answer = await call(server, method, params);
  if (answer.ok) throw new Error(`${method} was accepted: ${JSON.stringify(answer.result)}`);
  expect(answer.error_code).toBe(400);
  return answer.description;
}

const to = (receiver: number, extra: Record<string, unknown> = {}) => ({
  ephemeral_message_parameters: { receiver_user_id: receiver, ...extra },
});

function ephemeralEvents(server: BotApiServer): Extract<ChatEvent, { type: 'ephemeral' }>[] {
  return server
    .eventsSince(0)
    .filter((e): e is Extract<ChatEvent, { type: 'ephemeral' }> => e.type === 'ephemeral');
}

describe('sending an ephemeral message', () => {
  it('answers message_id 0, an ephemeral_message_id counted per chat and the receiver; no one else sees it', async () => {
    const { server } = await start();
    const first = await result(server, 'sendMessage', { chat_id: GROUP, text: 'Только вам', ...to(TECH) });
    expect(first).toMatchObject({
      message_id: 0,
      ephemeral_message_id: 1,
      receiver_user: { id: TECH, first_name: 'Ольга' },
      chat: { id: GROUP, type: 'group' },
      text: 'Только вам',
    });
    const rich = await result(server, 'sendRichMessage', {
      chat_id: GROUP,
      rich_message: { blocks: [{ type: 'paragraph', text: 'отчёт' }] },
      ...to(OWNER),
    });
    expect(rich).toMatchObject({ message_id: 0, ephemeral_message_id: 2, receiver_user: { id: OWNER } });
    expect(rich.rich_message).toEqual({ blocks: [{ type: 'paragraph', text: 'отчёт' }] });

    // A document too, as multipart (how telegraf sends a file): the parameters are a JSON field.
    const form = new FormData();
    form.set('chat_id', String(GROUP));
    form.set('ephemeral_message_parameters', JSON.stringify({ receiver_user_id: TECH }));
    form.set('document', new Blob(['zone']), 'a.zone');
    const response = await fetch(`${server.apiRoot}/bot${server.token}/sendDocument`, {
      method: 'POST',
      body: form,
    });
    const document = (await response.json()) as { ok: boolean; result: Record<string, unknown> };
    expect(document.result).toMatchObject({
      message_id: 0,
      ephemeral_message_id: 3,
      receiver_user: { id: TECH },
    });

    // Message ids go on as if nothing happened; the group's shared history holds none of them.
    const ordinary = await result(server, 'sendMessage', { chat_id: GROUP, text: 'всем' });
    expect(ordinary.message_id).toBe(1);
    expect(server.visibleMessages(GROUP).map((m) => m.text)).toEqual(['всем']);
    expect(server.ephemeralMessages(GROUP).map((m) => m.ephemeral_message_id)).toEqual([1, 2, 3]);
    expect(ephemeralEvents(server).map((e) => e.visibleTo)).toEqual([TECH, OWNER, TECH]);
  });

  it('is refused to a user who is not a member, in a private chat, and without a receiver', async () => {
    const { server } = await start();
    expect(await refusal(server, 'sendMessage', { chat_id: GROUP, text: 'x', ...to(STRANGER) })).toBe(
      `Bad Request: ${EPHEMERAL_REFUSALS.notMember}`,
    );
    expect(await refusal(server, 'sendMessage', { chat_id: OWNER, text: 'x', ...to(OWNER) })).toBe(
      `Bad Request: ${EPHEMERAL_REFUSALS.notGroup}`,
    );
    expect(
      await refusal(server, 'sendMessage', { chat_id: GROUP, text: 'x', ephemeral_message_parameters: {} }),
    ).toBe(`Bad Request: ${EPHEMERAL_REFUSALS.noReceiver}`);
    expect(
      await refusal(server, 'sendMessage', {
        chat_id: GROUP,
        text: 'x',
        ...to(OWNER),
        reply_markup: { keyboard: [['Да']] },
      }),
    ).toBe(`Bad Request: ${EPHEMERAL_REFUSALS.inlineOnly}`);
    expect(
      await refusal(server, 'sendMessage', {
        chat_id: GROUP,
        text: 'x',
        ...to(OWNER),
        reply_markup: { remove_keyboard: true },
      }),
    ).toBe(`Bad Request: ${EPHEMERAL_REFUSALS.inlineOnly}`);
    // A ForceReply asks the one member who sees the question to answer it: taken (a guided form's
    // typed question in a team group is such a message).
    const question = await result(server, 'sendMessage', {
      chat_id: GROUP,
      text: 'Для какого хоста?',
      ...to(OWNER),
      reply_markup: { force_reply: true, selective: true },
    });
    expect(question).toMatchObject({ message_id: 0, receiver_user: { id: OWNER } });
    // Someone who writes in the group is a member from then on.
    server.sendText('привет', { chatId: GROUP, chatType: 'group', userId: STRANGER });
    expect((await call(server, 'sendMessage', { chat_id: GROUP, text: 'x', ...to(STRANGER) })).ok).toBe(true);
  });
});

describe('editing and deleting an ephemeral message', () => {
  it('edits its text, its rich message and its keyboard by ephemeral_message_id, answering true', async () => {
    const { server } = await start();
    const sent = await result(server, 'sendMessage', {
      chat_id: GROUP,
      text: 'Шаг 1',
      ...to(TECH),
      reply_markup: { inline_keyboard: [[{ text: 'Дальше', callback_data: 'v1:next' }]] },
    });
    const id = { chat_id: GROUP, receiver_user_id: TECH, ephemeral_message_id: sent.ephemeral_message_id };
    expect(await result(server, 'editEphemeralMessageText', { ...id, text: 'Шаг 2' })).toBe(true);
    // Without reply_markup the keyboard is gone, as with editMessageText.
    expect(server.ephemeralMessages(GROUP)[0]).toMatchObject({
      text: 'Шаг 2',
      edit_date: expect.any(Number),
    });
    expect(server.ephemeralMessages(GROUP)[0]?.reply_markup).toBeUndefined();
    expect(await refusal(server, 'editEphemeralMessageText', { ...id, text: 'Шаг 2' })).toMatch(
      /^Bad Request: message is not modified/,
    );
    const blocks = [{ type: 'heading', size: 3, text: 'Итог' }];
    expect(await result(server, 'editEphemeralMessageText', { ...id, rich_message: { blocks } })).toBe(true);
    expect(server.ephemeralMessages(GROUP)[0]).toMatchObject({ rich_message: { blocks } });
    expect(server.ephemeralMessages(GROUP)[0]?.text).toBeUndefined();
    const keyboard = { inline_keyboard: [[{ text: 'Скоро', disabled: {} }]] };
    expect(await result(server, 'editEphemeralMessageReplyMarkup', { ...id, reply_markup: keyboard })).toBe(
      true,
    );
    expect(server.ephemeralMessages(GROUP)[0]?.reply_markup).toEqual(keyboard);
    expect(await refusal(server, 'editEphemeralMessageCaption', { ...id, caption: 'x' })).toBe(
      'Bad Request: there is no caption in the message to edit',
    );
    // The page is told of each edit, for the receiver's view only.
    expect(ephemeralEvents(server).every((e) => e.visibleTo === TECH)).toBe(true);
  });

  it('refuses an unknown id or another receiver in Telegram’s words, and deletes once', async () => {
    const { server } = await start();
    const sent = await result(server, 'sendMessage', { chat_id: GROUP, text: 'x', ...to(TECH) });
    const id = { chat_id: GROUP, receiver_user_id: TECH, ephemeral_message_id: sent.ephemeral_message_id };
    expect(
      await refusal(server, 'editEphemeralMessageText', { ...id, ephemeral_message_id: 99, text: 'y' }),
    ).toBe('Bad Request: message to edit not found');
    expect(
      await refusal(server, 'editEphemeralMessageText', { ...id, receiver_user_id: OWNER, text: 'y' }),
    ).toBe('Bad Request: message to edit not found');
    expect(
      await refusal(server, 'editEphemeralMessageReplyMarkup', { ...id, ephemeral_message_id: 99 }),
    ).toBe('Bad Request: message to edit not found');
    expect(await result(server, 'deleteEphemeralMessage', id)).toBe(true);
    expect(server.ephemeralMessages(GROUP)).toEqual([]);
    expect(server.eventsSince(0).at(-1)).toMatchObject({
      type: 'ephemeral-deleted',
      chatId: GROUP,
      ephemeralMessageId: sent.ephemeral_message_id,
      visibleTo: TECH,
    });
    expect(await refusal(server, 'deleteEphemeralMessage', id)).toBe(
      'Bad Request: message to delete not found',
    );
  });
});

describe('buttons on an ephemeral message', () => {
  it('delivers the receiver’s press with message_id 0, ephemeral_message_id and receiver_user; refuses anyone else', async () => {
    const { server } = await start();
    const sent = await result(server, 'sendMessage', {
      chat_id: GROUP,
      text: 'Подтвердить?',
      ...to(TECH),
      reply_markup: { inline_keyboard: [[{ text: 'Да', callback_data: 'v1:yes' }]] },
    });
    const before = server.pendingUpdates().length;
    expect(() =>
      server.pressButton('v1:yes', {
        chatId: GROUP,
        userId: OWNER,
        ephemeralMessageId: Number(sent.ephemeral_message_id),
      }),
    ).toThrow(PressRefused);
    expect(server.pendingUpdates()).toHaveLength(before);

    const press = server.pressButton('v1:yes', {
      chatId: GROUP,
      userId: TECH,
      ephemeralMessageId: Number(sent.ephemeral_message_id),
      text: 'Да',
    });
    const query = press.callback_query as Record<string, unknown>;
    expect(query).toMatchObject({ from: { id: TECH }, data: 'v1:yes' });
    expect(query.message).toMatchObject({
      message_id: 0,
      ephemeral_message_id: sent.ephemeral_message_id,
      receiver_user: { id: TECH },
      chat: { id: GROUP },
      text: 'Подтвердить?',
    });
    expect(await result(server, 'answerCallbackQuery', { callback_query_id: query.id })).toBe(true);
  });

  it('shows an ephemeral answer in place of the pressed message for the presser only', async () => {
    const { server } = await start();
    const menu = await result(server, 'sendMessage', {
      chat_id: GROUP,
      text: 'Меню',
      reply_markup: { inline_keyboard: [[{ text: 'Мои права', callback_data: 'v1:me' }]] },
    });
    const press = server.pressButton('v1:me', {
      chatId: GROUP,
      userId: TECH,
      messageId: Number(menu.message_id),
    });
    const queryId = (press.callback_query as { id: string }).id;

    expect(
      await refusal(server, 'sendMessage', {
        chat_id: GROUP,
        text: 'x',
        ...to(OWNER, { callback_query_id: queryId }),
      }),
    ).toBe(`Bad Request: ${EPHEMERAL_REFUSALS.queryElsewhere}`);
    expect(
      await refusal(server, 'sendMessage', {
        chat_id: GROUP,
        text: 'x',
        ...to(TECH, { replace_callback_query_message: true }),
      }),
    ).toBe(`Bad Request: ${EPHEMERAL_REFUSALS.replaceWithoutQuery}`);
    expect(
      await refusal(server, 'sendMessage', {
        chat_id: GROUP,
        text: 'x',
        ...to(TECH, { callback_query_id: 'nope' }),
      }),
    ).toBe(`Bad Request: ${EPHEMERAL_REFUSALS.queryInvalid}`);

    await result(server, 'sendMessage', {
      chat_id: GROUP,
      text: 'Ваша роль: техник',
      ...to(TECH, { callback_query_id: queryId, replace_callback_query_message: true }),
    });
    expect(ephemeralEvents(server).at(-1)).toMatchObject({
      visibleTo: TECH,
      replaces: { messageId: menu.message_id },
      message: { text: 'Ваша роль: техник' },
    });
    // Everyone else still has the menu.
    expect(server.visibleMessages(GROUP).map((m) => m.text)).toEqual(['Меню']);
  });
});

describe('is_ephemeral commands', () => {
  const commands = (list: Record<string, unknown>[], scope: Record<string, unknown>) => ({
    commands: list,
    scope,
  });

  it('arrive as ephemeral messages from a member in a group, by the command list that applies to them', async () => {
    const { server } = await start();
    await result(
      server,
      'setMyCommands',
      commands([{ command: 'me', description: 'my role', is_ephemeral: true }], { type: 'all_group_chats' }),
    );
    expect(await result(server, 'getMyCommands', { scope: { type: 'all_group_chats' } })).toEqual([
      { command: 'me', description: 'my role', is_ephemeral: true },
    ]);
    const update = server.sendText('/me', { chatId: GROUP, chatType: 'group', userId: TECH });
    expect(update.message).toMatchObject({
      message_id: 0,
      ephemeral_message_id: 1,
      from: { id: TECH },
      receiver_user: { id: server.botInfo.id, is_bot: true },
      text: '/me',
      entities: [{ type: 'bot_command', offset: 0, length: 3 }],
    });
    expect(server.visibleMessages(GROUP)).toEqual([]);
    expect(ephemeralEvents(server).at(-1)).toMatchObject({ visibleTo: TECH, message: { text: '/me' } });
    // The same command in the private chat is an ordinary message.
    expect(server.sendText('/me', { userId: TECH }).message).toMatchObject({ message_id: 1 });

    // A more specific scope wins: for the owner in this group, /me is not ephemeral.
    await result(
      server,
      'setMyCommands',
      commands([{ command: 'me', description: 'my role' }], {
        type: 'chat_member',
        chat_id: GROUP,
        user_id: OWNER,
      }),
    );
    expect(server.sendText('/me', { chatId: GROUP, chatType: 'group', userId: OWNER }).message).toMatchObject(
      {
        message_id: 1,
      },
    );
    expect(
      await refusal(
        server,
        'setMyCommands',
        commands([{ command: 'x', description: 'y', is_ephemeral: 'yes' }], { type: 'default' }),
      ),
    ).toBe('Bad Request: can\'t parse BotCommand: Field "is_ephemeral" must be of type Boolean');
  });

  it('are answered by an ephemeral reply within 15 s, never by an ordinary one', async () => {
    const { server, clock } = await start();
    await result(
      server,
      'setMyCommands',
      commands([{ command: 'me', description: 'my role', is_ephemeral: true }], {
        type: 'chat',
        chat_id: GROUP,
      }),
    );
    const asked = server.sendText('/me', { chatId: GROUP, chatType: 'group', userId: TECH })
      .message as Record<string, unknown>;
    const reply = { reply_parameters: { ephemeral_message_id: asked.ephemeral_message_id } };
    expect(await refusal(server, 'sendMessage', { chat_id: GROUP, text: 'роль', ...reply })).toBe(
      `Bad Request: ${EPHEMERAL_REFUSALS.replyNotEphemeral}`,
    );
    // Only its sender sees it, so only they can get a reply to it.
    expect(
      await refusal(server, 'sendMessage', { chat_id: GROUP, text: 'роль', ...reply, ...to(OWNER) }),
    ).toBe(`Bad Request: ${EPHEMERAL_REFUSALS.replyNotFound}`);
    clock.ms += 15_000;
    const answered = await result(server, 'sendMessage', {
      chat_id: GROUP,
      text: 'роль',
      ...reply,
      ...to(TECH),
    });
    expect(answered).toMatchObject({ message_id: 0, receiver_user: { id: TECH } });
    clock.ms += 1;
    expect(
      await refusal(server, 'sendMessage', { chat_id: GROUP, text: 'роль', ...reply, ...to(TECH) }),
    ).toBe(`Bad Request: ${EPHEMERAL_REFUSALS.replyNotFound}`);
    // The bot cannot edit or delete the member's own ephemeral message.
    const own = { chat_id: GROUP, receiver_user_id: TECH, ephemeral_message_id: asked.ephemeral_message_id };
    expect(await refusal(server, 'editEphemeralMessageText', { ...own, text: 'x' })).toBe(
      "Bad Request: message can't be edited",
    );
    expect(await refusal(server, 'deleteEphemeralMessage', own)).toBe(
      "Bad Request: message can't be deleted",
    );
  });
});

describe('updates with ephemeral messages reach the bot as any other', () => {
  it('over long polling: a telegraf bot gets the ephemeral command and answers it ephemerally', async () => {
    const { server } = await start();
    const bot = new Telegraf(server.token, { telegram: { apiRoot: server.apiRoot } });
    const seen: Record<string, unknown>[] = [];
    bot.command('me', async (ctx) => {
      seen.push(ctx.message as unknown as Record<string, unknown>);
      const message = ctx.message as unknown as { ephemeral_message_id: number };
      // telegraf 4.16 does not know the 10.x parameters: they go through callApi as they are.
      await ctx.telegram.callApi('sendMessage', {
        chat_id: ctx.chat.id,
        text: 'Ваша роль: техник',
        reply_parameters: { ephemeral_message_id: message.ephemeral_message_id },
        ephemeral_message_parameters: { receiver_user_id: ctx.from.id },
      } as never);
    });
    const ended = bot.launch().catch(() => undefined);
    cleanups.push(async () => {
      bot.stop('test');
      await ended;
    });
    await server.waitForCall((c) => c.method === 'getUpdates' && c.params.timeout === 50);
    await result(server, 'setMyCommands', {
      commands: [{ command: 'me', description: 'my role', is_ephemeral: true }],
      scope: { type: 'all_group_chats' },
    });
    const update = server.sendText('/me', { chatId: GROUP, chatType: 'group', userId: TECH });
    const answer = await server.waitForCall('sendMessage');
    expect(answer.response).toMatchObject({
      ok: true,
      result: { message_id: 0, receiver_user: { id: TECH } },
    });
    expect(seen).toEqual([expect.objectContaining({ message_id: 0, ephemeral_message_id: 1 })]);
    await expect.poll(() => server.confirmedUpdateIds()).toEqual([update.update_id]);
  });

  it('over a webhook: the ephemeral command is POSTed like any update', async () => {
    const { server } = await start();
    const bodies: Record<string, unknown>[] = [];
    const hook = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          hook.close(() => resolve());
          hook.closeAllConnections();
        }),
    );
    const { port } = hook.address() as AddressInfo;
    await result(server, 'setWebhook', { url: `http://127.0.0.1:${port}/hook` });
    await result(server, 'setMyCommands', {
      commands: [{ command: 'me', description: 'my role', is_ephemeral: true }],
      scope: { type: 'all_group_chats' },
    });
    const update = server.sendText('/me', { chatId: GROUP, chatType: 'group', userId: TECH });
    await expect.poll(() => bodies.length).toBe(1);
    expect(bodies[0]).toEqual(update);
    expect(bodies[0]?.message).toMatchObject({ message_id: 0, ephemeral_message_id: 1 });
  });
});
