import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { Invoice } from '../../../src/api/index.js';
import { type BotCall, buttonData, buttons, texts } from '../../helpers/bot-harness.js';
import { useBot } from '../../helpers/use-bot.js';

/*
 * The bot comes to the partner (/notify): stories of what the partner sees when the provider's
 * state changes (the sandbox's control calls), polled as the schedule would poll.
 */

const sent = (calls: BotCall[]) => calls.filter((c) => c.method === 'sendMessage');
const edits = (calls: BotCall[]) => calls.filter((c) => c.method === 'editMessageText');

/** A Minsk wall-clock time as an instant (Minsk is UTC+3). */
const minsk = (iso: string) => new Date(`${iso}+03:00`);

/** Every story starts from a fresh bot whose partner has connected their token. */
const { h } = useBot({ per: 'story', watchers: true, connect: ['partner'] });

async function unpaidInvoices(): Promise<Invoice[]> {
  return (await h.api().listInvoices()).filter((i) => i.state === 'WaitingForPayment');
}

async function firstUnpaid(): Promise<Invoice> {
  const [invoice] = await unpaidInvoices();
  if (!invoice) throw new Error('the seed has no unpaid invoice');
  return invoice;
}

describe('an invoice card shared with a client', () => {
  const cardEdits = (calls: BotCall[]) =>
    edits(calls).filter((c) => c.payload.inline_message_id !== undefined);

  it('turns "paid" in the client’s chat once the payment is seen, without its Pay button, once — also after a restart', async () => {
    expect(sent(await h.pollWatches())).toEqual([]);
    const invoice = await firstUnpaid();
    await h.inlineQuery(invoice.invoice_number);
    await h.chosenInlineResult(`invoice-${invoice.invoice_id}`, invoice.invoice_number);
    // Kept sealed in the partner's chat: the inline message id is not in the data files in clear.
    expect(await h.dataFilesContaining(`iminvoice-${invoice.invoice_id}`)).toEqual([]);
    await h.restart();

    h.sandbox.payInvoice(invoice.invoice_id);
    const calls = await h.pollWatches();
    const card = cardEdits(calls);
    expect(card).toHaveLength(1);
    expect(card[0]?.payload.inline_message_id).toBe(`iminvoice-${invoice.invoice_id}`);
    expect(String(card[0]?.payload.text)).toContain(`✅ Счёт № <b>${invoice.invoice_number}</b> оплачен`);
    expect(card[0]?.payload.reply_markup).toBeUndefined();
    // Exactly once: the next polls leave the card alone.
    expect(cardEdits(await h.pollWatches())).toEqual([]);
    expect(cardEdits(await h.pollWatches())).toEqual([]);
  });

  it('says the invoice expired the day after its last day, in the partner’s chat and on the card, once', async () => {
    h.now = minsk('2026-11-24T12:00:00');
    await h.pollWatches();
    const [order] = (await h.api().listOrders()).filter((o) => o.completed);
    if (!order) throw new Error('no completed order in the seed');
    const created = h.sandbox.createInvoice(order.order_id);
    await h.pollWatches();
    await h.chosenInlineResult(`invoice-${created.invoice_id}`, created.invoice_number);
    const due = (await h.api().listInvoices({ invoice_id: created.invoice_id }))[0]?.expiration_date ?? '';
    const [day, month, year] = due.split('.');
    // On its last day the card still takes a payment.
    h.now = minsk(`${year}-${month}-${day}T12:00:00`);
    expect(cardEdits(await h.pollWatches())).toEqual([]);
    // The next morning: told in the partner's chat, and the card in the client's chat says so.
    h.now = new Date(minsk(`${year}-${month}-${day}T09:00:00`).getTime() + 24 * 60 * 60_000);
    const calls = await h.pollWatches();
    expect(texts(sent(calls))).toEqual([
      expect.stringContaining(`${due} истёк срок оплаты счёта № ${created.invoice_number}`),
    ]);
    // No link to pay or send under an expired invoice.
    expect(buttons(sent(calls))).toEqual([]);
    const card = cardEdits(calls);
    expect(card).toHaveLength(1);
    expect(card[0]?.payload.inline_message_id).toBe(`iminvoice-${created.invoice_id}`);
    // The client reads the card: the date with the month in words, as on the card itself.
    const inWords = new Intl.DateTimeFormat('ru-RU', {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
    }).format(new Date(Number(year), Number(month) - 1, Number(day)));
    expect(String(card[0]?.payload.text)).toBe(
      `⌛ Срок оплаты счёта № <b>${created.invoice_number}</b> истёк ${inWords} — попросите новый счёт.`,
    );
    expect(card[0]?.payload.reply_markup).toBeUndefined();
    expect(cardEdits(await h.pollWatches())).toEqual([]);
    expect(sent(await h.pollWatches())).toEqual([]);
  });

  it('leaves cards of other invoices as they are', async () => {
    expect(sent(await h.pollWatches())).toEqual([]);
    const [first, second] = await unpaidInvoices();
    if (!first || !second) throw new Error('the seed has fewer than two unpaid invoices');
    await h.chosenInlineResult(`invoice-${second.invoice_id}`, second.invoice_number);
    h.sandbox.payInvoice(first.invoice_id);
    expect(cardEdits(await h.pollWatches())).toEqual([]);
  });
});

