/*
 * The DNS plans' screens where rich messages are off (RICH_MESSAGES=off, or a Bot API server older
 * than 10.1): today's HTML, its caps and its 4,096 characters.
 */
import { describe, expect, it } from 'vitest';
import { type BotCall, buttons, lastText } from '../../helpers/bot-harness.js';
import { bulkPreview, freshDomains } from '../../helpers/dns-plan-stories.js';
import { useBot } from '../../helpers/use-bot.js';

const { h } = useBot({ connect: ['partner'], reset: ['faults', 'scene'], richMessages: false });

const sent = (calls: BotCall[]) =>
  calls.map((c) => c.method).filter((m) => m === 'sendMessage' || m === 'sendRichMessage');

describe('a bulk preview as HTML', () => {
  it('names the first 30 of 40 domains and sums up the rest in one line, within one message', async () => {
    const forty = await freshDomains(h, 'html-bulk', 40);
    const preview = await bulkPreview(h, forty, 'add TXT @ "v=spf1 -all"');
    expect(sent(preview)).toEqual(['sendMessage']);
    const text = lastText(preview);
    expect(text.length).toBeLessThanOrEqual(4096);
    const named = text.split('\n').filter((line) => line.startsWith('• '));
    expect(named).toEqual(forty.slice(0, 30).map(({ domain }) => `• ${domain}: +1`));
    expect(text).toContain('…и ещё доменов: 10 (изменить: 10, пропустить: 0)');
    expect(text).toContain('Итого: изменю доменов — 40, пропущу — 0.');
    expect(text.startsWith('<b>Массовое изменение:</b> добавить <b>TXT</b> @')).toBe(true);
    expect(buttons(preview).map((b) => b.text)).toEqual(['✅ Применить', 'Нет']);
  });
});

describe('a zone import’s preview as HTML', () => {
  it('is today’s lines: the counts, a line per record, the skipped lines under their count', async () => {
    const [site] = await freshDomains(h, 'html-import', 1);
    if (!site) throw new Error('no domain');
    const list = await h.send(`/dns ${site.domain}`);
    const importButton = buttons(list).find((b) => b.text.includes('Импорт'));
    await h.press(importButton?.callback_data ?? '');
    const preview = await h.send('www 3600 IN A 192.0.2.1\n@ IN CAA 0 issue "x"');
    expect(sent(preview)).toEqual(['sendMessage']);
    expect(lastText(preview)).toBe(
      [
        `<b>Импорт в ${site.domain}: что изменится</b>`,
        '',
        'Добавить: 1',
        'Изменить: 0',
        'Удалить: 0',
        'Без изменений: 0',
        '',
        '+ <b>A</b> www → <code>192.0.2.1</code> · TTL 3600 с',
        '',
        '<b>Пропущено строк: 1</b>',
        '• строка 2: <code>@ IN CAA 0 issue "x"</code> — записи типа CAA бот не добавляет (можно A, AAAA, CNAME, NS, MX, TXT, SRV)',
        '',
        'Записи, которых нет в файле, останутся как есть. Чтобы зона стала точно как в файле (лишние записи удалятся), нажмите «Заменить всю зону».',
      ].join('\n'),
    );
  });
});
