/*
 * Changing a record, not only adding and deleting it: the record as a button, its card, the
 * guided change («было → станет»), `set` and `del` by the record as typed — each change gap-free
 * (the add before the delete, a CNAME's delete first), one history entry, one undo.
 */
import { describe, expect, it } from 'vitest';
import { type BotCall, buttonData, buttons, lastText, texts } from '../../helpers/bot-harness.js';
import { dnsStories, toast } from '../../helpers/dns-stories.js';
import { orderTestDomain } from '../../helpers/fixtures.js';
import { useBot } from '../../helpers/use-bot.js';

const { h, en } = useBot({ connect: ['partner', 'en'], reset: ['faults', 'scene'] });
const { listedValues, writesSince } = dnsStories(h);

const all = (calls: BotCall[]) => texts(calls).join('\n');

/** A fresh domain with `www` at 93.125.99.10 and a few other records. */
async function movingSite(name: string) {
  const domain = `${name}-${Date.now()}.com`;
  const orderId = await orderTestDomain(h.api(), domain);
  const api = h.api();
  await api.addDnsRecord(orderId, { kind: 'a', host: 'www', ipv4: '93.125.99.10', ttl: 3600 });
  await api.addDnsRecord(orderId, { kind: 'a', host: '@', ipv4: '93.125.99.10', ttl: 3600 });
  await api.addDnsRecord(orderId, { kind: 'txt', host: '@', text: 'v=spf1 -all', ttl: 3600 });
  await api.addDnsRecord(orderId, { kind: 'cname', host: 'shop', canonical: 'shops.example.net', ttl: 3600 });
  const wwwId = (await api.listDnsRecords(orderId)).find(
    (r) => r.type === 'A' && r.value.startsWith('www '),
  )?.record_id;
  return { domain, orderId, wwwId: wwwId ?? 0 };
}

