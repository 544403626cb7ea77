import { describe, expect, it } from 'vitest';
import {
  type BotCall,
  buttonData,
  buttons,
  lastSections,
  lastText,
  texts,
} from '../../helpers/bot-harness.js';
import { dnsStories, toast } from '../../helpers/dns-stories.js';
import { orderTestDomain } from '../../helpers/fixtures.js';
import { inGroup, useBot } from '../../helpers/use-bot.js';

/*
 * Bulk DNS changes (issue 15, item 3): `/dns bulk` → domains by buttons or a pasted list → one
 * change (a one-line add, a delete by match, a preset) → a per-domain preview under the delete
 * limit → Apply with ONE progress message → ONE report (done / skipped / failed with the reason).
 */

const { h, en } = useBot({ connect: ['partner', 'en'], reset: ['faults', 'scene'] });

const all = (calls: BotCall[]) => texts(calls).join('\n');
/** The domains of a rich preview, each a details block titled with what it gets or why it is skipped. */
const domainsOf = (calls: BotCall[]) => lastSections(calls).map((section) => section.title);
const { listedValues, writesSince } = dnsStories(h);
const sent = (calls: BotCall[]) =>
  calls.filter((c) => c.method === 'sendMessage' || c.method === 'sendRichMessage');

/** Orders `count` fresh domains named `<tag>-<n>-<time>.com`; their names and order ids. */
async function domains(tag: string, count: number) {
  const stamp = Date.now();
  const made: { domain: string; orderId: number }[] = [];
  for (let n = 1; n <= count; n++) {
    const domain = `${tag}-${n}-${stamp}.com`;
    made.push({ domain, orderId: await orderTestDomain(h.api(), domain) });
  }
  return made;
}