describe('a payment arrives', () => {
  it('is told once, and the earlier link message is marked paid', async () => {
    expect(sent(await h.pollWatches())).toEqual([]);
    const invoice = await firstUnpaid();
    const link = await h.send(`/invoice ${invoice.invoice_id}`);
    const linkMessage = sent(link).at(-1);
    expect(String(linkMessage?.payload.text)).toContain(invoice.invoice_number);

    h.sandbox.payInvoice(invoice.invoice_id);
    const calls = await h.pollWatches();
    const told = sent(calls);
    expect(told).toHaveLength(1);
    expect(String(told[0]?.payload.text)).toContain(`Пришла оплата по счёту № ${invoice.invoice_number}`);
    expect(String(told[0]?.payload.text)).toMatch(/\d+,\d\d BYN|\d+,\d\d USD|\d+,\d\d EUR|\d+,\d\d RUB/);
    const edited = edits(calls);
    expect(edited).toHaveLength(1);
    expect(edited[0]?.payload.message_id).toBe(linkMessage?.messageId);
    expect(String(edited[0]?.payload.text)).toContain(`Счёт № ${invoice.invoice_number} — ✅ оплачен`);
    expect(buttons(edited).map((b) => b.url ?? b.copy_text?.text)).toEqual([
      expect.stringContaining('/s/'),
      expect.stringContaining('/s/'),
    ]);

    expect(sent(await h.pollWatches())).toEqual([]);
  });

  it('restarting between the payment and the poll still tells it exactly once', async () => {
    await h.pollWatches();
    const invoice = await firstUnpaid();
    h.sandbox.payInvoice(invoice.invoice_id);
    await h.restart();
    expect(texts(await h.pollWatches()).filter((t) => t.includes('Пришла оплата'))).toHaveLength(1);
    await h.restart();
    expect(sent(await h.pollWatches())).toEqual([]);
  });

  it('the first poll after connecting records silently, whatever is already there', async () => {
    const first = await h.pollWatches();
    expect(sent(first)).toEqual([]);
    // Four list calls, and nothing more.
    const polled = h.sandbox.requests.filter((r) => r.method === 'GET').map((r) => r.path);
    expect(polled).toEqual(
      expect.arrayContaining([
        '/v1/billing/invoices',
        '/v1/billing/payments',
        '/v1/orders',
        '/v1/orders/domains',
      ]),
    );
    // A poll that finds nothing new writes nothing (a file rewrite per token and interval saved):
    // the sealed state takes a new IV on every write, so any write would change the file.
    const [file] = await h.dataFilesUnder('watches');
    if (!file) throw new Error('no watch file');
    const before = await readFile(file, 'utf8');
    expect(sent(await h.pollWatches())).toEqual([]);
    expect(await readFile(file, 'utf8')).toBe(before);
  });

  it('more than three events at once come as one digest, in the chat’s language', async () => {
    await h.send('/lang en');
    await h.pollWatches();
    const unpaid = await unpaidInvoices();
    expect(unpaid.length).toBeGreaterThanOrEqual(4);
    for (const invoice of unpaid.slice(0, 4)) h.sandbox.payInvoice(invoice.invoice_id);
    const told = sent(await h.pollWatches());
    expect(told).toHaveLength(1);
    const text = String(told[0]?.payload.text);
    expect(text).toContain('4 new events');
    expect(buttons(told)).toEqual([]);
    expect(text.match(/Payment received/g)).toHaveLength(4);
    expect(text).not.toMatch(/WaitingForPayment|Paid\b|оплат/);
  });
});

