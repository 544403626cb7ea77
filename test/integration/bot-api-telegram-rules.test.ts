/**
 * The local Bot API server says no where Telegram says no, and shows what a Telegram client
 * shows: the tests and the playground both rely on it, so each rule has a test of its own here,
 * driven through telegraf's own client as the bot would call it.
 */
import { Markup, Telegram } from 'telegraf';
import { afterEach, describe, expect, it } from 'vitest';
import { type BotApiServer, DEFAULT_USER_ID, startBotApiServer } from '../../src/playground/bot-api/index.js';
import type { ChatEvent } from '../../src/playground/events.js';

const servers: BotApiServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function start(): Promise<{ server: BotApiServer; telegram: Telegram }> {
  const server = await startBotApiServer();
  servers.push(server);
  return { server, telegram: new Telegram(server.token, { apiRoot: server.apiRoot }) };
}

const CHAT = DEFAULT_USER_ID;

function eventsOf<T extends ChatEvent['type']>(
  server: BotApiServer,
  type: T,
): Extract<ChatEvent, { type: T }>[] {
  return server.eventsSince(0).filter((e): e is Extract<ChatEvent, { type: T }> => e.type === type);
}

describe('HTML as Telegram parses it', () => {
  it('keeps plain text and entities, so a callback shows the bot plain text', async () => {
    const { server, telegram } = await start();
    const sent = await telegram.sendMessage(
      CHAT,
      '<b>Счёт</b> &lt;123&gt; &amp; <a href="https://pay.example/1">оплатить</a>',
      {
        parse_mode: 'HTML',
        ...Markup.inlineKeyboard([Markup.button.callback('Открыть', 'open')]),
      },
    );
    expect(sent.text).toBe('Счёт <123> & оплатить');
    expect(sent.entities).toEqual([
      { type: 'bold', offset: 0, length: 4 },
      { type: 'text_link', offset: 13, length: 8, url: 'https://pay.example/1' },
    ]);
    const update = server.pressButton('open');
    const callback = update.callback_query as { message: { text: string } };
    expect(callback.message.text).toBe('Счёт <123> & оплатить');
  });

  it('turns a tg://user link into a mention of that user, as Telegram does', async () => {
    const { telegram } = await start();
    const sent = await telegram.sendMessage(CHAT, '<a href="tg://user?id=333">Борис</a>, хост?', {
      parse_mode: 'HTML',
      reply_markup: { force_reply: true, selective: true },
    });
    expect(sent.text).toBe('Борис, хост?');
    expect(sent.entities).toEqual([
      { type: 'text_mention', offset: 0, length: 5, user: { id: 333, is_bot: false, first_name: '' } },
    ]);
  });

  it('refuses tags Telegram does not know, unclosed tags and crossed tags, in its words', async () => {
    const { telegram } = await start();
    const html = (text: string) => telegram.sendMessage(CHAT, text, { parse_mode: 'HTML' });
    await expect(html('Домен <example.by>')).rejects.toMatchObject({
      description: 'Bad Request: can\'t parse entities: Unsupported start tag "example" at byte offset 11',
    });
    await expect(html('<b>жирный')).rejects.toMatchObject({
      description: 'Bad Request: can\'t parse entities: Can\'t find end tag corresponding to start tag "b"',
    });
    await expect(html('<b><i>x</b></i>')).rejects.toMatchObject({
      description: expect.stringContaining('Unmatched end tag at byte offset 7, expected "</i>"'),
    });
    await expect(html('x</b>')).rejects.toMatchObject({
      description: expect.stringContaining('Unexpected end tag at byte offset 1'),
    });
    // The same text without parse_mode is only text.
    await expect(telegram.sendMessage(CHAT, 'Домен <example.by>')).resolves.toMatchObject({
      text: 'Домен <example.by>',
    });
  });

  it('counts 4,096 characters after the markup is parsed away, in UTF-16 units', async () => {
    const { telegram } = await start();
    const fits = `<b>${'я'.repeat(4094)}</b>😀`;
    await expect(telegram.sendMessage(CHAT, fits, { parse_mode: 'HTML' })).resolves.toBeTruthy();
    await expect(telegram.sendMessage(CHAT, `${'я'.repeat(4095)}😀`)).rejects.toMatchObject({
      description: 'Bad Request: message is too long',
    });
    await expect(
      telegram.sendDocument(
        CHAT,
        { source: Buffer.from('x'), filename: 'a.txt' },
        { caption: 'я'.repeat(1025) },
      ),
    ).rejects.toMatchObject({ description: 'Bad Request: message caption is too long' });
  });
});

