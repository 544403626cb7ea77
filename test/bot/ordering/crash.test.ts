import { describe, expect, it } from 'vitest';
import type { ChatDoc } from '../../../src/storage/chat-store.js';
import {
  type BotCall,
  type BotHarness,
  buttonData,
  buttons,
  lastText,
  texts,
  type UserOptions,
} from '../../helpers/bot-harness.js';
import { Conversation } from '../../helpers/conversation.js';
import { orderTestDomain, PERSON_ANSWERS } from '../../helpers/fixtures.js';
import { useBot } from '../../helpers/use-bot.js';

/*
 * Guided forms across a kill -9. The harness runs an update to its end; "killed" then puts back
 * the session the process had written at the moment of the kill (a Bot API message sent, or the
 * provider reached) and starts a new bot on the same data: what the partner saw up to that point
 * is all they saw, and what the store held then is all the new process knows.
 */

const { h } = useBot();

class Chat extends Conversation<UserOptions & { chatId: number }> {
  constructor(user: UserOptions & { chatId: number }, bot: () => BotHarness = () => h) {
    super(bot, user);
  }
}

let nextChat = 80_000;
async function freshChat(): Promise<Chat> {
  nextChat += 1;
  const chat = new Chat({ userId: nextChat, chatId: nextChat });
  await h.connect(chat.user);
  return chat;
}

const newDomain = (name: string) => orderTestDomain(h.api(), name);

/** A stored session, with how far the bot (Bot API calls) and the provider (requests) had got. */
interface Written {
  calls: number;
  requests: number;
  session: ChatDoc['session'];
}

/** Where the kill comes: at a Bot API call of the update (after it was made, or before), or when
 * the provider has received this many requests. */
type KillPoint = { call: number; sent: boolean } | { requests: number } | { writes: number };

/**
 * Runs `act` and then kills the bot at `point` of it: the chat's session goes back to the last one
 * written before that point, and a new bot starts on the same data. Returns the calls made before
 * the point — what the partner saw.
 */
async function killed(
  chat: Chat,
  act: () => Promise<BotCall[]>,
  point: (calls: BotCall[], requestsBefore: number) => KillPoint,
): Promise<BotCall[]> {
  const chatId = chat.user.chatId;
  const stored = (await h.store.read(chatId))?.session;
  const writes: Written[] = [{ calls: -1, requests: -1, session: stored }];
  const store = h.store;
  const update = store.update.bind(store);
  store.update = async (id, change) => {
    const doc = await update(id, change);
    if (id === chatId) {
      writes.push({
        calls: h.calls.length,
        requests: h.sandbox.requests.length,
        session: structuredClone(doc.session),
      });
    }
    return doc;
  };
  const callsBefore = h.calls.length;
  const requestsBefore = h.sandbox.requests.length;
  const calls = await act();
  store.update = update;
  const at = point(calls, requestsBefore);
  // A write finished before a call was made saw fewer calls recorded than that call's index.
  const survivors =
    'writes' in at
      ? writes.slice(0, 1 + at.writes)
      : writes.filter((w) => ('call' in at ? w.calls <= callsBefore + at.call : w.requests <= at.requests));
  const session = survivors.at(-1)?.session;
  await h.store.update(chatId, ({ session: _lost, ...rest }) =>
    session === undefined ? rest : { ...rest, session },
  );
  await h.restart();
  const seen =
    'writes' in at
      ? calls.slice(0, Math.max(0, (writes[at.writes]?.calls ?? callsBefore) - callsBefore))
      : 'call' in at
        ? calls.slice(0, at.sent ? at.call + 1 : at.call)
        : calls.filter((c) => c.providerRequestsBefore <= at.requests);
  chat.last = seen;
  return seen;
}

/** The last message sent among the calls (a rich screen, such as the summary, included). */
const lastSend = (calls: BotCall[]) =>
  calls.map((c) => c.method === 'sendMessage' || c.method === 'sendRichMessage').lastIndexOf(true);
/** The kill comes right after the last message of the update was sent. */
const afterLastSend = (calls: BotCall[]): KillPoint => ({ call: lastSend(calls), sent: true });
/** The kill comes just before the last message of the update would have been sent. */
const beforeLastSend = (calls: BotCall[]): KillPoint => ({ call: lastSend(calls), sent: false });
/** The kill comes right after the update's first write to the chat's data (a step's side effect). */
const afterFirstWrite = (): KillPoint => ({ writes: 1 });

