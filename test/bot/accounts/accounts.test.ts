import { describe, expect, it } from 'vitest';
import { type BotCall, buttonData, buttons, lastText, texts, USER_ID } from '../../helpers/bot-harness.js';
import { Conversation } from '../../helpers/conversation.js';
import { addressKey } from '../../helpers/key-fixtures.js';
import { inGroup, OWNER, privately, useBot } from '../../helpers/use-bot.js';

/*
 * Several partner accounts in one private chat (issue 42), as a partner meets them: a second
 * sandbox token added next to the first, /accounts to switch, rename and remove, every screen
 * headed with its account, old buttons acting on the account they were made for, the 11th
 * account refused. The harness's sandbox serves both partners: partner 1 (`mysite.by`, the usual
 * seed) and partner 2 (`studio-b.by`, SECOND_PARTNER).
 */

const { h } = useBot({ per: 'story', connect: ['partner'] });

/** The second partner's token and client (the harness's sandbox serves both partners). */
const second = {
  get token(): string {
    const token = h.secondToken;
    if (token === undefined) throw new Error('the sandbox has no second partner');
    return token;
  },
  get api() {
    return h.secondApi();
  },
};

const all = (calls: BotCall[]) => texts(calls).join('\n');

/** The keyboard row of /accounts whose first button names the account (`label`). */
function rowOf(calls: BotCall[], label: string) {
  const rows = calls.flatMap(
    (c) =>
      (
        c.payload.reply_markup as
          | { inline_keyboard?: { text: string; callback_data?: string }[][] }
          | undefined
      )?.inline_keyboard ?? [],
  );
  const row = rows.find((r) => r[0]?.text.includes(label));
  if (row === undefined)
    throw new Error(`no row for ${label}; have: ${rows.map((r) => r[0]?.text).join(' | ')}`);
  return row;
}

/** The callback data of the button `button` in the row of account `label`. */
function inRow(calls: BotCall[], label: string, button: string): string {
  const data = rowOf(calls, label).find((b) => b.text.includes(button))?.callback_data;
  if (data === undefined) throw new Error(`no ${button} for ${label}`);
  return data;
}

/** The toast a button press got. */
const toastOf = (calls: BotCall[]) =>
  calls.find((c) => c.method === 'answerCallbackQuery' && c.payload.text !== undefined)?.payload;

/** Requests made with each partner's token since `before`. */
const partnersAsked = (before: number) => new Set(h.sandbox.requests.slice(before).map((r) => r.partner));

/** Adds the second partner's token with /token (the first is connected by useBot). */
async function addSecond(): Promise<BotCall[]> {
  const calls = await h.send(`/token ${second.token}`);
  expect(lastText(calls)).toContain(
    'Добавлен аккаунт «studio-b.by». Теперь он активный; переключиться — /accounts',
  );
  return calls;
}

