import type { Update } from 'telegraf/types';
import { describe, expect, it } from 'vitest';
import { type BotCall, lastText, texts, USER_ID } from '../../helpers/bot-harness.js';
import { useBot } from '../../helpers/use-bot.js';

const { h } = useBot({ per: 'story' });

const GROUP_ID = -100_500;
let nextUpdateId = 900_000;
let nextMessageId = 900_000;

/** A private message that is not plain text (a file or photo, with or without a caption). */
function sendMedia(media: 'document' | 'photo', caption?: string, chatId = USER_ID) {
  const message_id = nextMessageId++;
  const file = { file_id: `f${message_id}`, file_unique_id: `f${message_id}` };
  const message = {
    message_id,
    date: Math.floor(Date.now() / 1000),
    from: { id: USER_ID, is_bot: false, first_name: 'Анна', language_code: 'ru' },
    chat: { id: chatId, type: 'private', first_name: 'Анна' },
    ...(media === 'document'
      ? { document: { ...file, file_name: 'token.txt', file_size: 40 } }
      : { photo: [{ ...file, width: 90, height: 90 }] }),
    ...(caption === undefined ? {} : { caption }),
  };
  return { messageId: message_id, calls: h.feed({ update_id: nextUpdateId++, message } as Update) };
}

const deletions = (calls: BotCall[]) => calls.filter((c) => c.method === 'deleteMessage');

/** Every text the bot sent must be free of the token, whatever the outcome. */
function expectNoTokenIn(calls: BotCall[]) {
  for (const text of texts(calls)) expect(text).not.toContain(h.sandbox.token);
}

/** The provider answers 401 from now on, as when the partner revokes the token in the panel. */
function revokeTokenAtProvider() {
  h.sandbox.addFault({
    path: '/v1/*',
    times: Number.POSITIVE_INFINITY,
    fault: {
      kind: 'status',
      status: 401,
      body: JSON.stringify({
        message: 'Пользователь не авторизован: API-ключ не передан или недействителен',
      }),
    },
  });
}

describe('/token <token> on one line in a private chat', () => {
  it('deletes the message, checks the token with the provider, stores it and it works', async () => {
    const before = h.sandbox.requests.length;
    const calls = await h.send(`/token ${h.sandbox.token}`);
    expect(deletions(calls).map((c) => c.payload.chat_id)).toEqual([USER_ID]);
    const reply = lastText(calls);
    expect(reply).toContain('Токен проверен и сохранён');
    expect(reply).toContain('удалил');
    expectNoTokenIn(calls);
    expect(h.sandbox.requests.slice(before).map((r) => r.headers['x-api-token'])).toEqual([h.sandbox.token]);
    expect(await h.chatData.getToken(USER_ID)).toBe(h.sandbox.token);
    // Connected: a command that needs the token reaches the provider and lists invoices.
    expect(lastText(await h.send('/invoices'))).toContain('СФ-');
    // The step is over: the next text is not taken for a token.
    const chatter = await h.send('спасибо');
    expect(deletions(chatter)).toEqual([]);
  });

  it('speaks English when the chat does, and accepts the command addressed to the bot by name', async () => {
    const calls = await h.send(`/token@partner_test_bot  ${h.sandbox.token} `, { languageCode: 'en' });
    expect(deletions(calls)).toHaveLength(1);
    expect(lastText(calls)).toContain('Token checked and stored');
    expect(lastText(calls)).toContain('I deleted the message');
    expect(await h.chatData.getToken(USER_ID)).toBe(h.sandbox.token);
  });

  it('deletes and refuses a token the provider rejects, then waits for another one', async () => {
    const calls = await h.send('/token wrong-token-123456');
    expect(deletions(calls)).toHaveLength(1);
    const reply = lastText(calls);
    expect(reply).toContain('не принял');
    expect(reply).toContain('удалил');
    expect(reply).not.toContain('wrong-token-123456');
    expect(await h.chatData.getToken(USER_ID)).toBeUndefined();
    // "Send it again": the next message is taken as the token, as in the two-step flow.
    const again = await h.send(h.sandbox.token);
    expect(deletions(again)).toHaveLength(1);
    expect(lastText(again)).toContain('сохранён');
  });

  it('deletes and refuses what cannot be a token without asking the provider', async () => {
    const before = h.sandbox.requests.length;
    const calls = await h.send('/token my secret token');
    expect(deletions(calls)).toHaveLength(1);
    expect(lastText(calls)).toContain('не похоже на токен');
    expect(h.sandbox.requests.length).toBe(before);
  });

  it('tells the partner to revoke the token when the message could not be deleted', async () => {
    h.failures.set('deleteMessage', {
      error_code: 400,
      description: "Bad Request: message can't be deleted",
    });
    const calls = await h.send(`/token ${h.sandbox.token}`);
    const reply = lastText(calls);
    expect(reply).toContain('Не получилось удалить');
    expect(reply).toContain('отзовите');
    expectNoTokenIn(calls);
    expect(await h.chatData.getToken(USER_ID)).toBe(h.sandbox.token);
  });
});

