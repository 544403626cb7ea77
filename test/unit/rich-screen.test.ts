import { describe, expect, it } from 'vitest';
import {
  fitsRich,
  htmlToRichText,
  RICH_LIMITS,
  richSize,
  screenRich,
} from '../../src/bot/kit/rich-screen.js';
import { type Screen, screenHtml } from '../../src/bot/kit/screen.js';

const screen: Screen = {
  title: 'DNS-записи <b>mysite.by</b> (2)',
  titleNote: ' · стр. 1 из 2',
  blocks: [
    {
      type: 'table',
      columns: ['Тип', 'Хост'],
      rows: [
        { cells: ['<b>A</b>', 'www'], html: '<b>A</b> www' },
        { cells: ['<b>TXT</b>', '&lt;@&gt;'], html: '<b>TXT</b> &lt;@&gt;' },
      ],
    },
    { type: 'section', title: 'mysite.by', blocks: [{ type: 'text', html: 'one\n\ntwo' }] },
  ],
};

describe('the bot’s inline HTML read as rich text', () => {
  it('keeps the words and turns the tags into rich text, entities decoded', () => {
    expect(htmlToRichText('plain')).toBe('plain');
    expect(htmlToRichText('<b>A</b> → <code>1 &amp; 2</code>')).toEqual([
      { type: 'bold', text: 'A' },
      ' → ',
      { type: 'code', text: '1 & 2' },
    ]);
    expect(htmlToRichText('<a href="https://pay.example/?a=1&amp;b=2">счёт</a>')).toEqual({
      type: 'url',
      text: 'счёт',
      url: 'https://pay.example/?a=1&b=2',
    });
    expect(htmlToRichText('<i>x <b>y</b></i>')).toEqual({
      type: 'italic',
      text: ['x ', { type: 'bold', text: 'y' }],
    });
    // A mention reads as its name; a tag left open is closed at the end.
    expect(htmlToRichText('<a href="tg://user?id=1">Анна</a>, <b>да')).toEqual([
      'Анна',
      ', ',
      { type: 'bold', text: 'да' },
    ]);
  });
});

describe('one screen, two renderers', () => {
  it('draws a heading, a table with its header and a details block as rich blocks', () => {
    const rich = screenRich(screen);
    expect(rich.blocks?.map((b) => b.type)).toEqual(['heading', 'table', 'details']);
    const table = rich.blocks?.[1];
    if (table?.type !== 'table') throw new Error('no table');
    expect(table.cells[0]?.map((c) => [c.text, c.is_header])).toEqual([
      ['Тип', true],
      ['Хост', true],
    ]);
    expect(table.cells[2]?.[1]?.text).toBe('<@>');
    const details = rich.blocks?.[2];
    if (details?.type !== 'details') throw new Error('no details');
    expect(details.blocks.map((b) => b.type)).toEqual(['paragraph', 'paragraph']);
  });

  it('draws today’s HTML: the bold title, each row’s own line, sections with bold titles', () => {
    expect(screenHtml(screen)).toBe(
      '<b>DNS-записи <b>mysite.by</b> (2)</b> · стр. 1 из 2\n\n<b>A</b> www\n\n<b>TXT</b> &lt;@&gt;\n\n<b>mysite.by</b>\none\n\ntwo',
    );
  });
});

describe('Telegram’s limits on a rich message', () => {
  const rows = (count: number, cell = 'x') => ({
    title: 't',
    blocks: [
      {
        type: 'table' as const,
        columns: ['a'],
        rows: Array.from({ length: count }, () => ({ cells: [cell], html: cell })),
      },
    ],
  });

  it('counts blocks with the table’s rows, and characters as code points', () => {
    const size = richSize(screenRich(rows(3, '😀')));
    // The heading, the table, and its four rows (the header's included).
    expect(size.blocks).toBe(6);
    expect(size.characters).toBe(1 + 1 + 3);
  });

  it('fits up to the limits and not past them', () => {
    expect(fitsRich(screenRich(rows(RICH_LIMITS.blocks - 3)))).toBe(true);
    expect(fitsRich(screenRich(rows(RICH_LIMITS.blocks - 2)))).toBe(false);
    const long = 'я'.repeat(RICH_LIMITS.characters - 2);
    expect(fitsRich(screenRich({ title: 't', blocks: [{ type: 'text', html: long }] }))).toBe(true);
    expect(fitsRich(screenRich({ title: 't', blocks: [{ type: 'text', html: `${long}яя` }] }))).toBe(false);
    expect(fitsRich(screenRich(rows(1)), RICH_LIMITS.tableColumns + 1)).toBe(false);
  });
});
