import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buttonData, lastText, texts, USER_ID } from '../../helpers/bot-harness.js';
import { addressKey } from '../../helpers/key-fixtures.js';
import { useBot, withBot } from '../../helpers/use-bot.js';

const { h } = useBot({ per: 'story' });

async function readAllData(dir: string): Promise<string> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  return (await Promise.all(files.map((f) => readFile(f, 'utf8')))).join('\n');
}

describe('/start', () => {
  it('welcomes in Russian and explains how to connect a token when none is stored', async () => {
    const reply = lastText(await h.send('/start'));
    expect(reply).toContain('Здравствуйте, Анна');
    expect(reply).toContain('/token');
    expect(reply).toContain('кабинете партнёра');
  });

  it('welcomes in English when Telegram says the user speaks English', async () => {
    const reply = lastText(await h.send('/start', { languageCode: 'en-GB' }));
    expect(reply).toContain('Hello, Анна');
    expect(reply).toContain('/token');
  });

  it('falls back to the default language for other languages', async () => {
    expect(lastText(await h.send('/start', { languageCode: 'de' }))).toContain('Здравствуйте');
  });

  it('says welcome back once a token is connected', async () => {
    await h.connect();
    expect(lastText(await h.send('/start'))).toContain('С возвращением');
  });
});

describe('/token', () => {
  it('stores a valid token sealed, deletes the message that carried it and says so', async () => {
    expect(lastText(await h.send('/token'))).toContain('Отправьте токен');
    const calls = await h.send(h.sandbox.token);
    const deletion = calls.find((c) => c.method === 'deleteMessage');
    expect(deletion?.payload.chat_id).toBe(USER_ID);
    const reply = lastText(calls);
    expect(reply).toContain('Токен проверен и сохранён');
    expect(reply).toContain('удалил');
    // The provider saw the token exactly once, in the check call's headers.
    expect(h.sandbox.requests.at(-1)?.headers['x-api-token']).toBe(h.sandbox.token);
    expect(await h.chatData.getToken(USER_ID)).toBe(h.sandbox.token);
    const data = await readAllData(h.dataDir);
    expect(data.length).toBeGreaterThan(0);
    expect(data).not.toContain(h.sandbox.token);
    expect(h.logLines.join('\n')).not.toContain(h.sandbox.token);
  });

  it('refuses a token the provider rejects, stores nothing and lets the user try again', async () => {
    await h.send('/token');
    const reply = lastText(await h.send('wrong-token-123456'));
    expect(reply).toContain('не принял');
    expect(await h.chatData.getToken(USER_ID)).toBeUndefined();
    expect(lastText(await h.send(h.sandbox.token))).toContain('сохранён');
  });

  it('asks to delete the message by hand when Telegram refuses to delete it', async () => {
    await h.send('/token');
    h.failures.set('deleteMessage', {
      error_code: 400,
      description: "Bad Request: message can't be deleted",
    });
    const reply = lastText(await h.send(h.sandbox.token));
    expect(reply).toContain('удалите его вручную');
    expect(h.logLines.join('\n')).not.toContain(h.sandbox.token);
  });

  it('is refused in a group chat, and nothing is stored', async () => {
    const reply = lastText(await h.send('/token', { chatType: 'group' }));
    expect(reply).toContain('личном чате');
    // A token pasted after that is not taken: it is deleted, and the partner told to revoke it.
    const next = await h.send(h.sandbox.token, { chatType: 'group' });
    expect(next.some((c) => c.method === 'deleteMessage')).toBe(true);
    expect(lastText(next)).toContain('отзовите этот токен');
    expect(await h.chatData.getToken(-100_500)).toBeUndefined();
  });

  it('leaves the token step on /cancel and on another command', async () => {
    await h.send('/token');
    expect(lastText(await h.send('/cancel'))).toContain('Отменено');
    await h.send('/token');
    // /help is answered and the question stays open, as it says.
    const help = await h.send('/help');
    expect(texts(help).join('\n')).toContain('Что умеет бот');
    expect(lastText(help)).toBe('Вопрос выше ждёт ответа: пришлите его или выйдите — /cancel.');
    // Another command closes the question, says so, and runs.
    const zones = await h.send('/lang');
    expect(texts(zones)[0]).toBe('Предыдущий вопрос закрыт.');
    // The next text is not taken for a token any more.
    const calls = await h.send('just chatting');
    expect(calls.some((c) => c.method === 'deleteMessage')).toBe(false);
    expect(lastText(calls)).toContain('/help');
  });
});

