import { describe, expect, it } from 'vitest';
import { MENU_COMMANDS } from '../../src/bot/index.js';
import { parseDnsLine } from '../../src/core/dns-line.js';
import { type BotCall, buttonData, buttons, lastText, texts } from '../helpers/bot-harness.js';
import { toast } from '../helpers/dns-stories.js';
import { useBot } from '../helpers/use-bot.js';

/*
 * Screens as the partner meets them (issue 12): "typing…" while the provider works, /help that
 * lists everything, domain buttons instead of usage lines, "No" that answers, toasts that say
 * what happens, the added record shown after an add, imports that merge, free text that means
 * something, and groups where the bot speaks only when spoken to.
 */

const { h, en } = useBot({
  // The provider is slowed on purpose below; the client must outwait it.
  timeoutMs: 10_000,
  connect: ['partner', 'en'],
  reset: ['faults', 'scene'],
});
const group = { chatType: 'group' as const, chatId: -100_777 };

const all = (calls: BotCall[]) => texts(calls).join('\n');
const methods = (calls: BotCall[]) => calls.map((c) => c.method);

describe('typing… while the provider is asked', () => {
  it('/invoices with a provider answering in 4.5 s: typing first, again after 4 s, never after the reply', async () => {
    h.sandbox.addFault({ path: '/v1/billing/invoices', fault: { kind: 'delay', ms: 4_500 } });
    const calls = await h.send('/invoices');
    const typing = calls.filter((c) => c.method === 'sendChatAction');
    expect(typing.length).toBeGreaterThanOrEqual(2);
    expect(typing.every((c) => c.payload.action === 'typing')).toBe(true);
    const firstTyping = calls.findIndex((c) => c.method === 'sendChatAction');
    const firstReply = calls.findIndex((c) => c.method === 'sendRichMessage');
    expect(firstTyping).toBeGreaterThanOrEqual(0);
    expect(firstTyping).toBeLessThan(firstReply);
    // Sent before the first provider request of the update left.
    const before = calls[firstTyping]?.providerRequestsBefore ?? -1;
    expect(h.sandbox.requests.length).toBeGreaterThan(before);
    const lastTyping = calls.map((c) => c.method).lastIndexOf('sendChatAction');
    expect(lastTyping).toBeLessThan(calls.map((c) => c.method).lastIndexOf('sendRichMessage'));
  }, 20_000);

  it('stops repeating once the update is handled', async () => {
    await h.send('/invoices');
    const count = h.calls.filter((c) => c.method === 'sendChatAction').length;
    await new Promise((resolve) => setTimeout(resolve, 4_300));
    expect(h.calls.filter((c) => c.method === 'sendChatAction').length).toBe(count);
  }, 15_000);

  it('a button press is answered before any provider call, then typing, then the screen', async () => {
    const picker = await h.send('/dns');
    const before = h.sandbox.requests.length;
    const calls = await h.press(buttonData(picker, 'mysite.by'));
    const answer = calls.find((c) => c.method === 'answerCallbackQuery');
    expect(answer?.providerRequestsBefore).toBe(before);
    expect(methods(calls).indexOf('answerCallbackQuery')).toBeLessThan(
      methods(calls).indexOf('sendChatAction'),
    );
    expect(lastText(calls)).toContain('DNS-записи mysite.by');
  });

  it('commands with no provider call show no typing', async () => {
    expect(methods(await h.send('/help'))).not.toContain('sendChatAction');
  });
});

describe('/help', () => {
  it('lists every command of the menu, with the one-line DNS forms, in Russian and English', async () => {
    for (const options of [{}, en]) {
      const help = lastText(await h.send('/help', options));
      for (const command of MENU_COMMANDS) expect(help).toContain(`/${command}`);
      for (const form of [
        'add A www 192.0.2.1',
        'add MX @ mx.example.by 10',
        'add TXT @',
        'add SRV',
        'set A www 192.0.2.55',
        'del A www 192.0.2.1',
      ])
        expect(help).toContain(form);
    }
    expect(lastText(await h.send('/help'))).toContain('Что умеет бот');
    expect(lastText(await h.send('/help', en))).toContain('What the bot does');
  });

  it('every one-line example in the help is a line the bot accepts', async () => {
    const help = lastText(await h.send('/help'));
    const lines = [...help.matchAll(/<code>\/dns example\.by (?:add|set) (.+?)<\/code>/g)].map(
      (m) => m[1] ?? '',
    );
    expect(lines.length).toBeGreaterThanOrEqual(5);
    for (const line of lines) expect(parseDnsLine(line).ok, line).toBe(true);
  });
});