const PERSON = PERSON_ANSWERS;

async function startProfile(chat: Chat): Promise<void> {
  await chat.say('/requisites');
  expect(await chat.tap('Добавить заказчика')).toContain('Тип заказчика');
}

describe('a kill -9 mid-form never files an answer into the wrong field', () => {
  it('killed right after the next question was sent: the answer to it does not land in the field before', async () => {
    const chat = await freshChat();
    await startProfile(chat);
    expect(await chat.tap('Физическое лицо')).toContain('фамилия');
    const seen = await killed(chat, () => h.send('Иванов', chat.user), afterLastSend);
    expect(lastText(seen)).toContain('имя');
    // The partner answers the question on the screen, as anyone would.
    const reply = await chat.say('Иван');
    // It is asked again, with a word on why, and is then taken where it belongs.
    expect(lastText(chat.last)).toMatch(/Введите: <b>имя<\/b>/);
    const summary = await chat.answer(...PERSON.slice(1), '+375291234567', 'ivan@example.by');
    expect(summary).toContain('Фамилия: Иванов');
    expect(summary).toContain('Имя: Иван\n');
    expect(summary).toContain('Отчество: Иванович');
    expect(reply).toContain('перезапускался');
  });

  it('killed between the write and the send: the question the partner still sees is answered again, nothing misfiled', async () => {
    const chat = await freshChat();
    await startProfile(chat);
    await chat.tap('Физическое лицо');
    const seen = await killed(chat, () => h.send('Иванов', chat.user), beforeLastSend);
    expect(texts(seen)).toEqual([]);
    // Nothing came back: the partner sends the last name again.
    const reply = await chat.say('Иванов');
    expect(lastText(chat.last)).toMatch(/Введите: <b>имя<\/b>/);
    expect(reply).not.toContain('фамилия');
    const summary = await chat.answer(...PERSON.slice(1), '+375291234567', 'ivan@example.by');
    expect(summary).toContain('Фамилия: Иванов');
    expect(summary).toContain('Имя: Иван\n');
  });

  it('a button of the screen shown before the kill is taken: it carries the screen number', async () => {
    const chat = await freshChat();
    await chat.say('/requisites');
    const seen = await killed(
      chat,
      () => h.press(buttonData(chat.last, 'Добавить заказчика'), chat.user),
      afterLastSend,
    );
    expect(lastText(seen)).toContain('Тип заказчика');
    const reply = await chat.tap('Физическое лицо');
    expect(reply).not.toContain('перезапускался');
    expect(reply).toContain('фамилия');
  });

  it('killed right after the summary was sent: a typed text shows the summary again, and Save works', async () => {
    const chat = await freshChat();
    await startProfile(chat);
    await chat.tap('Физическое лицо');
    await chat.answer(...PERSON, '+375291234567');
    const seen = await killed(chat, () => h.send('ivan@example.by', chat.user), afterLastSend);
    expect(lastText(seen)).toContain('Новый заказчик');
    const reply = await chat.say('ну что?');
    expect(reply).toContain('Новый заказчик');
    expect(await chat.tap('Сохранить')).toContain('Заказчик сохранён');
  });
});

/** A chat's mail order filled up to «Сохранить этого заказчика?». */
async function mailUpToSave(chat: Chat): Promise<void> {
  const [tariff] = await h.api().listMailTariffs();
  if (!tariff) throw new Error('no mail tariff');
  await chat.say('/order mail');
  await chat.tap(tariff.tariff_name);
  await chat.tap(/^1 мес/);
  await chat.tap('BYN');
  await chat.answer('[Физическое лицо]', ...PERSON, '+375291234567', 'ivan@example.by');
}

