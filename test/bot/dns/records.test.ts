import { describe, expect, it } from 'vitest';
import {
  type BotCall,
  buttonData,
  buttons,
  lastSections,
  lastTable,
  lastText,
  texts,
} from '../../helpers/bot-harness.js';
import { orderTestDomain } from '../../helpers/fixtures.js';
import { useBot } from '../../helpers/use-bot.js';

const { h, en } = useBot({ connect: ['partner', 'en'], reset: ['faults', 'scene'] });

const all = (calls: BotCall[]) => texts(calls).join('\n');
const writes = () =>
  h.sandbox.requests.filter((r) => r.method !== 'GET' && r.path.startsWith('/v1/domains/')).length;

const newDomain = (name: string) => orderTestDomain(h.api(), name);

describe('/dns lists records', () => {
  it('shows the records of a domain as a table, by name, IDN name or order id, in ru and en', async () => {
    const byName = await h.send('/dns mysite.by');
    const text = lastText(byName);
    expect(text).toContain('DNS-записи mysite.by');
    // One rich message: a table of every record (type, host, value, TTL), its buttons below.
    expect(byName.filter((c) => c.method === 'sendRichMessage')).toHaveLength(1);
    const table = lastTable(byName);
    expect(table[0]).toEqual(['Тип', 'Хост', 'Значение', 'TTL, с']);
    expect(table).toContainEqual(['A', 'www', '93.125.99.10', '3600']);
    const listed = await h.api().listDnsRecords(1006);
    expect(table).toHaveLength(listed.length + 1);
    for (const type of ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'SRV', 'NS'])
      expect(table.map((row) => row[0])).toContain(type);
    expect(buttons(byName).map((b) => b.text)).toEqual(
      expect.arrayContaining(['➕ Добавить', '⬇ Экспорт', '⬆ Импорт', 'NS-серверы']),
    );
    expect(lastText(await h.send('/dns 1006'))).toContain('DNS-записи mysite.by');
    expect(lastText(await h.send('/dns пример.бел'))).toContain('пример.бел');
    expect(lastText(await h.send('/dns mysite.by', en))).toContain('DNS records of mysite.by');
  });

  it('says clearly when the domain is not the partner’s or does not exist', async () => {
    expect(lastText(await h.send('/dns nosuchdomain.by'))).toContain('нет среди ваших заказов');
    expect(lastText(await h.send('/dns 9001'))).toContain('не найден среди ваших заказов');
    expect(lastText(await h.send('/dns', en))).toContain('Choose a domain');
  });
});