describe('two sandbox tokens in one chat', () => {
  it('the second token is added as an account, and /accounts switches between them, each screen headed', async () => {
    const calls = await addSecond();
    // The message carrying the token is gone, and the token was never echoed.
    expect(calls.filter((c) => c.method === 'deleteMessage')).toHaveLength(1);
    expect(all(calls)).not.toContain(second.token);
    expect(await h.chatData.accountNumbers(USER_ID)).toEqual([1, 2]);

    // The new account is active: /invoices shows the second partner's invoices, headed with its name.
    let before = h.sandbox.requests.length;
    const invoicesB = await h.send('/invoices');
    expect(lastText(invoicesB)).toMatch(/^👤 studio-b\.by\n/);
    const latestB = (await second.api.listInvoices()).sort((a, b) => b.invoice_id - a.invoice_id)[0];
    expect(lastText(invoicesB)).toContain(latestB?.invoice_number);
    expect(partnersAsked(before)).toEqual(new Set([2]));

    // /accounts: both, the own name on top (none given yet: the partner's), the active one marked.
    const list = await h.send('/accounts');
    const shown = lastText(list);
    expect(shown).toContain('Партнёрские аккаунты этого чата</b> — 2 из 10');
    expect(shown).toContain('✅ <b>studio-b.by</b> — активный');
    expect(shown).toContain('▫️ <b>mysite.by</b>');
    expect(buttons(list).map((b) => b.text)).toEqual([
      '🔄 mysite.by',
      '✏️ Имя',
      '🗑 Удалить',
      '✅ studio-b.by',
      '✏️ Имя',
      '🗑 Удалить',
      '➕ Добавить аккаунт',
    ]);
    for (const button of buttons(list)) expect([...button.text].length).toBeLessThanOrEqual(30);

    const switched = await h.press(inRow(list, 'mysite.by', '🔄'));
    expect(toastOf(switched)?.text).toBe('Активный аккаунт — «mysite.by»');
    expect(lastText(switched)).toContain('Теперь активный аккаунт — «mysite.by»');
    expect(lastText(switched)).toContain('✅ <b>mysite.by</b> — активный');

    before = h.sandbox.requests.length;
    const invoicesA = await h.send('/invoices');
    expect(lastText(invoicesA)).toMatch(/^👤 mysite\.by\n/);
    expect(lastText(invoicesA)).toContain('СФ-2026-');
    expect(lastText(invoicesA)).not.toContain(latestB?.invoice_number);
    expect(partnersAsked(before)).toEqual(new Set([1]));

    // The active one's own button only says so.
    const again = await h.press(inRow(switched, 'mysite.by', '✅'));
    expect(toastOf(again)?.text).toBe('«mysite.by» уже активный');
  });

  it('an old button acts on the account it was made for, whichever is active now', async () => {
    await addSecond();
    const invoicesB = await h.send('/invoices');
    await h.press(inRow(await h.send('/accounts'), 'mysite.by', '🔄'));

    const before = h.sandbox.requests.length;
    const link = await h.press(buttonData(invoicesB, '🔗 Счёт'));
    expect(lastText(link)).toMatch(/^👤 <b>studio-b\.by<\/b>\nСсылка на счёт/);
    expect(partnersAsked(before)).toEqual(new Set([2]));
    // The active account is still the one chosen.
    expect((await h.chatData.listAccounts(USER_ID)).find((a) => a.active)?.n).toBe(1);
  });

  it('a chat of one account has no heading, and its /accounts offers to add another', async () => {
    expect(lastText(await h.send('/invoices'))).not.toContain('👤');
    const list = await h.send('/accounts');
    expect(lastText(list)).toContain('— 1 из 10');
    expect(lastText(list)).toContain('Можно подключить ещё аккаунты');
    const add = await h.press(buttonData(list, '➕ Добавить аккаунт'));
    expect(lastText(add)).toContain('Отправьте токен API другого партнёрского аккаунта');
    const added = await h.send(second.token);
    expect(added.filter((c) => c.method === 'deleteMessage')).toHaveLength(1);
    expect(lastText(added)).toContain('Добавлен аккаунт «studio-b.by»');
  });
});

describe('the effort figure', () => {
  it('from the first account’s /invoices to the second’s latest invoice link: 1 command and 2 taps', async () => {
    await addSecond();
    await h.press(inRow(await h.send('/accounts'), 'mysite.by', '🔄'));
    const c = new Conversation(() => h, {});
    const first = await c.say('/invoices');
    expect(first).toMatch(/^👤 mysite\.by\n/);
    const other = await c.tap('👤 studio-b.by');
    expect(other).toMatch(/^👤 studio-b\.by\n/);
    const before = h.sandbox.requests.length;
    // Newest first: the first invoice button is the latest invoice.
    const link = await c.tap('🔗 Счёт');
    expect(c.effort).toBeLessThanOrEqual(3);
    const latest = (await second.api.listInvoices()).sort((a, b) => b.invoice_id - a.invoice_id)[0];
    if (latest === undefined) throw new Error('the second partner has no invoices');
    expect(link).toContain(`Ссылка на счёт № ${latest.invoice_number}`);
    expect(link).toContain(await second.api.getInvoiceUrl(latest.invoice_id));
    expect(partnersAsked(before)).toEqual(new Set([2]));
    // A look only: the active account did not change.
    expect((await h.chatData.listAccounts(USER_ID)).find((a) => a.active)?.n).toBe(1);
  });
});

