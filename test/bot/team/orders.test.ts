import { describe, expect, it } from 'vitest';
import {
  type BotCall,
  buttonData,
  buttons,
  inlineAnswer,
  lastText,
  texts,
} from '../../helpers/bot-harness.js';
import { Conversation } from '../../helpers/conversation.js';
import { NATURAL_PERSON, PERSON_ANSWERS } from '../../helpers/fixtures.js';
import { GROUP, inGroup, OWNER, privately, useBot } from '../../helpers/use-bot.js';

/*
 * Ordering in a team group: customers' requisites are personal data. An owner or admin asking
 * for an order in the group is handed over to the private chat (a deep link), fills the form there
 * with the group's token and the group's saved customers, and the group hears that an order was
 * placed, by whom, with its invoice link — never the requisites.
 */

const ADMIN = { userId: 666, firstName: 'Вера' };
const VIEWER = { userId: 777, firstName: 'Глеб' };

const { h } = useBot({ per: 'story', team: [[ADMIN, 'админ']] });

const all = (calls: BotCall[]) => texts(calls).join('\n');
const groupTexts = () =>
  h.calls
    .filter(
      (c) => (c.method === 'sendMessage' || c.method === 'editMessageText') && c.payload.chat_id === GROUP,
    )
    .map((c) => String(c.payload.text));

/** The admin follows the hand-over and orders in private (saving the customer or not). */
async function orderPrivately(start: string, save: 'Да' | 'Нет'): Promise<Conversation> {
  const chat = new Conversation(() => h, privately(ADMIN));
  expect(await chat.say(`/start ${start}`)).toContain('На сколько лет регистрируем?');
  expect(all(chat.last)).toContain('🔒 Заказ для группы');
  await chat.answer(
    '[1 год]',
    '[BYN]',
    '[Физическое лицо]',
    ...PERSON_ANSWERS,
    '+375291234567',
    'ivan@example.by',
  );
  expect(await chat.tap(save)).toContain('Итог');
  expect(all(chat.last)).toContain(NATURAL_PERSON.last_name);
  await chat.tap('Подтвердить');
  return chat;
}

/** The start parameter of the hand-over button in `calls`. */
function handOver(calls: BotCall[]): string {
  const url = buttons(calls).find((b) => b.url)?.url ?? '';
  const match = /^https:\/\/t\.me\/[A-Za-z0-9_]+\?start=([A-Za-z0-9_-]{1,64})$/.exec(url);
  if (!match?.[1]) throw new Error(`no hand-over link; buttons: ${JSON.stringify(buttons(calls))}`);
  return match[1];
}

