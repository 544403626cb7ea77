import { describe, expect, it } from 'vitest';
import { toDnsRecordBody } from '../../../src/api/index.js';
import type { DnsRecordData } from '../../../src/core/dns-records.js';
import type { RobotKey } from '../../../src/storage/robot-keys.js';
import { type BotCall, buttonData, buttons, lastText, texts } from '../../helpers/bot-harness.js';
import { orderTestDomain } from '../../helpers/fixtures.js';
import { addressKey } from '../../helpers/key-fixtures.js';
import { EN, useBot } from '../../helpers/use-bot.js';

/*
 * What the chat is told of a robot's work with a key (the KeyReportPort the gateway's services
 * call): one line naming the change and the key, folded repeats counted, failures worded as the
 * chat's own reports word them, ↩ Undo that really reverses it at the provider; the history names
 * the key; a key stopped by its account is told once, in words.
 */

const { h } = useBot({ connect: ['partner', 'en'], reset: ['faults', 'scene'] });

const PARTNER_CHAT = 424_242;
const all = (calls: BotCall[]) => texts(calls).join('\n');
const old: DnsRecordData = { type: 'A', host: 'office', ttl: 300, ipv4: '198.51.100.7' };
const fresh: DnsRecordData = { type: 'A', host: 'office', ttl: 300, ipv4: '198.51.100.9' };

/** A domain with `A office 198.51.100.7`, and a key of `chatId` for that host. */
async function officeWithKey(chatId: number, name = 'Роутер офиса') {
  const domain = `reports-${Date.now()}-${Math.random().toString(36).slice(2, 6)}.com`;
  const orderId = await orderTestDomain(h.api(), domain);
  await h.api().addDnsRecord(orderId, toDnsRecordBody(old));
  const { key } = await h.robotKeys.create(
    addressKey(chatId, {
      name,
      scope: `office.${domain}`,
      orderId,
      domain,
      createdBy: { userId: chatId, name: 'Анна' },
    }),
  );
  return { domain, orderId, key };
}

/** What the gateway does for a new address: add, then delete the old (gap-free), then record it. */
async function robotChanges(key: RobotKey) {
  const api = h.api();
  await api.addDnsRecord(key.orderId, toDnsRecordBody(fresh));
  const listed = await api.listDnsRecords(key.orderId);
  const previous = listed.find((r) => r.value === 'office 198.51.100.7');
  if (!previous) throw new Error('no old record');
  await api.deleteDnsRecord(key.orderId, 'a', previous.record_id);
  const applied = [
    { op: 'add' as const, record: fresh },
    { op: 'delete' as const, record: old },
  ];
  const who = { chatId: key.chatId, userId: key.createdBy.userId, name: key.createdBy.name, key: key.name };
  const entry = await h.recorder.record(who, key.orderId, 'auto', { records: applied });
  return { applied, entry };
}

/** The Bot API calls a direct call of the port made. */
async function reported(run: () => Promise<void>): Promise<BotCall[]> {
  const before = h.calls.length;
  await run();
  return h.calls.slice(before);
}