describe('a step’s side effect is not repeated after a kill', () => {
  it('«Сохранить этого заказчика? Да», killed before the next screen, then «Да» again: one saved customer', async () => {
    const chat = await freshChat();
    await mailUpToSave(chat);
    expect(lastText(chat.last)).toContain('Сохранить этого заказчика');
    const yes = buttonData(chat.last, 'Да');
    // The profile is written, the draft never: the partner still sees the question.
    const seen = await killed(chat, () => h.press(yes, chat.user), afterFirstWrite);
    expect(texts(seen)).toEqual([]);
    expect((await h.chatData.getProfiles(chat.user.chatId)).map((p) => p.label)).toEqual(['Иванов Иван']);
    // The question still on screen: its «Да» is tapped again.
    expect(lastText(await h.press(yes, chat.user))).toContain('Итог: корпоративная почта');
    expect((await h.chatData.getProfiles(chat.user.chatId)).map((p) => p.label)).toEqual(['Иванов Иван']);
  });
});

// ---- Confirm with the create call in flight ----

const MAIL_PATH = '/v1/orders/corporate-mails';
const creates = () => h.sandbox.requests.filter((r) => r.method === 'POST' && r.path === MAIL_PATH);

/** A chat at the mail order's summary; returns the Confirm button's data. */
async function mailSummary(chat: Chat): Promise<string> {
  await mailUpToSave(chat);
  expect(await chat.tap('Нет')).toContain('Итог: корпоративная почта');
  return buttonData(chat.last, 'Подтвердить');
}

/** The kill comes while the create call is at the provider. */
const duringCreate = (_calls: BotCall[], requestsBefore: number) => ({
  requests: h.sandbox.requests.findIndex(
    (r, i) => i >= requestsBefore && r.method === 'POST' && r.path === MAIL_PATH,
  ),
});
/** The kill comes while the order list (taken before submitting) is at the provider. */
const duringListBeforeCreate = (_calls: BotCall[], requestsBefore: number) => ({
  requests: h.sandbox.requests.findIndex(
    (r, i) => i >= requestsBefore && r.method === 'GET' && r.path === MAIL_PATH,
  ),
});

/** Confirm pressed, and the process killed while the provider was creating the order. */
async function confirmKilledMidCreate(chat: Chat, fault: 'drop' | 'reset'): Promise<number> {
  const confirm = await mailSummary(chat);
  h.sandbox.addFault({ method: 'POST', path: MAIL_PATH, fault: { kind: fault } });
  const before = creates().length;
  await killed(chat, () => h.press(confirm, chat.user), duringCreate);
  expect(creates().length - before).toBe(1);
  chat.last = [];
  return before;
}

describe('a kill -9 while Confirm was creating the order', () => {
  it('the provider created it: the next text finds the order and gives its invoice link', async () => {
    const chat = await freshChat();
    const before = await confirmKilledMidCreate(chat, 'drop');
    const reply = await chat.say('что с заказом?');
    expect(reply).toContain('Заказ создан');
    expect(buttons(chat.last).find((b) => b.url)?.url).toMatch(/^http/);
    expect(reply).not.toContain('Ответьте кнопкой');
    expect(creates().length - before).toBe(1);
    // The form is over: the next text is an ordinary message again.
    expect(await chat.say('привет')).not.toContain('Заказ');
  });

  it('the provider created it: the old Confirm tap finds the order, and creates nothing', async () => {
    const chat = await freshChat();
    const confirm = await mailSummary(chat);
    h.sandbox.addFault({ method: 'POST', path: MAIL_PATH, fault: { kind: 'drop' } });
    const before = creates().length;
    await killed(chat, () => h.press(confirm, chat.user), duringCreate);
    const calls = await h.press(confirm, chat.user);
    expect(calls.some((c) => c.method === 'answerCallbackQuery')).toBe(true);
    expect(texts(calls).join('\n')).toContain('Заказ создан');
    expect(creates().length - before).toBe(1);
  });

  it('the provider created it: /cancel says so and shows the order instead of "nothing was sent"', async () => {
    const chat = await freshChat();
    await confirmKilledMidCreate(chat, 'drop');
    const reply = await chat.say('/cancel');
    expect(reply).toContain('Заказ создан');
    expect(reply).not.toContain('Ничего не отправлено');
    expect(reply).toContain('отменять нечего');
  });

  it('the provider did not create it: the next text says so and offers the summary, and Confirm creates one order', async () => {
    const chat = await freshChat();
    const before = await confirmKilledMidCreate(chat, 'reset');
    const reply = await chat.say('что с заказом?');
    expect(reply).toContain('не создан');
    expect(reply).toContain('Итог: корпоративная почта');
    expect(await chat.tap('Подтвердить')).toContain('Заказ создан');
    // One call was lost on the way; one created the order.
    expect(creates().length - before).toBe(2);
  });

  it('the provider did not create it: /cancel says it was not created and leaves', async () => {
    const chat = await freshChat();
    await confirmKilledMidCreate(chat, 'reset');
    const reply = await chat.say('/cancel');
    expect(reply).toContain('не создан');
    expect(reply).toContain('Отменено');
    expect(await chat.say('привет')).not.toContain('Ответьте кнопкой');
  });

  it('killed before the create call was made: nothing was sent, and the summary is offered again', async () => {
    const chat = await freshChat();
    const confirm = await mailSummary(chat);
    const before = creates().length;
    await killed(chat, () => h.press(confirm, chat.user), duringListBeforeCreate);
    // The process died before its create call; the harness's run made one, which never happened.
    const made = creates().length - before;
    const reply = await chat.say('и?');
    expect(reply).toContain('не создан');
    expect(await chat.tap('Подтвердить')).toContain('Заказ создан');
    expect(creates().length - before).toBe(made + 1);
  });
});

