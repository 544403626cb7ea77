/*
 * Buttons that say what they do (Bot API 9.4's `style`): a button that deletes or replaces is red,
 * the last step of a form green, navigation left to the app's own colour. The rules
 * (test/helpers/button-rules.ts) are checked on every keyboard of every bot story after it ends;
 * the stories here pin the colours of the screens they are about, and the walk's own rules bite.
 */
import { describe, expect, it } from 'vitest';
import type { BotCall, UserOptions } from '../helpers/bot-harness.js';
import { buttonData, lastText } from '../helpers/bot-harness.js';
import { type Drawn, drawnButtons, expectButtonRules } from '../helpers/button-rules.js';
import { Conversation } from '../helpers/conversation.js';
import { orderTestDomain, PERSON_ANSWERS } from '../helpers/fixtures.js';
import { useBot } from '../helpers/use-bot.js';

const { h, en } = useBot({ connect: ['partner', 'en'], reset: ['faults', 'scene'] });

/** What the walk checks every button against (the rules every story is checked with, too). */
function expectHouseStyles(calls: BotCall[]): Drawn[] {
  const drawn = expectButtonRules(calls);
  expect(drawn.length).toBeGreaterThan(0);
  return drawn;
}

/** The style of the last button drawn with exactly this label (fails when none was). */
function styleOf(calls: BotCall[], label: string): string | undefined {
  const found = drawnButtons(calls).filter((b) => b.text === label);
  if (found.length === 0) {
    throw new Error(
      `no button «${label}»; drawn: ${drawnButtons(calls)
        .map((b) => b.text)
        .join(' | ')}`,
    );
  }
  return found.at(-1)?.style;
}

/** The calls a story made the bot send, from its start to now. */
function since(from: number): BotCall[] {
  return h.calls.slice(from);
}

let seq = 0;
const newDomain = async (tag: string) => {
  const domain = `styles-${tag}-${Date.now()}-${++seq}.com`;
  return { domain, orderId: await orderTestDomain(h.api(), domain) };
};

