import { describe, expect, it } from 'vitest';
import { encodeCallback } from '../../../src/bot/registry.js';
import { type BotCall, buttonData, buttons, lastTable, lastText, texts } from '../../helpers/bot-harness.js';
import { CONTACTS, NATURAL_PERSON } from '../../helpers/fixtures.js';
import { useBot } from '../../helpers/use-bot.js';

const { h, en } = useBot({ connect: ['partner', 'en'], reset: ['faults'] });

function urlButtons(calls: BotCall[]) {
  return buttons(calls).filter((b) => b.url);
}

describe('/invoices and /invoice', () => {
  it('lists invoices newest first with amount, currency code and state, each with a link button', async () => {
    const invoices = await h.api().listInvoices();
    const newest = [...invoices].sort((a, b) => b.invoice_id - a.invoice_id)[0];
    if (!newest) throw new Error('seed has no invoices');
    const calls = await h.send('/invoices');
    const text = lastText(calls);
    expect(text).toContain('Счета');
    // Newest first: the table's first row after its header.
    expect(lastTable(calls)[1]?.[0]).toBe(newest.invoice_number);
    expect(text).toMatch(/\d+,\d{2} BYN|\d+,\d{2} [A-Z]{3}/);
    expect(text).toContain('ожидает оплаты');
    const linkData = buttonData(calls, newest.invoice_number);
    const press = await h.press(linkData);
    const url = await h.api().getInvoiceUrl(newest.invoice_id);
    expect(lastText(press)).toContain(url);
    expect(urlButtons(press)[0]?.url).toBe(url);
  });

  it('answers the button at once, before asking the provider', async () => {
    const [invoice] = await h.api().listInvoices();
    if (!invoice) throw new Error('no invoice');
    const before = h.sandbox.requests.length;
    const press = await h.press(encodeCallback('invoiceLink', invoice.invoice_id));
    const answer = press.find((c) => c.method === 'answerCallbackQuery');
    expect(answer?.providerRequestsBefore).toBe(before);
    expect(h.sandbox.requests.length).toBeGreaterThan(before);
  });

  it('/invoice <id> sends the link, named by the invoice number, as text and as a URL button', async () => {
    const [invoice] = await h.api().listInvoices();
    if (!invoice) throw new Error('no invoice');
    const url = await h.api().getInvoiceUrl(invoice.invoice_id);
    const before = h.sandbox.requests.length;
    const calls = await h.send(`/invoice ${invoice.invoice_id}`);
    // The link and the invoice (for its number) are asked at once.
    expect(h.sandbox.requests.length - before).toBe(2);
    expect(lastText(calls)).toContain(`№ ${invoice.invoice_number}`);
    expect(lastText(calls)).toContain(url);
    expect(urlButtons(calls)[0]?.url).toBe(url);
    const english = await h.send(`/invoice ${invoice.invoice_id}`, en);
    expect(lastText(english)).toContain('ready to forward');
  });

  it('/invoice with a bad id shows the form; an unknown id says not found', async () => {
    expect(lastText(await h.send('/invoice abc'))).toContain('/invoice 5678');
    expect(lastText(await h.send('/invoice abc', en))).toContain('is not a number');
    expect(lastText(await h.send('/invoice 99999999'))).toContain('не найдено');
  });

  it('/invoices <order_id> filters by order; a new order brings its invoice', async () => {
    const api = h.api();
    const [tariff] = await api.listMailTariffs();
    const [currency] = await api.listCurrencies();
    if (!tariff || !currency) throw new Error('no mail tariff');
    const created = await api.createMailOrder({
      period_unit_count: tariff.prices[0]?.period ?? 1,
      currency_id: currency.currency_id,
      tariff_id: tariff.tariff_id,
      ...CONTACTS,
      natural_person_requisites: NATURAL_PERSON,
    });
    const [invoice] = await api.listInvoices({ invoice_id: created.invoice_id as number });
    const text = lastText(await h.send(`/invoices ${created.order_id}`));
    expect(text).toContain(`заказа ${created.order_id}`);
    expect(text).toContain(`${invoice?.invoice_number} |`);
    expect(text.match(/№ /g)).toHaveLength(1);
  });

  it('shows twenty and more invoices as one rich table, each with its button, no pages', async () => {
    await addMailOrders(12);
    const invoices = await h.api().listInvoices();
    expect(invoices.length).toBeGreaterThanOrEqual(20);
    const calls = await h.send('/invoices');
    expect(calls.filter((c) => c.method === 'sendRichMessage')).toHaveLength(1);
    expect(calls.filter((c) => c.method === 'sendMessage')).toHaveLength(0);
    const table = lastTable(calls);
    expect(table[0]).toEqual(['№', 'Сумма', 'Статус', 'Заказ', 'Выставлен', 'Оплатить до']);
    expect(table).toHaveLength(invoices.length + 1);
    expect(buttons(calls).filter((b) => b.text.startsWith('🔗 Счёт '))).toHaveLength(invoices.length);
    expect(buttons(calls).some((b) => /стр\. \d/.test(b.text))).toBe(false);
  });
});

