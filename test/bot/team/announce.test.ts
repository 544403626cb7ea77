import { describe, expect, it } from 'vitest';
import {
  type BotCall,
  buttonData,
  lastText,
  publicTexts,
  receiverOf,
  texts,
  textsFor,
} from '../../helpers/bot-harness.js';
import { orderTestDomain } from '../../helpers/fixtures.js';
import { GROUP, inGroup, OWNER, useBot } from '../../helpers/use-bot.js';

/*
 * Team chats, slice 2: every change made in a bound group is announced there with who made it
 * (first name, escaped, and role in words); the same change in a private chat announces nothing.
 */

const TECH = { userId: 333, firstName: 'Борис <b>' };

const { h } = useBot({ per: 'story', team: [[TECH, 'техник']] });

const all = (calls: BotCall[]) => texts(calls).join('\n');
const announcements = (calls: BotCall[]) => texts(calls).filter((t) => t.startsWith('📣'));

describe('announcements in a bound group', () => {
  it('names the tech who added and deleted a record and set name servers; the owner alone in private hears nothing', async () => {
    const domain = `team-${Date.now()}.com`;
    const orderId = await orderTestDomain(h.api(), domain);

    const added = await h.send(`/dns ${domain} add A www 192.0.2.1`, inGroup(TECH));
    // The record's reply is the announcement: the group sees the change once.
    expect(all(added)).not.toContain('Запись добавлена');
    expect(all(added)).toContain('192.0.2.1');
    expect(announcements(added)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^📣 Борис &lt;b&gt; \\(техник\\) добавил\\(а\\) DNS-запись домена ${domain}: .*192\\.0\\.2\\.1`,
        ),
      ),
    ]);
    // Each announcement goes to the group, as HTML.
    const sent = added.find((c) => String(c.payload.text).startsWith('📣'));
    expect(sent?.payload).toMatchObject({ chat_id: GROUP, parse_mode: 'HTML' });

    const ask = await h.press(buttonData(added, '🗑'), inGroup(TECH));
    // A viewer cannot end the tech's question with its «Нет».
    const viewerNo = await h.press(buttonData(ask, 'Нет'), inGroup({ userId: 999, firstName: 'Глеб' }));
    // Told him alone (ephemeral, as the answer to his tap); the group sees nothing of it.
    expect(textsFor(viewerNo, 999)).toEqual([
      'Эта кнопка доступна ролям: техник, администратор, владелец. Ваша роль: зритель. Сменить роль может владелец — Анна.',
    ]);
    expect(publicTexts(viewerNo)).toEqual([]);
    expect(viewerNo.filter((c) => c.method === 'editMessageText')).toEqual([]);
    const deleted = await h.press(buttonData(ask, 'Да'), inGroup(TECH));
    expect(announcements(deleted)).toEqual([
      expect.stringMatching(/^📣 Борис &lt;b&gt; \(техник\) удалил\(а\) DNS-запись домена .*192\.0\.2\.1/),
    ]);

    const nsAsk = await h.send(`/ns ${orderId} ns1.partner.by ns2.partner.by`, inGroup(TECH));
    const nsDone = await h.press(buttonData(nsAsk, 'Да, применить'), inGroup(TECH));
    expect(announcements(nsDone)).toEqual([
      `📣 Борис &lt;b&gt; (техник) сменил(а) NS-серверы домена ${domain}: ns1.partner.by, ns2.partner.by.`,
    ]);
    const nsDelete = await h.send(`/ns ${orderId} delete`, inGroup(OWNER));
    expect(announcements(await h.press(buttonData(nsDelete, 'Да, применить'), inGroup(OWNER)))).toEqual([
      `📣 Анна (владелец) удалил(а) NS-серверы домена ${domain}.`,
    ]);

    // The same add in the owner's private chat: the record, no announcement anywhere.
    const privately = await h.send(`/dns ${domain} add A mail 192.0.2.2`, {
      ...OWNER,
      chatId: OWNER.userId,
    });
    expect(all(privately)).toContain('Запись добавлена');
    expect(announcements(privately)).toEqual([]);
  });

  it('announces a record change once, as «было → станет»; a viewer may not change it', async () => {
    const domain = `team-change-${Date.now()}.com`;
    const orderId = await orderTestDomain(h.api(), domain);
    await h.api().addDnsRecord(orderId, { kind: 'a', host: 'www', ipv4: '93.125.99.10', ttl: 3600 });

    const changed = await h.send(`/dns ${domain} set A www 192.0.2.55`, inGroup(TECH));
    expect(all(changed)).not.toContain('Запись изменена');
    expect(announcements(changed)).toEqual([
      `📣 Борис &lt;b&gt; (техник) изменил(а) DNS-запись домена ${domain}: <b>A</b> www: <code>93.125.99.10</code> → <code>192.0.2.55</code>`,
    ]);

    // The record's card in the group: its ✏️ needs the same role as add and delete.
    const list = await h.send(`/dns ${domain}`, inGroup(TECH));
    const card = await h.press(buttonData(list, 'A www → 192.0.2.55'), inGroup(TECH));
    const viewer = await h.press(buttonData(card, '✏️ Изменить'), inGroup({ userId: 999, firstName: 'Глеб' }));
    expect(textsFor(viewer, 999)).toEqual([
      'Эта кнопка доступна ролям: техник, администратор, владелец. Ваша роль: зритель. Сменить роль может владелец — Анна.',
    ]);
    expect(viewer.filter((c) => c.method === 'sendMessage').every((c) => receiverOf(c) === 999)).toBe(true);
    expect(publicTexts(viewer)).toEqual([]);
  });

  it('announces a zone import applied in the group, in English for an English group', async () => {
    const domain = `zone-${Date.now()}.com`;
    await orderTestDomain(h.api(), domain);
    await h.send('/lang en', inGroup(OWNER));
    const asked = await h.send(`/dns ${domain}`, inGroup(TECH));
    const importAsk = await h.press(buttonData(asked, 'Import'), inGroup(TECH));
    expect(all(importAsk)).toMatch(/zone file/i);
    const preview = await h.sendFile(`$ORIGIN ${domain}.\n$TTL 3600\nwww IN A 192.0.2.10\n`, 'zone.txt', {
      ...inGroup(TECH),
      replyToBot: true,
    });
    const applied = await h.press(buttonData(preview, /Apply|Merge/), inGroup(TECH));
    expect(announcements(applied)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^📣 Борис &lt;b&gt; \\(tech\\) applied a zone import to ${domain}: \\d+ of \\d+ done\\.$`,
        ),
      ),
    ]);
  });
});

