import { describe, expect, it } from 'vitest';
import type { Invoice } from '../../src/api/index.js';
import { type BotCall, buttonData, buttons, inlineAnswer, texts, USER_ID } from '../helpers/bot-harness.js';
import { SECOND_PARTNER, SECOND_TOKEN } from '../helpers/fixtures.js';
import { useBot } from '../helpers/use-bot.js';

/*
 * A partner with two accounts in one private chat — their own studio (account 1, connected with
 * /token) and a second studio they work for (account 2, «Студия Б», a second partner of the same
 * sandbox): both are watched, each notification says whose it is and its buttons act on it,
 * /notify is per account, and inline mode offers the invoices of both.
 */

const SECOND = SECOND_TOKEN;
const CHAT = USER_ID;
const STUDIO_B = 'Студия Б';

const sent = (calls: BotCall[]) => calls.filter((c) => c.method === 'sendMessage');
const edits = (calls: BotCall[]) => calls.filter((c) => c.method === 'editMessageText');
/** The provider requests of partner `n` since `before`, as `METHOD path`. */
const requestsOf = (n: number, before: number) =>
  sandbox.requests
    .slice(before)
    .filter((r) => r.partner === n)
    .map((r) => `${r.method} ${r.path}`);

const { h } = useBot({
  per: 'story',
  watchers: true,
  connect: ['partner'],
  // The second account as /accounts adds it: stored for the chat, watched, named by the partner.
  setUp: async (bot) => {
    const added = await bot.chatData.addAccount(CHAT, SECOND);
    if (!added.ok) throw new Error('the second account was not added');
    await bot.chatData.renameAccount(CHAT, added.n, STUDIO_B);
    await bot.watchers?.connect(CHAT, SECOND);
    // Account 1 is the one commands act on.
    await bot.chatData.switchAccount(CHAT, 1);
    // The first poll of each token records what is there, silently.
    expect(sent(await bot.pollWatches())).toEqual([]);
  },
});

const second = () => h.secondApi();
const sandbox = {
  get requests() {
    return h.sandbox.requests;
  },
  partner: (n: number) => h.sandbox.partner(n),
};

async function unpaid(api: { listInvoices(): Promise<Invoice[]> }): Promise<Invoice> {
  const [invoice] = (await api.listInvoices()).filter((i) => i.state === 'WaitingForPayment');
  if (!invoice) throw new Error('no unpaid invoice in this partner’s seed');
  return invoice;
}

/** The message among `calls` whose text names `what`. */
const naming = (calls: BotCall[], what: string) =>
  sent(calls).filter((c) => String(c.payload.text).includes(what));

describe('notifications of two accounts in one chat', () => {
  it('each payment is told once, headed with its own account', async () => {
    const mine = await unpaid(h.api());
    const theirs = await unpaid(second());
    h.sandbox.payInvoice(mine.invoice_id);
    sandbox.partner(2).payInvoice(theirs.invoice_id);

    const calls = await h.pollWatches();
    expect(sent(calls)).toHaveLength(2);
    const [own] = naming(calls, `Пришла оплата по счёту № ${mine.invoice_number}`);
    const other = naming(calls, `Пришла оплата по счёту № ${theirs.invoice_number}`);
    expect(String(own?.payload.text).split('\n')[0]).toBe('👤 <b>mysite.by</b>');
    expect(other).toHaveLength(1);
    expect(String(other[0]?.payload.text).split('\n')[0]).toBe(`👤 <b>${STUDIO_B}</b>`);
    expect(sent(await h.pollWatches())).toEqual([]);
  });

  it('a button under the second account’s notification opens its order, whichever account is active', async () => {
    sandbox.partner(2).completeOrder(SECOND_PARTNER.orders.mailNew);
    const told = sent(await h.pollWatches());
    expect(told).toHaveLength(1);
    expect(String(told[0]?.payload.text)).toMatch(new RegExp(`^👤 <b>${STUDIO_B}</b>\\n.*выполнен`, 's'));

    const before = sandbox.requests.length;
    const opened = await h.press(buttonData(told, 'Открыть заказ'));
    expect(texts(opened)[0]?.split('\n')[0]).toBe(`👤 <b>${STUDIO_B}</b>`);
    expect(texts(opened)[0]).toContain(`(id ${SECOND_PARTNER.orders.mailNew})`);
    // Asked with the second studio's token; the active account's was not asked at all.
    expect(requestsOf(2, before)).toContain('GET /v1/orders/domains');
    expect(requestsOf(1, before)).toEqual([]);
  });

  it('a paid invoice of the second account marks its earlier link message paid, still headed', async () => {
    const theirs = await unpaid(second());
    // Its link was asked for in the second account (as /invoice does there).
    await h.chatData.switchAccount(CHAT, 2);
    const link = sent(await h.send(`/invoice ${theirs.invoice_id}`)).at(-1);
    expect(String(link?.payload.text).split('\n')[0]).toBe(`👤 <b>${STUDIO_B}</b>`);
    await h.chatData.switchAccount(CHAT, 1);

    sandbox.partner(2).payInvoice(theirs.invoice_id);
    const paid = edits(await h.pollWatches()).find((c) => c.payload.message_id === link?.messageId);
    expect(String(paid?.payload.text)).toContain(`Счёт № ${theirs.invoice_number} — ✅ оплачен`);
    expect(String(paid?.payload.text).split('\n')[0]).toBe(`👤 <b>${STUDIO_B}</b>`);
  });
});

