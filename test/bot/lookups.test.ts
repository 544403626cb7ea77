import { describe, expect, it } from 'vitest';
import { buttonData, buttons, lastTable, lastText } from '../helpers/bot-harness.js';
import { useBot } from '../helpers/use-bot.js';

const { h, en } = useBot({ connect: ['partner', 'en'] });

function requestsTo(path: string) {
  return h.sandbox.requests.filter((r) => r.path === path).length;
}

describe('/prices', () => {
  it('lists price lists and shows a list’s tariffs with prices per period', async () => {
    const lists = await h.api().listPriceLists();
    const first = lists[0];
    if (!first) throw new Error('seed has no price list');
    const calls = await h.send('/prices');
    expect(lastTable(calls).map((row) => row[0])).toContain(first.number);
    const tariffs = await h.api().getPriceListTariffs(Number(first.number));
    const press = await h.press(buttonData(calls, first.number));
    const text = lastText(press);
    expect(text).toContain(tariffs.tariffs[0]?.tariff_name ?? '?');
    expect(text).toMatch(/\d+ мес — \d+,\d{2} [A-Z]{3}|\d+ (год|года|лет) — \d+,\d{2} [A-Z]{3}/);
  });

  it('asks the provider for the date given, and refuses a date that does not exist', async () => {
    await h.send('/prices 01.06.2026');
    const request = h.sandbox.requests.filter((r) => r.path === '/v1/billing/pricelists').at(-1);
    expect(request?.query.as_of_date).toBe('01.06.2026');
    expect(lastText(await h.send('/prices 31.02.2026'))).toContain('Такой даты нет');
    expect(lastText(await h.send('/prices 2026.02.31'))).toContain('ДД.ММ.ГГГГ');
    expect(lastText(await h.send('/prices tomorrow', en))).toContain('DD.MM.YYYY');
  });
});

describe('/tariffs and /zones', () => {
  it('offers the three kinds as buttons when none is given', async () => {
    const calls = await h.send('/tariffs');
    expect(buttons(calls).map((b) => b.text)).toEqual(['Хостинг', 'Почта', 'SSL']);
    const ssl = await h.press(buttonData(calls, 'SSL'));
    expect(lastText(ssl)).toContain('Тарифы SSL-сертификатов');
    expect(lastText(ssl)).toMatch(/1 год — /);
  });

  it('/tariffs hosting shows each tariff with its prices per month, in English too', async () => {
    const [tariff] = await h.api().listHostingTariffs();
    if (!tariff) throw new Error('no hosting tariff');
    expect(lastText(await h.send('/tariffs hosting'))).toContain(tariff.tariff_name);
    const english = lastText(await h.send('/tariffs hosting', en));
    expect(english).toContain('Hosting tariffs');
    expect(english).toMatch(/12 months — \d+\.\d{2} [A-Z]{3}/);
    expect(lastText(await h.send('/tariffs vps'))).toContain('/tariffs hosting');
  });

  it('/zones lists zones with registration and renewal prices, and reuses the cache', async () => {
    const before = requestsTo('/v1/orders/domains/zones');
    const table = lastTable(await h.send('/zones'));
    expect(table[0]).toEqual(['Зона', 'Регистрация', 'Продление', 'Срок']);
    for (const zone of ['BY', 'БЕЛ', 'RU', 'РФ', 'COM']) expect(table.map((row) => row[0])).toContain(zone);
    await h.send('/zones');
    await h.send('/zones', en);
    expect(requestsTo('/v1/orders/domains/zones') - before).toBeLessThanOrEqual(1);
  });
});

describe('/check', () => {
  it('checks many names at once, IDN in and out, with Order buttons for available ones', async () => {
    const calls = await h.send(
      '/check free-name-1.by, taken-shop.by\nпример-свободный.бел premium.com not_a_domain',
    );
    const text = lastText(calls);
    expect(text).toContain('✅ <b>free-name-1.by</b>');
    expect(text).toContain('❌ <b>taken-shop.by</b>');
    expect(text).toContain('✅ <b>пример-свободный.бел</b>');
    expect(text).toContain('💎 <b>premium.com</b>');
    expect(text).toContain('not_a_domain');
    const sent = h.sandbox.requests.filter((r) => r.path === '/v1/domains/check').at(-1)?.body as {
      domains: string[];
    };
    expect(sent.domains).toContain('xn----btbcjbrmsohbendq0o.xn--90ais');
    const orderButtons = buttons(calls).filter((b) => b.text.startsWith('Заказать'));
    expect(orderButtons.map((b) => b.text)).toEqual([
      'Заказать free-name-1.by',
      'Заказать пример-свободный.бел',
      'Заказать premium.com',
    ]);
  });

  it('asks for the names when none are given, then checks the next message', async () => {
    expect(lastText(await h.send('/check'))).toContain('Пришлите домены');
    expect(lastText(await h.send('example.by'))).toContain('❌ <b>example.by</b>');
  });

  it('explains what is wrong with input that has no domain names', async () => {
    expect(lastText(await h.send('/check hello', en))).toContain('No domain names found');
  });
});

describe('/orders', () => {
  it('lists orders newest first, and a tap shows details with invoices and, for domains, DNS buttons', async () => {
    const calls = await h.send('/orders');
    const text = lastText(calls);
    expect(text).toContain('Заказы, новые сверху');
    // Every order, a row each, with its number first (a whole list fits one rich message).
    const numbers = lastTable(calls)
      .slice(1)
      .map((row) => row[0]);
    const all = (await h.api().listOrders()).map((o) => o.number);
    expect(numbers.length).toBeGreaterThan(1);
    expect([...numbers].sort()).toEqual([...all].sort());
    const domains = await h.api().listDomainOrders();
    const domainOrder = domains.find((o) => o.advanced?.domain);
    if (!domainOrder) throw new Error('no domain order');
    const list = await h.send('/orders domain');
    const details = await h.press(buttonData(list, domainOrder.number));
    expect(lastText(details)).toContain(`Заказ № ${domainOrder.number}`);
    const labels = buttons(details).map((b) => b.text);
    expect(labels).toEqual(['Счета заказа', 'DNS-записи', 'NS-серверы', 'Свидетельство о домене']);
    const certificate = await h.press(buttonData(details, 'Свидетельство'));
    const url = await h.api().getDomainCertificateUrl(domainOrder.order_id);
    expect(lastText(certificate)).toContain(url);
  });

  it('sorts by placing time, newest first', async () => {
    const orders = await h.api().listOrders();
    const text = lastText(await h.send('/orders', en));
    const shown = [...text.matchAll(/id (\d+) ·/g)].map((m) => Number(m[1]));
    const times = shown.map((id) => {
      const order = orders.find((o) => o.order_id === id);
      const [d, m, rest] = (order?.order_datetime ?? '').split('.');
      return `${rest?.slice(0, 4)}${m}${d}${rest?.slice(5)}`;
    });
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('rejects an unknown kind with the form', async () => {
    expect(lastText(await h.send('/orders vps'))).toContain('/orders domain');
  });
});