describe('Keyboards as Telegram checks them', () => {
  it('refuses callback data over 64 bytes, a button with no action and a bad URL; takes copy_text', async () => {
    const { server, telegram } = await start();
    const send = (button: Record<string, unknown>) =>
      telegram.sendMessage(CHAT, 'x', { reply_markup: { inline_keyboard: [[button as never]] } });
    await expect(send({ text: 'a', callback_data: 'я'.repeat(33) })).rejects.toMatchObject({
      description: 'Bad Request: BUTTON_DATA_INVALID',
    });
    await expect(send({ text: 'a', callback_data: 'я'.repeat(32) })).resolves.toBeTruthy();
    await expect(send({ text: 'a' })).rejects.toMatchObject({
      description: expect.stringContaining('Text buttons are unallowed in the inline keyboard'),
    });
    await expect(send({ text: 'a', url: 'pay here' })).rejects.toMatchObject({
      description: 'Bad Request: BUTTON_URL_INVALID',
    });
    await expect(send({ text: 'a', copy_text: { text: '' } })).rejects.toMatchObject({
      description: 'Bad Request: COPY_TEXT_INVALID',
    });
    const copied = await send({ text: '📋 Копировать', copy_text: { text: 'https://pay.example/1' } });
    expect(server.visibleMessages(CHAT).at(-1)?.reply_markup).toEqual({
      inline_keyboard: [[{ text: '📋 Копировать', copy_text: { text: 'https://pay.example/1' } }]],
    });
    expect(copied.message_id).toBeGreaterThan(0);
  });

  it('takes a disabled button (Bot API 10.3) and keeps it; one with callback data too has two actions', async () => {
    const { server, telegram } = await start();
    const send = (button: Record<string, unknown>) =>
      telegram.sendMessage(CHAT, 'x', { reply_markup: { inline_keyboard: [[button as never]] } });
    await send({ text: '🔒 Удалить · нужна роль «техник»', disabled: {} });
    expect(server.visibleMessages(CHAT).at(-1)?.reply_markup).toEqual({
      inline_keyboard: [[{ text: '🔒 Удалить · нужна роль «техник»', disabled: {} }]],
    });
    await expect(send({ text: 'a', disabled: {}, callback_data: '1:x' })).rejects.toMatchObject({
      description: expect.stringContaining('exactly one action is allowed'),
    });
  });

  it('draws a button danger, success or primary (Bot API 9.4) and refuses any other style', async () => {
    const { server, telegram } = await start();
    const send = (button: Record<string, unknown>) =>
      telegram.sendMessage(CHAT, 'x', { reply_markup: { inline_keyboard: [[button as never]] } });
    for (const style of ['danger', 'success', 'primary']) {
      await send({ text: style, callback_data: 'd', style });
      expect(server.visibleMessages(CHAT).at(-1)?.reply_markup).toEqual({
        inline_keyboard: [[{ text: style, callback_data: 'd', style }]],
      });
    }
    // As the Bot API server reads it: any case, and "default" is the app's own (none kept).
    await send({ text: 'a', callback_data: 'd', style: 'DANGER' });
    expect(server.visibleMessages(CHAT).at(-1)?.reply_markup).toMatchObject({
      inline_keyboard: [[{ style: 'danger' }]],
    });
    await send({ text: 'a', callback_data: 'd', style: 'default' });
    expect(server.visibleMessages(CHAT).at(-1)?.reply_markup).toEqual({
      inline_keyboard: [[{ text: 'a', callback_data: 'd' }]],
    });
    // A style is no action: a button with only a style is still a text button.
    await expect(send({ text: 'a', style: 'danger' })).rejects.toMatchObject({
      description: expect.stringContaining('Text buttons are unallowed in the inline keyboard'),
    });
    await expect(send({ text: 'a', callback_data: 'd', style: 'red' })).rejects.toMatchObject({
      description: "Bad Request: can't parse inline keyboard button: invalid button style specified",
    });
    await expect(send({ text: 'a', callback_data: 'd', style: { color: 'red' } })).rejects.toMatchObject({
      description: 'Bad Request: can\'t parse inline keyboard button: Field "style" must be of type String',
    });
    const count = server.visibleMessages(CHAT).length;
    await expect(
      telegram.sendMessage(CHAT, 'x', {
        reply_markup: { keyboard: [[{ text: 'a', style: 'warning' } as never]], resize_keyboard: true },
      }),
    ).rejects.toMatchObject({
      description: "Bad Request: can't parse keyboard button: invalid button style specified",
    });
    expect(server.visibleMessages(CHAT)).toHaveLength(count);
    // A reply keyboard's style reaches the client as Telegram keeps it.
    await telegram.sendMessage(CHAT, 'x', {
      reply_markup: { keyboard: [[{ text: 'a', style: 'Success' } as never, 'b']], resize_keyboard: true },
    });
    expect(eventsOf(server, 'reply-keyboard').at(-1)?.keyboard).toEqual([
      [{ text: 'a', style: 'success' }, { text: 'b' }],
    ]);
  });

  it('refuses an edit of a message that is not there, and one that changes nothing', async () => {
    const { telegram } = await start();
    await expect(telegram.editMessageText(CHAT, 999, undefined, 'x')).rejects.toMatchObject({
      description: 'Bad Request: message to edit not found',
    });
    const sent = await telegram.sendMessage(CHAT, '<b>x</b>', { parse_mode: 'HTML' });
    await expect(
      telegram.editMessageText(CHAT, sent.message_id, undefined, '<b>x</b>', { parse_mode: 'HTML' }),
    ).rejects.toMatchObject({
      description: expect.stringContaining('message is not modified'),
    });
    // The same words without the bold are a change.
    await expect(telegram.editMessageText(CHAT, sent.message_id, undefined, 'x')).resolves.toBeTruthy();
  });

  it('removes the inline keyboard when a text is edited without reply_markup', async () => {
    const { server, telegram } = await start();
    const sent = await telegram.sendMessage(
      CHAT,
      'Выберите',
      Markup.inlineKeyboard([Markup.button.callback('Да', 'yes')]),
    );
    await telegram.editMessageText(CHAT, sent.message_id, undefined, 'Готово');
    const shown = server.visibleMessages(CHAT).find((m) => m.message_id === sent.message_id);
    expect(shown).toMatchObject({ text: 'Готово' });
    expect(shown).not.toHaveProperty('reply_markup');
    expect(eventsOf(server, 'edited').at(-1)?.message).not.toHaveProperty('reply_markup');
  });
});

