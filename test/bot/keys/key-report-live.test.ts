import { describe, expect, it } from 'vitest';
import { toDnsRecordBody } from '../../../src/api/index.js';
import type { DnsProbe } from '../../../src/core/dns-check.js';
import type { DnsRecordData } from '../../../src/core/dns-records.js';
import { createDnsProbe } from '../../../src/dns-check/probe.js';
import { USER_ID } from '../../helpers/bot-harness.js';
import { addressKey } from '../../helpers/key-fixtures.js';
import { useBot } from '../../helpers/use-bot.js';

/*
 * A robot's change told in the chat is live-checked like the chat's own: the line is edited to say
 * the domain's name servers answer with the new address (the sandbox's DNS server).
 */

let probe: DnsProbe | undefined;
const { h } = useBot({
  dnsServer: true,
  liveCheck: {
    probe: {
      addressesOf: (server, signal) => (probe as DnsProbe).addressesOf(server, signal),
      ask: (address, name, type, signal) => (probe as DnsProbe).ask(address, name, type, signal),
    },
  },
  connect: ['partner'],
  setUp: (bot) => {
    const port = bot.sandbox.dns?.port ?? 0;
    probe = createDnsProbe({ port, resolvers: [`127.0.0.1:${port}`], timeoutMs: 500, tries: 1 });
  },
});

describe('a robot’s change, live-checked', () => {
  it('edits the line once the name servers serve the new address, keeping ↩ Undo', async () => {
    const old: DnsRecordData = { type: 'A', host: 'office', ttl: 300, ipv4: '198.51.100.7' };
    const fresh: DnsRecordData = { type: 'A', host: 'office', ttl: 300, ipv4: '198.51.100.9' };
    // mysite.by (order 1006) is the sandbox's seeded domain, served by its DNS server.
    const api = h.api();
    await api.addDnsRecord(1006, toDnsRecordBody(old));
    await api.addDnsRecord(1006, toDnsRecordBody(fresh));
    const previous = (await api.listDnsRecords(1006)).find((r) => r.value === 'office 198.51.100.7');
    await api.deleteDnsRecord(1006, 'a', previous?.record_id ?? 0);
    const applied = [
      { op: 'add' as const, record: fresh },
      { op: 'delete' as const, record: old },
    ];
    const { key } = await h.robotKeys.create(
      addressKey(USER_ID, { createdBy: { userId: USER_ID, name: 'Анна' } }),
    );
    const who = { chatId: USER_ID, userId: USER_ID, name: 'Анна', key: key.name };
    const entry = await h.recorder.record(who, 1006, 'auto', { records: applied });
    const before = h.calls.length;
    await h.keyReports.reportKeyUse({
      key,
      domain: 'mysite.by',
      outcome: { applied, failures: [] },
      entry,
      folded: 0,
    });
    await h.liveChecks?.idle();
    const calls = h.calls.slice(before);
    const line = calls.find((c) => c.method === 'sendMessage');
    const edits = calls.filter(
      (c) => c.method === 'editMessageText' && c.payload.message_id === line?.messageId,
    );
    const last = String(edits.at(-1)?.payload.text);
    expect(last).toContain('🔑 автообновление mysite.by — <b>A</b> office:');
    expect(last).toContain('✅ Видно на');
    const markup = edits.at(-1)?.payload.reply_markup as { inline_keyboard: { text: string }[][] };
    expect(markup.inline_keyboard.flat().map((b) => b.text)).toEqual(['↩ Отменить']);
  });
});