describe('deleting a record', () => {
  it('the added record’s 🗑, the card’s 🗑 Удалить and «🗑 Да, удалить» are red; No, ✏️ and Back are not', async () => {
    const from = h.calls.length;
    const { orderId } = await newDomain('del');
    const added = await h.send(`/dns ${orderId} add A www 192.0.2.1`);
    const trash = drawnButtons(added).find((b) => /^🗑 #\d+$/.test(b.text));
    expect(trash?.style).toBe('danger');
    const list = await h.send(`/dns ${orderId}`);
    const card = await h.press(buttonData(list, 'A www → 192.0.2.1'));
    expect(styleOf(card, '🗑 Удалить')).toBe('danger');
    expect(styleOf(card, '✏️ Изменить')).toBeUndefined();
    expect(styleOf(card, '⬅ Все записи')).toBeUndefined();
    const ask = await h.press(buttonData(card, '🗑 Удалить'));
    expect(styleOf(ask, '🗑 Да, удалить')).toBe('danger');
    expect(styleOf(ask, 'Нет')).toBeUndefined();
    await h.press(buttonData(ask, 'Да, удалить'));
    expect(await h.api().listDnsRecords(orderId)).toEqual([]);
    expectHouseStyles(since(from));
  });

  it('in English too, and the pick among several records to delete is red', async () => {
    const from = h.calls.length;
    const { domain, orderId } = await newDomain('del-en');
    await h.api().addDnsRecord(orderId, { kind: 'a', ttl: 3600, host: 'ftp', ipv4: '192.0.2.1' });
    await h.api().addDnsRecord(orderId, { kind: 'a', ttl: 3600, host: 'ftp', ipv4: '192.0.2.2' });
    const many = await h.send(`/dns ${domain} del A ftp`, en);
    expect(styleOf(many, '🗑 A ftp → 192.0.2.1')).toBe('danger');
    const ask = await h.press(buttonData(many, '🗑 A ftp → 192.0.2.1'), en);
    expect(styleOf(ask, '🗑 Yes, delete')).toBe('danger');
    expect(styleOf(ask, 'No')).toBeUndefined();
    expectHouseStyles(since(from));
  });
});

describe('changing and setting records', () => {
  it('the change’s ✅ Применить is green; set’s «✅ Да, заменить» over several records is red', async () => {
    const from = h.calls.length;
    const { domain, orderId } = await newDomain('set');
    await h.api().addDnsRecord(orderId, { kind: 'a', ttl: 3600, host: 'www', ipv4: '192.0.2.1' });
    const card = await h.press(buttonData(await h.send(`/dns ${domain}`), 'A www → 192.0.2.1'));
    await h.press(buttonData(card, '✏️ Изменить'));
    const summary = await h.send('192.0.2.9');
    expect(lastText(summary)).toContain('192.0.2.9');
    expect(styleOf(summary, '✅ Применить')).toBe('success');
    expect(styleOf(summary, '✖ Отмена')).toBeUndefined();
    await h.press(buttonData(summary, '✅ Применить'));

    await h.api().addDnsRecord(orderId, { kind: 'a', ttl: 3600, host: 'www', ipv4: '192.0.2.10' });
    const preview = await h.send(`/dns ${domain} set A www 192.0.2.55`);
    expect(styleOf(preview, '✅ Да, заменить')).toBe('danger');
    expect(styleOf(preview, 'Нет')).toBeUndefined();
    expectHouseStyles(since(from));
  });

  it('the guided add’s ✅ Добавить is green', async () => {
    const from = h.calls.length;
    const { orderId } = await newDomain('add');
    let calls = await h.press(buttonData(await h.send(`/dns ${orderId}`), '➕ Добавить'));
    calls = await h.press(buttonData(calls, 'TXT'));
    await h.send('@');
    calls = await h.send('v=spf1 -all');
    calls = await h.press(buttonData(calls, '3600'));
    expect(styleOf(calls, '✅ Добавить')).toBe('success');
    expectHouseStyles(since(from));
  });
});

describe('zone import, presets and bulk: Apply is green, red when it deletes', () => {
  it('a merge’s Apply is green beside the red ♻️; the whole zone’s Apply deletes, and is red, as is «Да, удалить N»', async () => {
    const from = h.calls.length;
    const { orderId } = await newDomain('zone');
    const hosts = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];
    for (const host of hosts)
      await h.api().addDnsRecord(orderId, { kind: 'a', ttl: 3600, host, ipv4: '192.0.2.1' });
    await h.press(buttonData(await h.send(`/dns ${orderId}`), 'Импорт'));
    const merge = await h.send(['a 3600 IN A 192.0.2.1', 'new 3600 IN A 192.0.2.7'].join('\n'));
    expect(lastText(merge)).toContain('Удалить: 0');
    expect(styleOf(merge, '✅ Применить')).toBe('success');
    expect(styleOf(merge, '♻️ Заменить всю зону')).toBe('danger');
    expect(styleOf(merge, 'Нет')).toBeUndefined();
    const replace = await h.press(buttonData(merge, 'Заменить всю зону'));
    expect(lastText(replace)).toContain('Удалить: 9');
    expect(styleOf(replace, '✅ Применить')).toBe('danger');
    const force = await h.press(buttonData(replace, 'Применить'));
    expect(styleOf(force, 'Да, удалить 9')).toBe('danger');
    expect(styleOf(force, 'Нет')).toBeUndefined();
    expectHouseStyles(since(from));
  });

  it('a preset that only adds has a green Apply; one that replaces, a red one', async () => {
    const from = h.calls.length;
    const { domain, orderId } = await newDomain('preset');
    const adds = await h.press(buttonData(await h.send(`/dns ${domain} preset`), 'Tilda'));
    expect(lastText(adds)).toContain('Заменить (удалить): 0');
    expect(styleOf(adds, '✅ Применить')).toBe('success');
    await h.api().addDnsRecord(orderId, { kind: 'a', ttl: 3600, host: '@', ipv4: '192.0.2.1' });
    const replaces = await h.press(buttonData(await h.send(`/dns ${domain} preset`), 'Tilda'));
    expect(lastText(replaces)).toContain('Изменить: 1\nЗаменить (удалить): 0');
    expect(styleOf(replaces, '✅ Применить')).toBe('danger');
    expectHouseStyles(since(from));
  });

  it('a bulk add’s Apply is green; a bulk delete’s Apply and its force are red', async () => {
    const from = h.calls.length;
    const [big, small] = [await newDomain('bulk-big'), await newDomain('bulk-small')];
    for (const n of [1, 2, 3, 4])
      await h.api().addDnsRecord(big.orderId, { kind: 'a', ttl: 3600, host: '@', ipv4: `192.0.2.${n}` });
    for (const host of ['a', 'b', 'c', 'd', 'e', 'f'])
      await h.api().addDnsRecord(big.orderId, { kind: 'a', ttl: 3600, host, ipv4: '192.0.2.9' });
    await h.api().addDnsRecord(small.orderId, { kind: 'a', ttl: 3600, host: '@', ipv4: '192.0.2.1' });
    const pick = async () => {
      await h.send('/dns bulk');
      await h.send(`${big.domain} ${small.domain}`);
    };
    await pick();
    const add = await h.send('add TXT @ "v=spf1 -all"');
    expect(styleOf(add, '✅ Применить')).toBe('success');
    await h.press(buttonData(add, 'Нет'));
    await pick();
    const del = await h.send('del A @ 192.0.2.*');
    expect(styleOf(del, '✅ Применить')).toBe('danger');
    expect(styleOf(del, '⚠️ Применить и удалить (1)')).toBe('danger');
    expect(styleOf(del, 'Нет')).toBeUndefined();
    expectHouseStyles(since(from));
  });
});

