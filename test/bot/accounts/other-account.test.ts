import { describe, expect, it } from 'vitest';
import { buttonData, lastText, texts } from '../../helpers/bot-harness.js';
import { SECOND_TOKEN } from '../../helpers/fixtures.js';
import { useBot } from '../../helpers/use-bot.js';

/*
 * Two accounts in one chat: the sandbox's first partner (active) and the second partner
 * (studio-b.by, orders 11001–11004, invoices 15001–15004). A domain, invoice or order named in a
 * command that only the other account holds is answered from that account, and the partner is told.
 */
const CHAT = 424_242;
const { h } = useBot({
  connect: ['partner'],
  reset: ['faults', 'scene'],
  setUp: async (bot) => {
    const added = await bot.chatData.addAccount(CHAT, SECOND_TOKEN);
    if (!added.ok) throw new Error('second account not added');
    await bot.chatData.renameAccount(CHAT, added.n, 'Студия Б');
    await bot.chatData.switchAccount(CHAT, 1);
  },
});

/** The sandbox requests of partner `n` since `from`. */
const requestsOf = (n: number, from: number) => h.sandbox.requests.slice(from).filter((r) => r.partner === n);

describe('a name that belongs to the other account', () => {
  it('/dns studio-b.by answers from the second account, says which, and its buttons stay there', async () => {
    const before = h.sandbox.requests.length;
    const calls = await h.send('/dns studio-b.by');
    const all = texts(calls).join('\n');
    expect(all).toContain('Домен <b>studio-b.by</b> — в аккаунте «Студия Б»: отвечаю по нему.');
    // The zone shown is the second partner's (its A record), headed with its account.
    expect(all).toContain('192.0.2.20');
    expect(all).toContain('👤');
    expect(all).toContain('Студия Б');
    // The first account was asked first, then the second; the zone came from the second.
    expect(requestsOf(1, before).length).toBeGreaterThan(0);
    expect(requestsOf(2, before).some((r) => r.path.includes('/11002/'))).toBe(true);
    expect(requestsOf(1, before).some((r) => r.path.includes('/11002/'))).toBe(false);

    // A button of that screen acts on the second account, though the first is still active.
    const mark = h.sandbox.requests.length;
    await h.press(buttonData(calls, 'Добавить'));
    expect(requestsOf(1, mark)).toEqual([]);
    expect(await h.chatData.currentAccountNumber(CHAT)).toBe(1);
    // The next command is the active account's again: its own domain, no notice.
    const own = await h.send('/dns mysite.by');
    expect(texts(own).join('\n')).not.toContain('в аккаунте');
  });

  it('/invoice 15003 and /invoice by its number give the second account’s link, said', async () => {
    const [invoice] = await h.secondApi().listInvoices({ invoice_id: 15003 });
    if (!invoice) throw new Error('second partner has no invoice 15003');
    const url = await h.secondApi().getInvoiceUrl(15003);
    const byId = await h.send('/invoice 15003');
    expect(texts(byId)[0]).toBe(
      `Счёт <b>${invoice.invoice_number}</b> — в аккаунте «Студия Б»: отвечаю по нему.`,
    );
    expect(lastText(byId)).toContain(url);
    const byNumber = await h.send(`/invoice ${invoice.invoice_number}`);
    expect(lastText(byNumber)).toContain(url);
  });

  it('/invoices 11003 lists that order’s invoices from the second account', async () => {
    const calls = await h.send('/invoices 11003');
    expect(texts(calls)[0]).toBe('Заказ 11003 — в аккаунте «Студия Б»: отвечаю по нему.');
    const [invoice] = await h.secondApi().listInvoices({ order_id: 11003 });
    expect(lastText(calls)).toContain(invoice?.invoice_number ?? 'missing');
  });

  it('/check names the account that holds a taken name', async () => {
    const calls = await h.send('/check studio-b.by mysite.by');
    const text = lastText(calls);
    expect(text).toContain('studio-b.by — ваш домен, аккаунт «Студия Б»: /dns studio-b.by');
    expect(text).toMatch(/mysite\.by — ваш домен, аккаунт «[^»]+»: \/dns mysite\.by/);
  });

  it('a typed answer of a form started on the second account goes there, not to the active one', async () => {
    const zone = await h.send('/dns studio-b.by');
    const types = await h.press(buttonData(zone, 'Добавить'));
    const host = await h.press(buttonData(types, 'TXT'));
    expect(lastText(host)).toContain('ля какого хоста');
    expect(lastText(host)).toMatch(/^👤 <b>Студия Б<\/b>\n/);
    // A typed message carries no stamp: the form's pinned account answers it.
    const mark = h.sandbox.requests.length;
    const answered = await h.send('pinned');
    expect(texts(answered).join('\n')).not.toContain('не найден');
    const ttl = await h.send('pinned-value');
    // Its buttons were made for the second account too (the TTL question, sent as a typed answer's reply).
    expect(buttonData(ttl, '300 с')).toMatch(/^a2:/);
    const confirm = await h.press(buttonData(ttl, '300 с'));
    const added = await h.press(buttonData(confirm, 'Добавить'));
    expect(lastText(added)).toContain('✅ Запись добавлена');
    expect(requestsOf(1, mark)).toEqual([]);
    const records = await h.secondApi().listDnsRecords(11002);
    expect(records.some((r) => r.record_id === 40021)).toBe(true);
    // Closed, the pin is gone: a typed domain is the active account's matter again.
    expect(
      (await h.chatData.sessionStore<{ account?: number }>().get(String(CHAT)))?.account,
    ).toBeUndefined();
  });

  it('/order hosting studio-b.by is ordered in the second account, and the form keeps to it', async () => {
    const calls = await h.send('/order hosting studio-b.by');
    expect(texts(calls)[0]).toBe('Домен <b>studio-b.by</b> — в аккаунте «Студия Б»: отвечаю по нему.');
    // The form's next answer (a tap of its first button, not stamped by hand) stays on the second
    // account while the first is active.
    const mark = h.sandbox.requests.length;
    const first = calls.at(-1)?.payload.reply_markup as { inline_keyboard?: { callback_data?: string }[][] };
    const data = first.inline_keyboard?.[0]?.[0]?.callback_data;
    expect(data).toMatch(/^a2:/);
    await h.press(data ?? '');
    expect(requestsOf(1, mark)).toEqual([]);
    expect(await h.chatData.currentAccountNumber(CHAT)).toBe(1);
    await h.send('/cancel');
  });

  it('a name in neither account is still «не найден», from the account in use', async () => {
    const calls = await h.send('/dns nobody-has-it.by');
    expect(lastText(calls)).toContain('nobody-has-it.by');
    expect(texts(calls).join('\n')).not.toContain('в аккаунте');
  });
});
