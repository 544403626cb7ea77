import { domainToUnicode } from 'node:url';
import { describe, expect, it } from 'vitest';
import { encodeCallback } from '../../src/bot/registry.js';
import { type BotCall, buttonData, buttons, lastTable, lastText } from '../helpers/bot-harness.js';
import { CONTACTS, NATURAL_PERSON } from '../helpers/fixtures.js';
import { useBot } from '../helpers/use-bot.js';

/*
 * Issue 12, "words, lists and look-ups": what the partner reads is in the chat's words, never the
 * provider's raw values; lists have no buttons that do nothing; invoices go by their numbers.
 */

const { h, en } = useBot({ connect: ['partner', 'en'], reset: ['faults'] });
/** Raw provider values that must never reach the partner on a known screen. */
const RAW = /\b(NewOrder|Active|WaitingForPayment|Paid|NotAvailable|Available|Invalid|UnsupportedZone)\b/;

function orderButtons(calls: BotCall[]) {
  return buttons(calls).filter((b) => /^(Заказать|Order) /.test(b.text));
}

describe('words for every value the API sends', () => {
  it('shows invoice states in words, in Russian and in English', async () => {
    const invoices = await h.api().listInvoices();
    expect(invoices.some((i) => i.state === 'Paid')).toBe(true);
    const ru = lastText(await h.send('/invoices'));
    expect(ru).toContain('оплачен');
    expect(ru).toContain('ожидает оплаты');
    expect(ru).not.toMatch(RAW);
    const english = lastText(await h.send('/invoices', en));
    expect(lastTable(await h.send('/invoices', en)).map((row) => row[2])).toContain('paid');
    expect(english).toContain('awaiting payment');
    expect(english).not.toMatch(RAW);
  });

  it('shows order states in words', async () => {
    const orders = await h.api().listOrders();
    expect(orders.some((o) => o.state === 'Active')).toBe(true);
    const ru = lastText(await h.send('/orders'));
    expect(ru).toContain('действует');
    expect(ru).not.toMatch(RAW);
    expect(lastText(await h.send('/orders', en))).toContain('active');
  });

  it('shows a value it has no words for as sent, and logs it once', async () => {
    const odd = JSON.stringify({
      results: [{ domain: 'odd-state.by', is_available: false, is_premium: false, state: 'OnHold' }],
    });
    const fault = { kind: 'malformed', status: 200, body: odd } as const;
    h.sandbox.addFault({ method: 'POST', path: '/v1/domains/check', times: 2, fault });
    const first = lastText(await h.send('/check odd-state.by'));
    expect(first).toContain('не свободен: OnHold');
    expect(first).not.toContain('занят');
    await h.send('/check odd-state.by', en);
    const logged = h.logLines.filter((line) => line.includes('OnHold'));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('without words');
  });
});

describe('/check says what is wrong with a name, never "taken" for it', () => {
  it('takes the host of a URL, calls an unsupported zone and an emoji name what they are', async () => {
    const calls = await h.send(
      '/check https://www.my-new-shop.by/path test.xyz 🙂.by taken-shop.by shop.mysite.by',
    );
    const text = lastText(calls);
    expect(text).toContain('✅ <b>my-new-shop.by</b> — свободен');
    expect(text).toContain('<b>test.xyz</b> — зону XYZ провайдер не обслуживает');
    expect(text).toContain('<b>shop.mysite.by</b> — не доменное имя');
    expect(text).toContain('❌ <b>taken-shop.by</b> — занят\n');
    expect(text).toContain('Не доменные имена: 🙂.by');
    expect(text).not.toContain('💎');
    expect(text).not.toMatch(/test\.xyz.*занят|shop\.mysite\.by.*занят/);
    expect(text).not.toMatch(RAW);
    expect(orderButtons(calls).map((b) => b.text)).toEqual(['Заказать my-new-shop.by']);
  });

  it('says the same in English', async () => {
    const text = lastText(await h.send('/check test.xyz 🙂.by taken-shop.by', en));
    expect(text).toContain('<b>test.xyz</b> — the provider does not serve the XYZ zone');
    expect(text).toContain('❌ <b>taken-shop.by</b> — taken\n');
    expect(text).toContain('Not domain names: 🙂.by');
    expect(text).not.toMatch(/test\.xyz.*taken/);
  });

  it('gives every free name its Order button: 25 names, 25 buttons, within Telegram limits', async () => {
    const names = Array.from({ length: 25 }, (_, i) => `free-shop-${i + 1}.by`);
    const calls = await h.send(`/check ${names.join(' ')}`);
    const order = orderButtons(calls);
    expect(order.map((b) => b.text)).toEqual(names.map((n) => `Заказать ${n}`));
    expect(buttons(calls).length).toBeLessThanOrEqual(100);
  });

  it('never echoes garbage back whole', async () => {
    const garbage = 'ы'.repeat(4_000);
    const text = lastText(await h.send(`/check ${garbage} also%%%junk`));
    expect(text.length).toBeLessThan(400);
    expect(text).not.toContain('ы'.repeat(100));
  });
});