describe('missing arguments: the partner’s domains as buttons', () => {
  it('/dns, /ns and /cert without a domain offer the domains, each opening that job', async () => {
    const dns = await h.send('/dns');
    expect(lastText(dns)).toContain('Выберите домен');
    expect(all(dns)).not.toContain('Пример');
    expect(lastText(await h.press(buttonData(dns, 'mysite.by')))).toContain('DNS-записи mysite.by');

    const ns = await h.send('/ns');
    expect(lastText(ns)).toContain('NS-серверы');
    expect(all(ns)).not.toContain('/dns example.by');
    expect(lastText(await h.press(buttonData(ns, 'mysite.by')))).toContain('NS-серверы mysite.by');

    const cert = await h.send('/cert');
    expect(all(cert)).not.toContain('/dns example.by');
    const url = await h.api().getDomainCertificateUrl(1006);
    expect(all(await h.press(buttonData(cert, 'mysite.by')))).toContain(url);
  });

  it('in English too', async () => {
    expect(lastText(await h.send('/ns', en))).toContain('Choose a domain');
  });
});

describe('"No" answers visibly', () => {
  it('a record delete: the question says nothing changed and loses its buttons; the record stays', async () => {
    await h.send('/dns mysite.by add TXT keep "no-test"');
    const record = (await h.api().listDnsRecords(1006)).find((r) => r.value.includes('no-test'));
    if (!record) throw new Error('no record');
    const ask = await h.send(`/dns mysite.by del ${record.record_id}`);
    const no = await h.press(buttonData(ask, 'Нет'));
    const edit = no.find((c) => c.method === 'editMessageText');
    expect(String(edit?.payload.text)).toContain('записи не менялись');
    expect(buttons(no)).toEqual([]);
    expect((await h.api().listDnsRecords(1006)).some((r) => r.record_id === record.record_id)).toBe(true);
  });

  it('name servers: editor, replace and delete confirmations, in both languages', async () => {
    for (const action of ['editor', 'delete', 'ns1.a.by ns2.a.by']) {
      const no = await h.press(buttonData(await h.send(`/ns mysite.by ${action}`), 'Нет'));
      expect(String(no.find((c) => c.method === 'editMessageText')?.payload.text)).toContain(
        'NS-серверы не менялись',
      );
      expect(buttons(no)).toEqual([]);
    }
    const no = await h.press(buttonData(await h.send('/ns mysite.by editor', en), 'No'), en);
    expect(String(no.find((c) => c.method === 'editMessageText')?.payload.text)).toContain(
      'name servers were not changed',
    );
  });
});

describe('toasts and mid-form words', () => {
  it('confirming a record added by buttons says "Добавляю запись…"; a command mid-form names the form', async () => {
    let calls = await h.press(buttonData(await h.send('/dns mysite.by'), 'Добавить'));
    calls = await h.press(buttonData(calls, 'TXT'));
    // /help mid-form: the help, then the question again, naming the form.
    const mid = await h.send('/help');
    expect(all(mid)).toContain('Что умеет бот');
    expect(lastText(mid)).toContain('Сейчас идёт добавление DNS-записи');
    expect(all(mid)).not.toContain('идёт заказ');
    await h.send('toast');
    calls = await h.send('toast-test');
    calls = await h.press(buttonData(calls, '3600'));
    calls = await h.press(buttonData(calls, '✅ Добавить'));
    expect(toast(calls)).toBe('Добавляю запись…');
    expect(all(calls)).toContain('Запись добавлена');
  });

  it('a command while a customer card is being filled names that form, not an order', async () => {
    const start = await h.press(buttonData(await h.send('/requisites'), 'Добавить заказчика'));
    expect(texts(start).length).toBeGreaterThan(0);
    const mid = await h.send('/help');
    expect(lastText(mid)).toContain('заполнение карточки заказчика');
    expect(lastText(mid)).toContain('Тип заказчика');
    expect(all(mid)).not.toContain('идёт заказ');
    // Any other command closes the form, says so, and runs.
    const left = await h.send('/zones');
    expect(texts(left)[0]).toBe('Отменено. Заказчик не сохранён.');
    expect(lastText(await h.send('Иванов'))).not.toContain('Тип заказчика');
  });

  it('in English the add toast is "Adding the record…"', async () => {
    let calls = await h.press(buttonData(await h.send('/dns mysite.by', en), 'Add'), en);
    calls = await h.press(buttonData(calls, 'TXT'), en);
    await h.send('toasten', en);
    calls = await h.send('toast-en', en);
    calls = await h.press(buttonData(calls, '3600'), en);
    calls = await h.press(buttonData(calls, '✅'), en);
    expect(toast(calls)).toBe('Adding the record…');
  });
});