describe('one-line add', () => {
  const cases: [string, string, Record<string, unknown>][] = [
    ['A www2 192.0.2.10', 'a', { ttl: 3600, host: 'www2', ipv4: '192.0.2.10' }],
    ['aaaa www2 2001:db8::10 600', 'aaaa', { ttl: 600, host: 'www2', ipv6: '2001:db8::10' }],
    ['CNAME shop shops.example.net', 'cname', { ttl: 3600, host: 'shop', canonical: 'shops.example.net' }],
    ['NS sub ns1.other.by', 'ns', { ttl: 3600, host: 'sub', ns: 'ns1.other.by' }],
    ['MX @ mx2.example.by 20', 'mx', { ttl: 3600, host: '@', mail_server: 'mx2.example.by', priority: 20 }],
    [
      'TXT @ v=spf1 include:_spf.example.by ~all ttl=300',
      'txt',
      { ttl: 300, host: '@', text: 'v=spf1 include:_spf.example.by ~all' },
    ],
    [
      'SRV @ _sip _tcp sip.example.by 5060 10 5',
      'srv',
      {
        ttl: 3600,
        host: '@',
        service: '_sip',
        protocol: '_tcp',
        target: 'sip.example.by',
        port: 5060,
        priority: 10,
        weight: 5,
      },
    ],
  ];

  it.each(cases)('%s', async (line, kind, body) => {
    const orderId = await newDomain(`oneline-${kind}-${Date.now()}.com`);
    const calls = await h.send(`/dns ${orderId} add ${line}`);
    expect(all(calls)).toContain('Запись добавлена');
    const post = h.sandbox.requests.filter(
      (r) => r.method === 'POST' && r.path === `/v1/domains/${orderId}/dns/records/${kind}`,
    );
    expect(post).toHaveLength(1);
    expect(post[0]?.body).toEqual(body);
    expect(lastText(calls)).toContain(`<b>${kind.toUpperCase()}</b>`);
    // Its value can be copied, to paste at another host.
    expect(buttons(calls).find((b) => b.copy_text)).toMatchObject({
      text: `📋 Копировать значение ${kind.toUpperCase()}`,
      copy_text: { text: expect.stringContaining(line.split(' ')[2] ?? '') },
    });
  });

  it('keeps a long DKIM value intact', async () => {
    const orderId = await newDomain(`dkim-${Date.now()}.com`);
    const key = `v=DKIM1; k=rsa; p=${'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA'.repeat(9)}`;
    const calls = await h.send(`/dns ${orderId} add TXT mail._domainkey "${key}" 3600`);
    const post = h.sandbox.requests
      .filter((r) => r.method === 'POST' && r.path.endsWith('/dns/records/txt'))
      .at(-1);
    expect(post?.body).toEqual({ ttl: 3600, host: 'mail._domainkey', text: key });
    // Longer than Telegram copies (256 characters): no copy button, the record is shown whole.
    expect(buttons(calls).find((b) => b.copy_text)).toBeUndefined();
    expect(buttons(calls).map((b) => b.text)).toContain('➕ Добавить ещё');
  });

  it('names the wrong field and shows the form, calling nothing', async () => {
    const before = writes();
    const bad = all(await h.send('/dns mysite.by add A www 300.1.1.1'));
    // The field in words, the form as the partner types it.
    expect(bad).toContain('Поле «IPv4-адрес»');
    expect(bad).toContain('Форма: <code>A &lt;хост&gt; &lt;IPv4-адрес&gt; [TTL]</code>');
    const mx = all(await h.send('/dns mysite.by add MX @ mx.example.by high'));
    expect(mx).toContain('Поле «приоритет»');
    expect(mx).toContain('MX &lt;хост&gt; &lt;почтовый сервер&gt; &lt;приоритет&gt; [TTL]');
    expect(all(await h.send('/dns mysite.by add A www 300.1.1.1', en))).toContain(
      'A &lt;host&gt; &lt;IPv4 address&gt; [TTL]',
    );
    expect(all(await h.send('/dns mysite.by add LOC @ 1 2 3'))).toContain('Поле «тип»');
    expect(all(await h.send('/dns mysite.by add A www 192.0.2.1 ttl=-1', en))).toContain('Field “TTL”');
    expect(writes()).toBe(before);
  });

  it('a wrong action or record number gets one example for the domain typed, not every form', async () => {
    const action = lastText(await h.send('/dns mysite.by frobnicate'));
    expect(action).toBe(
      'Не понял «frobnicate» после домена. Можно: add, set, del, import, export, history, preset, check — например <code>/dns mysite.by add A www 192.0.2.1</code>',
    );
    const id = lastText(await h.send('/dns mysite.by del abc'));
    expect(id).toContain('<code>/dns mysite.by del A www 192.0.2.1</code>');
    expect(id).not.toContain('/dns bulk');
  });
});