// ---- the Keep button and long summaries ----

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function keepLabel(calls: BotCall[]): string {
  const keep = buttons(calls).find((b) => b.text.startsWith('Оставить'));
  if (!keep)
    throw new Error(
      `no Keep button; have: ${buttons(calls)
        .map((b) => b.text)
        .join(' | ')}`,
    );
  return keep.text;
}

describe('the Keep button', () => {
  it('shows an emoji-heavy value cut between graphemes, never inside one', async () => {
    const chat = await freshChat();
    const orderId = await newDomain(`keep-${chat.user.chatId}.com`);
    await chat.say(`/dns ${orderId}`);
    await chat.tap('Добавить');
    await chat.tap('TXT');
    await chat.say('@');
    const value = `abc${'😀'.repeat(30)}`;
    await chat.say(value);
    await chat.tap('Назад');
    const label = keepLabel(chat.last);
    expect(label).not.toMatch(LONE_SURROGATE);
    expect(label.startsWith('Оставить: abc😀')).toBe(true);
    expect(label.endsWith('😀…')).toBe(true);
    await chat.tap('Оставить');
    await chat.tap('3600');
    expect(await chat.tap('Добавить')).toContain('Запись добавлена');
    const [record] = (await h.api().listDnsRecords(orderId)).filter((r) => r.type === 'TXT');
    expect(record?.value).toContain(value);
  });

  it('shows the value itself, with & < > as typed, not the HTML entities', async () => {
    const chat = await freshChat();
    await startProfile(chat);
    await chat.tap('Юридическое лицо');
    await chat.answer('190000005', 'Tom & Jerry <Ltd>');
    await chat.tap('Назад');
    expect(keepLabel(chat.last)).toBe('Оставить: Tom & Jerry <Ltd>');
  });

  it('shows the value of a long field, not the field name cut off', async () => {
    const chat = await freshChat();
    await startProfile(chat);
    await chat.tap('Юридическое лицо');
    await chat.answer('190000005', `ООО «${'Рога и копыта '.repeat(10)}»`);
    await chat.tap('Назад');
    const label = keepLabel(chat.last);
    expect(label.startsWith('Оставить: ООО «Рога и копыта')).toBe(true);
    expect(label.length).toBeLessThanOrEqual(60);
  });
});

describe('a long summary', () => {
  it('is one rich message with every value, the keyboard under it', async () => {
    const chat = await freshChat();
    const { values, all } = await longSummary(chat, h);
    const rich = chat.last.filter((c) => c.method === 'sendRichMessage');
    expect(rich).toHaveLength(1);
    for (const value of values) expect(all(chat.last)).toContain(value);
    expect(all(chat.last)).not.toContain('…');
    expect(rich[0]?.payload.reply_markup).toBeDefined();
    // The form's sections each have their details block, open, titled as the Edit menu names them.
    type Block = { type: string; summary?: string; is_open?: boolean };
    const blocks = (rich[0]?.payload.rich_message as { blocks: Block[] } | undefined)?.blocks ?? [];
    const sections = blocks.filter((b) => b.type === 'details');
    expect(sections.map((b) => b.summary)).toEqual(['Заказчик', 'Контакты']);
    expect(sections.every((b) => b.is_open === true)).toBe(true);
    expect(await chat.tap('Сохранить')).toContain('Заказчик сохранён');
  });
});

