/**
 * The import preview and the apply report as view models: a rich message lists every record (up to
 * Telegram's limits), the HTML screen keeps today's caps and its 4,000 characters.
 */
import { describe, expect, it } from 'vitest';
import { applyReportScreen, importPreviewScreen } from '../../src/bot/features/dns/plan-views.js';
import { loadTranslations } from '../../src/bot/kit/i18n.js';
import { fitsRich, screenRich } from '../../src/bot/kit/rich-screen.js';
import { fitScreenHtml, type Screen, screenHtml } from '../../src/bot/kit/screen.js';
import type { ImportPlan } from '../../src/core/dns-plan.js';
import type { DnsRecordData } from '../../src/core/dns-records.js';

const t = loadTranslations().forLocale('ru');
const a = (i: number): DnsRecordData => ({ type: 'A', host: `h${i}`, ttl: 3600, ipv4: `192.0.2.${i % 250}` });
const txt = (i: number): DnsRecordData => ({ type: 'TXT', host: `k${i}`, ttl: 300, text: 'x'.repeat(110) });

function plan(add: DnsRecordData[], remove: DnsRecordData[]): ImportPlan {
  return {
    mode: 'merge',
    wanted: add,
    nonce: 'n',
    orderId: 1,
    domain: 'xn--d1acufc.xn--90ais',
    add,
    remove: remove.map((record, id) => ({ id, record })),
    existing: remove.length,
  };
}

const tableRows = (screen: Screen) =>
  screen.blocks.flatMap((b) => (b.type === 'table' ? b.rows.map((r) => r.cells.join(' | ')) : []));

describe('importPreviewScreen', () => {
  const preview = {
    plan: plan(
      Array.from({ length: 40 }, (_, i) => a(i)),
      [a(100)],
    ),
    unchanged: [{ id: 9, record: a(200) }],
    skipped: [{ line: 3, text: '@ IN CAA 0 issue "x"', reason: { key: 'type', params: { type: 'CAA' } } }],
    notes: [t('dns:importMergeNote')],
  } as const;

  it('as a rich message: every record to add and delete, and the unchanged ones', () => {
    const screen = importPreviewScreen(t, preview, true);
    expect(screen.title).toBe('Импорт в домен.бел: что изменится');
    const rows = tableRows(screen);
    expect(rows).toHaveLength(40 + 1 + 1);
    expect(rows[0]).toBe('добавить | <b>A</b> | h0 | <code>192.0.2.0</code> | 3600');
    expect(rows).toContain('удалить | <b>A</b> | h100 | <code>192.0.2.100</code> | 3600');
    expect(rows).toContain('без изменений | <b>A</b> | h200 | <code>192.0.2.200</code> | 3600');
    expect(fitsRich(screenRich(screen))).toBe(true);
  });

  it('as HTML: today’s lines, 30 records a side, the skipped lines under their count', () => {
    const html = screenHtml(importPreviewScreen(t, preview, false));
    const lines = html.split('\n');
    expect(lines[0]).toBe('<b>Импорт в домен.бел: что изменится</b>');
    expect(lines.filter((l) => l.startsWith('+ '))).toHaveLength(30);
    expect(lines).toContain('− <b>A</b> h100 → <code>192.0.2.100</code> · TTL 3600 с');
    expect(lines.some((l) => l.startsWith('= '))).toBe(false);
    expect(html).toContain(
      '<b>Пропущено строк: 1</b>\n• строка 3: <code>@ IN CAA 0 issue "x"</code> — записи типа CAA бот не добавляет',
    );
    expect(html).toContain('Добавить: 40\nИзменить: 0\nУдалить: 1\nБез изменений: 1');
  });

  it('as HTML stays within 4,000 characters, cut with “…”; a rich one past its limits lists what HTML does', () => {
    const long = {
      ...preview,
      plan: plan(
        Array.from({ length: 600 }, (_, i) => txt(i)),
        [],
      ),
      skipped: [],
    };
    const html = screenHtml(importPreviewScreen(t, long, false));
    expect(html.length).toBeLessThanOrEqual(4000);
    expect(html).toContain('Добавить: 600');
    expect(html).toContain('\n…');
    // 600 rows are more blocks than a rich message takes: it lists the first 30, as HTML would.
    const rich = importPreviewScreen(t, long, true);
    expect(tableRows(rich)).toHaveLength(30);
  });
});

describe('applyReportScreen', () => {
  const outcome = {
    applied: [{ op: 'add' as const, record: a(1) }],
    failures: [{ op: 'delete' as const, record: a(2), reason: 'запись не найдена' }],
  };

  it('as HTML: today’s report, the failures with their reasons', () => {
    expect(screenHtml(applyReportScreen(t, outcome, false))).toBe(
      [
        '<b>Готово: 1 из 2 изменений применено.</b>',
        '',
        '<b>Не получилось (1):</b>',
        '− <b>A</b> h2 → <code>192.0.2.2</code> · TTL 3600 с — запись не найдена',
      ].join('\n'),
    );
  });

  it('as a rich message: a table of what was done, the failures an open section', () => {
    const screen = applyReportScreen(t, outcome, true);
    expect(tableRows(screen)).toEqual(['добавлена | <b>A</b> | h1 | <code>192.0.2.1</code> | 3600']);
    const failures = screen.blocks.find((b) => b.type === 'section');
    expect(failures).toMatchObject({ title: 'Не получилось (1):', open: true });
  });
});

describe('fitScreenHtml', () => {
  it('returns a screen that fits as it is, and cuts the last table’s rows from the end', () => {
    const rows = Array.from({ length: 100 }, (_, i) => ({
      cells: [String(i)],
      html: `row ${i} ${'x'.repeat(50)}`,
    }));
    const screen: Screen = { title: 'T', blocks: [{ type: 'table', columns: ['n'], rows, compact: true }] };
    const small: Screen = { title: 'T', blocks: [] };
    expect(fitScreenHtml(small)).toBe(small);
    const html = screenHtml(fitScreenHtml(screen, 1000));
    expect(html.length).toBeLessThanOrEqual(1000);
    expect(html.startsWith('<b>T</b>\n\nrow 0 ')).toBe(true);
    expect(html.endsWith('\n…')).toBe(true);
    // The screen given is left as it was.
    expect(screen.blocks[0]).toMatchObject({ rows: { length: 100 } });
  });
});