describe('add by buttons, delete with confirmation', () => {
  it('walks type → host → fields → ttl → preview, then shows the refreshed list', async () => {
    const orderId = await newDomain(`buttons-${Date.now()}.com`);
    let calls = await h.send(`/dns ${orderId}`);
    calls = await h.press(buttonData(calls, 'Добавить'));
    expect(lastText(calls)).toContain('Какого типа');
    calls = await h.press(buttonData(calls, 'MX'));
    expect(lastText(calls)).toContain('Для какого хоста');
    const hostQuestion = calls.filter((c) => c.method === 'sendMessage').at(-1)?.messageId;
    calls = await h.send('@');
    expect(lastText(calls)).toContain('почтовый сервер');
    // The answered question loses its buttons: only the screen shown last is live.
    expect(
      calls.filter((c) => c.method === 'editMessageReplyMarkup').map((c) => c.payload.message_id),
    ).toContain(hostQuestion);
    calls = await h.send('mx server');
    expect(all(calls)).toContain('не доменное имя');
    calls = await h.send('mx.example.by');
    calls = await h.send('10');
    calls = await h.press(buttonData(calls, '3600'));
    expect(lastText(calls)).toContain('Добавить запись');
    // ✏️ Изменить offers the record's own parts, never an order's «Домен / CSR», and leads back.
    calls = await h.press(buttonData(calls, '✏️ Изменить'));
    expect(buttons(calls).map((b) => b.text)).toEqual([
      'Тип записи',
      'Хост, значение и TTL',
      expect.any(String),
    ]);
    calls = await h.press(buttonData(calls, 'Хост, значение и TTL'));
    expect(lastText(calls)).toContain('Для какого хоста');
    calls = await h.press(buttonData(calls, /Оставить/));
    calls = await h.press(buttonData(calls, /Оставить/));
    calls = await h.send('20');
    calls = await h.press(buttonData(calls, /Оставить/));
    expect(lastText(calls)).toContain('Добавить запись');
    const confirm = buttonData(calls, '✅ Добавить');
    calls = await h.press(confirm);
    expect(all(calls)).toContain('Запись добавлена');
    // A second tap on the same Confirm says it is done, and adds nothing.
    const again = await h.press(confirm);
    expect(again.find((c) => c.method === 'answerCallbackQuery')?.payload.text).toBe(
      'Уже сделано — второй раз не отправляю.',
    );
    const post = h.sandbox.requests.filter(
      (r) => r.method === 'POST' && r.path === `/v1/domains/${orderId}/dns/records/mx`,
    );
    expect(post.map((p) => p.body)).toEqual([
      { ttl: 3600, host: '@', mail_server: 'mx.example.by', priority: 20 },
    ]);
    expect(lastText(calls)).toContain('mx.example.by');
  });

  it('takes a null MX (`.` with priority 0), refusing `.` with another priority', async () => {
    const orderId = await newDomain(`nullmx-${Date.now()}.com`);
    let calls = await h.press(buttonData(await h.send(`/dns ${orderId}`), 'Добавить'));
    calls = await h.press(buttonData(calls, 'MX'));
    await h.send('noreply');
    await h.send('.');
    calls = await h.send('10');
    expect(all(calls)).toContain('«.» вместо почтового сервера — это «домен не принимает почту» (RFC 7505)');
    calls = await h.send('0');
    calls = await h.press(buttonData(calls, '300'));
    expect(lastText(calls)).toContain('MX noreply → 0 . (домен не принимает почту) · TTL 300 с');
    calls = await h.press(buttonData(calls, '✅ Добавить'));
    expect(all(calls)).toContain('Запись добавлена');
    const post = h.sandbox.requests.filter(
      (r) => r.method === 'POST' && r.path === `/v1/domains/${orderId}/dns/records/mx`,
    );
    expect(post.map((p) => p.body)).toEqual([{ ttl: 300, host: 'noreply', mail_server: '.', priority: 0 }]);
  });

  it('deletes a record only after confirming, with the kind taken from its type', async () => {
    const orderId = await newDomain(`delete-${Date.now()}.com`);
    await h.send(`/dns ${orderId} add TXT @ "hello world"`);
    const [record] = await h.api().listDnsRecords(orderId);
    if (!record) throw new Error('no record');
    const ask = await h.send(`/dns ${orderId} del ${record.record_id}`);
    expect(lastText(ask)).toContain('Удалить запись?');
    expect(lastText(ask)).toContain('hello world');
    expect(h.sandbox.requests.some((r) => r.method === 'DELETE' && r.path.includes(`/${orderId}/`))).toBe(
      false,
    );
    const done = await h.press(buttonData(ask, 'Да, удалить'));
    expect(all(done)).toContain('🗑 Запись удалена: <b>TXT</b> @ → <code>"hello world"</code> · TTL 3600 с');
    const deletes = h.sandbox.requests
      .filter((r) => r.method === 'DELETE' && r.path.includes(`/${orderId}/`))
      .map((r) => r.path);
    expect(deletes).toEqual([`/v1/domains/${orderId}/dns/records/txt/${record.record_id}`]);
    expect(await h.api().listDnsRecords(orderId)).toEqual([]);
  });
});

