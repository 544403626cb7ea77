import { describe, expect, it } from 'vitest';
import {
  type BotCall,
  buttonData,
  buttons,
  lastText,
  publicTexts,
  texts,
  textsFor,
} from '../../helpers/bot-harness.js';
import { orderTestDomain } from '../../helpers/fixtures.js';
import { useBot } from '../../helpers/use-bot.js';

/*
 * Issue 15, item 1: every DNS and name-server change the bot makes is recorded per domain order,
 * `/dns <domain> history` shows them, and "↩ Отменить" makes the reverse change after a preview —
 * refused when the records changed meanwhile so that the undo would touch something else.
 */

const { h } = useBot({ connect: ['partner'], reset: ['faults', 'scene'] });

const all = (calls: BotCall[]) => texts(calls).join('\n');
let seq = 0;
const newDomain = () => orderTestDomain(h.api(), `history-${Date.now()}-${++seq}.com`);
const writesTo = (orderId: number) =>
  h.sandbox.requests.filter((r) => r.method !== 'GET' && r.path.startsWith(`/v1/domains/${orderId}/`));
const listed = async (orderId: number) => h.api().listDnsRecords(orderId);

describe('undo of an added record', () => {
  it('add → ↩ Отменить → preview → confirm: the record is gone, the sandbox got the delete', async () => {
    const orderId = await newDomain();
    const added = await h.send(`/dns ${orderId} add A undo1 192.0.2.51`);
    expect(all(added)).toContain('Запись добавлена');
    const record = (await listed(orderId)).find((r) => r.value === 'undo1 192.0.2.51');
    expect(record).toBeDefined();

    const writesBefore = writesTo(orderId).length;
    const preview = await h.press(buttonData(added, '↩ Отменить'));
    const text = lastText(preview);
    expect(text).toContain('Отменить изменение домена');
    expect(text).toContain('добавление записи');
    expect(text).toContain('Будет сделано:');
    expect(text).toContain('− <b>A</b> undo1 → <code>192.0.2.51</code>');
    // The preview changes nothing.
    expect(writesTo(orderId)).toHaveLength(writesBefore);
    expect(buttons(preview).map((b) => b.text)).toEqual(['↩ Да, отменить', 'Нет']);
    // «Нет» on another preview of it keeps the change, and says so in those words.
    const second = await h.press(buttonData(added, '↩ Отменить'));
    const kept = await h.press(buttonData(second, 'Нет'));
    expect(lastText(kept)).toContain('Хорошо, не отменяю: изменение остаётся как есть.');
    expect(lastText(kept)).not.toContain('Отменено');

    const done = await h.press(buttonData(preview, 'Да, отменить'));
    expect(done.find((c) => c.method === 'answerCallbackQuery')?.payload.text).toBe('Отменяю изменение…');
    expect(all(done)).toContain('↩ Изменение отменено:');
    expect(all(done)).toContain('− <b>A</b> undo1');
    const writes = writesTo(orderId).slice(writesBefore);
    expect(writes.map((w) => `${w.method} ${w.path}`)).toEqual([
      `DELETE /v1/domains/${orderId}/dns/records/a/${record?.record_id}`,
    ]);
    expect((await listed(orderId)).some((r) => r.value.startsWith('undo1 '))).toBe(false);
    // After the change the partner sees the records (none are left), and the undo can be undone in turn.
    expect(lastText(done)).toContain('нет DNS-записей');
    expect(buttons(done).some((b) => b.text === '↩ Отменить')).toBe(true);
  });

  it('a second tap on the same Undo says it was undone already and changes nothing', async () => {
    const orderId = await newDomain();
    const added = await h.send(`/dns ${orderId} add TXT note "hello history"`);
    const undo = buttonData(added, '↩ Отменить');
    await h.press(buttonData(await h.press(undo), 'Да, отменить'));
    const before = writesTo(orderId).length;
    const again = await h.press(undo);
    expect(lastText(again)).toBe('Это изменение уже отменено. Я ничего не менял.');
    expect(writesTo(orderId)).toHaveLength(before);
  });
});

describe('in English', () => {
  it('speaks the chat’s language on the history screen and in the undo', async () => {
    const en = { userId: 778, chatId: 778, languageCode: 'en' };
    await h.connect(en);
    const orderId = await newDomain();
    const added = await h.send(`/dns ${orderId} add A english 192.0.2.52`, en);
    expect(buttons(added).map((b) => b.text)).toContain('↩ Undo');
    const screen = await h.send(`/dns ${orderId} history`, en);
    expect(lastText(screen)).toContain('🕘 Change history of history-');
    expect(lastText(screen)).toContain('Анна · record added');
    const preview = await h.press(buttonData(screen, '↩ Undo #1'), en);
    expect(lastText(preview)).toContain('This will be done:');
    const done = await h.press(buttonData(preview, 'Yes, undo'), en);
    expect(all(done)).toContain('↩ Change undone:');
  });
});