describe('name servers and undo', () => {
  it('🗑 Удалить NS and every name-server Yes are red, in ru and en', async () => {
    const from = h.calls.length;
    const { orderId } = await newDomain('ns');
    const menu = await h.send(`/ns ${orderId}`);
    expect(styleOf(menu, '🗑 Удалить NS')).toBe('danger');
    for (const label of drawnButtons(menu)
      .map((b) => b.text)
      .filter((l) => !l.startsWith('🗑'))) {
      expect(styleOf(menu, label), label).toBeUndefined();
    }
    expect(styleOf(await h.send(`/ns ${orderId} delete`), 'Да, применить')).toBe('danger');
    expect(styleOf(await h.send(`/ns ${orderId} editor`), 'Да, применить')).toBe('danger');
    const replace = await h.send(`/ns ${orderId} ns1.styles.by ns2.styles.by`);
    expect(styleOf(replace, 'Да, применить')).toBe('danger');
    expect(styleOf(await h.send(`/ns ${orderId} delete`, en), 'Yes, apply')).toBe('danger');
    expectHouseStyles(since(from));
  });

  it('an undo that deletes what was added is red; one that only puts a record back is plain', async () => {
    const from = h.calls.length;
    const { orderId } = await newDomain('undo');
    const added = await h.send(`/dns ${orderId} add A undo 192.0.2.51`);
    const deletes = await h.press(buttonData(added, '↩ Отменить'));
    expect(styleOf(deletes, '↩ Да, отменить')).toBe('danger');
    const undone = await h.press(buttonData(deletes, 'Да, отменить'));
    // The undo's own undo puts the record back: nothing is lost by it.
    const restores = await h.press(buttonData(undone, '↩ Отменить'));
    expect(styleOf(restores, '↩ Да, отменить')).toBeUndefined();
    expectHouseStyles(since(from));
  });
});