describe('What a client shows besides messages', () => {
  it('shows a toast or an alert once per press, and refuses a second answer', async () => {
    const { server, telegram } = await start();
    await telegram.sendMessage(CHAT, 'x', Markup.inlineKeyboard([Markup.button.callback('A', 'a')]));
    const first = server.pressButton('a').callback_query as { id: string };
    await telegram.answerCbQuery(first.id, 'Сохранено');
    await expect(telegram.answerCbQuery(first.id, 'ещё раз')).rejects.toMatchObject({
      description: expect.stringContaining('query is too old'),
    });
    const second = server.pressButton('a').callback_query as { id: string };
    await telegram.answerCbQuery(second.id, 'Счёт устарел', { show_alert: true });
    const third = server.pressButton('a').callback_query as { id: string };
    await telegram.answerCbQuery(third.id);
    expect(eventsOf(server, 'toast').map((e) => [e.chatId, e.text, e.showAlert])).toEqual([
      [CHAT, 'Сохранено', false],
      [CHAT, 'Счёт устарел', true],
    ]);
  });

  it('shows "typing…" and refuses an action Telegram does not know', async () => {
    const { server, telegram } = await start();
    await telegram.sendChatAction(CHAT, 'typing');
    await expect(telegram.sendChatAction(CHAT, 'dancing' as never)).rejects.toMatchObject({
      description: 'Bad Request: wrong parameter action in request',
    });
    expect(eventsOf(server, 'action')).toMatchObject([{ chatId: CHAT, action: 'typing' }]);
  });

  it('keeps the command menu and the descriptions per language', async () => {
    const { server, telegram } = await start();
    await telegram.setMyCommands([{ command: 'help', description: 'Справка' }], { language_code: 'ru' });
    await telegram.callApi('setMyDescription', { description: 'Счета и DNS', language_code: 'ru' } as never);
    await telegram.callApi('setMyShortDescription', {
      short_description: 'Invoices and DNS',
      language_code: 'en',
    } as never);
    expect(server.myCommands({ languageCode: 'ru' })).toEqual([{ command: 'help', description: 'Справка' }]);
    expect(server.myDescription({ languageCode: 'ru' })).toBe('Счета и DNS');
    expect(server.myDescription({ languageCode: 'en', short: true })).toBe('Invoices and DNS');
    expect(server.myDescription({ languageCode: 'en' })).toBe('');
    await expect(
      telegram.callApi('setMyShortDescription', { short_description: 'x'.repeat(121) } as never),
    ).rejects.toMatchObject({ description: 'Bad Request: SHORT_DESCRIPTION_TOO_LONG' });
  });
});

