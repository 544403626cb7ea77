import { describe, expect, it } from 'vitest';
import {
  type BotCall,
  buttonData,
  lastSections,
  lastText,
  richText,
  texts,
} from '../../helpers/bot-harness.js';
import { dnsStories, toast } from '../../helpers/dns-stories.js';
import { orderTestDomain } from '../../helpers/fixtures.js';
import { useBot } from '../../helpers/use-bot.js';

/*
 * The server move (`/dns bulk` → `replace <old> <new>`): a partner's sites moved from
 * 93.125.99.10 to 192.0.2.55, and every domain's records holding the old address follow — previewed
 * per domain before → after, applied gap-free (each domain's adds before its deletes), one progress
 * message, one report, one history entry of kind «изменение записи» per domain with its own undo.
 */

const { h, en } = useBot({ connect: ['partner', 'en'], reset: ['faults', 'scene'] });
const { writesSince } = dnsStories(h);

const sent = (calls: BotCall[]) =>
  calls.filter((c) => c.method === 'sendMessage' || c.method === 'sendRichMessage');
const OLD = '93.125.99.10';
const NEW = '192.0.2.55';

/** A fresh domain whose site is at OLD (apex at `apexTtl`, www at 3600), beside other records. */
async function movedSite(tag: string, apexTtl = 3600) {
  const domain = `${tag}-${Date.now()}.com`;
  const orderId = await orderTestDomain(h.api(), domain);
  const api = h.api();
  await api.addDnsRecord(orderId, { kind: 'a', host: '@', ipv4: OLD, ttl: apexTtl });
  await api.addDnsRecord(orderId, { kind: 'a', host: 'www', ipv4: OLD, ttl: 3600 });
  await api.addDnsRecord(orderId, { kind: 'a', host: 'mail', ipv4: '192.0.2.7', ttl: 3600 });
  await api.addDnsRecord(orderId, { kind: 'txt', host: '@', text: 'v=spf1 mx -all', ttl: 3600 });
  return { domain, orderId };
}

/** The domain's records as `TYPE value ttl`, sorted: the TTL is part of what a move must keep. */
async function recordsOf(orderId: number): Promise<string[]> {
  return (await h.api().listDnsRecords(orderId)).map((r) => `${r.type} ${r.value} ${r.ttl}`).sort();
}

/** The domain order's writes among `writes` (`POST /v1/domains/<id>/…`), as `POST` / `DELETE`. */
const methodsOf = (writes: string[], orderId: number) =>
  writes.filter((w) => w.includes(`/domains/${orderId}/`)).map((w) => w.split(' ')[0]);