describe('renaming an account', () => {
  it('asks for the name in a message, shows it on top with the partner under it, and heads screens with it', async () => {
    await addSecond();
    const asked = await h.press(inRow(await h.send('/accounts'), 'studio-b.by', '✏️'));
    expect(lastText(asked)).toContain('Как назвать аккаунт «studio-b.by»?');
    const tooLong = await h.send('Очень длинное имя для второго аккаунта');
    expect(lastText(tooLong)).toContain('длиннее 24 символов');
    const renamed = await h.send('Студия Б');
    expect(lastText(renamed)).toContain('Готово: аккаунт теперь называется «Студия Б»');
    expect(lastText(renamed)).toContain('✅ <b>Студия Б</b> — активный\n      по заказам: studio-b.by');
    expect(lastText(await h.send('/invoices'))).toMatch(/^👤 Студия Б\n/);

    const cleared = await h.press(inRow(renamed, 'Студия Б', '✏️'));
    expect(lastText(cleared)).toContain('Как назвать аккаунт «Студия Б»?');
    expect(lastText(await h.send('-'))).toContain('Своё имя убрано: аккаунт снова называется «studio-b.by»');
  });
});

describe('removing an account', () => {
  it('is asked first, naming its notifications and keys; then it goes, and its old buttons say so', async () => {
    await addSecond();
    const invoicesB = await h.send('/invoices');
    await h.robotKeys.create(addressKey(USER_ID, { account: 2, name: 'Роутер студии' }));
    await h.robotKeys.create(addressKey(USER_ID, { account: 1, name: 'Роутер офиса' }));

    const list = await h.send('/accounts');
    const asked = await h.press(inRow(list, 'studio-b.by', '🗑'));
    const question = lastText(asked);
    expect(question).toContain('Удалить аккаунт «studio-b.by» из этого чата? Вместе с ним уйдут:');
    expect(question).toContain('его уведомления в этом чате');
    expect(question).toContain('1 ключ для роботов — он перестанет работать');
    expect(buttons(asked).map((b) => b.text)).toEqual(['🗑 Да, удалить аккаунт', 'Нет']);
    // Nothing is removed by the question.
    expect(await h.chatData.accountNumbers(USER_ID)).toEqual([1, 2]);

    const kept = await h.press(buttonData(asked, 'Нет'));
    expect(lastText(kept)).toContain('✅ <b>studio-b.by</b> — активный');

    const removed = await h
      .press(inRow(list, 'studio-b.by', '🗑'))
      .then((q) => h.press(buttonData(q, 'Да, удалить')));
    const done = lastText(removed);
    expect(done).toContain('Аккаунт «studio-b.by» удалён из чата, его уведомления здесь отключены.');
    expect(done).toContain('Ключ для роботов удалён: 1.');
    expect(done).toContain('Активный теперь — «mysite.by».');
    expect(await h.chatData.accountNumbers(USER_ID)).toEqual([1]);
    expect((await h.robotKeys.list(USER_ID)).map((k) => k.name)).toEqual(['Роутер офиса']);

    // A button made for the removed account says so, and asks the provider nothing.
    const before = h.sandbox.requests.length;
    const old = await h.press(buttonData(invoicesB, '🔗 Счёт'));
    const alert = toastOf(old);
    expect(alert?.text).toBe(
      'Эта кнопка — от аккаунта, который удалён из этого чата. Подключите его снова: /accounts',
    );
    expect(alert?.show_alert).toBe(true);
    expect(old.some((c) => c.method === 'editMessageReplyMarkup')).toBe(true);
    expect(h.sandbox.requests.length).toBe(before);
    // The account left works, unheaded (one account).
    expect(lastText(await h.send('/invoices'))).not.toContain('👤');
  });

  it('ends a form that was started on it, and keeps one started on another', async () => {
    type Session = { __scenes?: { current?: string }; account?: number };
    const session = () => h.chatData.sessionStore<Session>().get(String(USER_ID));
    await addSecond();
    // The list first: a command typed in a form would close the form by itself.
    const list = await h.send('/accounts');
    await h.send('/order domain');
    expect(await session()).toMatchObject({ __scenes: { current: expect.any(String) }, account: 2 });
    // Another account goes: the form stays.
    await h.press(buttonData(await h.press(inRow(list, 'mysite.by', '🗑')), 'Да, удалить'));
    expect((await session())?.__scenes?.current).toBeDefined();
    // Its own account goes: the form ends.
    const last = await h.press(buttonData(await h.press(inRow(list, 'studio-b.by', '🗑')), 'Да, удалить'));
    expect(lastText(last)).toContain('Аккаунтов в чате больше нет. Подключить токен — /token.');
    const after = await session();
    expect(after?.__scenes?.current).toBeUndefined();
    expect(after?.account).toBeUndefined();
  });

  it('/logout with several accounts removes the active one after asking, or forgets everything', async () => {
    await addSecond();
    const asked = await h.send('/logout');
    expect(lastText(asked)).toContain('Удалить аккаунт «studio-b.by» из этого чата?');
    expect(lastText(asked)).toContain('Или забыть всё');
    expect(buttons(asked).map((b) => b.text)).toEqual(['🗑 Да, удалить аккаунт', '🗑 Забыть всё', 'Нет']);
    expect(lastText(await h.press(buttonData(asked, 'Нет')))).toContain('ничего не удалено');
    const removed = await h.press(buttonData(asked, 'Да, удалить'));
    expect(lastText(removed)).toContain('Аккаунт «studio-b.by» удалён');
    expect(await h.chatData.accountNumbers(USER_ID)).toEqual([1]);
    // One account left: /logout is as before accounts.
    const last = await h.send('/logout');
    expect(lastText(last)).toContain('Забыть всё, что хранится для этого чата');
  });
});