describe('Inline mode', () => {
  it('shows the answered results, posts the chosen one via the bot, and lets the bot edit it by inline_message_id', async () => {
    const { server, telegram } = await start();
    const queryId = server.sendInlineQuery('счёт 1001', { chatType: 'private' });
    expect(server.pendingUpdates().at(-1)).toMatchObject({
      inline_query: { id: queryId, query: 'счёт 1001' },
    });
    await telegram.answerInlineQuery(queryId, [
      {
        type: 'article',
        id: 'inv-1001',
        title: 'Счёт 1001',
        input_message_content: { message_text: '<b>Счёт 1001</b>: 120 BYN', parse_mode: 'HTML' },
        ...Markup.inlineKeyboard([Markup.button.url('Оплатить', 'https://pay.example/1001')]),
      },
    ]);
    expect(eventsOf(server, 'inline-results')).toMatchObject([{ queryId, results: [{ id: 'inv-1001' }] }]);
    const clientChat = 200_002;
    const update = server.chooseInlineResult(queryId, 'inv-1001', { chatId: clientChat });
    const chosen = update.chosen_inline_result as { inline_message_id: string; result_id: string };
    expect(chosen.result_id).toBe('inv-1001');
    const posted = server.visibleMessages(clientChat).at(-1);
    expect(posted).toMatchObject({ text: 'Счёт 1001: 120 BYN', via_bot: { is_bot: true } });
    await telegram.editMessageText(undefined, undefined, chosen.inline_message_id, '✅ Оплачен 24.11.2026');
    expect(server.inlineMessage(chosen.inline_message_id)).toMatchObject({ text: '✅ Оплачен 24.11.2026' });
    expect(server.inlineMessage(chosen.inline_message_id)).not.toHaveProperty('reply_markup');
    await expect(telegram.editMessageText(undefined, undefined, 'nope', 'x')).rejects.toMatchObject({
      description: 'Bad Request: MESSAGE_ID_INVALID',
    });
  });

  it('refuses an answer to an unknown query and duplicate result ids', async () => {
    const { server, telegram } = await start();
    await expect(telegram.answerInlineQuery('123', [])).rejects.toMatchObject({
      description: expect.stringContaining('query is too old'),
    });
    const queryId = server.sendInlineQuery('x');
    const article = {
      type: 'article',
      id: 'a',
      title: 'A',
      input_message_content: { message_text: 'A' },
    } as const;
    await expect(telegram.answerInlineQuery(queryId, [article, article])).rejects.toMatchObject({
      description: 'Bad Request: RESULT_ID_DUPLICATE',
    });
  });
});

