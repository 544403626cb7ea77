import { describe, expect, it } from 'vitest';
import { type BotCall, buttonData, publicTexts, sent, texts, textsFor } from '../../helpers/bot-harness.js';
import { orderTestDomain } from '../../helpers/fixtures.js';
import { addressKey, certificateKey } from '../../helpers/key-fixtures.js';
import { GROUP, inGroup, OWNER, useBot } from '../../helpers/use-bot.js';

/*
 * Keys in a bound team group: owner, admin and tech make, rotate and revoke them, others are
 * refused by role; each is announced to the group, and a key's password never reaches the group —
 * it goes to the maker's private chat, or nowhere (with the way to get it) when the bot may not write there.
 */

const TECH = { userId: 333, firstName: 'Борис' };
const VIEWER = { userId: 555, firstName: 'Глеб' };
const ACCOUNTANT = { userId: 444, firstName: 'Вера' };

const { h } = useBot({
  per: 'file',
  team: [
    [TECH, 'техник'],
    [ACCOUNTANT, 'бухгалтер'],
  ],
  gatewayUrl: 'https://bot.example.invalid',
});

const all = (calls: BotCall[]) => texts(calls).join('\n');
/** Boris presses a button on his own ephemeral message (the last one these calls sent him). */
const pressOnHis = (calls: BotCall[], label: string | RegExp) => {
  const id = sent(calls).at(-1)?.ephemeralMessageId;
  if (id === undefined) throw new Error('the last message was not ephemeral');
  return h.press(buttonData(calls, label), { ...inGroup(TECH), ephemeralMessageId: id });
};
/** Whether any message to the group (not to one member) carried this text. */
/** What the whole group sees of these calls (not a member's ephemeral, not a private chat). */
const groupTexts = (calls: BotCall[]) => publicTexts(calls.filter((c) => c.payload.chat_id === GROUP));
const groupSaw = (calls: BotCall[], text: string) =>
  calls.some((c) => c.payload.chat_id === GROUP && JSON.stringify(c.payload).includes(text));