describe('undo of a deleted record', () => {
  it('delete → ↩ Отменить → the record is back with the same content', async () => {
    const orderId = await newDomain();
    await h
      .api()
      .addDnsRecord(orderId, { kind: 'mx', host: '@', ttl: 600, mail_server: 'mx9.example.by', priority: 7 });
    const original = (await listed(orderId)).find(
      (r) => r.type === 'MX' && r.value.includes('mx9.example.by'),
    );
    if (!original) throw new Error('no MX record to delete');

    const ask = await h.send(`/dns ${orderId} del ${original.record_id}`);
    const deleted = await h.press(buttonData(ask, 'Да, удалить'));
    expect(all(deleted)).toContain('🗑 Запись удалена: <b>MX</b> @ → <code>');
    expect(all(deleted)).not.toContain(`#${original.record_id}`);
    expect((await listed(orderId)).some((r) => r.record_id === original.record_id)).toBe(false);

    const preview = await h.press(buttonData(deleted, '↩ Отменить'));
    expect(lastText(preview)).toContain('+ <b>MX</b> @ → <code>7 mx9.example.by</code> · TTL 600 с');
    const writesBefore = writesTo(orderId).length;
    const done = await h.press(buttonData(preview, 'Да, отменить'));
    expect(all(done)).toContain('↩ Изменение отменено:');
    const writes = writesTo(orderId).slice(writesBefore);
    expect(writes.map((w) => `${w.method} ${w.path}`)).toEqual([
      `POST /v1/domains/${orderId}/dns/records/mx`,
    ]);
    expect(writes[0]?.body).toEqual({ host: '@', ttl: 600, mail_server: 'mx9.example.by', priority: 7 });
    const back = (await listed(orderId)).filter((r) => r.type === 'MX' && r.value.includes('mx9.example.by'));
    expect(back.map((r) => [r.ttl, r.value])).toEqual([[original.ttl, original.value]]);
  });
});

describe('undo refused after a conflicting change', () => {
  it('the added record was changed meanwhile: refused clearly, nothing deleted', async () => {
    const orderId = await newDomain();
    const added = await h.send(`/dns ${orderId} add A conflict 192.0.2.60`);
    const preview = await h.press(buttonData(added, '↩ Отменить'));
    // Someone changes the record elsewhere (the provider's panel): deleted, then added with another ttl.
    const record = (await listed(orderId)).find((r) => r.value === 'conflict 192.0.2.60');
    if (!record) throw new Error('no record');
    await h.api().deleteDnsRecord(orderId, 'a', record.record_id);
    await h.api().addDnsRecord(orderId, { kind: 'a', host: 'conflict', ttl: 300, ipv4: '192.0.2.60' });
    const before = writesTo(orderId).length;

    const refused = await h.press(buttonData(preview, 'Да, отменить'));
    expect(lastText(refused)).toBe(
      'Отменить нельзя: добавленной записи <b>A</b> conflict → <code>192.0.2.60</code> · TTL 3600 с больше нет в том виде — её удалили или изменили. Я ничего не менял.',
    );
    expect(writesTo(orderId)).toHaveLength(before);
    expect((await listed(orderId)).some((r) => r.value === 'conflict 192.0.2.60' && r.ttl === 300)).toBe(
      true,
    );
  });

  it('two records now match the added one: refused, since deleting "it" could delete the other', async () => {
    const orderId = await newDomain();
    const added = await h.send(`/dns ${orderId} add A twin 192.0.2.61`);
    await h.api().addDnsRecord(orderId, { kind: 'a', host: 'twin', ttl: 3600, ipv4: '192.0.2.61' });
    const before = writesTo(orderId).length;
    const refused = await h.press(buttonData(added, '↩ Отменить'));
    expect(lastText(refused)).toContain('Отменить нельзя: таких записей');
    expect(writesTo(orderId)).toHaveLength(before);
  });

  it('a deleted record that is back already is not added twice', async () => {
    const orderId = await newDomain();
    await h
      .api()
      .addDnsRecord(orderId, { kind: 'cname', host: 'blog', ttl: 3600, canonical: 'blogs.example.net' });
    const rec = (await listed(orderId)).find((r) => r.type === 'CNAME');
    if (!rec) throw new Error('no record');
    const deleted = await h.press(
      buttonData(await h.send(`/dns ${orderId} del ${rec.record_id}`), 'Да, удалить'),
    );
    await h
      .api()
      .addDnsRecord(orderId, { kind: 'cname', host: 'blog', ttl: 3600, canonical: 'blogs.example.net' });
    const refused = await h.press(buttonData(deleted, '↩ Отменить'));
    expect(lastText(refused)).toContain('Отменить нельзя: запись <b>CNAME</b> blog');
    expect(lastText(refused)).toContain('уже снова есть');
  });
});