describe('at most 10 accounts', () => {
  it('the 11th is refused with a clear message, by /token and by ➕', async () => {
    for (let i = 2; i <= 10; i++) await h.chatData.addAccount(USER_ID, `placeholder-token-${i}`);
    // The active one is a live account of another partner (a refused token would be replaced).
    await h.chatData.switchAccount(USER_ID, 1);
    expect(await h.chatData.accountNumbers(USER_ID)).toHaveLength(10);
    const refused = await h.send(`/token ${second.token}`);
    expect(lastText(refused)).toContain('В этом чате уже 10 аккаунтов — больше нельзя. Токен не сохранён');
    expect(refused.filter((c) => c.method === 'deleteMessage')).toHaveLength(1);
    expect(await h.chatData.accountNumbers(USER_ID)).toHaveLength(10);
    expect(await h.chatData.findAccountByToken(USER_ID, second.token)).toBeUndefined();

    const list = await h.send('/accounts');
    expect(lastText(list)).toContain('— 10 из 10');
    expect(lastText(await h.press(buttonData(list, '➕ Добавить аккаунт')))).toContain(
      'В этом чате уже 10 аккаунтов — больше нельзя',
    );
  });
});

describe('/token: a token already here, or a new one', () => {
  it('a token the chat holds says which account it is', async () => {
    await addSecond();
    await h.press(inRow(await h.send('/accounts'), 'mysite.by', '🔄'));
    const known = await h.send(`/token ${second.token}`);
    expect(lastText(known)).toContain('Этот токен уже подключён в этом чате — это аккаунт «studio-b.by»');
    expect(await h.chatData.accountNumbers(USER_ID)).toEqual([1, 2]);
  });
});

describe('team groups hold one account of the owner', () => {
  it('/team binds the active account and says which; removing that account unbinds the group, asked first', async () => {
    const owner = privately(OWNER);
    await h.send(`/token ${h.sandbox.token}`, owner);
    await h.send(`/token ${second.token}`, owner);
    const bound = await h.send('/team', inGroup(OWNER));
    expect(lastText(bound)).toContain('Аккаунт владельца: <b>studio-b.by</b>');
    const group = await h.chatData.getToken(-100_500);
    expect(group).toBe(second.token);
    expect(lastText(await h.send('/team', inGroup(OWNER)))).toContain(
      'Аккаунт владельца: <b>studio-b.by</b>',
    );

    const list = await h.send('/accounts', owner);
    const asked = await h.press(inRow(list, 'studio-b.by', '🗑'), owner);
    expect(lastText(asked)).toContain(
      '1 командная группа, подключённая с этим аккаунтом, — она будет отключена',
    );
    const done = await h.press(buttonData(asked, 'Да, удалить'), owner);
    expect(lastText(done)).toContain('Командная группа отключена: 1');
    expect(await h.chatData.getTeam(-100_500)).toBeUndefined();
    const told = done.find((c) => c.method === 'sendMessage' && c.payload.chat_id === -100_500);
    expect(String(told?.payload.text)).toContain('владелец удалил из бота партнёрский аккаунт');
  });
});