describe('orders, saved customers and /logout', () => {
  let nextUser = 9_100;
  const chatOf = async (languageCode = 'ru') => {
    nextUser += 1;
    const user: UserOptions = { userId: nextUser, chatId: nextUser, languageCode };
    await h.connect(user);
    return new Conversation(() => h, user);
  };

  it('the order’s Confirm and the customer card’s Save are green; deleting the customer is red', async () => {
    const from = h.calls.length;
    const chat = await chatOf();
    const [tariff] = await h.api().listMailTariffs();
    if (!tariff) throw new Error('no mail tariff');
    await chat.say('/order mail');
    await chat.answer(`[${tariff.tariff_name}]`, '[1 мес]', '[BYN]', '[Физическое лицо]', ...PERSON_ANSWERS);
    await chat.answer('+375291234567', 'ivan@example.by');
    expect(await chat.tap('Да')).toContain('Итог');
    expect(styleOf(chat.last, '✅ Подтвердить заказ')).toBe('success');
    for (const label of ['✏️ Изменить', '⬅ Назад', '✖ Отмена'])
      expect(styleOf(chat.last, label)).toBeUndefined();
    expect(await chat.tap('Подтвердить')).toContain('Заказ создан');

    await chat.say('/requisites');
    const name = `${PERSON_ANSWERS[0]}`;
    await chat.tap(name);
    expect(styleOf(chat.last, '🗑 Удалить')).toBe('danger');
    await chat.tap('🗑 Удалить');
    expect(styleOf(chat.last, 'Да')).toBe('danger');
    expect(styleOf(chat.last, 'Нет')).toBeUndefined();
    expect(await chat.tap('Да')).toContain('Заказчик удалён');

    await chat.say('/requisites');
    await chat.tap('Добавить заказчика');
    await chat.answer('[Физическое лицо]', ...PERSON_ANSWERS, '+375291234567', 'ivan@example.by');
    expect(styleOf(chat.last, '💾 Сохранить')).toBe('success');
    expectHouseStyles(since(from));
  });

  it('/logout’s Yes is red and its No plain, in ru and en', async () => {
    const from = h.calls.length;
    const ru = await chatOf();
    const ask = await h.send('/logout', ru.user);
    expect(styleOf(ask, 'Да, забыть')).toBe('danger');
    expect(styleOf(ask, 'Нет')).toBeUndefined();
    const english = await chatOf('en');
    const asked = await h.send('/logout', english.user);
    expect(styleOf(asked, 'Yes, forget')).toBe('danger');
    expect(styleOf(asked, 'No')).toBeUndefined();
    expectHouseStyles(since(from));
  });
});

// The rules themselves must bite: a delete without its colour, or a coloured No, fails the walk.
describe('the walk', () => {
  const drawn = (text: string, button: { text: string; style?: string }): BotCall => ({
    method: 'sendMessage',
    payload: { text, reply_markup: { inline_keyboard: [[button]] } },
    providerRequestsBefore: 0,
  });

  it('fails on a delete, or a Yes to a delete, drawn without red', () => {
    expect(() => expectHouseStyles([drawn('Удалить запись?', { text: '🗑 Да, удалить' })])).toThrow(
      /deletes or replaces/,
    );
    expect(() => expectHouseStyles([drawn('Forget everything stored?', { text: 'Yes, forget' })])).toThrow(
      /deletes or replaces/,
    );
    expect(() => expectHouseStyles([drawn('Удалить этого заказчика?', { text: 'Да' })])).toThrow(
      /answers a question that deletes/,
    );
  });

  it('fails on a plain Confirm and on a coloured No', () => {
    expect(() => expectHouseStyles([drawn('Итог', { text: '✅ Подтвердить заказ' })])).toThrow(/confirms/);
    expect(() => expectHouseStyles([drawn('Удалить?', { text: 'Нет', style: 'danger' })])).toThrow(
      /only navigates/,
    );
  });
});