describe('name servers and certificate', () => {
  it('sets hosting, editor, custom and deletes, each after a confirmation', async () => {
    const orderId = await newDomain(`ns-${Date.now()}.com`);
    const shown = await h.send(`/ns ${orderId}`);
    expect(lastText(shown)).toContain('NS-серверы');
    let ask = await h.send(`/ns ${orderId} ns1.partner.by=192.0.2.1 ns2.partner.by`);
    expect(lastText(ask)).toContain('ns1.partner.by=192.0.2.1, ns2.partner.by');
    await h.press(buttonData(ask, 'Да, применить'));
    const put = h.sandbox.requests
      .filter((r) => r.method === 'PUT' && r.path.endsWith('/dns/servers/custom'))
      .at(-1);
    expect(put?.body).toEqual({
      servers: [{ ns: 'ns1.partner.by', ip: '192.0.2.1' }, { ns: 'ns2.partner.by' }],
    });
    expect(await h.api().listNameServers(orderId)).toHaveLength(2);

    ask = await h.press(buttonData(shown, 'NS хостинга'));
    await h.press(buttonData(ask, 'Да, применить'));
    expect(
      h.sandbox.requests.some(
        (r) => r.method === 'PUT' && r.path === `/v1/domains/${orderId}/dns/servers/hosting`,
      ),
    ).toBe(true);
    ask = await h.send(`/ns ${orderId} editor`);
    await h.press(buttonData(ask, 'Да, применить'));
    expect(h.sandbox.requests.some((r) => r.path === `/v1/domains/${orderId}/dns/servers/editor`)).toBe(true);
    ask = await h.send(`/ns ${orderId} delete`);
    expect(lastText(ask)).toContain('перестанет работать');
    const done = await h.press(buttonData(ask, 'Да, применить'));
    expect(all(done)).toContain('NS-серверы изменены');
    expect(await h.api().listNameServers(orderId)).toEqual([]);

    const custom = await h.press(buttonData(shown, 'Свои NS'));
    expect(lastText(custom)).toContain('Пришлите NS-серверы');
    expect(all(await h.send('not a server!'))).toContain('не имя сервера');
    const confirm = await h.send('ns1.a.by ns2.a.by');
    expect(lastText(confirm)).toContain('ns1.a.by, ns2.a.by');
  });

  it('/cert sends the ownership certificate link', async () => {
    const url = await h.api().getDomainCertificateUrl(1006);
    const calls = await h.send('/cert mysite.by');
    expect(lastText(calls)).toContain(url);
    expect(buttons(calls).find((b) => b.url)?.url).toBe(url);
  });
});