describe('a long summary as HTML (RICH_MESSAGES=off)', () => {
  const html = useBot({ richMessages: false });

  it('is split across messages, never cut, with the keyboard on the last one', async () => {
    const chat = new Chat({ chatId: 9_100_001, userId: 9_100_001 }, () => html.h);
    await html.h.connect(chat.user);
    const { values } = await longSummary(chat, html.h);
    const parts = chat.last.filter((c) => c.method === 'sendMessage');
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(String(part.payload.text).length).toBeLessThanOrEqual(4096);
    const all = parts.map((p) => String(p.payload.text)).join('\n');
    for (const value of values) expect(all).toContain(value);
    expect(all).not.toContain('…');
    const withKeyboard = parts.filter((p) => p.payload.reply_markup !== undefined);
    expect(withKeyboard).toEqual([parts.at(-1)]);
    expect(await chat.tap('Сохранить')).toContain('Заказчик сохранён');
  });
});

/** A legal customer with every free-text field at the 255-character limit, up to its summary. */
async function longSummary(chat: Chat, bot: BotHarness) {
  await chat.say('/requisites');
  expect(await chat.tap('Добавить заказчика')).toContain('Тип заказчика');
  await chat.tap('Юридическое лицо');
  const long = (name: string) => `${name} ${'ж'.repeat(254 - name.length)}`;
  const longName = (name: string) => `${name}${'ж'.repeat(255 - name.length)}`;
  const fields = [
    '190000005',
    long('company'),
    longName('Execlast'),
    longName('Execfirst'),
    longName('Execmiddle'),
    long('post'),
  ];
  const address = (p: string) => [
    'BY',
    '220030',
    long(`${p}Region`),
    long(`${p}City`),
    long(`${p}Street`),
    long(`${p}Building`),
    long(`${p}Room`),
  ];
  const legal = address('legal');
  const postal = address('postal');
  const bank = [long('bank'), 'AKBBBY2X', 'BY15AKBB30120000000040000000'];
  await chat.answer(...fields, ...legal, '[Нет]', ...postal, '[Да]', ...bank, '+375291234567');
  chat.last = await bot.send('office@example.by', chat.user);
  return {
    values: [...fields, ...legal, ...postal, ...bank, '+375291234567', 'office@example.by'],
    all: (calls: BotCall[]) => texts(calls).join('\n'),
  };
}

/** Changes the stored draft as another version of the bot would have stored it. */
async function rewriteDraft(chat: Chat, change: (draft: Record<string, unknown>) => void): Promise<void> {
  const sessions = h.chatData.sessionStore<{ __scenes?: { state?: Record<string, unknown> } }>();
  const key = String(chat.user.chatId);
  const session = await sessions.get(key);
  const state = session?.__scenes?.state;
  expect(state?.answers).toBeDefined();
  if (state) change(state);
  if (session) await sessions.set(key, session);
}

describe('a draft stored by another version of the bot', () => {
  it('is dropped with a message in the partner’s language, and a new form starts cleanly', async () => {
    const chat = await freshChat();
    await startProfile(chat);
    expect(await chat.tap('Физическое лицо')).toContain('фамилия');
    // An older bot stored its draft without a version (or with another one).
    await rewriteDraft(chat, (draft) => {
      delete draft.version;
    });
    await h.restart();
    const reply = await chat.say('Иванов');
    expect(reply).toContain('прежней версии');
    expect(reply).not.toContain('Внутренняя ошибка');
    // The form is gone: the next text is not taken as an answer, and a new form starts.
    await startProfile(chat);
    expect(await chat.tap('Физическое лицо')).toContain('фамилия');
  });

  it('is dropped on a button press too, never crashing', async () => {
    const chat = await freshChat();
    await startProfile(chat);
    await rewriteDraft(chat, (draft) => {
      draft.version = 1;
    });
    await h.restart();
    expect(await chat.tap('Физическое лицо')).toContain('прежней версии');
  });
});