describe('/orders: buttons say what the order is, and none does nothing', () => {
  it('labels each button with the number and the domain or the service', async () => {
    const [hosting] = await h.api().listHostingOrders({ order_id: 1001 });
    if (!hosting) throw new Error('seed has no hosting order 1001');
    const api = h.api();
    const withDomains = [...(await api.listDomainOrders()), ...(await api.listSslOrders())].filter(
      (o) => o.advanced?.domain,
    );
    // The general list carries no domains: they come from the kinds' lists.
    const labels = buttons(await h.send('/orders')).map((b) => b.text);
    const shown = withDomains.filter((o) => labels.some((l) => l.startsWith(`№ ${o.number} · `)));
    expect(shown.length).toBeGreaterThanOrEqual(3);
    for (const o of shown) {
      expect(labels).toContain(`№ ${o.number} · ${domainToUnicode(o.advanced?.domain ?? '')}`);
    }
    // The provider gives no domain for a hosting order: it is named by its service.
    expect(buttons(await h.send('/orders hosting')).map((b) => b.text)).toContain(
      `№ ${hosting.number} · Виртуальный хостинг Linux`,
    );
    // An order without a domain is named by its service.
    expect(labels.some((l) => / · (Виртуальный хостинг|Хостинг для|Корпоративная почта|SSL)/.test(l))).toBe(
      true,
    );
    const english = buttons(await h.send('/orders', en)).map((b) => b.text);
    const [first] = shown;
    expect(english).toContain(`No. ${first?.number} · ${domainToUnicode(first?.advanced?.domain ?? '')}`);
  });

  it('shows a hosting order by its tariff name, a domain order with its domain, from the general list', async () => {
    const [hosting] = await h.api().listHostingOrders({ order_id: 1001 });
    const tariffId = hosting?.advanced?.tariff_id;
    const tariff = (await h.api().listHostingTariffs()).find((x) => x.tariff_id === tariffId);
    if (!hosting || !tariff) throw new Error('seed has no hosting order 1001 with a tariff');
    // The order is on the general list's last page; its button carries the list `all`.
    const details = lastText(await h.press(encodeCallback('order', 'all', hosting.order_id)));
    expect(details).toContain(`Заказ № ${hosting.number}`);
    expect(details).toContain(`Тариф: ${tariff.tariff_name}`);
    expect(details).not.toContain(`Тариф: ${tariff.tariff_id}`);
    const domain = (await h.api().listDomainOrders()).find((o) => o.advanced?.domain === 'mysite.by');
    if (!domain) throw new Error('no domain order for mysite.by');
    const domainDetails = lastText(await h.press(encodeCallback('order', 'all', domain.order_id)));
    expect(domainDetails).toContain('Домен: mysite.by');
  });
});

describe('/orders as a rich message', () => {
  it('is one table for a list that fits, with a button per order and no pager', async () => {
    const calls = await h.send('/orders');
    const sent = calls.filter((c) => c.method === 'sendRichMessage');
    expect(sent).toHaveLength(1);
    const table = lastTable(calls);
    expect(table[0]).toEqual(['№', 'Услуга', 'Статус', 'Дата']);
    const rows = table.slice(1);
    expect(rows).toHaveLength((await h.api().listOrders()).length);
    expect(buttons(calls).filter((b) => b.text.startsWith('№ '))).toHaveLength(rows.length);
    expect(buttons(calls).some((b) => /стр\. \d/.test(b.text))).toBe(false);
    for (const row of rows) expect(row.join(' '), 'a raw provider value').not.toMatch(RAW);
  });
});