describe('the history screen', () => {
  it('shows the latest changes with when, who and what, with ↩ Отменить where it applies cleanly', async () => {
    const orderId = await newDomain();
    expect(lastText(await h.send(`/dns ${orderId} history`))).toContain('история пуста');
    await h.send(`/dns ${orderId} add A one 192.0.2.71`);
    await h.send(`/dns ${orderId} add AAAA two 2001:db8::71`);
    const rec = (await listed(orderId)).find((r) => r.value === 'one 192.0.2.71');
    await h.press(buttonData(await h.send(`/dns ${orderId} del ${rec?.record_id}`), 'Да, удалить'));

    const screen = await h.send(`/dns ${orderId} history`);
    const text = lastText(screen);
    expect(text).toContain('🕘 История изменений history-');
    // Newest first: the delete, then the two adds; the author by first name, the time in Minsk.
    expect(text).toMatch(/\n1\. \d\d\.\d\d\.\d{4}, \d\d:\d\d · Анна · удаление записи\n− A one/);
    expect(text).toMatch(/\n2\. .* · Анна · добавление записи\n\+ AAAA two/);
    expect(text).toMatch(/\n3\. .* · Анна · добавление записи\n\+ A one/);
    // №3 added «A one», which №1 deleted since: its undo would not apply cleanly, so it is not
    // offered, and the entry says why; the way back has the ⬅ the other ways back have.
    expect(buttons(screen).map((b) => b.text)).toEqual(['↩ Отменить №1', '↩ Отменить №2', '⬅ Все записи']);
    expect(text).toMatch(
      /\n3\. .* · Анна · добавление записи\n\+ A one[^\n]*\n↩ Отменить уже нельзя: добавленную запись с тех пор удалили или изменили\./,
    );
    // The records list leads to it too.
    const list = await h.send(`/dns ${orderId}`);
    expect(lastText(await h.press(buttonData(list, '🕘 История')))).toContain('🕘 История изменений');
    // No message holds the author's name in the data files in clear text.
    expect(await h.dataFilesContaining('Анна')).toEqual([]);
  });

  it('after an undo, the undone change says so and offers no second undo', async () => {
    const orderId = await newDomain();
    await h.send(`/dns ${orderId} add A undone 192.0.2.72`);
    const first = await h.send(`/dns ${orderId} history`);
    expect(buttons(first).map((b) => b.text)).toEqual(['↩ Отменить №1', '⬅ Все записи']);
    const preview = await h.press(buttonData(first, '↩ Отменить №1'));
    await h.press(buttonData(preview, '↩ Да, отменить'));
    const screen = await h.send(`/dns ${orderId} history`);
    // №1 is the undo (its own undo would add the record back); №2, the add, is undone already.
    expect(buttons(screen).map((b) => b.text)).toEqual(['↩ Отменить №1', '⬅ Все записи']);
    expect(lastText(screen)).toMatch(/\n2\. .* · добавление записи\n\+ A undone[^\n]*\n↩ Уже отменено\./);
  });

  it('shows the last 20 entries in one rich message, each with its undo', async () => {
    const orderId = await newDomain();
    for (let i = 0; i < 22; i++) await h.send(`/dns ${orderId} add TXT page${i} "${'x'.repeat(200)}"`);
    const screen = await h.send(`/dns ${orderId} history`);
    expect(screen.filter((c) => c.method === 'sendRichMessage')).toHaveLength(1);
    expect(lastText(screen).match(/\n\d+\. /g)).toHaveLength(20);
    expect(buttons(screen).filter((b) => b.text.startsWith('↩ Отменить №'))).toHaveLength(20);
  });
});

describe('the history screen as HTML (RICH_MESSAGES=off)', () => {
  const html = useBot({ connect: ['partner'], richMessages: false });

  it('pages 20 entries within Telegram’s limit', async () => {
    const orderId = await orderTestDomain(html.h.api(), `history-html-${Date.now()}.com`);
    for (let i = 0; i < 22; i++) await html.h.send(`/dns ${orderId} add TXT page${i} "${'x'.repeat(200)}"`);
    const screen = await html.h.send(`/dns ${orderId} history`);
    expect(lastText(screen)).toContain('стр. 1 из 4');
    expect(lastText(screen).length).toBeLessThan(4096);
    const last = await html.h.press(buttonData(screen, 'стр. 2'));
    expect(lastText(last)).toContain('<b>6.</b>');
  });
});