describe('keys in a team group', () => {
  it('refuses a viewer /keys and a key’s buttons, naming the roles that may', async () => {
    const refused = await h.send('/keys', inGroup(VIEWER));
    expect(all(refused)).toContain('техник, администратор, владелец');
    expect(all(refused)).toContain('Ваша роль: зритель');
    const accountant = await h.send('/keys new', inGroup(ACCOUNTANT));
    expect(all(accountant)).toContain('Ваша роль: бухгалтер');
    // The owner may: the list, and a new key's first question.
    expect(all(await h.send('/keys', inGroup(OWNER)))).toContain('Ключей для роботов пока нет');
    expect(all(await h.send('/keys new', inGroup(OWNER)))).toContain('Что он будет менять?');
    await h.send('/cancel', inGroup(OWNER));
    const domain = `teamkeys-${Date.now()}-v.com`;
    const orderId = await orderTestDomain(h.api(), domain);
    const { key } = await h.robotKeys.create(
      addressKey(GROUP, {
        name: 'Камера',
        scope: `cam.${domain}`,
        orderId,
        domain,
        createdBy: { userId: TECH.userId, name: 'Борис' },
      }),
    );
    const list = await h.send('/keys', inGroup(TECH));
    const press = await h.press(buttonData(list, '🗑 Камера'), inGroup(VIEWER));
    expect(textsFor(press, VIEWER.userId).join('\n')).toContain('Ваша роль: зритель');
    expect(await h.robotKeys.get(key.id)).toBeDefined();
    await h.robotKeys.revoke(key.id);
  });

  it('a tech makes a key: asked alone, the password goes to his private chat, the group hears who made what', async () => {
    const domain = `teamkeys-${Date.now()}-m.com`;
    await orderTestDomain(h.api(), domain);
    let step = await h.send('/keys new', inGroup(TECH));
    step = await pressOnHis(step, '🏠 Адрес хоста');
    step = await h.send(`office.${domain}`, inGroup(TECH));
    step = await h.send('Роутер офиса', inGroup(TECH));
    step = await pressOnHis(step, 'Пропустить');
    const made = await pressOnHis(step, '🔑 Создать ключ');

    const privately = made.filter((c) => c.method === 'sendMessage' && c.payload.chat_id === TECH.userId);
    expect(privately).toHaveLength(1);
    const secretText = String(privately[0]?.payload.text);
    expect(secretText).toContain('Ключ «Роутер офиса» готов');
    expect(secretText).toContain('Ключ группы «Студия»');
    const password = /Пароль: <code>([A-Za-z0-9_-]{43})<\/code>/.exec(secretText)?.[1] ?? '';
    const login = /Логин: <code>(k[a-z2-7]{12})<\/code>/.exec(secretText)?.[1] ?? '';
    const key = await h.robotKeys.verify(login, password);
    expect(key).toMatchObject({
      chatId: GROUP,
      scope: `office.${domain}`,
      createdBy: { userId: TECH.userId },
    });
    // The group never sees it: only the announcement, and Boris alone is told where it went.
    expect(groupSaw(made, password)).toBe(false);
    expect(groupTexts(made)).toEqual([
      `📣 Борис (техник) создал(а) ключ для робота «Роутер офиса»: адрес хоста office.${domain} (записи A и AAAA).`,
    ]);
    expect(textsFor(made, TECH.userId).join('\n')).toContain('у вас в личном чате со мной');

    // Rotating when the bot may not write to him: no password anywhere, and he is told how to get one.
    const list = await h.send('/keys', inGroup(TECH));
    const ask = await h.press(buttonData(list, '🔄 Роутер офиса'), inGroup(TECH));
    h.failures.set('sendMessage', {
      error_code: 403,
      description: "Forbidden: bot can't initiate conversation with a user",
    });
    const rotated = await h.press(buttonData(ask, '🔄 Да, новый пароль'), inGroup(TECH));
    expect(await h.robotKeys.verify(login, password)).toBeUndefined();
    // (The refused private message is the only one that held it.)
    expect(groupSaw(rotated, 'Пароль:')).toBe(false);
    const refusedText = String(rotated.find((c) => c.payload.chat_id === TECH.userId)?.payload.text);
    const lost = /Пароль: <code>([A-Za-z0-9_-]{43})<\/code>/.exec(refusedText)?.[1] ?? '';
    expect(lost).toHaveLength(43);
    // A password is never written down: not in a log line, not in the data files (only its hash).
    for (const secret of [password, lost]) {
      expect(h.logLines.some((line) => line.includes(secret))).toBe(false);
      expect(await h.dataFilesContaining(secret)).toEqual([]);
    }
    expect(groupTexts(rotated).join('\n')).toContain(
      '📣 Борис (техник) выдал(а) новый пароль ключу «Роутер офиса»: старый больше не работает. Меняет: адрес хоста',
    );
    const told = textsFor(rotated, TECH.userId).join('\n');
    expect(told).toContain('пароль я вам не отправил');
    expect(told).toContain('нажмите «Начать»');

    // Revoking is announced too.
    const again = await h.send('/keys', inGroup(TECH));
    const revokeAsk = await h.press(buttonData(again, '🗑 Роутер офиса'), inGroup(TECH));
    const revoked = await h.press(buttonData(revokeAsk, 'Да, удалить'), inGroup(TECH));
    expect(groupTexts(revoked).join('\n')).toContain('📣 Борис (техник) удалил(а) ключ «Роутер офиса»');
    expect(await h.robotKeys.list(GROUP)).toEqual([]);
  });

  it('tells the group a key stopped with the group’s token, and the owner’s way back', async () => {
    const domain = `teamkeys-${Date.now()}-s.com`;
    const orderId = await orderTestDomain(h.api(), domain);
    const { key } = await h.robotKeys.create(
      certificateKey(GROUP, {
        name: 'Сертификат',
        scope: domain,
        orderId,
        domain,
        createdBy: { userId: TECH.userId, name: 'Борис' },
      }),
    );
    const before = h.calls.length;
    await h.keyReports.reportKeyStopped({ key, reason: 'refused' });
    const told = h.calls.slice(before).filter((c) => c.method === 'sendMessage');
    expect(told.map((c) => c.payload.chat_id)).toEqual([GROUP]);
    expect(String(told[0]?.payload.text)).toContain('провайдер отклонил токен API группы');
    expect(String(told[0]?.payload.text)).toContain('/token в личном чате со мной, затем /team здесь');
    await h.robotKeys.revoke(key.id);
  });
});