describe('zone files', () => {
  function exportedZone(calls: BotCall[]): { name: string; text: string } {
    const sent = calls.find((c) => c.method === 'sendDocument');
    const document = sent?.payload.document as { source: Buffer; filename: string } | undefined;
    if (!document) throw new Error('no document sent');
    return { name: document.filename, text: document.source.toString('utf8') };
  }

  it('text with no record in it is no zone: told so, nothing offered to replace, the import still waits', async () => {
    const orderId = await newDomain(`junk-${Date.now()}.com`);
    await h.send(`/dns ${orderId} add A www 192.0.2.1`);
    await h.press(buttonData(await h.send(`/dns ${orderId}`), 'Импорт'));
    const junk = await h.send('Привет! вот зона: смотри в личке');
    expect(lastText(junk)).toContain('Не нашёл в файле ни одной записи');
    expect(buttons(junk).map((b) => b.text)).not.toContain('♻️ Заменить всю зону');
    // The question is still open: a real line now previews.
    expect(lastText(await h.send('shop 3600 IN A 192.0.2.50'))).toContain('192.0.2.50');
    expect((await h.api().listDnsRecords(orderId)).map((r) => r.value)).toEqual(['www 192.0.2.1']);
  });

  it('exports a BIND file and imports an edited one: preview, apply with progress, report with a failure', async () => {
    const orderId = await newDomain(`zone-${Date.now()}.com`);
    await h.send(`/dns ${orderId} add A www 192.0.2.1`);
    await h.send(`/dns ${orderId} add A ftp 192.0.2.2`);
    await h.send(`/dns ${orderId} add MX @ mx.example.by 10`);
    await h.send(`/dns ${orderId} add TXT @ "v=spf1 -all"`);
    const list = await h.send(`/dns ${orderId}`);
    const zone = exportedZone(await h.press(buttonData(list, 'Экспорт')));
    expect(zone.name).toMatch(/^zone-\d+\.com\.zone$/);
    // The caption counts the records in words: «4 записи», not «4 записей».
    const caption = String(
      (await h.press(buttonData(list, 'Экспорт'))).find((c) => c.method === 'sendDocument')?.payload.caption,
    );
    expect(caption).toMatch(/: 4 записи в формате BIND/);
    expect(zone.text).toMatch(/\$ORIGIN zone-\d+\.com\./);

    // Drop ftp, add two records; the provider refuses one of the additions.
    const edited = `${zone.text
      .split('\n')
      .filter((l) => !l.includes('192.0.2.2'))
      .join(
        '\n',
      )}\nblog 3600 IN CNAME www\nshop 3600 IN A 192.0.2.50\n@ 3600 IN CAA 0 issue "letsencrypt.org"\n`;
    await h.press(buttonData(list, 'Импорт'));
    const merge = await h.sendFile(edited, 'zone.txt');
    // A merge by default: ftp is not in the file, and stays.
    expect(lastText(merge)).toContain('Удалить: 0');
    expect(lastText(merge)).toContain('CAA');
    const preview = await h.press(buttonData(merge, 'Заменить всю зону'));
    const text = lastText(preview);
    expect(text).toContain('Добавить: 2');
    expect(text).toContain('Удалить: 1');
    expect(text).toContain('Без изменений: 3');
    h.sandbox.addFault({
      method: 'POST',
      path: `/v1/domains/${orderId}/dns/records/cname`,
      fault: { kind: 'status', status: 400, body: '{"message":"Поле «canonical» имеет неверный формат"}' },
    });
    const applied = await h.press(buttonData(preview, 'Применить'));
    expect(applied.filter((c) => c.method === 'editMessageText').length).toBeGreaterThanOrEqual(3);
    const report = all(applied);
    expect(report).toContain('Готово: 2 из 3');
    expect(report).toContain('Поле «canonical» имеет неверный формат');
    const hosts = (await h.api().listDnsRecords(orderId)).map((r) => r.value.split(' ')[0]);
    expect(hosts).toContain('shop');
    expect(hosts).not.toContain('ftp');
    // The plan is single-use.
    const again = await h.press(buttonData(preview, 'Применить'));
    expect(String(again.find((c) => c.method === 'answerCallbackQuery')?.payload.text)).toContain('устарел');
  });

  it('asks a second time before deleting more than 30% of 10 or more records (octoDNS)', async () => {
    const orderId = await newDomain(`mass-${Date.now()}.com`);
    const api = h.api();
    const hosts = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];
    for (const host of hosts)
      await api.addDnsRecord(orderId, { kind: 'a', ttl: 3600, host, ipv4: '192.0.2.1' });
    const list = await h.send(`/dns ${orderId}`);
    await h.press(buttonData(list, 'Импорт'));
    // Keeps 6 of 10: deletes 4, more than 30%.
    const merge = await h.send(
      hosts
        .slice(0, 6)
        .map((host) => `${host} 3600 IN A 192.0.2.1`)
        .join('\n'),
    );
    expect(lastText(merge)).toContain('Удалить: 0');
    const preview = await h.press(buttonData(merge, 'Заменить всю зону'));
    expect(lastText(preview)).toContain('Удалить: 4');
    const before = writes();
    const second = await h.press(buttonData(preview, 'Применить'));
    expect(lastText(second)).toContain('больше 30%');
    expect(writes()).toBe(before);
    const done = await h.press(buttonData(second, 'Да, удалить 4'));
    expect(all(done)).toContain('Готово: 4 из 4');
    expect(await h.api().listDnsRecords(orderId)).toHaveLength(6);
  });

  it('applies a small zone’s deletions after the preview alone (under 10 records)', async () => {
    const orderId = await newDomain(`small-${Date.now()}.com`);
    for (const host of ['a', 'b', 'c']) await h.send(`/dns ${orderId} add A ${host} 192.0.2.1`);
    const list = await h.send(`/dns ${orderId}`);
    await h.press(buttonData(list, 'Импорт'));
    const merge = await h.send('a 3600 IN A 192.0.2.1');
    expect(lastText(merge)).toContain('Менять нечего');
    const preview = await h.press(buttonData(merge, 'Заменить всю зону'));
    expect(lastText(preview)).toContain('Удалить: 2');
    const done = await h.press(buttonData(preview, 'Применить'));
    expect(all(done)).toContain('Готово: 2 из 2');
    expect(await h.api().listDnsRecords(orderId)).toHaveLength(1);
  });
});