describe('undo of a name-server change', () => {
  it('restores the earlier name servers after a preview', async () => {
    const orderId = await newDomain();
    const before = await h.api().listNameServers(orderId);
    const ask = await h.send(`/ns ${orderId} ns1.undo-test.by ns2.undo-test.by=192.0.2.9`);
    const done = await h.press(buttonData(ask, 'Да, применить'));
    expect(all(done)).toContain('NS-серверы изменены');

    const preview = await h.press(buttonData(done, '↩ Отменить'));
    expect(lastText(preview)).toContain('смена NS-серверов');
    expect(lastText(preview)).toContain(
      `NS-серверы снова станут: ${before.map((s) => (s.ip ? `${s.ns} (${s.ip})` : s.ns)).join(', ')}`,
    );
    const writesBefore = writesTo(orderId).length;
    const undone = await h.press(buttonData(preview, 'Да, отменить'));
    expect(all(undone)).toContain('↩ Изменение отменено:');
    const writes = writesTo(orderId).slice(writesBefore);
    expect(writes.map((w) => `${w.method} ${w.path}`)).toEqual([
      `PUT /v1/domains/${orderId}/dns/servers/custom`,
    ]);
    expect(await h.api().listNameServers(orderId)).toEqual(before);

    // Changed again, then changed elsewhere (the provider's panel): that change's undo is refused.
    const again = await h.press(buttonData(await h.send(`/ns ${orderId} ns3.undo-test.by`), 'Да, применить'));
    await h.api().setHostingNameServers(orderId);
    const hosting = await h.api().listNameServers(orderId);
    expect(lastText(await h.press(buttonData(again, '↩ Отменить')))).toBe(
      'Отменить нельзя: NS-серверы с тех пор уже сменили. Я ничего не менял.',
    );
    expect(await h.api().listNameServers(orderId)).toEqual(hosting);
  });
});

describe('zone import', () => {
  it('is recorded as one group, and undone as one', async () => {
    const orderId = await newDomain();
    const before = await listed(orderId);
    await h.send(`/dns ${orderId} import`);
    const preview = await h.send('imp1 3600 IN A 192.0.2.81\nimp2 3600 IN TXT "imported"');
    const applied = await h.press(buttonData(preview, 'Применить'));
    expect(all(applied)).toContain('Готово: 2 из 2');
    const undoPreview = await h.press(buttonData(applied, '↩ Отменить'));
    expect(lastText(undoPreview)).toContain('импорт зоны');
    await h.press(buttonData(undoPreview, 'Да, отменить'));
    expect((await listed(orderId)).map((r) => r.value).sort()).toEqual(before.map((r) => r.value).sort());
  });
});

describe('in a team group', () => {
  const GROUP = -100_777;
  const OWNER = { userId: 5_111, firstName: 'Анна' };
  const TECH = { userId: 5_333, firstName: 'Борис' };
  const VIEWER = { userId: 5_444, firstName: 'Вера' };
  const inGroup = (user: { userId: number; firstName: string }) => ({
    ...user,
    chatId: GROUP,
    chatType: 'group' as const,
  });

  it('shares the history with the private chat of the same token; undo is for tech roles and announced', async () => {
    await h.connect({ ...OWNER, chatId: OWNER.userId });
    expect(lastText(await h.send('/team', inGroup(OWNER)))).toContain('Группа подключена');
    await h.send('/team техник', { ...inGroup(OWNER), replyTo: TECH });
    const orderId = await newDomain();

    // Added in the owner's private chat, seen and undone in the group.
    await h.send(`/dns ${orderId} add A shared 192.0.2.91`, { ...OWNER, chatId: OWNER.userId });
    const screen = await h.send(`/dns ${orderId} history`, inGroup(TECH));
    expect(lastText(screen)).toContain('Анна · добавление записи');
    const undo = buttonData(screen, '↩ Отменить №1');

    // A viewer's tap is refused by the role guard (told to the viewer alone, an ephemeral answer
    // to the tap), and nothing is asked of the provider.
    const before = writesTo(orderId).length;
    const refused = await h.press(undo, inGroup(VIEWER));
    expect(textsFor(refused, VIEWER.userId)).toEqual([expect.stringContaining('Эта кнопка доступна ролям')]);
    expect(publicTexts(refused)).toEqual([]);

    const preview = await h.press(undo, inGroup(TECH));
    const done = await h.press(buttonData(preview, 'Да, отменить'), inGroup(TECH));
    expect(texts(done).filter((t) => t.startsWith('📣'))).toEqual([
      expect.stringMatching(
        /^📣 Борис \(техник\) отменил\(а\) изменение домена history-.*: добавление записи\.$/,
      ),
    ]);
    expect(
      writesTo(orderId)
        .slice(before)
        .map((w) => w.method),
    ).toEqual(['DELETE']);
    // The owner's private chat sees the undo in the same history, by its author.
    const mine = await h.send(`/dns ${orderId} history`, { ...OWNER, chatId: OWNER.userId });
    expect(lastText(mine)).toContain('Борис · отмена изменения');
  });
});