describe('/dns bulk replace', () => {
  it('moves three domains from one address to another in 4 messages and taps: adds before deletes, TTLs kept, one history entry each with its undo', async () => {
    const sites = [await movedSite('move-a', 300), await movedSite('move-b'), await movedSite('move-c')];
    const [first] = sites;
    if (!first) throw new Error('no domains');
    // The partner's effort from /dns bulk to the report: every message sent and button tapped.
    let steps = 0;
    await h.send('/dns bulk');
    steps += 1;
    const ask = await h.send(sites.map((s) => s.domain).join('\n'));
    steps += 1;
    expect(lastText(ask)).toContain('Выбрано: 3');
    expect(lastText(ask)).toContain(`<code>replace ${OLD} ${NEW}</code> — заменить адрес во всех записях`);

    const before = h.sandbox.requests.length;
    const preview = await h.send(`replace ${OLD} ${NEW}`);
    steps += 1;
    expect(writesSince(before)).toEqual([]);
    const text = lastText(preview);
    expect(text).toContain(`Массовое изменение: заменить «${OLD}» на «${NEW}»`);
    // Per domain (a details block each): how many records, and each with its type, host and before → after.
    expect(lastSections(preview)).toEqual(
      sites.map(({ domain }) => ({
        title: `${domain}: заменю 2 записи`,
        lines: [`A @: ${OLD} → ${NEW}\nA www: ${OLD} → ${NEW}`],
        open: false,
      })),
    );
    expect(text).not.toContain('mail');
    expect(text).toContain('Итого: изменю доменов — 3, пропущу — 0.');

    const from = h.sandbox.requests.length;
    const applied = await h.press(buttonData(preview, '✅ Применить'));
    steps += 1;
    expect(steps).toBeLessThanOrEqual(6);
    expect(steps).toBe(4);
    expect(toast(applied)).toBe('Применяю к доменам…');
    // ONE progress message edited in place, then ONE report.
    expect(sent(applied).map((c) => richText(c) ?? String(c.payload.text))).toEqual([
      'Применяю: 0 из 3 доменов…',
      expect.stringContaining('Готово: 3, пропущено: 0, ошибки: 0.'),
    ]);
    expect(applied.filter((c) => c.method === 'editMessageText').map((c) => c.payload.text)).toEqual(
      [1, 2, 3].map((n) => `Применяю: ${n} из 3 доменов…`),
    );
    const report = lastText(applied);
    for (const { domain } of sites) expect(report).toContain(`${domain} | ✅ 2 из 2`);
    // Per domain, every new record is there before an old one goes: each name answers throughout.
    const writes = writesSince(from);
    for (const { orderId } of sites)
      expect(methodsOf(writes, orderId)).toEqual(['POST', 'POST', 'DELETE', 'DELETE']);
    expect(writes).toHaveLength(12);

    const [apexTtl, ...rest] = sites;
    if (!apexTtl) throw new Error('no domains');
    expect(await recordsOf(apexTtl.orderId)).toEqual([
      `A @ ${NEW} 300`,
      'A mail 192.0.2.7 3600',
      `A www ${NEW} 3600`,
      'TXT @ v=spf1 mx -all 3600',
    ]);
    for (const { orderId } of rest)
      expect(await recordsOf(orderId)).toEqual([
        `A @ ${NEW} 3600`,
        'A mail 192.0.2.7 3600',
        `A www ${NEW} 3600`,
        'TXT @ v=spf1 mx -all 3600',
      ]);

    // Each domain's history: one entry, a change of records, read «A www: old → new».
    for (const { domain } of sites) {
      const history = lastText(await h.send(`/dns ${domain} history`));
      expect(history).toContain('Анна · изменение записи');
      expect(history.match(/\n\d+\. /g)).toHaveLength(1);
      expect(history).toContain(`A www: ${OLD} → ${NEW}`);
    }
    // Its undo brings the old address back on that domain alone, the same gap-free way, TTL kept.
    const history = await h.send(`/dns ${first.domain} history`);
    const undo = await h.press(buttonData(history, '↩ Отменить'));
    const undoFrom = h.sandbox.requests.length;
    await h.press(buttonData(undo, '↩ Да, отменить'));
    expect(methodsOf(writesSince(undoFrom), first.orderId)).toEqual(['POST', 'POST', 'DELETE', 'DELETE']);
    expect(await recordsOf(first.orderId)).toEqual([
      `A @ ${OLD} 300`,
      'A mail 192.0.2.7 3600',
      `A www ${OLD} 3600`,
      'TXT @ v=spf1 mx -all 3600',
    ]);
    expect((await recordsOf(rest[0]?.orderId ?? 0)).filter((r) => r.includes(OLD))).toEqual([]);
  });

  it('skips a domain with nothing to replace and refuses an address replaced by a word, saying why', async () => {
    const moved = await movedSite('replace-skip');
    const elsewhere = `replace-none-${Date.now()}.com`;
    const elsewhereId = await orderTestDomain(h.api(), elsewhere);
    await h.api().addDnsRecord(elsewhereId, { kind: 'a', host: '@', ipv4: '192.0.2.7', ttl: 3600 });
    const pick = async () => {
      await h.send('/dns bulk');
      await h.send(`${moved.domain} ${elsewhere}`);
    };

    await pick();
    // A line missing a value names it and asks again.
    expect(lastText(await h.send(`replace ${OLD}`))).toContain('Не хватает нового значения');
    expect(lastText(await h.send('replace v=spf1 mx -all v=spf1 -all'))).toContain(
      'Текст с пробелами берите в кавычки',
    );
    const from = h.sandbox.requests.length;
    const refused = lastText(await h.send(`replace ${OLD} new-server`));
    expect(refused).toContain(
      `${moved.domain}: пропущу — «new-server» не подходит как значение этих записей (адрес заменяют адресом, имя — именем)`,
    );
    expect(refused).toContain(`${elsewhere}: пропущу — нечего заменять`);
    expect(refused).toContain('Менять нечего ни на одном домене.');
    expect(writesSince(from)).toEqual([]);

    await pick();
    const preview = await h.send(`replace ${OLD} ${NEW}`);
    expect(lastText(preview)).toContain(`${moved.domain}: заменю 2 записи`);
    expect(lastText(preview)).toContain(`${elsewhere}: пропущу — нечего заменять`);
    const report = lastText(await h.press(buttonData(preview, '✅ Применить')));
    expect(report).toContain('Готово: 1, пропущено: 1, ошибки: 0.');
    expect(report).toContain(`${elsewhere} | ⏭ нечего заменять`);
    expect(await recordsOf(elsewhereId)).toEqual(['A @ 192.0.2.7 3600']);
  });

  it('keeps the old record of a name whose new one the provider refused: that name never answers nothing', async () => {
    const site = await movedSite('replace-refused');
    await h.send('/dns bulk');
    await h.send(site.domain);
    const preview = await h.send(`replace ${OLD} ${NEW}`);
    // The first add (the apex's) is refused once; www's goes through.
    h.sandbox.addFault({
      method: 'POST',
      path: `/v1/domains/${site.orderId}/dns/records/a`,
      fault: { kind: 'status', status: 400, body: '{"message":"Зона домена заблокирована"}' },
    });
    const from = h.sandbox.requests.length;
    const report = lastText(await h.press(buttonData(preview, '✅ Применить')));
    expect(report).toContain(`❌ ${site.domain}: 1 из 2`);
    expect(report).toContain('Зона домена заблокирована');
    expect(report).toContain('не сделано: не прошла другая половина замены этой записи');
    // Only www's old record went.
    expect(methodsOf(writesSince(from), site.orderId)).toEqual(['POST', 'POST', 'DELETE']);
    expect(await recordsOf(site.orderId)).toEqual([
      `A @ ${OLD} 3600`,
      'A mail 192.0.2.7 3600',
      `A www ${NEW} 3600`,
      'TXT @ v=spf1 mx -all 3600',
    ]);
  });

  it('speaks English, and /help names replace', async () => {
    const site = await movedSite('replace-en');
    expect(lastText(await h.send('/help', en))).toContain('replace');
    expect(lastText(await h.send('/help'))).toContain('replace');
    await h.send('/dns bulk', en);
    const ask = await h.send(site.domain, en);
    expect(lastText(ask)).toContain(
      `<code>replace ${OLD} ${NEW}</code> — replace an address in every record`,
    );
    const preview = await h.send(`replace ${OLD} ${NEW}`, en);
    expect(lastText(preview)).toContain(`Bulk change: replace “${OLD}” with “${NEW}”`);
    expect(lastText(preview)).toContain(`${site.domain}: replaces 2 records`);
    const applied = await h.press(buttonData(preview, 'Apply'), en);
    expect(lastText(applied)).toContain('Done: 1, skipped: 0, failed: 0.');
    expect(texts(applied).join('\n')).toContain('Applying: 1 of 1 domains…');
  });
});