describe('an order asked for in the group', () => {
  it('is filled in the admin’s private chat on the group’s account; the group sees who ordered and the invoice link, never the requisites', async () => {
    const asked = await h.send('/order domain team-order.com', inGroup(ADMIN));
    expect(lastText(asked)).toContain('🔒 Заказ оформляется в личном чате со мной');
    expect(buttons(asked).map((b) => b.text)).toEqual(['Оформить в личном чате ›']);
    const start = handOver(asked);
    expect(start).toBe('g100500_domain_team-order_com');

    // The admin has no token of their own: the group's account orders.
    expect(await h.chatData.getToken(ADMIN.userId)).toBeUndefined();
    const chat = await orderPrivately(start, 'Да');
    expect(all(chat.last)).toContain('Заказ создан');
    const mine = chat.last.filter((c) => c.payload.chat_id === ADMIN.userId);
    expect(buttons(mine).map((b) => b.text)).toEqual([
      'Открыть счёт',
      '📋 Копировать ссылку',
      '📤 Отправить клиенту',
    ]);
    // "Send to client" opens the picker on the group's account (the admin has no token of their own).
    const query = buttons(mine).find((b) => b.switch_inline_query_chosen_chat)
      ?.switch_inline_query_chosen_chat?.query;
    expect(query).toMatch(new RegExp(`^#${GROUP} СФ-`));
    const picker = inlineAnswer(await h.inlineQuery(query ?? '', privately(ADMIN)));
    expect(picker.results.map((r) => r.title)).toEqual([
      expect.stringContaining(query?.split(' ')[1] ?? '?'),
    ]);
    // Someone without a seat in the group gets no invoices of it, but a word why.
    const stranger = inlineAnswer(await h.inlineQuery(query ?? '', privately(VIEWER)));
    expect(stranger.results).toEqual([]);
    expect(stranger.button?.text).toBe('Нет доступа к счетам этой группы');
    // The card sent is kept with the group's account, whose watcher sees the payment.
    const resultId = picker.results[0]?.id ?? '';
    await h.chosenInlineResult(resultId, query ?? '', privately(ADMIN));
    const invoiceId = Number(resultId.replace('invoice-', ''));
    expect(await h.chatData.getSharedCards(GROUP, invoiceId)).toEqual([`im${resultId}`]);
    expect(await h.chatData.getSharedCards(ADMIN.userId, invoiceId)).toEqual([]);

    const created = h.sandbox.requests.filter((r) => r.method === 'POST' && r.path === '/v1/orders/domains');
    expect(created).toHaveLength(1);
    expect(created[0]?.headers['x-api-token']).toBe(h.sandbox.token);

    // The group: the announcement with the link, in the group, and no requisites anywhere there.
    const told = h.calls.filter(
      (c) =>
        c.method === 'sendMessage' && c.payload.chat_id === GROUP && String(c.payload.text).startsWith('📣'),
    );
    expect(told.map((c) => c.payload.text)).toEqual([
      expect.stringMatching(
        /^📣 Вера \(администратор\) оформил\(а\) заказ ЗК-\d{4}-\d{6}: 🌐 Домен — team-order\.com\.$/,
      ),
    ]);
    expect(buttons(told).map((b) => b.text)).toEqual(['Открыть счёт', '📋 Копировать ссылку']);
    for (const text of groupTexts()) {
      expect(text).not.toContain(NATURAL_PERSON.last_name);
      expect(text).not.toContain('+375291234567');
    }
    // The customer is the group's, sealed in its record; the admin's private chat keeps none.
    expect((await h.chatData.getProfiles(GROUP)).map((p) => p.label)).toEqual([
      `${NATURAL_PERSON.last_name} ${NATURAL_PERSON.first_name}`,
    ]);
    expect(await h.chatData.getProfiles(ADMIN.userId)).toEqual([]);
    expect(await h.dataFilesContaining(NATURAL_PERSON.last_name)).toEqual([]);
  });

  it('shows the group’s saved customers only in private, and only to an owner or admin', async () => {
    await h.chatData.saveProfile(GROUP, { id: 'c1', label: 'ООО Ромашка', data: {} });
    const asked = await h.send('/requisites', inGroup(ADMIN));
    expect(lastText(asked)).toContain('🔒 Сохранённые реквизиты клиентов этой группы');
    expect(all(asked)).not.toContain('Ромашка');

    const list = await h.send(`/start ${handOver(asked)}`, privately(ADMIN));
    expect(lastText(list)).toBe('Сохранённые реквизиты клиентов группы:');
    expect(buttons(list).map((b) => b.text)).toEqual(['ООО Ромашка']);
    const card = await h.press(buttonData(list, 'ООО Ромашка'), privately(ADMIN));
    expect(all(card)).toContain('ООО Ромашка');
    // «Нет» is answered in place: the customer stays, and the question says so.
    const first = await h.press(buttonData(card, 'Удалить'), privately(ADMIN));
    const kept = await h.press(buttonData(first, 'Нет'), privately(ADMIN));
    expect(lastText(kept)).toBe('Удалить этого заказчика?\n\n<i>Хорошо, заказчик остаётся.</i>');
    expect(buttons(kept)).toEqual([]);
    expect((await h.chatData.getProfiles(GROUP)).map((p) => p.label)).toEqual(['ООО Ромашка']);
    const ask = await h.press(buttonData(card, 'Удалить'), privately(ADMIN));
    expect(all(await h.press(buttonData(ask, 'Да'), privately(ADMIN)))).toContain('удал');
    expect(await h.chatData.getProfiles(GROUP)).toEqual([]);

    // The link grants nothing by itself: a viewer (and anyone not in the group) is refused.
    expect(lastText(await h.send('/requisites', inGroup(VIEWER)))).toContain('доступна ролям');
    expect(lastText(await h.send(`/start ${handOver(asked)}`, privately(VIEWER)))).toContain(
      'могут только владелец и администраторы',
    );
  });

  it('closes the form when the admin loses the role meanwhile; nothing is ordered', async () => {
    const asked = await h.send('/order domain lost-seat.com', inGroup(ADMIN));
    const chat = new Conversation(() => h, privately(ADMIN));
    expect(await chat.say(`/start ${handOver(asked)}`)).toContain('На сколько лет регистрируем?');
    await h.send('/team зритель', { ...inGroup(OWNER), replyTo: ADMIN });
    expect(await chat.tap('1 год')).toContain('Форма закрыта');
    expect(h.sandbox.requests.some((r) => r.method === 'POST' && r.path.startsWith('/v1/orders/'))).toBe(
      false,
    );
  });

  it('in a forum topic, announces the order in that topic', async () => {
    const asked = await h.send('/order domain topic-order.com', { ...inGroup(ADMIN), threadId: 42 });
    expect(handOver(asked)).toBe('g100500t42_domain_topic-order_com');
    expect(asked.find((c) => c.method === 'sendMessage')?.payload.message_thread_id).toBe(42);
    const chat = await orderPrivately(handOver(asked), 'Нет');
    const told = chat.last.find((c) => c.payload.chat_id === GROUP);
    expect(told?.payload).toMatchObject({ message_thread_id: 42 });
    expect(String(told?.payload.text)).toContain('topic-order.com');
  });
});