describe('forum topics', () => {
  const FORUM = -100_777;
  const inForum = (user: { userId: number; firstName: string }, threadId?: number) => ({
    ...user,
    chatType: 'supergroup' as const,
    chatId: FORUM,
    ...(threadId === undefined ? {} : { threadId }),
  });
  const posted = (calls: BotCall[]) =>
    calls.filter((c) => ['sendMessage', 'sendRichMessage', 'sendDocument'].includes(c.method));

  it('answers every message and button in the topic it came from, and outside topics with no thread', async () => {
    const domain = `forum-${Date.now()}.com`;
    await orderTestDomain(h.api(), domain);
    const bound = await h.send('/team', inForum(OWNER, 77));
    await h.send('/team техник', { ...inForum(OWNER, 77), replyTo: TECH });
    const added = await h.send(`/dns ${domain} add A www 192.0.2.1`, inForum(TECH, 77));
    const list = await h.send(`/dns ${domain}`, inForum(TECH, 77));
    const exported = await h.press(buttonData(list, 'Экспорт'), inForum(TECH, 77));
    expect(exported.some((c) => c.method === 'sendDocument')).toBe(true);
    const refused = await h.send('/invoices', inForum(TECH, 77));
    expect(lastText(refused)).toContain('Ваша роль: техник');
    expect(announcements(added)).toHaveLength(1);

    const inTopic = posted([...bound, ...added, ...list, ...exported, ...refused]);
    expect(inTopic.length).toBeGreaterThan(4);
    for (const call of inTopic) expect(call.payload).toMatchObject({ chat_id: FORUM, message_thread_id: 77 });

    // The General topic (no thread) and a button there: no thread added.
    const outside = posted([
      ...(await h.send(`/dns ${domain}`, inForum(TECH))),
      ...(await h.press(buttonData(list, 'Экспорт'), inForum(TECH))),
    ]);
    expect(outside.length).toBeGreaterThan(1);
    for (const call of outside) expect(call.payload.message_thread_id).toBeUndefined();
  });
});

describe('edits made in the Mini App for the group', () => {
  it('the group gets the report headed by the member who made them, with ↩ Undo the tech may press', async () => {
    const domain = `editor-${Date.now()}.com`;
    const orderId = await orderTestDomain(h.api(), domain);
    const before = h.calls.length;
    const result = await h.zoneEditing.apply({
      api: h.api(),
      who: { chatId: GROUP, userId: TECH.userId, name: TECH.firstName, account: 1 },
      role: 'tech',
      orderId,
      domain,
      edits: [{ op: 'add', row: { type: 'A', host: 'app', data: '192.0.2.70', ttl: 3600 } }],
      force: false,
      key: 'group-editor-report-0001',
    });
    expect(result.status).toBe('applied');
    const report = h.calls
      .slice(before)
      .find((c) => c.method === 'sendRichMessage' || c.method === 'sendMessage');
    expect(report?.payload.chat_id).toBe(GROUP);
    const text = texts(report ? [report] : []).join('\n');
    // The name as typed, shown as text (escaped in the message, not read as markup).
    expect(text).toContain(`📣 Борис <b> (техник) изменил(а) DNS-записи домена ${domain} в редакторе:`);
    expect(text).toContain('Готово: 1 из 1 изменений применено.');

    const preview = await h.press(buttonData(report ? [report] : [], '↩ Отменить'), inGroup(TECH));
    const undone = await h.press(buttonData(preview, 'Да, отменить'), inGroup(TECH));
    expect(all(undone)).toContain('↩ Изменение отменено:');
    expect((await h.api().listDnsRecords(orderId)).some((r) => r.value === 'app 192.0.2.70')).toBe(false);
  });
});