describe('after an add the partner sees the added record', () => {
  it('one-line add on a domain with many records: the record with its id, delete and list buttons', async () => {
    // More records than one page of the list holds (15): the new one would be off page 1.
    for (let i = 0; i < 6; i += 1)
      await h.api().addDnsRecord(1006, { kind: 'a', ttl: 3600, host: `many${i}`, ipv4: '192.0.2.60' });
    expect((await h.api().listDnsRecords(1006)).length).toBeGreaterThan(15);
    const calls = await h.send('/dns mysite.by add A seen 192.0.2.77');
    const added = (await h.api().listDnsRecords(1006)).find((r) => r.value.includes('192.0.2.77'));
    if (!added) throw new Error('not added');
    const text = lastText(calls);
    expect(text).toContain('Запись добавлена');
    expect(text).toContain(`#${added.record_id}`);
    expect(text).toContain('192.0.2.77');
    expect(buttons(calls).map((b) => b.text)).toEqual(
      expect.arrayContaining([`🗑 #${added.record_id}`, expect.stringContaining('Все записи')]),
    );
    // Not the first page of the list.
    expect(text).not.toContain('DNS-записи mysite.by');
  });
});

describe('zone import merges by default', () => {
  it('a pasted fragment of 2 lines adds them and deletes nothing; replacing the zone is a separate choice', async () => {
    const before = (await h.api().listDnsRecords(1006)).length;
    await h.press(buttonData(await h.send('/dns mysite.by'), 'Импорт'));
    const preview = await h.send('merge1 3600 IN A 192.0.2.81\nmerge2 3600 IN A 192.0.2.82');
    expect(lastText(preview)).toContain('Добавить: 2');
    expect(lastText(preview)).toContain('Удалить: 0');
    expect(lastText(preview)).toContain('останутся как есть');
    const replace = await h.press(buttonData(preview, 'Заменить всю зону'));
    expect(lastText(replace)).toContain(`Удалить: ${before}`);
    expect(lastText(replace)).toContain('будут удалены');
    // Changed my mind: nothing is applied.
    const no = await h.press(buttonData(replace, 'Нет'));
    expect(String(no.find((c) => c.method === 'editMessageText')?.payload.text)).toContain(
      'импорт не применён',
    );
    expect((await h.api().listDnsRecords(1006)).length).toBe(before);
  });
});

describe('free text outside a flow', () => {
  it('an invoice number, an order number, a domain of the partner and a free domain get their buttons', async () => {
    const [invoice] = await h.api().listInvoices();
    const [order] = await h.api().listOrders();
    if (!invoice || !order) throw new Error('no fixtures');

    const byNumber = await h.send(invoice.invoice_number);
    expect(lastText(byNumber)).toContain(invoice.invoice_number);
    const url = await h.api().getInvoiceUrl(invoice.invoice_id);
    expect(all(await h.press(buttonData(byNumber, 'Ссылка на счёт')))).toContain(url);

    const byId = await h.send(String(invoice.invoice_id));
    expect(buttons(byId).map((b) => b.text)).toContain('🔗 Ссылка на счёт');

    const byOrder = await h.send(order.number);
    expect(lastText(byOrder)).toContain(order.number);
    expect(buttons(byOrder).map((b) => b.text)).toEqual(
      expect.arrayContaining(['📄 Заказ', '🧾 Счета заказа']),
    );

    const domain = await h.send('mysite.by');
    expect(lastText(domain)).toContain('mysite.by');
    expect(buttons(domain).map((b) => b.text)).toEqual(['DNS-записи', 'NS-серверы', 'Свидетельство']);
    expect(lastText(await h.press(buttonData(domain, 'DNS-записи')))).toContain('DNS-записи mysite.by');

    const free = await h.send('brand-new-shop-7.by');
    expect(lastText(free)).toContain('не среди ваших заказов');
    expect(buttons(free).map((b) => b.text)).toEqual(['🔎 Проверить', '🛒 Заказать']);
    expect(all(await h.press(buttonData(free, 'Проверить')))).toContain('brand-new-shop-7.by');
  });

  it('other text still gets the help pointer, in both languages', async () => {
    expect(lastText(await h.send('привет, как дела'))).toContain('Не понял');
    expect(lastText(await h.send('hello there', en))).toContain("didn't understand");
  });
});

describe('groups, until team chats exist', () => {
  it('plain chatter gets nothing; a command for another bot gets nothing', async () => {
    expect(await h.send('всем привет', group)).toEqual([]);
    expect(await h.send('mysite.by', group)).toEqual([]);
    expect(await h.send('/help@other_bot', group)).toEqual([]);
  });

  it('commands addressed to the bot are answered; one that needs a token says to use the private chat', async () => {
    expect(lastText(await h.send('/help@partner_test_bot', group))).toContain('Что умеет бот');
    expect(lastText(await h.send('/help', group))).toContain('Что умеет бот');
    const invoices = await h.send('/invoices@partner_test_bot', group);
    expect(lastText(invoices)).toContain('в личном чате');
    expect(lastText(invoices)).not.toContain('/token');
    expect(lastText(await h.send('/dns mysite.by', { ...group, languageCode: 'en' }))).toContain(
      'private chat',
    );
  });

  it('a token pasted in a group is deleted and the partner told to revoke it', async () => {
    const calls = await h.send(h.sandbox.token, group);
    expect(methods(calls)).toContain('deleteMessage');
    expect(lastText(calls)).toContain('отзовите этот токен');
  });
});