/** Mail orders, each with its invoice, until the list is longer than one HTML page. */
async function addMailOrders(count: number, api = h.api()) {
  const [tariff] = await api.listMailTariffs();
  const [currency] = await api.listCurrencies();
  if (!tariff || !currency) throw new Error('no mail tariff');
  for (let i = 0; i < count; i++) {
    await api.createMailOrder({
      period_unit_count: tariff.prices[0]?.period ?? 1,
      currency_id: currency.currency_id,
      tariff_id: tariff.tariff_id,
      ...CONTACTS,
      natural_person_requisites: NATURAL_PERSON,
    });
  }
}

describe('/invoices as HTML (RICH_MESSAGES=off)', () => {
  const html = useBot({ connect: ['partner'], richMessages: false });

  it('pages long lists without exceeding Telegram limits', async () => {
    await addMailOrders(12, html.h.api());
    const first = await html.h.send('/invoices');
    expect(first.filter((c) => c.method === 'sendRichMessage')).toHaveLength(0);
    expect(lastText(first).length).toBeLessThanOrEqual(4096);
    const next = buttons(first).find((b) => b.text === 'стр. 2 ▶');
    expect(next?.callback_data).toBeDefined();
    const page2 = await html.h.press(next?.callback_data ?? '');
    const edit = page2.find((c) => c.method === 'editMessageText');
    expect(String(edit?.payload.text)).toContain('Счета');
    expect(String(edit?.payload.text)).not.toEqual(lastText(first));
    expect(String(edit?.payload.text)).toMatch(/^<b>Счета<\/b> · стр\. 2 из \d+/);
    expect(buttons(page2).some((b) => b.text === '◀ стр. 1')).toBe(true);
  });
});

describe('payments and statements', () => {
  it('/payments lists payments with their invoice', async () => {
    const [payment] = await h.api().listPayments();
    if (!payment) throw new Error('seed has no payment');
    const text = lastText(await h.send('/payments'));
    expect(text).toContain('Платежи');
    expect(text).toContain(payment.payment_date);
    expect(lastText(await h.send('/payments', en))).toContain('Payments');
  });

  it('/statements lists statements; a button and /statement <id> give the link', async () => {
    const [statement] = await h.api().listStatements();
    if (!statement) throw new Error('seed has no statement');
    const url = await h.api().getStatementUrl(statement.statement_id);
    const list = await h.send('/statements');
    expect(lastText(list)).toContain(statement.statement_number);
    expect(lastText(await h.press(buttonData(list, statement.statement_number)))).toContain(url);
    expect(lastText(await h.send(`/statement ${statement.statement_id}`))).toContain(url);
  });

  it('/partner_statements and /partner_statement <id>', async () => {
    const [statement] = await h.api().listPartnerStatements();
    if (!statement) throw new Error('seed has no partner statement');
    const url = await h.api().getPartnerStatementUrl(statement.partner_statement_id);
    expect(lastText(await h.send('/partner_statements'))).toContain(statement.partner_statement_number);
    expect(lastText(await h.send(`/partner_statement ${statement.partner_statement_id}`, en))).toContain(url);
    // Without an id, the list comes with a button per statement.
    expect(buttons(await h.send('/partner_statement')).length).toBeGreaterThan(0);
  });
});

describe('provider failures reach the user', () => {
  it('5xx: provider unavailable, try again (ru and en)', async () => {
    h.sandbox.addFault({ path: '/v1/billing/invoices', times: 6, fault: { kind: 'status', status: 503 } });
    expect(lastText(await h.send('/invoices'))).toContain('недоступен');
    expect(lastText(await h.send('/invoices', en))).toContain('unavailable');
  });

  it('401: the token was rejected, use /token', async () => {
    h.sandbox.addFault({ path: '/v1/billing/invoices', times: 1, fault: { kind: 'status', status: 401 } });
    const text = lastText(await h.send('/invoices'));
    expect(text).toContain('отклонил токен');
    expect(text).toContain('/token');
  });

  it('400: shows the provider message', async () => {
    h.sandbox.addFault({
      path: '/v1/billing/invoices',
      fault: { kind: 'status', status: 400, body: '{"message":"Параметр order_id указан неверно"}' },
    });
    expect(lastText(await h.send('/invoices'))).toContain('Параметр order_id указан неверно');
  });

  it('a malformed answer: a message, and the error is logged', async () => {
    h.sandbox.addFault({
      path: '/v1/billing/invoices',
      fault: { kind: 'malformed', body: '{"invoices":7}' },
    });
    expect(lastText(await h.send('/invoices'))).toContain('не понял');
    expect(h.logLines.some((l) => l.includes('"level":50') && l.includes('listInvoices'))).toBe(true);
  });

  it('no message ever exceeds 4096 characters and every callback fits 64 bytes', () => {
    for (const text of texts(h.calls)) expect(text.length).toBeLessThanOrEqual(4096);
    for (const button of buttons(h.calls)) {
      if (button.callback_data) expect(Buffer.byteLength(button.callback_data)).toBeLessThanOrEqual(64);
    }
  });
});
