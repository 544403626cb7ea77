/*
 * A DNS plan as Telegram 10.1 draws it: a zone import's preview is one rich message with a table of
 * every record it adds, deletes and keeps; a bulk over 40 domains is one message with a details
 * block per domain (HTML named 30 and summed up the rest: see html-plans.test.ts).
 */
import { describe, expect, it } from 'vitest';
import {
  type BotCall,
  buttonData,
  buttons,
  lastSections,
  lastTable,
  lastText,
} from '../../helpers/bot-harness.js';
import { bulkPreview, freshDomains } from '../../helpers/dns-plan-stories.js';
import { useBot } from '../../helpers/use-bot.js';

const { h } = useBot({ connect: ['partner'], reset: ['faults', 'scene'] });

/** The messages a call list sent, by method (typing, toasts and progress edits aside). */
const sent = (calls: BotCall[]) =>
  calls.map((c) => c.method).filter((m) => m === 'sendMessage' || m === 'sendRichMessage');

describe('a zone import’s preview as a rich message', () => {
  it('is one message: the counts, a table of what is added, deleted and kept, the skipped lines folded', async () => {
    const [site] = await freshDomains(h, 'rich-import', 1);
    if (!site) throw new Error('no domain');
    await h.api().addDnsRecord(site.orderId, { kind: 'a', host: 'old', ipv4: '192.0.2.9', ttl: 3600 });
    await h.api().addDnsRecord(site.orderId, { kind: 'a', host: 'www', ipv4: '192.0.2.1', ttl: 3600 });
    await h.press(buttonData(await h.send(`/dns ${site.domain}`), 'Импорт'));
    const preview = await h.send(
      ['www 3600 IN A 192.0.2.1', 'mail 300 IN MX 10 mx.example.by.', '@ IN CAA 0 issue "x"'].join('\n'),
    );
    expect(sent(preview)).toEqual(['sendRichMessage']);
    const text = lastText(preview);
    expect(text.split('\n').slice(0, 5)).toEqual([
      `Импорт в ${site.domain}: что изменится`,
      'Добавить: 1',
      'Изменить: 0',
      'Удалить: 0',
      'Без изменений: 2',
    ]);
    // A merge keeps the A at `old`: the file does not list it, and a merge deletes nothing.
    expect(lastTable(preview)).toEqual([
      ['Действие', 'Тип', 'Хост', 'Значение', 'TTL, с'],
      ['добавить', 'MX', 'mail', '10 mx.example.by', '300'],
      ['без изменений', 'A', 'www', '192.0.2.1', '3600'],
      ['без изменений', 'A', 'old', '192.0.2.9', '3600'],
    ]);
    expect(lastSections(preview)).toEqual([
      {
        title: 'Пропущено строк: 1',
        lines: [
          'Строка | Текст | Причина',
          '3 | @ IN CAA 0 issue "x" | записи типа CAA бот не добавляет (можно A, AAAA, CNAME, NS, MX, TXT, SRV)',
        ],
        open: false,
      },
    ]);
    // The buttons are today's.
    expect(buttons(preview).map((b) => [b.text, b.style])).toEqual([
      ['✅ Применить', 'success'],
      ['Нет', undefined],
      ['♻️ Заменить всю зону', 'danger'],
    ]);
    // Nothing a partner would not read: no ids, no HTML tags, no i18n keys.
    expect(text).not.toMatch(/<\/?[a-z]+>|#\d{4,}|dns:|\{\{/);
  });
});

describe('a bulk preview as a rich message', () => {
  it('names all 40 domains in one message, a details block each with the records it adds', async () => {
    const forty = await freshDomains(h, 'rich-bulk', 40);
    const preview = await bulkPreview(h, forty, 'add TXT @ "v=spf1 -all"');
    expect(sent(preview)).toEqual(['sendRichMessage']);
    const sections = lastSections(preview);
    expect(sections.map((s) => s.title)).toEqual(forty.map(({ domain }) => `${domain}: +1`));
    for (const section of sections)
      expect(section.lines).toEqual([
        'Действие | Тип | Хост | Значение | TTL, с',
        'добавить | TXT | @ | "v=spf1 -all" | 3600',
      ]);
    const text = lastText(preview);
    expect(text).toContain('Итого: изменю доменов — 40, пропущу — 0.');
    expect(text).not.toContain('…и ещё доменов');
    expect(buttons(preview).map((b) => b.text)).toEqual(['✅ Применить', 'Нет']);
  });
});
