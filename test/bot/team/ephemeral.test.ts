import { describe, expect, it } from 'vitest';
import { registerCommandMenus } from '../../../src/bot/index.js';
import { loadTranslations } from '../../../src/bot/kit/i18n.js';
import { createLogger } from '../../../src/logger.js';
import {
  type BotCall,
  buttonData,
  lastText,
  publicTexts,
  receiverOf,
  sent,
  texts,
  textsFor,
} from '../../helpers/bot-harness.js';
import { orderTestDomain } from '../../helpers/fixtures.js';
import { GROUP, inGroup, OWNER, useBot } from '../../helpers/use-bot.js';

/*
 * Team chats, Bot API 10.2–10.3: what concerns one member is seen by that member alone (an
 * ephemeral message: message_id 0, its own ephemeral id), and what the team should see stays the
 * group's message. Each story reads what each member sees.
 */

const BORIS = { userId: 333, firstName: 'Борис' };
const GLEB = { userId: 555, firstName: 'Глеб' };

const { h } = useBot({ per: 'story', team: [[BORIS, 'техник']] });

/** The message of these calls that answers last, as a member sees it: its text, to whom, its markup. */
const lastSent = (calls: BotCall[]) => {
  const call = sent(calls).at(-1);
  if (call === undefined) throw new Error(`nothing sent; calls: ${calls.map((c) => c.method).join(', ')}`);
  return call;
};
const parameters = (call: BotCall) => call.payload.ephemeral_message_parameters as Record<string, unknown>;

/** Boris presses a button on his own ephemeral message (the last one these calls sent him). */
const pressOnHis = (calls: BotCall[], label: string | RegExp) => {
  const id = lastSent(calls).ephemeralMessageId;
  if (id === undefined) throw new Error('the last message was not ephemeral');
  return h.press(buttonData(calls, label), { ...inGroup(BORIS), ephemeralMessageId: id });
};

describe('a member’s form in a bound group', () => {
  it('asks every question of Boris alone, takes his typed answers without a reply, and tells the group the change', async () => {
    const domain = `eph-${Date.now()}.com`;
    const orderId = await orderTestDomain(h.api(), domain);

    // The records are the team's; the form the Add button opens is his.
    const list = await h.send(`/dns ${domain}`, inGroup(BORIS));
    expect(receiverOf(lastSent(list))).toBeUndefined();
    let step = await h.press(buttonData(list, 'Добавить'), inGroup(BORIS));
    const typeQuestion = lastSent(step);
    expect(typeQuestion.payload.chat_id).toBe(GROUP);
    expect(texts(step).join('\n')).toMatch(/какого типа/i);
    // The answer to his tap: tied to it, but the group's list stays where it was.
    expect(parameters(typeQuestion)).toEqual({
      receiver_user_id: BORIS.userId,
      callback_query_id: expect.any(String),
    });

    step = await pressOnHis(step, 'TXT');
    const host = lastSent(step);
    // His next step takes the place of the one he pressed on; no name, no quote: only he sees it.
    expect(parameters(host)).toEqual({
      receiver_user_id: BORIS.userId,
      callback_query_id: expect.any(String),
      replace_callback_query_message: true,
    });
    expect(String(host.payload.text)).toMatch(/^Для какого хоста/);
    expect(host.payload.reply_markup).toEqual({ force_reply: true, selective: true });
    expect(host.payload.reply_parameters).toBeUndefined();

    // He answers by typing; Telegram leaves reply_to_message out of a reply to an ephemeral message.
    step = await h.send('@', inGroup(BORIS));
    expect(receiverOf(lastSent(step))).toBe(BORIS.userId);
    expect(texts(step).join('\n')).not.toContain('Для какого хоста');
    step = await h.send('v=spf1 -all', inGroup(BORIS));
    expect(receiverOf(lastSent(step))).toBe(BORIS.userId);
    step = await pressOnHis(step, '3600');
    expect(receiverOf(lastSent(step))).toBe(BORIS.userId);
    const done = await pressOnHis(step, '✅ Добавить');

    // The change is the team's: the record and the announcement are the group's messages.
    expect(publicTexts(done).join('\n')).toContain('добавил(а) DNS-запись домена');
    expect(publicTexts(done).filter((t) => t.startsWith('📣'))).toEqual([
      expect.stringMatching(new RegExp(`^📣 Борис \\(техник\\) добавил\\(а\\) DNS-запись домена ${domain}`)),
    ]);
    const posts = h.sandbox.requests
      .filter((r) => r.method === 'POST' && r.path.startsWith(`/v1/domains/${orderId}/dns/records/`))
      .map((r) => r.body);
    expect(posts).toEqual([{ ttl: 3600, host: '@', text: 'v=spf1 -all' }]);

    // Every question and hint of the form went to him alone.
    const formMessages = h.calls.filter((c) =>
      /какого типа|для какого хоста|введите текст|сколько секунд|Добавить запись в/i.test(
        texts([c]).join(''),
      ),
    );
    expect(formMessages).toHaveLength(5);
    for (const message of formMessages) expect(receiverOf(message)).toBe(BORIS.userId);
    // Chatter from someone with nothing open is still nobody's business.
    expect(await h.send('всем привет', inGroup(GLEB))).toEqual([]);
  });

  it('a form whose message Telegram no longer has asks its step again, from the draft', async () => {
    const domain = `eph-lost-${Date.now()}.com`;
    const orderId = await orderTestDomain(h.api(), domain);
    const list = await h.send(`/dns ${domain}`, inGroup(BORIS));
    let step = await h.press(buttonData(list, 'Добавить'), inGroup(BORIS));
    step = await pressOnHis(step, 'TXT');
    step = await h.send('@', inGroup(BORIS));
    step = await h.send('v=spf1 -all', inGroup(BORIS));
    const ttl = step;

    // Telegram restarted: the TTL question is gone, though his app still draws it.
    h.failures.set('editEphemeralMessageReplyMarkup', {
      error_code: 400,
      description: 'Bad Request: message to edit not found',
    });
    const again = await pressOnHis(ttl, '3600');
    const asked = lastSent(again);
    expect(texts(again)).toEqual([expect.stringContaining('Сообщение формы пропало')]);
    expect(String(asked.payload.text)).toContain('Ничего не потеряно — вот этот шаг снова');
    expect(String(asked.payload.text)).toMatch(/TTL/);
    // A new message for him (nothing to take the place of), and the tap was not taken as a choice.
    expect(parameters(asked)).toEqual({
      receiver_user_id: BORIS.userId,
      callback_query_id: expect.any(String),
    });
    expect(h.sandbox.requests.filter((r) => r.method === 'POST' && r.path.includes('/dns/'))).toEqual([]);

    // The draft kept his answers: the same record is added from the step asked again.
    step = await pressOnHis(again, '3600');
    step = await pressOnHis(step, '✅ Добавить');
    expect(publicTexts(step).join('\n')).toContain('добавил(а) DNS-запись домена');
    const posts = h.sandbox.requests
      .filter((r) => r.method === 'POST' && r.path.startsWith(`/v1/domains/${orderId}/dns/records/`))
      .map((r) => r.body);
    expect(posts).toEqual([{ ttl: 3600, host: '@', text: 'v=spf1 -all' }]);
  });
});