describe('zone import merges by default', () => {
  it('a pasted fragment changes only what it mentions: the provider gets no other call', async () => {
    const orderId = await newDomain(`merge-${Date.now()}.com`);
    const api = h.api();
    await api.addDnsRecord(orderId, { kind: 'a', ttl: 3600, host: '@', ipv4: '192.0.2.7' });
    await api.addDnsRecord(orderId, { kind: 'a', ttl: 3600, host: 'ftp', ipv4: '192.0.2.2' });
    await api.addDnsRecord(orderId, {
      kind: 'mx',
      ttl: 3600,
      host: '@',
      mail_server: 'mx.example.by',
      priority: 10,
    });
    await api.addDnsRecord(orderId, { kind: 'txt', ttl: 3600, host: '@', text: 'v=spf1 -all' });
    const before = await api.listDnsRecords(orderId);
    const list = await h.send(`/dns ${orderId}`);
    await h.press(buttonData(list, 'Импорт'));
    // The @ address changes, shop is new; ftp, MX and TXT are not in the fragment.
    const preview = await h.send('@ 3600 IN A 192.0.2.9\nshop 3600 IN A 192.0.2.50');
    const text = lastText(preview);
    expect(text).toContain('Добавить: 1');
    expect(text).toContain('Изменить: 1');
    expect(text).toContain('Удалить: 0');
    expect(text).toContain('Без изменений: 3');
    expect(text).toContain('Записи, которых нет в файле, останутся как есть');
    const sentBefore = h.sandbox.requests.length;
    const applied = await h.press(buttonData(preview, 'Применить'));
    expect(all(applied)).toContain('Готово: 2 из 2');
    const writesMade = h.sandbox.requests
      .slice(sentBefore)
      .filter((r) => r.method !== 'GET')
      .map((r) => `${r.method} ${r.path}`);
    const oldApex = before.find((r) => r.value === '@ 192.0.2.7')?.record_id;
    // The one gap-free order: the new @ address is there before the old one goes.
    expect(writesMade).toEqual([
      `POST /v1/domains/${orderId}/dns/records/a`,
      `POST /v1/domains/${orderId}/dns/records/a`,
      `DELETE /v1/domains/${orderId}/dns/records/a/${oldApex}`,
    ]);
    const after = (await api.listDnsRecords(orderId)).map((r) => `${r.type} ${r.value}`);
    expect(after).toEqual(
      expect.arrayContaining([
        'A ftp 192.0.2.2',
        'MX @ 10 mx.example.by',
        'TXT @ v=spf1 -all',
        'A @ 192.0.2.9',
        'A shop 192.0.2.50',
      ]),
    );
    expect(after).not.toContain('A @ 192.0.2.7');
    expect(after).toHaveLength(5);
  });
});