describe('/notify per account', () => {
  it('says whose settings it shows; turning payments off for the second studio leaves the first told', async () => {
    const own = await h.send('/notify');
    expect(texts(own)[0]?.split('\n')[0]).toBe('👤 <b>mysite.by</b>');
    expect(texts(own)[0]).toContain('Это настройки аккаунта <b>mysite.by</b> — у каждого аккаунта свои');

    await h.chatData.switchAccount(CHAT, 2);
    const theirs = await h.send('/notify');
    expect(texts(theirs)[0]).toContain(`Это настройки аккаунта <b>${STUDIO_B}</b>`);
    // The partner switches back before tapping: the button still acts on the screen's account.
    await h.chatData.switchAccount(CHAT, 1);
    const tap = await h.press(buttonData(theirs, 'оплата счёта'));
    expect(tap.find((c) => c.method === 'answerCallbackQuery')?.payload.text).toBe('Выключено: оплата счёта');
    expect(texts(edits(tap))[0]).toContain(`Это настройки аккаунта <b>${STUDIO_B}</b>`);
    expect(buttons(edits(tap)).map((b) => b.text)).toContain('🚫 оплата счёта');
    expect(buttons(sent(await h.send('/notify'))).map((b) => b.text)).toContain('✅ оплата счёта');

    const mine = await unpaid(h.api());
    const other = await unpaid(second());
    h.sandbox.payInvoice(mine.invoice_id);
    sandbox.partner(2).payInvoice(other.invoice_id);
    const told = texts(sent(await h.pollWatches()));
    expect(told).toEqual([expect.stringContaining(`Пришла оплата по счёту № ${mine.invoice_number}`)]);
  });
});

describe('inline mode over both accounts', () => {
  it('offers the unpaid invoices of both, each naming its account for the partner, never on the card', async () => {
    const mine = (await h.api().listInvoices()).filter((i) => i.state === 'WaitingForPayment');
    const theirs = (await second().listInvoices()).filter((i) => i.state === 'WaitingForPayment');
    const { results } = inlineAnswer(await h.inlineQuery(''));
    expect(results.map((r) => r.id).sort()).toEqual(
      [...mine, ...theirs].map((i) => `invoice-${i.invoice_id}`).sort(),
    );
    for (const invoice of theirs) {
      const result = results.find((r) => r.id === `invoice-${invoice.invoice_id}`);
      expect(result?.description).toMatch(new RegExp(`^👤 ${STUDIO_B} · `));
      expect(result?.input_message_content.message_text).not.toContain(STUDIO_B);
    }
    for (const invoice of mine) {
      const result = results.find((r) => r.id === `invoice-${invoice.invoice_id}`);
      expect(result?.description).toMatch(/^👤 mysite.by · /);
      expect(result?.input_message_content.message_text).not.toContain('Аккаунт');
    }

    // A number of the second studio's invoice finds it alone.
    const [first] = theirs;
    if (!first) throw new Error('the second partner has no unpaid invoice');
    const one = inlineAnswer(await h.inlineQuery(first.invoice_number)).results;
    expect(one.map((r) => r.id)).toEqual([`invoice-${first.invoice_id}`]);
  });

  it('a card of the second account’s invoice turns «оплачен» once it is paid', async () => {
    const theirs = await unpaid(second());
    await h.inlineQuery(theirs.invoice_number);
    await h.chosenInlineResult(`invoice-${theirs.invoice_id}`, theirs.invoice_number);

    sandbox.partner(2).payInvoice(theirs.invoice_id);
    const calls = await h.pollWatches();
    const card = edits(calls).filter((c) => c.payload.inline_message_id !== undefined);
    expect(card).toHaveLength(1);
    expect(card[0]?.payload.inline_message_id).toBe(`iminvoice-${theirs.invoice_id}`);
    expect(String(card[0]?.payload.text)).toContain(`✅ Счёт № <b>${theirs.invoice_number}</b> оплачен`);
    // The client's card names no account.
    expect(String(card[0]?.payload.text)).not.toContain(STUDIO_B);
  });
});

describe('an account stored before this process', () => {
  it('is watched from the chat’s next update, as the first one is', async () => {
    // As if another version stored it and never watched it: the watch is dropped.
    await h.watchers?.disconnect(CHAT, SECOND);
    await h.restart();
    const theirs = await unpaid(second());
    expect(sent(await h.pollWatches())).toEqual([]);
    await h.send('/help');
    // Its first poll records silently; what happens afterwards is told.
    expect(sent(await h.pollWatches())).toEqual([]);
    sandbox.partner(2).payInvoice(theirs.invoice_id);
    expect(texts(sent(await h.pollWatches()))).toEqual([
      expect.stringMatching(new RegExp(`^👤 <b>${STUDIO_B}</b>\\n.*${theirs.invoice_number}`, 's')),
    ]);
  });
});