describe('/orders as HTML (RICH_MESSAGES=off)', () => {
  const html = useBot({ connect: ['partner', 'en'], richMessages: false });
  it('pages with buttons that work and the page number in the text', async () => {
    const api = html.h.api();
    const [tariff] = await api.listMailTariffs();
    const [currency] = await api.listCurrencies();
    if (!tariff || !currency) throw new Error('no mail tariff');
    while ((await api.listOrders()).length <= 10) {
      await api.createMailOrder({
        period_unit_count: tariff.prices[0]?.period ?? 1,
        currency_id: currency.currency_id,
        tariff_id: tariff.tariff_id,
        ...CONTACTS,
        natural_person_requisites: NATURAL_PERSON,
      });
    }
    const first = await html.h.send('/orders');
    expect(lastText(first)).toMatch(/^<b>Заказы, новые сверху<\/b> · стр\. 1 из \d+/);
    for (const b of buttons(first)) {
      expect(b.text.trim(), 'a blank button').not.toBe('');
      expect(b.callback_data, `${b.text} does nothing`).not.toBe('1:x');
    }
    expect(buttons(first).some((b) => b.text.startsWith('◀'))).toBe(false);
    const page2 = await html.h.press(buttonData(first, 'стр. 2 ▶'));
    const edited = page2.find((c) => c.method === 'editMessageText');
    expect(String(edited?.payload.text)).toMatch(/стр\. 2 из \d+/);
    expect(buttons(page2).some((b) => b.text === '◀ стр. 1')).toBe(true);
    expect(buttons(page2).some((b) => b.callback_data === '1:x')).toBe(false);
    const english = await html.h.send('/orders', html.en);
    expect(lastText(english)).toMatch(/page 1 of \d+/);
    expect(buttons(english).some((b) => b.text === 'page 2 ▶')).toBe(true);
  });
});

describe('/zones: the term in words', () => {
  it('says "1 год" when the term is fixed and "от 1 до 10 лет" otherwise, in both languages', async () => {
    const termOf = (table: string[][], zone: string) => table.find((row) => row[0] === zone)?.[3];
    const ru = lastTable(await h.send('/zones'));
    expect(termOf(ru, 'BY')).toBe('от 1 до 10 лет');
    expect(termOf(ru, 'RU')).toBe('1 год');
    expect(termOf(ru, 'EU')).toBe('от 1 до 5 лет');
    const english = lastTable(await h.send('/zones', en));
    expect(termOf(english, 'BY')).toBe('1 to 10 years');
    expect(termOf(english, 'RU')).toBe('1 year');
  });
});

describe('/invoice by the number the client sees', () => {
  it('names the invoice by its number and accepts the number as well as the id', async () => {
    const invoices = await h.api().listInvoices();
    const invoice = invoices[0];
    if (!invoice) throw new Error('no invoice');
    const url = await h.api().getInvoiceUrl(invoice.invoice_id);
    const byId = lastText(await h.send(`/invoice ${invoice.invoice_id}`));
    expect(byId).toContain(`Ссылка на счёт № ${invoice.invoice_number}`);
    expect(byId).not.toContain(`счёт ${invoice.invoice_id}`);
    const before = h.sandbox.requests.filter((r) => r.path === '/v1/billing/invoices').length;
    const byNumber = lastText(await h.send(`/invoice ${invoice.invoice_number}`));
    expect(h.sandbox.requests.filter((r) => r.path === '/v1/billing/invoices').length - before).toBe(1);
    expect(byNumber).toContain(`Ссылка на счёт № ${invoice.invoice_number}`);
    expect(byNumber).toContain(url);
    const english = lastText(await h.send(`/invoice ${invoice.invoice_number.toLowerCase()}`, en));
    expect(english).toContain(`Link to invoice No. ${invoice.invoice_number}`);
    expect(lastText(await h.send('/invoice СФ-1999-1'))).toContain('Счёт СФ-1999-1 не найден');
  });

  it('names the invoice by its number when its button is pressed', async () => {
    const list = await h.send('/invoices');
    const [invoice] = [...(await h.api().listInvoices())].sort((a, b) => b.invoice_id - a.invoice_id);
    if (!invoice) throw new Error('no invoice');
    const press = await h.press(buttonData(list, invoice.invoice_number));
    expect(lastText(press)).toContain(`Ссылка на счёт № ${invoice.invoice_number}`);
  });
});

describe('/prices with a date that does not exist', () => {
  it('says there is no such date, apart from a wrong format', async () => {
    const ru = lastText(await h.send('/prices 31.02.2026'));
    expect(ru).toContain('Такой даты нет: 31.02.2026');
    expect(ru).not.toContain('ДД.ММ.ГГГГ');
    expect(lastText(await h.send('/prices 31.02.2026', en))).toContain('There is no such date');
    expect(lastText(await h.send('/prices 2026-02-01'))).toContain('ДД.ММ.ГГГГ');
  });
});