describe('a record is a thing you tap', () => {
  it('lists each record as its own button, and its card changes, deletes, copies, checks and goes back', async () => {
    const site = await movingSite('card');
    const list = await h.send(`/dns ${site.domain}`);
    const labels = buttons(list).map((b) => b.text);
    expect(labels).toContain('A www → 93.125.99.10');
    expect(labels).toContain('CNAME shop → shops.example.net');
    expect(labels.some((l) => /^🗑 #\d+$/.test(l))).toBe(false);

    const card = await h.press(buttonData(list, 'A www → 93.125.99.10'));
    expect(lastText(card)).toContain(`Запись домена ${site.domain}`);
    expect(lastText(card)).toContain('<b>A</b> www → <code>93.125.99.10</code> · TTL 3600 с');
    expect(buttons(card).map((b) => b.text)).toEqual(
      expect.arrayContaining(['✏️ Изменить', '🗑 Удалить', '📋 Копировать значение A', '⬅ Все записи']),
    );
    expect(buttons(card).find((b) => b.copy_text)?.copy_text).toEqual({ text: '93.125.99.10' });
    // Back to the list.
    expect(lastText(await h.press(buttonData(card, '⬅ Все записи')))).toContain(`DNS-записи ${site.domain}`);
  });
});

describe('changing a record', () => {
  it('moves www to a new server in 4 taps and messages from /dns, adding before deleting', async () => {
    const site = await movingSite('move');
    const list = await h.send(`/dns ${site.domain}`);
    let steps = 0;
    const card = await h.press(buttonData(list, 'A www → 93.125.99.10'));
    steps += 1;
    const asked = await h.press(buttonData(card, '✏️ Изменить'));
    steps += 1;
    // Only the value is asked; the old one is offered to keep.
    expect(lastText(asked)).toContain('IPv4');
    expect(
      buttons(asked)
        .map((b) => b.text)
        .join(' '),
    ).toContain('93.125.99.10');
    const summary = await h.send('192.0.2.55');
    steps += 1;
    const preview = all(summary);
    expect(preview).toContain(`Изменить запись домена ${site.domain}`);
    expect(preview).toContain('было: A www → 93.125.99.10 · TTL 3600 с');
    expect(preview).toContain('станет: A www → 192.0.2.55 · TTL 3600 с');

    const from = h.sandbox.requests.length;
    const done = await h.press(buttonData(summary, '✅ Применить'));
    steps += 1;
    expect(steps).toBeLessThanOrEqual(4);
    expect(toast(done)).toBe('Меняю запись…');
    expect(all(done)).toContain(
      '✏️ Запись изменена: <b>A</b> www: <code>93.125.99.10</code> → <code>192.0.2.55</code>',
    );
    // The new address first, then the old one goes: www answers throughout.
    expect(writesSince(from)).toEqual([
      `POST /v1/domains/${site.orderId}/dns/records/a`,
      `DELETE /v1/domains/${site.orderId}/dns/records/a/${site.wwwId}`,
    ]);
    expect(await listedValues(site.orderId)).toContain('A www 192.0.2.55');
    expect(await listedValues(site.orderId)).not.toContain('A www 93.125.99.10');
    expect(buttons(done).map((b) => b.text)).toEqual(expect.arrayContaining(['↩ Отменить', '⬅ Все записи']));

    // One change is one history entry, and its undo restores the old address the same gap-free way.
    const history = lastText(await h.send(`/dns ${site.domain} history`));
    expect(history).toContain('изменение записи');
    expect(history).toContain('A www: 93.125.99.10 → 192.0.2.55');
    const ask = await h.press(buttonData(done, '↩ Отменить'));
    const before = h.sandbox.requests.length;
    await h.press(buttonData(ask, 'Да, отменить'));
    const undoWrites = writesSince(before);
    expect(undoWrites[0]).toBe(`POST /v1/domains/${site.orderId}/dns/records/a`);
    expect(undoWrites[1]).toMatch(new RegExp(`^DELETE /v1/domains/${site.orderId}/dns/records/a/\\d+$`));
    expect(await listedValues(site.orderId)).toContain('A www 93.125.99.10');
    expect(await listedValues(site.orderId)).not.toContain('A www 192.0.2.55');
  });

  it('changes a CNAME by deleting it first, and says why', async () => {
    const site = await movingSite('cname');
    const list = await h.send(`/dns ${site.domain}`);
    const card = await h.press(buttonData(list, 'CNAME shop'));
    await h.press(buttonData(card, '✏️ Изменить'));
    const summary = await h.send('new-shops.example.net');
    const from = h.sandbox.requests.length;
    const done = await h.press(buttonData(summary, '✅ Применить'));
    expect(writesSince(from).map((w) => w.split('/').slice(0, 1)[0])).toEqual(['DELETE ', 'POST ']);
    expect(all(done)).toContain('CNAME не может стоять рядом с другой записью того же имени');
  });

  it('a failed delete leaves both records standing, says so, and a button finishes the change', async () => {
    const site = await movingSite('stall');
    h.sandbox.addFault({
      method: 'DELETE',
      path: `/v1/domains/${site.orderId}/dns/records/a/${site.wwwId}`,
      fault: { kind: 'status', status: 400, body: '{"message":"Зона временно заблокирована"}' },
    });
    const stalled = await h.send(`/dns ${site.domain} set A www 192.0.2.77`);
    const text = all(stalled);
    expect(text).toContain(
      'Новая запись добавлена, а старую удалить не получилось: Провайдер отклонил запрос: Зона временно заблокирована',
    );
    expect(text).toContain('Сейчас стоят обе');
    expect(await listedValues(site.orderId)).toEqual(
      expect.arrayContaining(['A www 192.0.2.77', 'A www 93.125.99.10']),
    );
    // What is left to do is the old record's delete: the button is red.
    expect(buttons(stalled).find((b) => b.text.includes('Довести'))?.style).toBe('danger');
    const finished = await h.press(buttonData(stalled, 'Довести изменение до конца'));
    expect(all(finished)).toContain('✏️ Запись изменена');
    expect((await listedValues(site.orderId)).filter((v) => v.startsWith('A www'))).toEqual([
      'A www 192.0.2.77',
    ]);
    // The button is single use.
    expect(all(await h.press(buttonData(stalled, 'Довести изменение до конца')))).toContain('уже доведено');
  });

  it('a refused add changes nothing and deletes nothing', async () => {
    const site = await movingSite('refused');
    h.sandbox.addFault({
      method: 'POST',
      path: `/v1/domains/${site.orderId}/dns/records/a`,
      fault: { kind: 'status', status: 400, body: '{"message":"Адрес в чёрном списке"}' },
    });
    const from = h.sandbox.requests.length;
    const calls = await h.send(`/dns ${site.domain} set A www 192.0.2.66`);
    expect(all(calls)).toContain(
      'Не получилось изменить запись: Провайдер отклонил запрос: Адрес в чёрном списке',
    );
    expect(all(calls)).toContain('Ничего не изменилось.');
    expect(writesSince(from)).toEqual([`POST /v1/domains/${site.orderId}/dns/records/a`]);
    expect(await listedValues(site.orderId)).toContain('A www 93.125.99.10');
  });
});

describe('a change stored by an older version', () => {
  it('is finished in the order it was stored (every delete first) and told as it was made', async () => {
    const site = await movingSite('stored');
    const listed = await h.api().listDnsRecords(site.orderId);
    const shopId = listed.find((r) => r.type === 'CNAME')?.record_id ?? 0;
    // Before the one gap-free order, a plan with one CNAME's change put every delete first, and
    // the session kept that order and a `deleteFirst` flag. The first call was made, then a kill.
    // (Written as a plain object, as documents of that time were: the store still reads them.)
    await h.api().deleteDnsRecord(site.orderId, 'a', site.wwwId);
    const www = { type: 'A', host: 'www', ttl: 3600, ipv4: '93.125.99.10' } as const;
    const shop = { type: 'CNAME', host: 'shop', ttl: 3600, canonical: 'shops.example.net' } as const;
    await h.store.update(en.chatId, (doc) => ({
      ...doc,
      session: {
        dnsChange: {
          id: 'old1',
          orderId: site.orderId,
          calls: [
            { op: 'delete', id: site.wwwId, record: www },
            { op: 'delete', id: shopId, record: shop },
            { op: 'add', record: { ...shop, canonical: 'new-shops.example.net' } },
            { op: 'add', record: { ...www, ipv4: '192.0.2.99' } },
          ],
          done: 1,
          deleteFirst: true,
        },
      },
    }));
    const from = h.sandbox.requests.length;
    const calls = await h.send('/help', en);
    expect(writesSince(from).map((w) => w.split('/').slice(0, 1)[0]?.trim())).toEqual([
      'DELETE',
      'POST',
      'POST',
    ]);
    expect(all(calls)).toContain('The bot restarted in the middle of a record change — I finished it.');
    expect(all(calls)).toContain('for a moment the name answered nothing');
    const values = await listedValues(site.orderId);
    expect(values).toContain('A www 192.0.2.99');
    expect(values).not.toContain('A www 93.125.99.10');
    expect(values.filter((v) => v.startsWith('CNAME shop'))).toEqual(['CNAME shop new-shops.example.net']);
  });
});

describe('set and del in one line', () => {
  it('set points www to the new server in one message; the same TTL-only set is a change', async () => {
    const site = await movingSite('set');
    const calls = await h.send(`/dns ${site.domain} set A www 192.0.2.55`);
    expect(all(calls)).toContain('<b>A</b> www: <code>93.125.99.10</code> → <code>192.0.2.55</code>');
    const ttl = await h.send(`/dns ${site.domain} set A www 192.0.2.55 300`);
    expect(all(ttl)).toContain('<b>A</b> www <code>192.0.2.55</code>: TTL 3600 → 300 с');
    expect(all(await h.send(`/dns ${site.domain} set A www 192.0.2.55 300`))).toContain(
      'Менять нечего — у www уже ровно такие записи A.',
    );
    expect(all(await h.send(`/dns ${site.domain} set A www 192.0.2.55 300`, en))).toContain(
      'Nothing to change',
    );
  });

  it('delete and presets, in any case, are del and preset; a word not in the table is told', async () => {
    const site = await movingSite('alias');
    const del = all(await h.send(`/dns ${site.domain} del A www`));
    expect(del).toContain('93.125.99.10');
    expect(all(await h.send(`/dns ${site.domain} DELETE A www`))).toBe(del);
    const preset = all(await h.send(`/dns ${site.domain} preset`));
    expect(all(await h.send(`/dns ${site.domain} Presets`))).toBe(preset);
    expect(all(await h.send(`/dns ${site.domain} constructor`))).toContain(
      'Не понял «constructor» после домена',
    );
  });

  it('set over several records previews and asks first', async () => {
    const site = await movingSite('setmany');
    await h.api().addDnsRecord(site.orderId, { kind: 'a', host: 'www', ipv4: '93.125.99.11', ttl: 3600 });
    const from = h.sandbox.requests.length;
    const preview = await h.send(`/dns ${site.domain} set A www 192.0.2.55`);
    expect(writesSince(from)).toEqual([]);
    expect(lastText(preview)).toContain('Будут удалены 2 записи:');
    await h.press(buttonData(preview, 'Да, заменить'));
    expect((await listedValues(site.orderId)).filter((v) => v.startsWith('A www'))).toEqual([
      'A www 192.0.2.55',
    ]);
  });

  it('refuses a CNAME beside other records of its name, naming them', async () => {
    const site = await movingSite('cnameset');
    await h.api().addDnsRecord(site.orderId, { kind: 'txt', host: 'www', text: 'verify=1', ttl: 3600 });
    expect(all(await h.send(`/dns ${site.domain} set CNAME www elsewhere.example.net`))).toContain(
      'У www есть записи A, TXT, а CNAME не может стоять рядом с другими записями того же имени.',
    );
  });

  it('del takes the record as typed, or its type and host when there is exactly one', async () => {
    const site = await movingSite('del');
    const ask = await h.send(`/dns ${site.domain} del A www 93.125.99.10`);
    expect(lastText(ask)).toContain('Удалить запись?');
    await h.press(buttonData(ask, 'Да, удалить'));
    expect(await listedValues(site.orderId)).not.toContain('A www 93.125.99.10');
    expect(lastText(await h.send(`/dns ${site.domain} del TXT @`))).toContain('Удалить запись?');
    expect(all(await h.send(`/dns ${site.domain} del A nosuch`))).toContain('нет записи A nosuch');
    await h.api().addDnsRecord(site.orderId, { kind: 'a', host: 'ftp', ipv4: '192.0.2.1', ttl: 3600 });
    await h.api().addDnsRecord(site.orderId, { kind: 'a', host: 'ftp', ipv4: '192.0.2.2', ttl: 3600 });
    const many = await h.send(`/dns ${site.domain} del A ftp`);
    expect(lastText(many)).toContain('несколько записей A ftp');
    expect(buttons(many).map((b) => b.text)).toEqual(['🗑 A ftp → 192.0.2.1', '🗑 A ftp → 192.0.2.2', 'Нет']);
  });
});

describe('what the walk through the playground found', () => {
  it('a set without a TTL keeps the TTL lowered before a move', async () => {
    const site = await movingSite('keepttl');
    await h.send(`/dns ${site.domain} set A www 93.125.99.10 300`);
    const moved = all(await h.send(`/dns ${site.domain} set A www 192.0.2.60`));
    expect(moved).toContain('<b>A</b> www: <code>93.125.99.10</code> → <code>192.0.2.60</code>');
    expect(moved).not.toContain('3600');
    expect(await listedValues(site.orderId)).toContain('A www 192.0.2.60');
    const www = (await h.api().listDnsRecords(site.orderId)).find((r) => r.value === 'www 192.0.2.60');
    expect(www?.ttl).toBe(300);
  });

  it('a record changed meanwhile ends the form with the way to the list; nothing to change ends it too', async () => {
    const site = await movingSite('gone');
    const list = await h.send(`/dns ${site.domain}`);
    const card = await h.press(buttonData(list, 'A www → 93.125.99.10'));
    await h.press(buttonData(card, '✏️ Изменить'));
    const summary = await h.send('192.0.2.21');
    await h.api().deleteDnsRecord(site.orderId, 'a', site.wwwId);
    const gone = await h.press(buttonData(summary, '✅ Применить'));
    expect(all(gone)).toContain('Этой записи больше нет — её изменили или удалили.');
    expect(buttons(gone).map((b) => b.text)).toContain('⬅ Все записи');
    // The form is over: the next command is a command, not an answer.
    expect(lastText(await h.send(`/dns ${site.domain}`))).toContain(`DNS-записи ${site.domain}`);
    // The old card's buttons say the same, without an id the partner never saw.
    const old = await h.press(buttonData(card, '✏️ Изменить'));
    expect(all(old)).toContain('Этой записи больше нет');
    expect(all(old)).not.toMatch(/#\d+/);

    const again = await h.send(`/dns ${site.domain}`);
    const apex = await h.press(buttonData(again, 'A @ → 93.125.99.10'));
    const keep = await h.press(buttonData(apex, '✏️ Изменить'));
    const same = await h.press(buttonData(keep, 'Оставить'));
    const told = await h.press(buttonData(same, '✅ Применить'));
    expect(all(told)).toContain('Менять нечего — запись уже такая.');
    expect(buttons(told).map((b) => b.text)).not.toContain('✅ Применить');
  });

  it('Back from the first question leaves the change instead of asking what was given', async () => {
    const site = await movingSite('back');
    const list = await h.send(`/dns ${site.domain}`);
    const card = await h.press(buttonData(list, 'A www → 93.125.99.10'));
    const asked = await h.press(buttonData(card, '✏️ Изменить'));
    const host = await h.press(buttonData(asked, 'Назад'));
    expect(lastText(host)).toContain('хост');
    // The type and the domain were given by the card: Back stops at the host.
    expect(buttons(host).map((b) => b.text)).not.toContain('⬅ Назад');
  });

  it('a second tap on a set preview’s Yes says it is done, and a CNAME is never set at the apex', async () => {
    const site = await movingSite('twice');
    await h.api().addDnsRecord(site.orderId, { kind: 'a', host: 'www', ipv4: '93.125.99.11', ttl: 3600 });
    const preview = await h.send(`/dns ${site.domain} set A www 192.0.2.55`);
    await h.press(buttonData(preview, 'Да, заменить'));
    expect(all(await h.press(buttonData(preview, 'Да, заменить')))).toContain('Уже сделано');
    await h
      .api()
      .deleteDnsRecord(
        site.orderId,
        'a',
        (await h.api().listDnsRecords(site.orderId)).find((r) => r.value.startsWith('@ '))?.record_id ?? 0,
      );
    expect(all(await h.send(`/dns ${site.domain} set CNAME @ x.example.net`))).toContain(
      'CNAME не может стоять у самого домена (@)',
    );
  });
});

describe('a TXT changed by buttons', () => {
  it('takes a pasted value in quotes without its quotes', async () => {
    const site = await movingSite('txtquotes');
    const list = await h.send(`/dns ${site.domain}`);
    const card = await h.press(buttonData(list, 'TXT @'));
    await h.press(buttonData(card, '✏️ Изменить'));
    const summary = await h.send('"v=spf1 include:_spf.yandex.net ~all"');
    expect(all(summary)).toContain('станет: TXT @ → "v=spf1 include:_spf.yandex.net ~all"');
    await h.press(buttonData(summary, '✅ Применить'));
    expect(await listedValues(site.orderId)).toContain('TXT @ v=spf1 include:_spf.yandex.net ~all');
  });
});

describe('record buttons on a phone', () => {
  it('each record’s button has its row, its value whole or cut by the bot at 32 characters', async () => {
    const site = await movingSite('rows');
    await h.api().addDnsRecord(site.orderId, {
      kind: 'txt',
      host: '_dmarc',
      text: 'v=DMARC1; p=none; rua=mailto:dmarc@example.by',
      ttl: 3600,
    });
    const list = await h.send(`/dns ${site.domain}`);
    const rows = list.flatMap(
      (c) =>
        (c.payload.reply_markup as { inline_keyboard?: { text: string }[][] } | undefined)?.inline_keyboard ??
        [],
    );
    const recordRows = rows.filter((row) => row.some((b) => b.text.includes(' → ')));
    expect(recordRows.map((row) => row.length)).toEqual([1, 1, 1, 1, 1]);
    expect(recordRows.map((row) => row[0]?.text)).toContain('A www → 93.125.99.10');
    expect(recordRows.map((row) => row[0]?.text)).toContain('TXT _dmarc → "v=DMARC1; p=none;…');
  });
});

describe('the list keeps one order', () => {
  it('a record changed in the chat keeps its place: by type, then host, not at the end', async () => {
    const site = await movingSite('order');
    const recordButtons = async () =>
      buttons(await h.send(`/dns ${site.domain}`))
        .map((b) => b.text)
        .filter((text) => text.includes(' → '));
    expect(await recordButtons()).toEqual([
      'A @ → 93.125.99.10',
      'A www → 93.125.99.10',
      'CNAME shop → shops.example.net',
      'TXT @ → "v=spf1 -all"',
    ]);
    await h.send(`/dns ${site.domain} set A www 192.0.2.55`);
    expect(await recordButtons()).toEqual([
      'A @ → 93.125.99.10',
      'A www → 192.0.2.55',
      'CNAME shop → shops.example.net',
      'TXT @ → "v=spf1 -all"',
    ]);
  });
});
