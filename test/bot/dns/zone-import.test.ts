/**
 * A zone exported at another DNS host, imported as BIND reads it: the file's name servers are not
 * carried over (they are set with /ns, one button away), the rest is counted and applied, and the
 * domain's own apex NS records survive even "replace the whole zone".
 */
import { readFile } from 'node:fs/promises';
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
import { dnsStories } from '../../helpers/dns-stories.js';
import { orderTestDomain } from '../../helpers/fixtures.js';
import { useBot } from '../../helpers/use-bot.js';

const { h, en } = useBot({ connect: ['partner', 'en'], reset: ['faults', 'scene'] });
const { listedValues, writesSince } = dnsStories(h);

/** A zone file of test/fixtures/zones (see its README). */
const fixture = (name: string) => readFile(new URL(`../../fixtures/zones/${name}`, import.meta.url), 'utf8');
const all = (calls: BotCall[]) => texts(calls).join('\n');
const NOT_CARRIED = 'NS-серверы из файла не переношу: они задаются через /ns';
/** mysite.by is the seed's domain order 1006, with 10 records (an NS at `shop` among them). */
const MYSITE = 1006;

describe('importing a Cloudflare export (cloudflare-mysite.zone)', () => {
  it('previews the file’s NS servers as not carried over, with the /ns button; applying adds no NS', async () => {
    const list = await h.send('/dns mysite.by');
    await h.press(buttonData(list, 'Импорт'));
    const preview = await h.sendFile(await fixture('cloudflare-mysite.zone'), 'mysite.by.txt');
    const text = lastText(preview);
    // 32 records BIND reads: the SOA, 2 apex NS, 3 CAA and an HTTPS are skipped, 25 are records;
    // a merge replaces the seed's apex A, AAAA, MX, TXT and _dmarc sets (6) and keeps 4: the seed's
    // SRV stands at _sip._tcp, a name the file's SRV records (other services) do not mention.
    expect(text).toContain('Добавить: 19');
    expect(text).toContain('Изменить: 6');
    expect(text).toContain('Удалить: 0');
    expect(text).toContain('Без изменений: 4');
    // The skipped lines are a section: line, its text, why.
    const [skipped] = lastSections(preview);
    expect(skipped?.title).toBe('Пропущено строк: 7');
    expect(skipped?.lines.filter((line) => line.endsWith(`| ${NOT_CARRIED}`))).toEqual([
      `13 | mysite.by.\t86400\tIN\tNS\tdana.ns.cloudflare.com. | ${NOT_CARRIED}`,
      `14 | mysite.by.\t86400\tIN\tNS\tyuri.ns.cloudflare.com. | ${NOT_CARRIED}`,
    ]);
    // The null MX reads as what it says; no NS is added.
    const table = lastTable(preview);
    expect(table[0]).toEqual(['Действие', 'Тип', 'Хост', 'Значение', 'TTL, с']);
    expect(table).toContainEqual(['добавить', 'MX', 'noreply', '0 . (домен не принимает почту)', '1']);
    expect(table.filter(([action, type]) => action === 'добавить' && type === 'NS')).toEqual([]);
    expect(buttons(preview).map((b) => b.text)).toEqual([
      '✅ Применить',
      'Нет',
      '♻️ Заменить всю зону',
      'NS-серверы',
    ]);

    // The button opens /ns for this domain.
    const nameServers = lastText(await h.press(buttonData(preview, 'NS-серверы')));
    expect(nameServers).toContain('NS-серверы mysite.by');
    for (const server of await h.api().listNameServers(MYSITE)) expect(nameServers).toContain(server.ns);

    const before = h.sandbox.requests.length;
    // 6 deletions of 10 records pass the delete limit: asked a second time.
    const second = await h.press(buttonData(preview, 'Применить'));
    const applied = await h.press(buttonData(second, 'Да, удалить 6'));
    expect(all(applied)).toContain('Готово: 25 из 25');
    const writes = writesSince(before);
    expect(writes).toHaveLength(31);
    expect(writes.filter((write) => write.includes('/dns/records/ns'))).toEqual([]);
    const after = await listedValues(MYSITE);
    expect(after.filter((value) => value.startsWith('NS '))).toEqual(['NS shop ns1.other-dns.by']);
    expect(after).toContain('MX noreply 0 .');
    // 10 − 6 + 25, the seed's _sip._tcp SRV among them.
    expect(after).toHaveLength(29);
    expect(after.filter((value) => value.startsWith('SRV ') && value.includes('_sip _tcp'))).toHaveLength(1);
  });

  it('replacing the whole zone keeps the domain’s own apex NS records', async () => {
    const domain = `cf-replace-${Date.now()}.com`;
    const orderId = await orderTestDomain(h.api(), domain);
    const api = h.api();
    await api.addDnsRecord(orderId, { kind: 'ns', ttl: 86_400, host: '@', ns: 'ns1.old-host.by' });
    await api.addDnsRecord(orderId, { kind: 'a', ttl: 3600, host: 'old', ipv4: '192.0.2.9' });
    const zone = (await fixture('cloudflare-mysite.zone')).replaceAll('mysite.by', domain);
    const list = await h.send(`/dns ${orderId}`);
    await h.press(buttonData(list, 'Импорт'));
    const merge = await h.sendFile(zone, `${domain}.txt`);
    expect(lastText(merge)).toContain('Удалить: 0');
    const replace = await h.press(buttonData(merge, 'Заменить всю зону'));
    // The A at `old` goes; the apex NS is the domain's, left as it is.
    expect(lastText(replace)).toContain('Удалить: 1');
    expect(lastText(replace)).toContain('Без изменений: 1');
    const before = h.sandbox.requests.length;
    const applied = await h.press(buttonData(replace, 'Применить'));
    expect(all(applied)).toContain('Готово: 26 из 26');
    expect(writesSince(before).filter((write) => write.startsWith('DELETE'))).toEqual([
      expect.stringMatching(new RegExp(`^DELETE /v1/domains/${orderId}/dns/records/a/\\d+$`)),
    ]);
    const after = await listedValues(orderId);
    expect(after.filter((value) => value.startsWith('NS '))).toEqual(['NS @ ns1.old-host.by']);
    expect(after).not.toContain('A old 192.0.2.9');
  });

  it('says the same in English, for pasted lines too', async () => {
    const orderId = await orderTestDomain(h.api(), `ns-en-${Date.now()}.com`);
    await h.press(buttonData(await h.send(`/dns ${orderId}`, en), 'Import'), en);
    const preview = await h.send('@ 3600 IN NS ns1.example.net.\nwww 3600 IN A 192.0.2.1', en);
    expect(lastSections(preview)).toEqual([
      {
        title: 'Lines skipped: 1',
        lines: [
          'Line | Text | Reason',
          "1 | @ 3600 IN NS ns1.example.net. | I don't carry over the file's NS servers: they are set with /ns",
        ],
        open: false,
      },
    ]);
    expect(lastTable(preview)).toEqual([
      ['Action', 'Type', 'Host', 'Value', 'TTL, s'],
      ['add', 'A', 'www', '192.0.2.1', '3600'],
    ]);
    expect(buttons(preview).map((b) => b.text)).toContain('Name servers');
  });
});

describe('an import counts the partner’s changes, as its report does', () => {
  it('a TTL change and a new record: «Добавить: 1 · Изменить: 1», then «Готово: 2 из 2»', async () => {
    const orderId = await orderTestDomain(h.api(), `counted-${Date.now()}.com`);
    await h.api().addDnsRecord(orderId, { kind: 'a', ttl: 3600, host: 'www', ipv4: '192.0.2.7' });
    const list = await h.send(`/dns ${orderId}`);
    await h.press(buttonData(list, 'Импорт'));
    // www keeps its address with another TTL (the provider takes an add and a delete); shop is new.
    const preview = await h.send('www 300 IN A 192.0.2.7\nshop 3600 IN A 192.0.2.50');
    const text = lastText(preview);
    expect(text).toContain('Добавить: 1\nИзменить: 1\nУдалить: 0');
    const applied = await h.press(buttonData(preview, 'Применить'));
    expect(all(applied)).toContain('Готово: 2 из 2');
  });
});