describe('/dns bulk', () => {
  it('adds a record to 5 domains picked by buttons: one progress message, one report with the provider’s reason for the one that failed', async () => {
    const five = await domains('bulk-add', 5);
    const [first, second, third] = five;
    if (!first || !second || !third) throw new Error('no domains');
    await h.api().addDnsRecord(second.orderId, { kind: 'a', ttl: 3600, host: '@', ipv4: '192.0.2.5' });

    let picker = await h.send('/dns bulk');
    expect(lastText(picker)).toContain('Массовое изменение DNS');
    expect(lastText(picker)).toContain('Выбрано: 0 из');
    expect(buttons(picker).map((b) => b.text)).toEqual(
      expect.arrayContaining(['Выбрать все', 'Снять все', 'Готово (0)']),
    );
    // Done with nothing picked is refused with a toast, never silently.
    expect(toast(await h.press(buttonData(picker, 'Готово')))).toBe('Сначала выберите хотя бы один домен.');
    for (const { domain } of five) picker = await h.press(buttonData(picker, domain));
    expect(lastText(picker)).toContain('Выбрано: 5 из');
    expect(
      buttons(picker)
        .filter((b) => b.text.startsWith('✅ '))
        .map((b) => b.text),
    ).toEqual(five.map((d) => `✅ ${d.domain}`).reverse());
    // A second tap unpicks, a third picks again.
    picker = await h.press(buttonData(picker, `✅ ${first.domain}`));
    expect(lastText(picker)).toContain('Выбрано: 4 из');
    picker = await h.press(buttonData(picker, first.domain));

    const ask = await h.press(buttonData(picker, 'Готово (5)'));
    expect(lastText(ask)).toContain('Что сделать с выбранными доменами?');
    expect(lastText(ask)).toContain(first.domain);
    expect(buttons(ask).map((b) => b.text)).toContain('🧩 SPF + DMARC');

    const before = h.sandbox.requests.length;
    expect(lastText(await h.send('put TXT @ x'))).toContain('Строка начинается с add');
    expect(lastText(await h.send('add A @ 300.1.1.1'))).toContain('Поле «IPv4-адрес»');
    const preview = await h.send('add TXT @ "v=spf1 -all"');
    expect(writesSince(before)).toEqual([]);
    const text = lastText(preview);
    expect(text).toContain('Массовое изменение: добавить TXT @');
    for (const { domain } of five) expect(domainsOf(preview)).toContain(`${domain}: +1`);
    expect(text).toContain('Итого: изменю доменов — 5, пропущу — 0.');

    h.sandbox.addFault({
      method: 'POST',
      path: `/v1/domains/${third.orderId}/dns/records/txt`,
      fault: { kind: 'status', status: 400, body: '{"message":"Зона домена заблокирована"}' },
    });
    const from = h.sandbox.requests.length;
    const applied = await h.press(buttonData(preview, 'Применить'));
    expect(toast(applied)).toBe('Применяю к доменам…');
    // ONE progress message for the whole bulk, edited per domain; then ONE report.
    const progress = sent(applied).filter((c) => /Применяю:/.test(String(c.payload.text)));
    expect(progress.map((c) => c.payload.text)).toEqual(['Применяю: 0 из 5 доменов…']);
    expect(applied.filter((c) => c.method === 'editMessageText').map((c) => c.payload.text)).toEqual(
      [1, 2, 3, 4, 5].map((n) => `Применяю: ${n} из 5 доменов…`),
    );
    expect(sent(applied)).toHaveLength(2);
    const report = lastText(applied);
    expect(report).toContain('Готово: 4, пропущено: 0, ошибки: 1.');
    expect(report).toContain(`❌ ${third.domain}: 0 из 1`);
    expect(report).toContain('Зона домена заблокирована');
    expect(report).toContain(`${first.domain} | ✅ 1 из 1`);
    // The report leads on to the domains' records, the failed one first.
    const reportButtons = buttons(sent(applied).slice(-1));
    expect(reportButtons[0]?.text).toBe(`📋 ${third.domain}`);
    expect(reportButtons.map((b) => b.text)).toContain(`📋 ${first.domain}`);
    expect(lastText(await h.press(reportButtons[0]?.callback_data ?? ''))).toContain(
      `У ${third.domain} нет DNS-записей`,
    );
    expect(writesSince(from)).toHaveLength(5);
    for (const { orderId } of five.filter((d) => d !== third))
      expect(await listedValues(orderId)).toContain('TXT @ v=spf1 -all');
    expect(await listedValues(third.orderId)).toEqual([]);
    // The other records are untouched.
    expect(await listedValues(second.orderId)).toContain('A @ 192.0.2.5');
    // Single use.
    expect(toast(await h.press(buttonData(preview, 'Применить')))).toContain('устарело');
    expect(writesSince(from)).toHaveLength(5);

    // Each domain's change is in its own history, undoable.
    const history = await h.send(`/dns ${first.domain} history`);
    expect(lastText(history)).toContain('Анна · массовое изменение');
    const undo = await h.press(buttonData(history, '↩ Отменить'));
    await h.press(buttonData(undo, '↩ Да, отменить'));
    expect(await listedValues(first.orderId)).toEqual([]);
  });

  it('deletes by match over a pasted list: unknown names said briefly, a domain without a match skipped, other records kept', async () => {
    const three = await domains('bulk-del', 3);
    const [a, b, c] = three;
    if (!a || !b || !c) throw new Error('no domains');
    const api = h.api();
    await api.addDnsRecord(a.orderId, {
      kind: 'txt',
      ttl: 3600,
      host: '@',
      text: 'v=spf1 include:_spf.old.by ~all',
    });
    await api.addDnsRecord(a.orderId, {
      kind: 'txt',
      ttl: 3600,
      host: '@',
      text: 'google-site-verification=x',
    });
    await api.addDnsRecord(b.orderId, { kind: 'txt', ttl: 3600, host: '@', text: 'V=SPF1 mx -all' });
    await api.addDnsRecord(b.orderId, { kind: 'txt', ttl: 3600, host: 'www', text: 'v=spf1 -all' });
    await api.addDnsRecord(c.orderId, { kind: 'a', ttl: 3600, host: '@', ipv4: '192.0.2.1' });

    await h.send('/dns bulk');
    const long = `not-mine-${'x'.repeat(80)}.com`;
    const ask = await h.send(`${a.domain}, ${b.domain}\n${c.domain} ${long} nonsense`);
    const unknown = all(ask);
    expect(unknown).toContain('Не нашёл среди ваших доменов (2):');
    expect(unknown).toContain('nonsense');
    // Never echoed at length.
    expect(unknown).not.toContain(long);
    // The picker's buttons go: the question is answered by the list.
    expect(ask.some((x) => x.method === 'editMessageReplyMarkup')).toBe(true);
    expect(lastText(ask)).toContain('Выбрано: 3');

    expect(lastText(await h.send('del TXT @'))).toContain('Не хватает значения');
    // The provider refuses to list one domain: that domain is skipped with its reason, not the bulk.
    h.sandbox.addFault({
      method: 'GET',
      path: `/v1/domains/${c.orderId}/dns/records`,
      fault: { kind: 'status', status: 400, body: '{"message":"Домен на модерации"}' },
    });
    const refused = await h.send('del TXT @ v=spf1*');
    expect(domainsOf(refused).join('\n')).toContain(`${c.domain}: пропущу — не удалось получить записи:`);
    expect(lastText(refused)).toContain('Домен на модерации');
    expect(domainsOf(refused)).toContain(`${a.domain}: −1`);
    await h.press(buttonData(refused, 'Нет'));
    await h.send('/dns bulk');
    await h.send(`${a.domain}, ${b.domain}\n${c.domain}`);
    const preview = await h.send('del TXT @ v=spf1*');
    const text = lastText(preview);
    expect(domainsOf(preview)).toEqual([
      `${a.domain}: −1`,
      `${b.domain}: −1`,
      `${c.domain}: пропущу — нет подходящих записей`,
    ]);
    expect(text).toContain('v=spf1 include:_spf.old.by ~all');
    const applied = await h.press(buttonData(preview, 'Применить'));
    const report = lastText(applied);
    expect(report).toContain('Готово: 2, пропущено: 1, ошибки: 0.');
    expect(report).toContain(`${c.domain} | ⏭ нет подходящих записей`);
    expect(await listedValues(a.orderId)).toEqual(['TXT @ google-site-verification=x']);
    expect(await listedValues(b.orderId)).toEqual(['TXT www v=spf1 -all']);
    expect(await listedValues(c.orderId)).toEqual(['A @ 192.0.2.1']);
  });

  it('applies a preset to several domains with the presets’ own questions; a domain that has it all is skipped', async () => {
    const [a, b] = await domains('bulk-preset', 2);
    if (!a || !b) throw new Error('no domains');
    await h.api().addDnsRecord(b.orderId, { kind: 'txt', ttl: 3600, host: '@', text: 'v=spf1 mx ~all' });
    await h
      .api()
      .addDnsRecord(b.orderId, { kind: 'txt', ttl: 3600, host: '_dmarc', text: 'v=DMARC1; p=none' });
    await h.api().addDnsRecord(a.orderId, { kind: 'txt', ttl: 3600, host: '@', text: 'v=spf1 -all' });
    await h.send('/dns bulk');
    const ask = await h.send(`${a.domain} ${b.domain}`);
    const question = await h.press(buttonData(ask, 'SPF + DMARC'));
    expect(lastText(question)).toContain('SPF + DMARC</b> · шаг 1 из 1');
    expect(lastText(question)).toContain('Адрес для отчётов DMARC');
    const preview = await h.press(buttonData(question, 'Пропустить'));
    const text = lastText(preview);
    expect(text).toContain('Массовое изменение: набор «SPF + DMARC»');
    // The records the set adds, once, and per domain the record it replaces.
    expect(text).toContain(`Набор добавит на каждом домене (так — на ${a.domain}):`);
    expect(text).toContain('+ TXT @ → "v=spf1 mx ~all"');
    const [first, second] = lastSections(preview);
    // The SPF replacing the old one is one change (~1), as the report counts it: 2 of 2.
    expect(first?.title).toBe(`${a.domain}: +1 ~1`);
    expect(first?.lines).toContain('удалить | TXT | @ | "v=spf1 -all" | 3600');
    expect(second?.title).toBe(`${b.domain}: пропущу — уже есть`);
    const applied = await h.press(buttonData(preview, 'Применить'));
    expect(lastText(applied)).toContain('Готово: 1, пропущено: 1, ошибки: 0.');
    expect(lastText(applied)).toContain(`${a.domain} | ✅ 2 из 2`);
    expect(await listedValues(a.orderId)).toEqual(['TXT @ v=spf1 mx ~all', 'TXT _dmarc v=DMARC1; p=none']);
    // One history entry for the domain's whole preset: its undo brings the old SPF back.
    const history = await h.send(`/dns ${a.domain} history`);
    expect(lastText(history)).toContain('массовое изменение');
    await h.press(buttonData(await h.press(buttonData(history, '↩ Отменить')), '↩ Да, отменить'));
    expect(await listedValues(a.orderId)).toEqual(['TXT @ v=spf1 -all']);
  });

  it('skips a domain over the delete limit unless the separate force button; “No” changes nothing', async () => {
    const [big, small] = await domains('bulk-limit', 2);
    if (!big || !small) throw new Error('no domains');
    const api = h.api();
    for (const n of [1, 2, 3, 4])
      await api.addDnsRecord(big.orderId, { kind: 'a', ttl: 3600, host: '@', ipv4: `192.0.2.${n}` });
    for (const host of ['a', 'b', 'c', 'd', 'e', 'f'])
      await api.addDnsRecord(big.orderId, { kind: 'a', ttl: 3600, host, ipv4: '192.0.2.9' });
    await api.addDnsRecord(small.orderId, { kind: 'a', ttl: 3600, host: '@', ipv4: '192.0.2.1' });

    const plan = async () => {
      await h.send('/dns bulk');
      await h.send(`${big.domain} ${small.domain}`);
      return h.send('del A @ 192.0.2.*');
    };
    const preview = await plan();
    const text = lastText(preview);
    expect(domainsOf(preview).join('\n')).toContain(`${big.domain}: ⚠️ удалит 4 из 10 записей — больше 30%`);
    expect(domainsOf(preview)).toContain(`${small.domain}: −1`);
    expect(text).toContain('Доменов сверх лимита удаления: 1.');
    expect(buttons(preview).map((b) => b.text)).toEqual(['✅ Применить', 'Нет', '⚠️ Применить и удалить (1)']);

    const applied = await h.press(buttonData(preview, '✅ Применить'));
    expect(lastText(applied)).toContain('Готово: 1, пропущено: 1, ошибки: 0.');
    expect(lastText(applied)).toContain(`${big.domain} | ⏭ больше 30% записей на удаление`);
    expect((await listedValues(big.orderId)).filter((v) => v.startsWith('A @'))).toHaveLength(4);
    expect(await listedValues(small.orderId)).toEqual([]);

    const again = await plan();
    const from = h.sandbox.requests.length;
    const no = await h.press(buttonData(again, 'Нет'));
    expect(lastText(no)).toContain('Отменено: записи не менялись.');
    expect(toast(await h.press(buttonData(again, 'Применить и удалить')))).toContain('устарело');
    expect(writesSince(from)).toEqual([]);

    const forced = await h.press(buttonData(await plan(), 'Применить и удалить'));
    expect(lastText(forced)).toContain('Готово: 1, пропущено: 1, ошибки: 0.');
    expect(lastText(forced)).toContain(`${small.domain} | ⏭ нет подходящих записей`);
    expect(await listedValues(big.orderId)).toHaveLength(6);
  });

  it('picks all, turns pages keeping the choice, clears all; a stale picker button says so', async () => {
    await domains('bulk-pages', 11);
    const picker = await h.send('/dns bulk');
    const total = Number(/Выбрано: 0 из (\d+)/.exec(lastText(picker))?.[1]);
    expect(total).toBeGreaterThan(10);
    expect(lastText(picker)).toContain('стр. 1 из');
    // «Снять все» with nothing chosen is not silent.
    expect(toast(await h.press(buttonData(picker, 'Снять все')))).toBe('Ничего не выбрано — снимать нечего.');
    const picked = await h.press(buttonData(picker, 'Выбрать все'));
    expect(toast(picked)).toBe(`Выбраны все домены: ${total}`);
    expect(lastText(picked)).toContain(`Выбрано: ${total} из ${total}`);
    expect(buttons(picked).map((b) => b.text)).toContain(`Готово (${total})`);
    const second = await h.press(buttonData(picked, 'стр. 2 ▶'));
    expect(lastText(second)).toContain('стр. 2 из');
    const domainButtons = buttons(second).filter((b) => /^(?:1|a[0-9a-z]+):Bt:/.test(b.callback_data ?? ''));
    expect(domainButtons.length).toBeGreaterThan(0);
    expect(domainButtons.every((b) => b.text.startsWith('✅ '))).toBe(true);
    const cleared = await h.press(buttonData(second, 'Снять все'));
    expect(toast(cleared)).toBe('Выбор снят.');
    expect(lastText(cleared)).toContain(`Выбрано: 0 из ${total}`);
    expect(buttons(cleared).some((b) => b.text.startsWith('✅ '))).toBe(false);
    // A new /dns bulk makes the old picker's buttons stale.
    await h.send('/dns bulk');
    expect(toast(await h.press(buttonData(cleared, 'Выбрать все')))).toContain('устарело');
  });

  it('speaks English to an English chat', async () => {
    const [a] = await domains('bulk-en', 1);
    if (!a) throw new Error('no domain');
    expect(lastText(await h.send('/help', en))).toContain('/dns bulk');
    expect(lastText(await h.send('/help'))).toContain('/dns bulk');
    const picker = await h.send('/dns bulk', en);
    expect(lastText(picker)).toContain('Bulk DNS change');
    const ask = await h.press(buttonData(await h.press(buttonData(picker, a.domain), en), 'Done (1)'), en);
    expect(lastText(ask)).toContain('What to do with the selected domains?');
    const preview = await h.send('add A www 192.0.2.8', en);
    expect(domainsOf(preview)).toContain(`${a.domain}: +1`);
    const applied = await h.press(buttonData(preview, 'Apply'), en);
    expect(lastText(applied)).toContain('Done: 1, skipped: 0, failed: 0.');
    expect(all(applied)).toContain('Applying: 1 of 1 domains…');
  });
});

describe('a bulk change in a bound group', () => {
  const tech = { userId: 333, firstName: 'Борис' };
  const { h: team } = useBot({ team: [[tech, 'техник']] });

  it('is announced there with who made it', async () => {
    const domain = `bulk-team-${Date.now()}.com`;
    await orderTestDomain(team.api(), domain);
    const picker = await team.send('/dns bulk', inGroup(tech));
    const picked = await team.press(buttonData(picker, domain), inGroup(tech));
    await team.press(buttonData(picked, 'Готово (1)'), inGroup(tech));
    const preview = await team.send('add A www 192.0.2.8', { ...inGroup(tech), replyToBot: true });
    const applied = await team.press(buttonData(preview, 'Применить'), inGroup(tech));
    expect(texts(applied).filter((t) => t.startsWith('📣'))).toEqual([
      '📣 Борис (техник) применил(а) массовое изменение DNS — добавить <b>A</b> www → <code>192.0.2.8</code> · TTL 3600 с: готово 1, пропущено 0, ошибки 0.',
    ]);
  });
});