describe('refusals, errors and commands of one member', () => {
  it('a viewer’s refused command and button are told to them alone; the tap’s refusal is tied to it', async () => {
    const domain = `eph-role-${Date.now()}.com`;
    await orderTestDomain(h.api(), domain);
    const command = await h.send(`/dns ${domain}`, inGroup(GLEB));
    expect(textsFor(command, GLEB.userId)).toEqual([
      'Эта команда доступна ролям: техник, администратор, владелец. Ваша роль: зритель. Сменить роль может владелец — Анна.',
    ]);
    expect(publicTexts(command)).toEqual([]);

    const list = await h.send(`/dns ${domain}`, inGroup(BORIS));
    const pressed = await h.press(buttonData(list, 'Добавить'), inGroup(GLEB));
    const refusal = lastSent(pressed);
    expect(parameters(refusal)).toEqual({
      receiver_user_id: GLEB.userId,
      callback_query_id: String(
        (
          pressed.find((c) => c.method === 'answerCallbackQuery')?.payload as
            | { callback_query_id: string }
            | undefined
        )?.callback_query_id,
      ),
    });
    expect(refusal.payload.text).toBe(
      'Эта кнопка доступна ролям: техник, администратор, владелец. Ваша роль: зритель. Сменить роль может владелец — Анна.',
    );
    expect(publicTexts(pressed)).toEqual([]);
  });

  it('an error in the bound group is told to the member who met it', async () => {
    const missing = await h.send('/dns nosuch-eph-domain.by', inGroup(BORIS));
    expect(textsFor(missing, BORIS.userId)).toEqual([
      expect.stringContaining('Домена nosuch-eph-domain.by нет'),
    ]);
    expect(publicTexts(missing)).toEqual([]);
    h.sandbox.addFault({
      path: '/v1/billing/invoices',
      fault: { kind: 'status', status: 503 },
      times: Infinity,
    });
    const down = await h.send('/invoices', inGroup(OWNER));
    expect(textsFor(down, OWNER.userId)).toEqual([expect.stringContaining('недоступ')]);
    expect(publicTexts(down)).toEqual([]);
  });

  it('a command sent ephemeral (is_ephemeral) is answered to its sender alone, never quoting it', async () => {
    const help = await h.send('/help', { ...inGroup(GLEB), ephemeral: true });
    const answer = lastSent(help);
    expect(parameters(answer)).toEqual({ receiver_user_id: GLEB.userId });
    expect(answer.payload.reply_parameters).toBeUndefined();
    expect(String(answer.payload.text)).toContain('/dns');

    // A refusal would quote the command; an ephemeral one has no message id to quote.
    const order = await h.send('/order', { ...inGroup(GLEB), ephemeral: true });
    expect(parameters(lastSent(order))).toEqual({ receiver_user_id: GLEB.userId });
    expect(lastSent(order).payload.reply_parameters).toBeUndefined();
    expect(lastText(order)).toContain('Ваша роль: зритель');

    // The owner's /order: the menu, then the way to the private chat, are hers alone.
    const menu = await h.send('/order', { ...inGroup(OWNER), ephemeral: true });
    expect(parameters(lastSent(menu))).toEqual({ receiver_user_id: OWNER.userId });
    const way = await h.press(buttonData(menu, 'Домен'), {
      ...inGroup(OWNER),
      ephemeralMessageId: lastSent(menu).ephemeralMessageId ?? 0,
    });
    expect(parameters(lastSent(way))).toEqual({
      receiver_user_id: OWNER.userId,
      callback_query_id: expect.any(String),
    });
    expect(lastText(way)).toContain('личном чате');
    expect(JSON.stringify(lastSent(way).payload.reply_markup)).toContain('t.me/partner_test_bot?start=g');
  });

  it('registers the commands a member uses for themselves as ephemeral in group chats', async () => {
    const calls: { method: string; payload: Record<string, unknown> }[] = [];
    const telegram = {
      callApi: async (method: string, payload: Record<string, unknown>) => {
        calls.push({ method, payload });
        return true;
      },
      setMyCommands: async () => true,
      setMyDescription: async () => true,
      setMyShortDescription: async () => true,
    };
    await registerCommandMenus(telegram as never, loadTranslations(), createLogger({ level: 'silent' }));
    const groups = calls.filter(
      (c) =>
        c.method === 'setMyCommands' && (c.payload.scope as { type?: string })?.type === 'all_group_chats',
    );
    expect(groups.map((c) => c.payload.language_code)).toEqual(['ru', undefined, 'en']);
    const ru = groups[0]?.payload.commands as { command: string; description: string; is_ephemeral?: true }[];
    expect(ru.filter((c) => c.is_ephemeral).map((c) => c.command)).toEqual([
      'order',
      'requisites',
      'token',
      'accounts',
      'cancel',
      'help',
      'start',
    ]);
    expect(ru.find((c) => c.command === 'help')?.description).toMatch(/[а-я]/);
    expect(ru.find((c) => c.command === 'dns')?.is_ephemeral).toBeUndefined();
  });
});