describe('a robot’s change told in the chat', () => {
  it('one line old → new with the key’s name, ↩ Undo reverses it at the provider, history names the key', async () => {
    const { domain, orderId, key } = await officeWithKey(PARTNER_CHAT);
    const { applied, entry } = await robotChanges(key);
    expect(entry).toBeDefined();
    const calls = await reported(() =>
      h.keyReports.reportKeyUse({ key, domain, outcome: { applied, failures: [] }, entry, folded: 0 }),
    );
    expect(calls.filter((c) => c.method === 'sendMessage').map((c) => c.payload.chat_id)).toEqual([
      PARTNER_CHAT,
    ]);
    expect(lastText(calls)).toBe(
      `🔑 автообновление ${domain} — <b>A</b> office: <code>198.51.100.7</code> → <code>198.51.100.9</code> (ключ «Роутер офиса»)`,
    );
    expect(buttons(calls).map((b) => b.text)).toEqual(['↩ Отменить']);

    const history = await h.send(`/dns ${domain} history`);
    expect(all(history)).toContain('ключ «Роутер офиса» · автообновление');

    const writesBefore = h.sandbox.requests.length;
    const preview = await h.press(buttonData(calls, '↩ Отменить'));
    expect(lastText(preview)).toContain('ключ «Роутер офиса», автообновление');
    const undone = await h.press(buttonData(preview, 'Да, отменить'));
    expect(all(undone)).toContain('↩ Изменение отменено:');
    const writes = h.sandbox.requests
      .slice(writesBefore)
      .filter((r) => r.method !== 'GET')
      .map((r) => `${r.method} ${r.path}`);
    // The reverse: the old address back, the robot's one deleted — and nothing else.
    expect(writes).toHaveLength(2);
    expect(writes.some((w) => w.startsWith(`POST /v1/domains/${orderId}/dns/records`))).toBe(true);
    expect(writes.some((w) => w.startsWith(`DELETE /v1/domains/${orderId}/dns/records/a/`))).toBe(true);
    const values = (await h.api().listDnsRecords(orderId)).map((r) => r.value);
    expect(values).toContain('office 198.51.100.7');
    expect(values).not.toContain('office 198.51.100.9');
  });

  it('counts the updates folded into the line, in both languages; no Undo without an entry', async () => {
    const { domain, key } = await officeWithKey(PARTNER_CHAT);
    const applied = [
      { op: 'add' as const, record: fresh },
      { op: 'delete' as const, record: old },
    ];
    const ru = await reported(() =>
      h.keyReports.reportKeyUse({
        key,
        domain,
        outcome: { applied, failures: [] },
        entry: undefined,
        folded: 3,
      }),
    );
    expect(lastText(ru)).toContain('…и ещё 3 обновления за час до этого — сообщаю не чаще раза в час.');
    expect(buttons(ru)).toEqual([]);

    // A chat that chose English (/lang) is told in English outside its updates too.
    await h.send('/lang en', EN);
    const english = await officeWithKey(EN.chatId, 'Office router');
    const en = await reported(() =>
      h.keyReports.reportKeyUse({
        key: english.key,
        domain: english.domain,
        outcome: { applied, failures: [] },
        entry: undefined,
        folded: 1,
      }),
    );
    expect(lastText(en)).toContain(`🔑 auto-update ${english.domain} — <b>A</b> office:`);
    expect(lastText(en)).toContain('(key “Office router”)');
    expect(lastText(en)).toContain('…and 1 more update in the hour before');
  });

  it('words a change that failed as the chat’s reports do', async () => {
    const { domain, key } = await officeWithKey(PARTNER_CHAT);
    const calls = await reported(() =>
      h.keyReports.reportKeyUse({
        key,
        domain,
        outcome: { applied: [], failures: [{ change: { op: 'add', record: fresh }, heldBack: true }] },
        entry: undefined,
        folded: 0,
      }),
    );
    const text = lastText(calls);
    expect(text).toContain(`⚠️ автообновление ${domain} не удалось (ключ «Роутер офиса»).`);
    expect(text).toContain('Не выполнено 1 изменение:');
    expect(text).toContain('+ <b>A</b> office → <code>198.51.100.9</code>');
    expect(text).toContain('не прошла другая половина замены');
  });

  it('tells once, in words, that a key stopped with its account’s token', async () => {
    const { key } = await officeWithKey(PARTNER_CHAT);
    const gone = await reported(() => h.keyReports.reportKeyStopped({ key, reason: 'disconnected' }));
    expect(lastText(gone)).toBe(
      '🔑 Ключ «Роутер офиса» перестал работать: токен API этого чата отключён, а ключ действует от его имени. Подключите токен (/token) — и ключ заработает снова, перенастраивать робота не нужно.',
    );
    const refused = await reported(() => h.keyReports.reportKeyStopped({ key, reason: 'refused' }));
    expect(lastText(refused)).toContain('провайдер отклонил токен API этого чата');
    await h.send('/lang en', EN);
    const english = await officeWithKey(EN.chatId, 'Office router');
    const en = await reported(() => h.keyReports.reportKeyStopped({ key: english.key, reason: 'refused' }));
    expect(lastText(en)).toContain('The key “Office router” stopped working: the provider refused');
  });
});
