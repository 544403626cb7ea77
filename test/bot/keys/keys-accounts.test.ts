/*
 * Issue 42, robots' keys per account: a key belongs to the account it was made on. /keys lists
 * the account in use's keys, headed with its name where the chat holds several; the key form
 * stores the account the form was filled on; the limit of keys is the chat's, over all its
 * accounts, and says so.
 */
import { describe, expect, it } from 'vitest';
import { KEY_LIMITS } from '../../../src/core/robot-keys.js';
import { buttonData, lastText, texts } from '../../helpers/bot-harness.js';
import { addressKey } from '../../helpers/key-fixtures.js';
import { useBot } from '../../helpers/use-bot.js';

const { h } = useBot({ per: 'story', connect: ['partner'], reset: ['faults', 'scene'] });
const CHAT = 424_242;

/** A second account in the chat (its token is never used by these stories), made active. */
const addSecond = async () => {
  const added = await h.chatData.addAccount(CHAT, 'second-partner-token-not-called-0001', 'studio-b.by');
  if (!added.ok) throw new Error('the second account was not added');
  return added.n;
};

describe('/keys with two accounts', () => {
  it('lists the account in use’s keys only, headed with its name', async () => {
    const first = await h.robotKeys.create(addressKey(CHAT, { name: 'Роутер первого' }));
    const second = await addSecond();
    await h.robotKeys.create(addressKey(CHAT, { name: 'Роутер второго', account: second }));
    expect(first.key.account).toBeUndefined();

    const onSecond = await h.send('/keys');
    const text = lastText(onSecond);
    expect(text).toMatch(/^👤 <b>studio-b\.by<\/b>\n/);
    expect(text).toContain('Роутер второго');
    expect(text).not.toContain('Роутер первого');

    await h.chatData.switchAccount(CHAT, 1);
    const onFirst = lastText(await h.send('/keys'));
    expect(onFirst).toMatch(/^👤 <b>mysite.by<\/b>\n/);
    expect(onFirst).toContain('Роутер первого');
    expect(onFirst).not.toContain('Роутер второго');
  });

  it('the form stores the account it was filled on', async () => {
    await addSecond();
    await h.chatData.switchAccount(CHAT, 1);
    let step = await h.send('/keys new');
    step = await h.press(buttonData(step, '🏠 Адрес хоста'));
    step = await h.send('office.mysite.by');
    expect(lastText(step)).toContain('Как назвать ключ?');
    step = await h.send('Роутер первого');
    step = await h.press(buttonData(step, 'Пропустить'));
    step = await h.press(buttonData(step, '🔑 Создать ключ'));
    expect(texts(step).join('\n')).toContain('Ключ «Роутер первого» готов');
    const made = await h.robotKeys.list(CHAT);
    expect(made.map((key) => [key.name, key.account])).toEqual([['Роутер первого', 1]]);
    expect(await h.robotKeys.list(CHAT, 2)).toEqual([]);
  });

  it('the limit is the chat’s over all its accounts, and says so', async () => {
    const second = await addSecond();
    for (let i = 0; i < KEY_LIMITS.perChat; i++)
      await h.robotKeys.create(addressKey(CHAT, { name: `Ключ ${i}`, account: i % 2 === 0 ? 1 : second }));
    const refused = texts(await h.send('/keys new')).join('\n');
    expect(refused).toContain(`В этом чате уже ${KEY_LIMITS.perChat} ключей на всех аккаунтах вместе`);
  });
});