describe('a crash while a notification is being sent', () => {
  it('is resolved toward at most once: the claimed message is never sent again, and the loss is logged', async () => {
    await h.pollWatches();
    const invoice = await firstUnpaid();
    h.sandbox.payInvoice(invoice.invoice_id);
    // The send goes out and never comes back: as if the process died during the Telegram call.
    h.hangs.add('sendMessage');
    void h.pollWatches();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const attempts = () =>
      h.calls.filter(
        (c) => c.method === 'sendMessage' && String(c.payload.text).includes(invoice.invoice_number),
      );
    expect(attempts()).toHaveLength(1);
    await h.restart();
    // While the claim may still belong to a live run, nobody else sends it.
    await h.pollWatches();
    expect(attempts()).toHaveLength(1);
    // Once the claim has expired, it is dropped, not sent a second time.
    h.now = new Date(Date.now() + 6 * 60_000);
    await h.pollWatches();
    expect(attempts()).toHaveLength(1);
    expect(h.logLines.some((l) => l.includes('dropped (at most once'))).toBe(true);
    // Later events are told as usual.
    const [next] = await unpaidInvoices();
    if (!next) throw new Error('no second unpaid invoice');
    h.sandbox.payInvoice(next.invoice_id);
    expect(texts(await h.pollWatches())).toEqual([expect.stringContaining(next.invoice_number)]);
  });
});

describe('other events', () => {
  it('a digest of new invoices keeps their links as buttons', async () => {
    await h.pollWatches();
    const completed = (await h.api().listOrders()).filter((o) => o.completed).slice(0, 4);
    expect(completed).toHaveLength(4);
    const created = completed.map((o) => h.sandbox.createInvoice(o.order_id));
    const told = sent(await h.pollWatches());
    expect(told).toHaveLength(1);
    expect(String(told[0]?.payload.text)).toContain('4 новых события');
    expect(buttons(told).map((b) => b.url)).toEqual(created.map((c) => c.invoice_url));
  });

  it('a renewal invoice made outside the bot is told with its link button', async () => {
    await h.pollWatches();
    const [order] = (await h.api().listOrders()).filter((o) => o.completed);
    if (!order) throw new Error('no completed order in the seed');
    const created = h.sandbox.createInvoice(order.order_id);
    const calls = await h.pollWatches();
    const told = sent(calls);
    expect(told).toHaveLength(1);
    expect(String(told[0]?.payload.text)).toContain(`Новый счёт № ${created.invoice_number}`);
    expect(buttons(told)).toMatchObject([
      { text: `🔗 Счёт ${created.invoice_number}`, url: created.invoice_url },
      { text: '📋 Копировать ссылку', copy_text: { text: created.invoice_url } },
      { text: '📤 Отправить клиенту', switch_inline_query_chosen_chat: { query: created.invoice_number } },
    ]);
  });

  it('an order completed at the provider is told by its number', async () => {
    await h.pollWatches();
    const [order] = (await h.api().listOrders()).filter((o) => !o.completed);
    if (!order) throw new Error('no open order in the seed');
    h.sandbox.completeOrder(order.order_id);
    const told = texts(await h.pollWatches());
    expect(told).toEqual([expect.stringContaining(`✅ Заказ № ${order.number} выполнен`)]);
  });

  it('a domain 7 days before expiry is reminded once, by name, with the day count in words', async () => {
    h.now = minsk('2026-11-24T12:00:00');
    await h.pollWatches();
    const isoOf = (date: string) => date.split('.').reverse().join('-');
    const domain = (await h.api().listDomainOrders())
      .filter((d) => d.expiration_date && d.advanced?.domain && isoOf(d.expiration_date) > '2026-12-31')
      .sort((a, b) => isoOf(a.expiration_date ?? '').localeCompare(isoOf(b.expiration_date ?? '')))[0];
    const name = domain?.advanced?.domain;
    const expires = domain?.expiration_date;
    if (!name || !expires) throw new Error('no domain order expiring next year in the seed');
    const weekBefore = new Date(minsk(`${isoOf(expires)}T10:00:00`).getTime() - 7 * 24 * 60 * 60_000);
    h.now = weekBefore;
    const told = texts(await h.pollWatches()).join('\n');
    expect(told).toContain(`${name}</b> истекает ${expires} — через 7 дней`);
    h.now = new Date(weekBefore.getTime() + 6 * 60 * 60_000);
    expect(texts(await h.pollWatches()).join('\n')).not.toContain(name);
  });
});