describe('a Bot API server without ephemeral messages', () => {
  it('refusing them: logged once, and the member is named and asked for a reply as before', async () => {
    h.ephemeralSupport = 'refused';
    const domain = `eph-old-${Date.now()}.com`;
    await orderTestDomain(h.api(), domain);
    const list = await h.send(`/dns ${domain}`, inGroup(BORIS));
    let step = await h.press(buttonData(list, 'Добавить'), inGroup(BORIS));
    step = await h.press(buttonData(step, 'TXT'), inGroup(BORIS));
    const host = lastSent(step);
    expect(receiverOf(host)).toBeUndefined();
    expect(host.payload.reply_markup).toEqual({ force_reply: true, selective: true });
    expect(String(host.payload.text)).toMatch(
      new RegExp(`^<a href="tg://user\\?id=${BORIS.userId}">Борис</a>, для какого хоста`),
    );
    // Tried once, then never again in this process.
    const tried = h.calls.filter((c) => receiverOf(c) !== undefined);
    expect(tried).toHaveLength(1);
    step = await h.send('@', { ...inGroup(BORIS), replyToBot: true });
    expect(receiverOf(lastSent(step))).toBeUndefined();
    expect(h.calls.filter((c) => receiverOf(c) !== undefined)).toHaveLength(1);
    expect(h.logLines.filter((l) => l.includes('does not take ephemeral messages'))).toHaveLength(1);
  });

  it('ignoring them (an ordinary message comes back): logged once, and the next messages are as before', async () => {
    h.ephemeralSupport = 'ignored';
    const first = await h.send('/dns nosuch-eph-domain.by', inGroup(BORIS));
    expect(receiverOf(lastSent(first))).toBe(BORIS.userId);
    const second = await h.send('/dns nosuch-eph-domain.by', inGroup(BORIS));
    expect(receiverOf(lastSent(second))).toBeUndefined();
    expect(lastSent(second).payload.reply_parameters).toBeUndefined();
    expect(h.logLines.filter((l) => l.includes('does not take ephemeral messages'))).toHaveLength(1);
  });
});