describe('/token <token> in a group', () => {
  it.each(['group', 'supergroup'] as const)(
    'in a %s: deletes the message, says so and tells to revoke the token; nothing is checked or stored',
    async (chatType) => {
      const before = h.sandbox.requests.length;
      const calls = await h.send(`/token ${h.sandbox.token}`, { chatType });
      expect(deletions(calls).map((c) => c.payload.chat_id)).toEqual([GROUP_ID]);
      const reply = lastText(calls);
      expect(reply).toContain('удалил');
      expect(reply).toContain('отзовите');
      expect(reply).toContain('личном чате');
      expectNoTokenIn(calls);
      expect(h.sandbox.requests.length).toBe(before);
      expect(await h.chatData.getToken(GROUP_ID)).toBeUndefined();
    },
  );

  it('says it could not delete the message when Telegram refuses, and still tells to revoke', async () => {
    h.failures.set('deleteMessage', {
      error_code: 400,
      description: 'Bad Request: not enough rights to delete a message',
    });
    const calls = await h.send('/token whatever-was-pasted', { chatType: 'supergroup' });
    expect(deletions(calls)).toHaveLength(1);
    const reply = lastText(calls);
    expect(reply).toContain('Не получилось удалить');
    expect(reply).not.toContain('удалил');
    expect(reply).toContain('отзовите');
    expect(reply).not.toContain('whatever-was-pasted');
  });

  it('says the same in English', async () => {
    const reply = lastText(
      await h.send('/token whatever-was-pasted', { chatType: 'group', languageCode: 'en' }),
    );
    expect(reply).toContain('I deleted');
    expect(reply).toContain('revoke');
  });
});

describe('a token sent as a caption while /token waits', () => {
  it('deletes a file whose caption is the token and takes the caption as the token', async () => {
    await h.send('/token');
    const { messageId, calls } = sendMedia('document', h.sandbox.token);
    const done = await calls;
    expect(deletions(done).map((c) => c.payload.message_id)).toEqual([messageId]);
    expect(lastText(done)).toContain('сохранён');
    expectNoTokenIn(done);
    expect(await h.chatData.getToken(USER_ID)).toBe(h.sandbox.token);
  });

  it('deletes a photo whose caption is a wrong token and refuses it', async () => {
    await h.send('/token');
    const { messageId, calls } = sendMedia('photo', 'wrong-token-123456');
    const done = await calls;
    expect(deletions(done).map((c) => c.payload.message_id)).toEqual([messageId]);
    expect(lastText(done)).toContain('не принял');
    expect(await h.chatData.getToken(USER_ID)).toBeUndefined();
  });

  it('deletes a file sent without a caption (it may hold the token) and asks for text', async () => {
    await h.send('/token');
    const { messageId, calls } = sendMedia('document');
    const done = await calls;
    expect(deletions(done).map((c) => c.payload.message_id)).toEqual([messageId]);
    expect(lastText(done)).toContain('текстом');
    expect(lastText(done)).toContain('удалил');
  });

  it('tells to revoke the token when the captioned message could not be deleted', async () => {
    await h.send('/token');
    h.failures.set('deleteMessage', {
      error_code: 400,
      description: "Bad Request: message can't be deleted",
    });
    const done = await sendMedia('photo', h.sandbox.token).calls;
    expect(lastText(done)).toContain('отзовите');
    expectNoTokenIn(done);
  });
});

describe('connecting a token always asks the provider', () => {
  it('refuses a token the provider revoked after it was accepted, though reference data was cached', async () => {
    await h.connect();
    // Reference calls of this token (the currency list) are now in the 10-minute cache.
    expect(lastText(await h.send('/invoices'))).toContain('СФ-');
    revokeTokenAtProvider();

    await h.send('/token');
    const twoStep = await h.send(h.sandbox.token);
    expect(lastText(twoStep)).toContain('не принял');
    await h.send('/cancel');

    const before = h.sandbox.requests.length;
    const oneLine = await h.send(`/token ${h.sandbox.token}`);
    expect(lastText(oneLine)).toContain('не принял');
    expect(h.sandbox.requests.length).toBeGreaterThan(before);
  });
});

describe('/token <token> typed in the middle of an order form', () => {
  it('is deleted and taken, and the form is still there to answer', async () => {
    await h.connect();
    const started = await h.send('/order domain');
    const question = lastText(started);
    const calls = await h.send(`/token ${h.sandbox.token}`);
    expect(deletions(calls)).toHaveLength(1);
    // The same token again: the chat holds it already, and says which account it is.
    expect(lastText(calls)).toContain('уже подключён в этом чате — это активный аккаунт «mysite.by»');
    expectNoTokenIn(calls);
    // The form was not lost: a plain answer is still taken by it.
    const next = await h.send('new-shop-after-token.by');
    expect(lastText(next)).not.toBe(question);
    expect(texts(next).join('\n')).not.toContain('Не понял');
  });
});