describe('/notify settings', () => {
  it('shows every kind as a button in Russian, and a tap turns a kind off with a toast and an edit', async () => {
    const screen = await h.send('/notify');
    expect(texts(screen)[0]).toContain('Уведомления');
    expect(texts(screen)[0]).toContain('Тихие часы: нет');
    expect(buttons(screen).map((b) => b.text)).toEqual([
      '✅ оплата счёта',
      '✅ заказ выполнен',
      '✅ новый счёт не через бота (продление и др.)',
      '✅ счёт истекает завтра',
      '✅ неоплаченный счёт просрочен',
      '✅ домен истекает через 30, 7 и 1 день',
      '🌙 Тихие часы 22–8',
      '🌙 Тихие часы 23–9',
    ]);
    const tap = await h.press(buttonData(screen, 'оплата счёта'));
    expect(tap.find((c) => c.method === 'answerCallbackQuery')?.payload.text).toBe('Выключено: оплата счёта');
    expect(buttons(edits(tap)).map((b) => b.text)).toContain('🚫 оплата счёта');

    await h.pollWatches();
    h.sandbox.payInvoice((await firstUnpaid()).invoice_id);
    expect(sent(await h.pollWatches())).toEqual([]);
  });

  it('quiet hours hold messages and release them in the morning', async () => {
    expect(texts(await h.send('/notify quiet 22-8')).join('\n')).toContain(
      'Тихие часы: 22:00–8:00 по Минску',
    );
    h.now = minsk('2026-11-24T23:30:00');
    await h.pollWatches();
    h.sandbox.payInvoice((await firstUnpaid()).invoice_id);
    expect(sent(await h.pollWatches())).toEqual([]);
    h.now = minsk('2026-11-25T07:59:00');
    expect(sent(await h.pollWatches())).toEqual([]);
    h.now = minsk('2026-11-25T08:00:00');
    expect(texts(await h.pollWatches())).toEqual([expect.stringContaining('Пришла оплата')]);
  });

  it('/notify off turns every kind off at once, /notify on back; a wrong word shows the forms', async () => {
    const off = await h.send('/notify off');
    expect(buttons(off).filter((b) => b.text.startsWith('🚫'))).toHaveLength(6);
    await h.pollWatches();
    h.sandbox.payInvoice((await firstUnpaid()).invoice_id);
    expect(sent(await h.pollWatches())).toEqual([]);
    const on = await h.send('/notify on');
    expect(buttons(on).filter((b) => b.text.startsWith('✅'))).toHaveLength(6);
    expect(texts(await h.send('/notify foo')).join('\n')).toContain('/notify off или /notify on');
  });

  it('a wrong quiet-hours line is explained, and the settings stay', async () => {
    const reply = texts(await h.send('/notify quiet 25-8')).join('\n');
    expect(reply).toContain('/notify quiet 22-8');
    expect(await h.chatData.getNotifySettings(424_242)).toEqual({});
  });
});

