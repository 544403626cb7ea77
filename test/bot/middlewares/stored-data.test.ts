/**
 * What the bot keeps on disk, as the partner meets it: a damaged chat record is set aside and the
 * chat goes on at once; a half-finished order form (passport numbers, names) is never in clear.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { locateChatFile } from '../../../src/storage/lowdb-store.js';
import { type BotCall, buttonData, lastText, texts, USER_ID } from '../../helpers/bot-harness.js';
import { useBot } from '../../helpers/use-bot.js';

const { h } = useBot({ per: 'story' });

/** Files beside the chat's own file that hold a set-aside copy of it. */
async function setAsideCopies(chatId: number): Promise<string[]> {
  const file = locateChatFile(h.dataDir, chatId);
  const names = await readdir(path.dirname(file));
  return names.filter((name) => name.startsWith(`${path.basename(file)}.damaged-`));
}

/** Damages the chat's stored file the way a crash mid-write or a bad hand edit would. */
async function damageChatFile(chatId: number): Promise<string> {
  const file = locateChatFile(h.dataDir, chatId);
  const text = await readFile(file, 'utf8');
  const damaged = text.slice(0, Math.floor(text.length / 2));
  await writeFile(file, damaged);
  return damaged;
}

describe('a damaged chat record', () => {
  beforeEach(async () => {
    await h.connect();
    // A fresh process: nothing of the chat is cached, so the next update reads the file.
    await h.restart();
  });

  it('is set aside beside the chat file, the partner is told in Russian, and /start goes on', async () => {
    const damaged = await damageChatFile(USER_ID);
    const calls = await h.send('/start');
    const said = texts(calls);
    expect(said[0]).toBe(
      'Сохранённые данные этого чата повреждены и отложены для администратора. Начните заново: /token',
    );
    expect(lastText(calls)).toContain('Здравствуйте, Анна');
    for (const text of said) expect(text).not.toMatch(/\berrors:|\w+:\w+[A-Z]\w*/);

    const copies = await setAsideCopies(USER_ID);
    expect(copies).toHaveLength(1);
    const copy = path.join(path.dirname(locateChatFile(h.dataDir, USER_ID)), copies[0] ?? '');
    expect(await readFile(copy, 'utf8')).toBe(damaged);

    const warning = h.logLines.find((line) => line.includes('damaged chat record set aside'));
    expect(warning).toBeDefined();
    expect(JSON.parse(warning ?? '{}')).toMatchObject({ level: 40, chatId: USER_ID, setAsideAs: copy });
    // The log says where, never what: no piece of the damaged content.
    expect(warning).not.toContain(damaged.slice(-20));

    // The chat starts over: no token, and /token connects one at once.
    expect(lastText(await h.send('/invoices'))).toContain('/token');
    await h.send('/token');
    expect(lastText(await h.send(h.sandbox.token))).toContain('Токен проверен и сохранён');
    expect(await h.chatData.getToken(USER_ID)).toBe(h.sandbox.token);
    expect(lastText(await h.send('/start'))).toContain('С возвращением');
    // Told once: the new record reads fine, and the copy is still there for the operator.
    expect(h.logLines.filter((line) => line.includes('damaged chat record set aside'))).toHaveLength(1);
    expect(await setAsideCopies(USER_ID)).toEqual(copies);
  });

  it('speaks the partner’s Telegram language and lets /logout work at once', async () => {
    await writeFile(locateChatFile(h.dataDir, USER_ID), '"not a chat record"');
    const calls: BotCall[] = await h.send('/logout', { languageCode: 'en' });
    expect(texts(calls)[0]).toBe(
      "This chat's saved data was damaged and has been set aside for the administrator. Start again: /token",
    );
    for (const text of texts(calls)) expect(text).not.toContain('errors:');
    const done = await h.press(buttonData(calls, 'Yes'), { languageCode: 'en' });
    expect(texts(done).join('\n')).not.toContain('errors:');
    expect(await setAsideCopies(USER_ID)).toHaveLength(1);
  });
});

describe('a half-finished order form', () => {
  const IDENTITY_NUMBER = '3140390A001PB3';
  const SURNAME = 'Крапивницкая';
  /** Answers by the field asked (the part of the label after the section), whatever the order. */
  const ANSWERS: Record<string, string> = {
    фамилия: SURNAME,
    имя: 'Анна',
    отчество: 'Сергеевна',
    'почтовый индекс': '220030',
    'код страны': 'BY',
    'область / регион': 'Минская',
    город: 'Минск',
    улица: 'ул. Тихая',
    дом: '4',
    'квартира / офис': '12',
    'гражданство (код страны)': 'BY',
    'серия документа': 'MP',
    'номер документа': '1234567',
    'кем выдан': 'Партизанский РУВД г. Минска',
    'идентификационный номер': IDENTITY_NUMBER,
    'дата выдачи': '01.02.2020',
  };
  /** The field a prompt asks for, e.g. "почтовый индекс" of "Введите: <b>Адрес — почтовый индекс</b>". */
  const fieldAsked = (calls: BotCall[]): string | undefined =>
    /Введите: <b>([^<]+)<\/b>/.exec(texts(calls).join('\n'))?.[1]?.split(' — ').at(-1);

  it('is kept sealed in the chat file, and goes on after a restart', async () => {
    await h.connect();
    let last = await h.send('/order domain sealed-draft.by');
    const tap = async (label: string) => {
      last = await h.press(buttonData(last, label));
      return texts(last).join('\n');
    };
    await tap('2 года');
    expect(await tap('BYN')).toContain('Тип заказчика');
    await tap('Физическое лицо');
    // Fill the form up to the identity number, and stop there: a draft half-way through.
    const asked: string[] = [];
    for (let field = fieldAsked(last); asked.at(-1) !== 'идентификационный номер'; field = fieldAsked(last)) {
      const answer = field === undefined ? undefined : ANSWERS[field];
      if (field === undefined || answer === undefined || asked.length > 30 || asked.at(-1) === field) {
        throw new Error(`unexpected prompt after ${asked.join(', ')}: ${texts(last).join('\n')}`);
      }
      asked.push(field);
      last = await h.send(answer);
    }
    expect(asked).toContain('фамилия');
    expect(fieldAsked(last)).toBe('дата выдачи');

    const chatFile = locateChatFile(h.dataDir, USER_ID);
    expect(JSON.parse(await readFile(chatFile, 'utf8'))).toMatchObject({
      session: expect.stringMatching(/^v1\./),
    });
    expect(await h.dataFilesContaining(IDENTITY_NUMBER)).toEqual([]);
    expect(await h.dataFilesContaining(SURNAME)).toEqual([]);

    // Sealed, not dropped: a new process opens the draft and the order goes on.
    await h.restart();
    const next = fieldAsked(await h.send(ANSWERS['дата выдачи'] ?? ''));
    expect(next).toBeDefined();
    expect(next).not.toBe('дата выдачи');
    expect(await h.dataFilesContaining(SURNAME)).toEqual([]);
  });
});