describe('zone import: skipped lines in the partner’s language', () => {
  it('names why a CAA, an SOA and a bad A line are skipped, in Russian words, never codes', async () => {
    const orderId = await newDomain(`skip-${Date.now()}.com`);
    const list = await h.send(`/dns ${orderId}`);
    await h.press(buttonData(list, 'Импорт'));
    const preview = await h.sendFile(
      [
        '@ 3600 IN SOA ns1.example.by. admin.example.by. 1 7200 3600 1209600 300',
        '@ 3600 IN CAA 0 issue "letsencrypt.org"',
        'bad 3600 IN A 256.1.1.1',
        'www 3600 IN A 192.0.2.1',
      ].join('\n'),
      'zone.txt',
    );
    expect(lastText(preview)).toContain('Добавить: 1');
    const [skipped] = lastSections(preview);
    expect(skipped?.title).toBe('Пропущено строк: 3');
    const reasons = (skipped?.lines ?? []).slice(1).map((line) => line.split(' | ').at(-1));
    expect(reasons).toEqual([
      'запись SOA ведёт провайдер, её не импортируем',
      'записи типа CAA бот не добавляет (можно A, AAAA, CNAME, NS, MX, TXT, SRV)',
      'поле «IPv4-адрес»: Это не IPv4-адрес: нужны четыре числа 0–255 через точку, например 192.0.2.1.',
    ]);
    // No English word and no internal code ('field ipv4: ipv4', 'is not supported', 'managed').
    for (const reason of reasons) expect(reason).not.toMatch(/[a-z]{2,}/);
  });
});

describe('provider calls per job (the domain is resolved once per update)', () => {
  const callsOf = async (send: () => Promise<unknown>) => {
    const before = h.sandbox.requests.length;
    await send();
    return h.sandbox.requests
      .slice(before)
      .map((r) => `${r.method} ${r.path.replace(/\/\d+(?=\/|$)/g, '/N')}`);
  };

  it('/dns <domain>: the records list only, once the partner’s domains are known (was 3 calls)', async () => {
    await h.send('/dns mysite.by');
    expect(await callsOf(() => h.send('/dns mysite.by'))).toEqual(['GET /v1/domains/N/dns/records']);
  });

  it('/dns <domain> add …: add, list — 2 calls once the partner’s domains are known (was 4)', async () => {
    const domain = `calls-${Date.now()}.com`;
    await newDomain(domain);
    await h.send(`/dns ${domain}`);
    const calls = await callsOf(() => h.send(`/dns ${domain} add A www 192.0.2.1`));
    expect(calls).toEqual(['POST /v1/domains/N/dns/records/a', 'GET /v1/domains/N/dns/records']);
  });
});

describe('/ns shows the name servers', () => {
  it('with a button that copies them, one per line, to paste at another host', async () => {
    const calls = await h.send('/ns mysite.by');
    // mysite.by is the seed's domain order 1006.
    const servers = (await h.api().listNameServers(1006)).map((server) => server.ns);
    expect(servers.length).toBeGreaterThan(0);
    for (const name of servers) expect(lastText(calls)).toContain(name);
    expect(buttons(calls).find((b) => b.copy_text)).toEqual({
      text: '📋 Копировать NS-серверы',
      copy_text: { text: servers.join('\n') },
    });
  });
});

describe('custom name server addresses', () => {
  it('refuses an address that is not IPv4 or IPv6, and accepts both kinds', async () => {
    expect(lastText(await h.send('/ns mysite.by ns1.a.by=300.1.1.1'))).toContain('не IP-адрес');
    expect(lastText(await h.send('/ns mysite.by ns1.a.by=1.2.3'))).toContain('не IP-адрес');
    expect(lastText(await h.send('/ns mysite.by ns1.a.by=192.0.2.1 ns2.a.by=2001:db8::2'))).toContain(
      'ns1.a.by=192.0.2.1, ns2.a.by=2001:db8::2',
    );
  });
});