describe('what a message names, and when it is read', () => {
  it('a payment names the domain of its order; a completed domain order names the domain too', async () => {
    await h.pollWatches();
    const domains = await h.api().listDomainOrders();
    const invoices = await unpaidInvoices();
    const invoice = invoices.find((i) =>
      domains.some((d) => d.order_id === i.order_id && d.advanced?.domain),
    );
    if (!invoice) throw new Error('no unpaid invoice of a domain order in the seed');
    const domain = domains.find((d) => d.order_id === invoice.order_id)?.advanced?.domain;
    h.sandbox.payInvoice(invoice.invoice_id);
    expect(texts(await h.pollWatches())).toEqual([
      expect.stringContaining(`Пришла оплата по счёту № ${invoice.invoice_number} (${domain}):`),
    ]);
  });

  it('an expiry reminder held by quiet hours says "today" when it is read on the day', async () => {
    await h.send('/notify quiet 22-8');
    h.now = minsk('2026-11-24T12:00:00');
    await h.pollWatches();
    const [order] = (await h.api().listOrders()).filter((o) => o.completed);
    if (!order) throw new Error('no completed order in the seed');
    // A renewal invoice made today is due in 5 days; the night before it, it is "due tomorrow".
    const created = h.sandbox.createInvoice(order.order_id);
    await h.pollWatches();
    const [day, month, year] =
      (await h.api().listInvoices({ invoice_id: created.invoice_id }))[0]?.expiration_date.split('.') ?? [];
    h.now = new Date(minsk(`${year}-${month}-${day}T00:00:00`).getTime() - 90 * 60_000);
    expect(sent(await h.pollWatches())).toEqual([]);
    h.now = minsk(`${year}-${month}-${day}T08:30:00`);
    const told = texts(await h.pollWatches());
    expect(told).toEqual([
      expect.stringContaining(
        `Сегодня, ${day}.${month}.${year}, истекает неоплаченный счёт № ${created.invoice_number}`,
      ),
    ]);
  });

  it('a domain reminder opens the order; a new invoice message is marked paid when it is paid', async () => {
    await h.pollWatches();
    const [order] = (await h.api().listOrders()).filter((o) => o.completed);
    if (!order) throw new Error('no completed order in the seed');
    const created = h.sandbox.createInvoice(order.order_id);
    const newInvoice = sent(await h.pollWatches())[0];
    h.sandbox.payInvoice(created.invoice_id);
    const calls = await h.pollWatches();
    expect(edits(calls).map((c) => [c.payload.message_id, String(c.payload.text)])).toEqual([
      [newInvoice?.messageId, expect.stringContaining(`Счёт № ${created.invoice_number} — ✅ оплачен`)],
    ]);
  });
});

describe('a token the provider rejects', () => {
  it('is told once, its polling stops, and /notify says so', async () => {
    await h.pollWatches();
    h.sandbox.addFault({ path: '/v1/billing/invoices', fault: { kind: 'status', status: 401 } });
    const told = texts(await h.pollWatches());
    expect(told).toEqual([expect.stringContaining('Провайдер больше не принимает токен API')]);
    h.sandbox.clearFaults();
    const before = h.sandbox.requests.length;
    expect(sent(await h.pollWatches())).toEqual([]);
    expect(h.sandbox.requests.length).toBe(before);
    expect(texts(await h.send('/notify')).join('\n')).toContain(
      'Провайдер не принимает токен — уведомления остановлены',
    );
    // Connecting it again resumes watching.
    await h.connect();
    expect(texts(await h.send('/notify')).join('\n')).not.toContain('остановлены');
  });

  it('another partner’s invoice id is "not yours", not a dead token', async () => {
    const reply = texts(await h.send('/invoice 9101')).join('\n');
    expect(reply).not.toContain('/token');
    expect(reply).toContain('не ваш');
  });

  it('a provider failure backs off without losing the event', async () => {
    await h.pollWatches();
    const invoice = await firstUnpaid();
    h.sandbox.payInvoice(invoice.invoice_id);
    h.sandbox.addFault({ path: '/v1/billing/payments', fault: { kind: 'status', status: 503 } });
    expect(sent(await h.pollWatches())).toEqual([]);
    h.sandbox.clearFaults();
    // Backing off: the next poll asks nothing until its time has come.
    const before = h.sandbox.requests.length;
    await h.pollWatches();
    expect(h.sandbox.requests.length).toBe(before);
    h.now = new Date(Date.now() + 2 * 60 * 60_000);
    expect(texts(await h.pollWatches())).toEqual([expect.stringContaining(invoice.invoice_number)]);
  });
});