describe('Forum topics and files', () => {
  it('keeps a message in its topic and refuses a topic the forum does not have', async () => {
    const { server, telegram } = await start();
    const forum = -1_001_234_567_890;
    server.defineChat({ id: forum, type: 'supergroup', title: 'Команда', is_forum: true });
    const topic = await telegram.createForumTopic(forum, 'DNS');
    const sent = await telegram.sendMessage(forum, 'в теме', { message_thread_id: topic.message_thread_id });
    expect(sent).toMatchObject({ message_thread_id: topic.message_thread_id, is_topic_message: true });
    await expect(telegram.sendMessage(forum, 'x', { message_thread_id: 424_242 })).rejects.toMatchObject({
      description: 'Bad Request: message thread not found',
    });
    await expect(telegram.createForumTopic(-4_000_000_001, 'DNS')).rejects.toMatchObject({
      description: 'Bad Request: the chat is not a forum',
    });
  });

  it("serves a user's document by getFile and its download URL, and a bot's document to a client", async () => {
    const { server, telegram } = await start();
    const update = server.sendDocument('$ORIGIN example.by.\n', 'example.by.zone');
    const fileId = (update.message as { document: { file_id: string } }).document.file_id;
    const link = await telegram.getFileLink(fileId);
    expect(await (await fetch(link)).text()).toBe('$ORIGIN example.by.\n');
    const sent = await telegram.sendDocument(CHAT, {
      source: Buffer.from('a;b\n'),
      filename: 'invoices.csv',
    });
    expect(server.fileContent(sent.document.file_id)).toMatchObject({
      fileName: 'invoices.csv',
      mimeType: 'text/csv',
    });
    expect(server.fileContent(sent.document.file_id)?.content.toString()).toBe('a;b\n');
  });

  it('numbers events in order for a late reader and tells a subscriber as they happen', async () => {
    const { server, telegram } = await start();
    const seen: string[] = [];
    const stop = server.subscribe((e) => seen.push(e.type));
    server.sendText('/start');
    await telegram.sendMessage(CHAT, 'Привет');
    stop();
    await telegram.sendMessage(CHAT, 'после отписки');
    const all = server.eventsSince(0);
    expect(all.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(seen).toEqual(['message', 'message']);
    expect(server.eventsSince(2).map((e) => e.type)).toEqual(['message']);
  });
});

describe('Chat members', () => {
  it('getChatMember: a group member is a member, anyone else has left, the bot is in; refusals as Telegram words them', async () => {
    const { server, telegram } = await start();
    const group = -4_000_000_777;
    server.defineUser({ id: 501, first_name: 'Ольга' });
    server.defineChat({ id: group, type: 'group', title: 'Команда', members: [CHAT, 501] });
    await expect(telegram.getChatMember(group, 501)).resolves.toMatchObject({
      status: 'member',
      user: { id: 501, first_name: 'Ольга', is_bot: false },
    });
    await expect(telegram.getChatMember(group, 502)).resolves.toMatchObject({
      status: 'left',
      user: { id: 502 },
    });
    // Whoever writes in a group becomes a member.
    server.sendText('привет', { chatId: group, chatType: 'group', userId: 502 });
    await expect(telegram.getChatMember(group, 502)).resolves.toMatchObject({ status: 'member' });
    await expect(telegram.getChatMember(group, server.botInfo.id)).resolves.toMatchObject({
      status: 'member',
      user: { id: server.botInfo.id, is_bot: true },
    });
    await expect(telegram.getChatMember(CHAT, CHAT)).resolves.toMatchObject({ status: 'member' });
    await expect(telegram.getChatMember(-4_000_000_999, 501)).rejects.toThrow('Bad Request: chat not found');
    await expect(telegram.getChatMember(group, 0)).rejects.toThrow('Bad Request: invalid user_id specified');
  });
});