describe('commands that need a token', () => {
  it.each(['/invoices', '/invoice 1', '/payments', '/orders', '/zones', '/check example.by'])(
    '%s points to /token when none is stored, without calling the provider',
    async (command) => {
      const before = h.sandbox.requests.length;
      expect(lastText(await h.send(command))).toContain('/token');
      expect(h.sandbox.requests.length).toBe(before);
    },
  );

  it('says so in English too', async () => {
    expect(lastText(await h.send('/invoices', { languageCode: 'en' }))).toContain('No partner API token');
  });
});

describe('/lang, /logout, /cancel, unknown input', () => {
  it('switches the language with a button and keeps it', async () => {
    const choose = await h.send('/lang');
    const reply = lastText(await h.press(buttonData(choose, 'English')));
    expect(reply).toContain('I speak English now');
    expect(lastText(await h.send('/help'))).toContain('What the bot does');
    expect(lastText(await h.send('/lang ru'))).toContain('по-русски');
  });

  it('forgets everything after confirmation, its robots’ keys too, and nothing without it', async () => {
    await h.connect();
    const key = await h.robotKeys.create(addressKey(USER_ID, { name: 'Роутер офиса' }));
    await h.send('/lang en');
    const ask = await h.send('/logout');
    expect(lastText(await h.press(buttonData(ask, 'No')))).toContain('nothing was deleted');
    expect(await h.chatData.getToken(USER_ID)).toBe(h.sandbox.token);
    expect((await h.robotKeys.list(USER_ID)).map((k) => k.id)).toEqual([key.key.id]);
    const again = await h.send('/logout');
    expect(lastText(await h.press(buttonData(again, 'Yes')))).toContain(
      'everything stored for this chat is gone',
    );
    expect(await h.chatData.getToken(USER_ID)).toBeUndefined();
    expect(await h.chatData.getLocale(USER_ID)).toBeUndefined();
    expect(await h.robotKeys.list(USER_ID)).toEqual([]);
    expect(lastText(await h.send('/invoices'))).toContain('/token');
  });

  it('says there is nothing to cancel outside a flow', async () => {
    expect(lastText(await h.send('/cancel'))).toContain('Отменять нечего');
  });

  it('helps with text it does not understand', async () => {
    expect(lastText(await h.send('привет'))).toContain('/help');
    expect(lastText(await h.send('hello', { languageCode: 'en' }))).toContain('/help');
  });

  it('answers a stale or foreign button with "expired" and removes its keyboard', async () => {
    const calls = await h.press('0:zz:1');
    const answer = calls.find((c) => c.method === 'answerCallbackQuery');
    expect(answer?.payload.text).toContain('устарела');
    expect(calls.some((c) => c.method === 'editMessageReplyMarkup')).toBe(true);
  });
});

describe('allow-list', () => {
  it('refuses other users politely before any provider call or storage write', async () => {
    await withBot({ allowedUserIds: [1] }, async (guarded) => {
      const before = guarded.sandbox.requests.length;
      expect(lastText(await guarded.send('/invoices'))).toContain('закрыт');
      expect(lastText(await guarded.send('/token'))).toContain('закрыт');
      expect(guarded.sandbox.requests.length).toBe(before);
      expect(texts(await guarded.send('/start', { userId: 1, chatId: 1 }))[0]).toContain('Здравствуйте');
    });
  });
});

describe('storage footprint', () => {
  it('a chat that only asks for /help leaves nothing on disk', async () => {
    await h.send('/help', { userId: 31_337, chatId: 31_337 });
    expect(await h.store.read(31_337)).toBeUndefined();
    expect(await readAllData(h.dataDir)).toBe('');
  });
});
