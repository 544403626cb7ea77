import { createSocket } from 'node:dgram';
import { describe, expect, it } from 'vitest';
import type { LiveCheckClock } from '../../../src/bot/features/dns/live-check/live-check.js';
import type { DnsProbe } from '../../../src/core/dns-check.js';
import { readListedRecords } from '../../../src/core/dns-plan.js';
import { rowOfRecord } from '../../../src/core/zone-edits.js';
import { createDnsProbe } from '../../../src/dns-check/probe.js';
import {
  type BotCall,
  buttonData,
  buttons,
  lastText,
  richText,
  texts,
  USER_ID,
} from '../../helpers/bot-harness.js';
import { useBot } from '../../helpers/use-bot.js';

/**
 * The clock of the live checks: pauses pass at once (`auto`), or wait until the test lets them go
 * (`advance`), so a story can act while a check waits between its rounds.
 */
class TestClock implements LiveCheckClock {
  time = 0;
  auto = true;
  private readonly waiting: (() => void)[] = [];

  now() {
    return this.time;
  }

  sleep(ms: number, signal: AbortSignal) {
    return new Promise<void>((resolve) => {
      const go = () => {
        this.time += ms;
        resolve();
      };
      if (this.auto) return go();
      this.waiting.push(go);
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
  }

  /** How many checks wait for their next round. */
  get sleeping() {
    return this.waiting.length;
  }

  advance() {
    for (const go of this.waiting.splice(0)) go();
  }
}

const clock = new TestClock();
/** The probe the bot uses; a story swaps in one that asks a closed port. */
let probe: DnsProbe;
let sandboxProbe: DnsProbe;

const { h, en } = useBot({
  dnsServer: true,
  liveCheck: {
    probe: {
      addressesOf: (server, signal) => probe.addressesOf(server, signal),
      ask: (address, name, type, signal) => probe.ask(address, name, type, signal),
    },
    clock,
  },
  connect: ['partner', 'en'],
  setUp: (bot) => {
    const port = bot.sandbox.dns?.port ?? 0;
    // Name server names are resolved by the sandbox's DNS server too (ns1.sandbox-host.by → 127.0.0.1).
    sandboxProbe = createDnsProbe({ port, resolvers: [`127.0.0.1:${port}`], timeoutMs: 500, tries: 1 });
    probe = sandboxProbe;
  },
  beforeEachStory: async (bot) => {
    clock.auto = true;
    clock.advance();
    bot.sandbox.dns?.release();
    probe = sandboxProbe;
    await bot.liveChecks?.idle();
  },
  reset: ['scene'],
});

/** The edits of one message among the calls, oldest first. */
const editsOf = (messageId: number | undefined, calls: BotCall[] = h.calls) =>
  calls.filter((c) => c.method === 'editMessageText' && c.payload.message_id === messageId);

/** The message the bot sent (plain or rich) whose text contains `text`. */
function sentWith(calls: BotCall[], text: string): BotCall {
  const sent = calls.find(
    (c) =>
      (c.method === 'sendMessage' || c.method === 'sendRichMessage') &&
      (richText(c) ?? String(c.payload.text)).includes(text),
  );
  if (!sent) throw new Error(`no message with “${text}”; have: ${texts(calls).join(' | ')}`);
  return sent;
}

/** Waits (bounded) until `ready()` holds: a background check reached the point a story needs. */
async function until(ready: () => boolean, what: string) {
  for (let i = 0; i < 200 && !ready(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!ready()) throw new Error(`timed out waiting for ${what}`);
}

const SERVERS = 'dns1.sandbox-host.by, dns2.sandbox-host.by';

describe('live check after a change', () => {
  it('an added record turns ✅ once both name servers answer it, the message and its buttons kept', async () => {
    const calls = await h.send('/dns mysite.by add A live1 192.0.2.61');
    const added = sentWith(calls, 'Запись добавлена');
    await h.liveChecks?.idle();
    const edits = editsOf(added.messageId);
    expect(edits).toHaveLength(1);
    const text = String(edits[0]?.payload.text);
    expect(text).toContain('Запись добавлена');
    expect(text).toContain(`✅ Видно на ${SERVERS}`);
    // The record's buttons stay under the edited message.
    expect(buttons(edits).map((b) => b.text)).toEqual(buttons([added]).map((b) => b.text));
    expect(h.sandbox.dns?.queries).toContainEqual({ transport: 'udp', name: 'live1.mysite.by', type: 'A' });
  });

  it('says “not yet” while the servers lag, does not hold the chat, and turns ✅ when they catch up', async () => {
    clock.auto = false;
    h.sandbox.dns?.hold();
    const calls = await h.send('/dns mysite.by add TXT live2 v=spf1 -all');
    const added = sentWith(calls, 'Запись добавлена');
    await until(() => clock.sleeping === 1, 'the check to wait for its next round');
    const waiting = String(editsOf(added.messageId).at(-1)?.payload.text);
    expect(waiting).toContain(`⏳ Пока не видно на ${SERVERS}`);
    expect(waiting).toContain('Проверяю ещё — до 2 минут.');

    // Meanwhile the chat is answered at once: the check runs outside its queue.
    expect(lastText(await h.send('/help'))).toContain('Что умеет бот');
    expect(lastText(await h.send('/dns mysite.by'))).toContain('DNS-записи mysite.by');

    h.sandbox.dns?.release();
    clock.advance();
    await h.liveChecks?.idle();
    const done = String(editsOf(added.messageId).at(-1)?.payload.text);
    expect(done).toContain(`✅ Видно на ${SERVERS}`);
    expect(done).not.toContain('⏳');
  });

  it('gives up after 2 minutes without the record, saying so and how to check later', async () => {
    h.sandbox.dns?.hold();
    const before = h.sandbox.dns?.queries.length ?? 0;
    const started = clock.time;
    const calls = await h.send('/dns mysite.by add A never 192.0.2.62');
    const added = sentWith(calls, 'Запись добавлена');
    await h.liveChecks?.idle();
    const final = String(editsOf(added.messageId).at(-1)?.payload.text);
    expect(final).toContain(`⌛ За 2 минуты так и не стало видно на ${SERVERS}`);
    expect(final).toContain('Проверить позже: <code>/dns mysite.by check never A</code>');
    expect(clock.time - started).toBeLessThanOrEqual(120_000);
    // Several rounds, each asking both servers.
    const asked = h.sandbox.dns?.queries.slice(before).filter((q) => q.name === 'never.mysite.by') ?? [];
    expect(asked.length).toBeGreaterThanOrEqual(8);
  });

  it('a deleted record: ✅ once the servers no longer answer it', async () => {
    const added = await h.send('/dns mysite.by add A gone 192.0.2.63');
    await h.liveChecks?.idle();
    const id = Number(/#(\d+)/.exec(lastText(added))?.[1] ?? buttonData(added, '🗑').split(':').at(-1));
    const record = (await h.api().listDnsRecords(1006)).find((r) => r.value === 'gone 192.0.2.63');
    expect(record?.record_id).toBe(id);
    await h.send(`/dns mysite.by del ${id}`);
    const calls = await h.press(buttonData(h.calls.slice(-3), 'Да, удалить'));
    const deleted = sentWith(calls, 'удалена');
    await h.liveChecks?.idle();
    // A deletion is seen when the servers no longer answer with it, and the line says that.
    expect(String(editsOf(deleted.messageId).at(-1)?.payload.text)).toContain(
      `✅ Больше не отвечают этой записью: ${SERVERS}`,
    );
  });

  it('reports a server that does not answer plainly, not as a crash', async () => {
    // Every name server asked on a port where nothing listens (as a wrong DNS_CHECK_PORT would).
    const socket = createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    const closedPort = socket.address().port;
    await new Promise<void>((resolve) => socket.close(() => resolve()));
    probe = { ...sandboxProbe, ask: createDnsProbe({ port: closedPort, timeoutMs: 300, tries: 1 }).ask };
    const calls = await h.send('/dns mysite.by add A dark 192.0.2.64');
    const added = sentWith(calls, 'Запись добавлена');
    await h.liveChecks?.idle();
    const final = String(editsOf(added.messageId).at(-1)?.payload.text);
    expect(final).toMatch(/❌ dns1\.sandbox-host\.by: (недоступен|не отвечает)/);
    expect(final).toMatch(/❌ dns2\.sandbox-host\.by: (недоступен|не отвечает)/);
    expect(final).toContain('Проверить позже');
    expect(h.logLines.some((line) => line.includes('unhandled'))).toBe(false);
  });

  it('an applied zone import: the report turns ✅ once the imported records are served', async () => {
    const list = await h.send('/dns mysite.by');
    await h.press(buttonData(list, 'Импорт'));
    const preview = await h.send('imp1 300 IN A 192.0.2.80\nimp2 300 IN TXT "imported text"');
    const done = await h.press(buttonData(preview, 'Применить'));
    // The report is a rich message (a table of what was done): its edit is a rich one too.
    const report = sentWith(done, 'Готово: 2 из 2');
    expect(report.method).toBe('sendRichMessage');
    await h.liveChecks?.idle();
    const edit = editsOf(report.messageId).at(-1);
    expect(edit?.payload.text).toBeUndefined();
    expect(edit?.payload.rich_message).toBeDefined();
    const text = edit ? (richText(edit) ?? '') : '';
    expect(text.split('\n')).toEqual([
      'Готово: 2 из 2 изменений применено.',
      'Действие | Тип | Хост | Значение | TTL, с',
      'добавлена | A | imp1 | 192.0.2.80 | 300',
      'добавлена | TXT | imp2 | "imported text" | 300',
      `✅ Видно на ${SERVERS}`,
    ]);
    // Its Undo stays under it.
    expect(buttons([edit as BotCall]).map((b) => b.text)).toEqual(buttons([report]).map((b) => b.text));
    expect(
      buttons([report])
        .map((b) => b.text)
        .join(' '),
    ).toContain('Отменить');
    const asked = h.sandbox.dns?.queries.map((q) => `${q.name} ${q.type}`);
    expect(asked).toEqual(expect.arrayContaining(['imp1.mysite.by A', 'imp2.mysite.by TXT']));
  });

  it('speaks English in an English chat', async () => {
    const calls = await h.send('/dns mysite.by add A live-en 192.0.2.65', en);
    const added = sentWith(calls, 'Record added');
    await h.liveChecks?.idle();
    expect(String(editsOf(added.messageId).at(-1)?.payload.text)).toContain(`✅ Visible on ${SERVERS}`);
  });
});

describe('/dns <domain> check <host> <TYPE>', () => {
  it('answers at once, then shows what each server answers against the provider’s records', async () => {
    const calls = await h.send('/dns mysite.by check www A');
    const asking = sentWith(calls, 'www.mysite.by');
    expect(String(asking.payload.text)).toContain('Спрашиваю NS-серверы…');
    await h.liveChecks?.idle();
    const report = String(editsOf(asking.messageId).at(-1)?.payload.text);
    expect(report).toContain('У провайдера: 93.125.99.10');
    expect(report).toContain('✅ dns1.sandbox-host.by — 93.125.99.10');
    expect(report).toContain('✅ dns2.sandbox-host.by — 93.125.99.10');
    expect(report).toContain('✅ Все NS-серверы отвечают так же, как у провайдера.');
  });

  it('MX and a name without records: both read as the provider has them', async () => {
    await h.send('/dns mysite.by check @ mx');
    await h.liveChecks?.idle();
    const mx = texts(h.calls.slice(-2)).at(-1) ?? '';
    expect(mx).toContain('✅ dns1.sandbox-host.by — 10 mx1.sandbox-host.by, 20 mx2.sandbox-host.by');
    await h.send('/dns mysite.by check nothing-here TXT');
    await h.liveChecks?.idle();
    const none = texts(h.calls.slice(-2)).at(-1) ?? '';
    expect(none).toContain('У провайдера: записей нет');
    expect(none).toContain('✅ dns1.sandbox-host.by — записи нет');
  });

  it('says “not yet” for a server that lags behind the provider', async () => {
    h.sandbox.dns?.hold();
    await h.api().addDnsRecord(1006, { kind: 'a', ttl: 300, host: 'lag', ipv4: '192.0.2.66' });
    const calls = await h.send('/dns mysite.by check lag A');
    const asking = sentWith(calls, 'lag.mysite.by');
    await h.liveChecks?.idle();
    const report = String(editsOf(asking.messageId).at(-1)?.payload.text);
    expect(report).toContain('⏳ dns1.sandbox-host.by — записи нет');
    expect(report).toContain('⌛ За 2 минуты не все NS-серверы стали отвечать как у провайдера');
  });

  it('a provider that does not answer is said plainly, never left at “asking…”', async () => {
    // The bot's transport tries a GET three times.
    h.sandbox.addFault({
      path: '/v1/domains/1006/dns/servers',
      method: 'GET',
      times: 3,
      fault: { kind: 'status', status: 503 },
    });
    const first = sentWith(await h.send('/dns mysite.by check www A'), 'www.mysite.by');
    await h.liveChecks?.idle();
    const told = String(editsOf(first.messageId).at(-1)?.payload.text);
    expect(told).toContain('Не удалось узнать NS-серверы домена');
    expect(told).toContain('🔎 <b>www.mysite.by</b> A');
    h.sandbox.addFault({
      path: '/v1/domains/1006/dns/records',
      method: 'GET',
      times: 3,
      fault: { kind: 'status', status: 503 },
    });
    const second = sentWith(await h.send('/dns mysite.by check www A'), 'www.mysite.by');
    await h.liveChecks?.idle();
    expect(String(editsOf(second.messageId).at(-1)?.payload.text)).toContain(
      'Проверить видимость не удалось: провайдер не ответил',
    );
    h.sandbox.clearFaults();
  });

  it('explains a wrong line with the form', async () => {
    expect(lastText(await h.send('/dns mysite.by check www'))).toContain(
      'Укажите имя и тип записи. Пример: <code>/dns example.by check www A</code>',
    );
    expect(lastText(await h.send('/dns mysite.by check www CAA'))).toContain('Тип «CAA» не проверяю');
    expect(lastText(await h.send('/dns mysite.by check a..b A'))).toContain('Имя «a..b» не подходит');
    expect(lastText(await h.send('/dns mysite.by check shop NS'))).toContain('это делегирование');
  });
});

describe('edits made in the Mini App', () => {
  it('the chat gets the editor’s report with ↩ Undo, live-checked; Undo in the chat reverses the edits', async () => {
    const api = h.api();
    const records = readListedRecords(await api.listDnsRecords(1006));
    const www = records.find((r) => r.record.type === 'A' && r.record.host === 'www');
    if (www === undefined) throw new Error('mysite.by has no A www');
    const wasValue = rowOfRecord(www.record).data;
    const before = h.calls.length;
    const result = await h.zoneEditing.apply({
      api,
      who: { chatId: USER_ID, userId: USER_ID, name: 'Ольга', account: 1 },
      role: 'owner',
      orderId: 1006,
      domain: 'mysite.by',
      edits: [
        { op: 'change', id: www.id, row: { ...rowOfRecord(www.record), data: '192.0.2.77' } },
        { op: 'add', row: { type: 'TXT', host: 'editor', data: 'from the app', ttl: 3600 } },
      ],
      force: false,
      key: 'story-editor-report-001',
    });
    expect(result.status).toBe('applied');
    const report = sentWith(h.calls.slice(before), 'из редактора');
    expect(report.payload.chat_id).toBe(USER_ID);
    const text = richText(report) ?? '';
    expect(text).toContain('🧩 Изменения в mysite.by из редактора:');
    expect(text).toContain('Готово: 2 из 2 изменений применено.');
    expect(buttons([report]).map((b) => b.text)).toEqual(['↩ Отменить']);

    await h.liveChecks?.idle();
    const checked = editsOf(report.messageId).at(-1);
    expect(richText(checked ?? report)).toContain(`✅ Видно на ${SERVERS}`);

    const preview = await h.press(buttonData([report], '↩ Отменить'));
    const undone = await h.press(buttonData(preview, 'Да, отменить'));
    expect(texts(undone).join('\n')).toContain('↩ Изменение отменено:');
    const after = readListedRecords(await api.listDnsRecords(1006));
    expect(
      after
        .filter((r) => r.record.type === 'A' && r.record.host === 'www')
        .map((r) => rowOfRecord(r.record).data),
    ).toEqual([wasValue]);
    expect(after.some((r) => r.record.type === 'TXT' && r.record.host === 'editor')).toBe(false);
  });
});
