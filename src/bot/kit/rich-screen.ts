/**
 * A `Screen` as a rich message (Bot API 10.1): a heading, tables, paragraphs and details blocks,
 * typed by `@grammyjs/types`. The texts of a screen are the bot's inline HTML; they are read here
 * into rich text, so a feature writes each phrase once for both renderers.
 */
import type { InputRichBlock, InputRichMessage, RichBlockTableCell, RichText } from '@grammyjs/types';
import type { Screen, ScreenBlock } from './screen.js';

/** Telegram's limits on one rich message (rich.d.ts, "Rich Message Limits"). */
export const RICH_LIMITS = { characters: 32_768, blocks: 500, depth: 16, tableColumns: 20 } as const;

type Rich = InputRichMessage<never>;
type Block = InputRichBlock<never>;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[\da-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X'))
      return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** The inline tags the bot writes, by the rich text type each becomes. */
const INLINE_TAGS: Record<string, 'bold' | 'italic' | 'underline' | 'strikethrough' | 'code' | 'spoiler'> = {
  b: 'bold',
  strong: 'bold',
  i: 'italic',
  em: 'italic',
  u: 'underline',
  ins: 'underline',
  s: 'strikethrough',
  strike: 'strikethrough',
  del: 'strikethrough',
  code: 'code',
  'tg-spoiler': 'spoiler',
};

interface Open {
  tag: string;
  href?: string;
  parts: RichText[];
}

const simplify = (parts: RichText[]): RichText => (parts.length === 1 ? (parts[0] ?? '') : parts);

function wrap(open: Open): RichText {
  const text = simplify(open.parts);
  if (open.tag === 'a') {
    const href = open.href ?? '';
    if (href.startsWith('tg://user?id=')) return text;
    return { type: 'url', text, url: href };
  }
  const type = INLINE_TAGS[open.tag];
  return type === undefined ? text : { type, text };
}

/**
 * The bot's inline HTML read into rich text. Tags it does not know are read as their content; a
 * tag left open is closed at the end (the bot's HTML is its own, so neither happens in practice).
 */
export function htmlToRichText(html: string): RichText {
  const stack: Open[] = [{ tag: '', parts: [] }];
  const top = () => stack[stack.length - 1] as Open;
  const tagPattern = /<(\/?)([a-z][\w-]*)((?:\s+[\w-]+(?:="[^"]*")?)*)\s*\/?>/gi;
  let last = 0;
  for (let match = tagPattern.exec(html); match !== null; match = tagPattern.exec(html)) {
    if (match.index > last) top().parts.push(decodeEntities(html.slice(last, match.index)));
    last = match.index + match[0].length;
    const [, closing, rawTag = '', attributes = ''] = match;
    const tag = rawTag.toLowerCase();
    if (closing) {
      const at = stack.map((o) => o.tag).lastIndexOf(tag);
      if (at <= 0) continue;
      while (stack.length > at) {
        const done = stack.pop() as Open;
        top().parts.push(wrap(done));
      }
    } else if (tag === 'br') {
      top().parts.push('\n');
    } else {
      const href = /href="([^"]*)"/i.exec(attributes)?.[1];
      stack.push({ tag, ...(href === undefined ? {} : { href: decodeEntities(href) }), parts: [] });
    }
  }
  if (last < html.length) top().parts.push(decodeEntities(html.slice(last)));
  while (stack.length > 1) {
    const done = stack.pop() as Open;
    top().parts.push(wrap(done));
  }
  return simplify(top().parts);
}

const cell = (html: string, header = false): RichBlockTableCell => ({
  text: htmlToRichText(html),
  ...(header ? { is_header: true as const } : {}),
  align: 'left',
  valign: 'top',
});

/** Paragraphs of an HTML text: one per blank-line-separated part, so a long text reads as it did. */
function paragraphs(html: string): Block[] {
  return html
    .split(/\n{2,}/)
    .filter((part) => part.trim() !== '')
    .map((part) => ({ type: 'paragraph', text: htmlToRichText(part) }));
}

function richBlocks(block: ScreenBlock): Block[] {
  switch (block.type) {
    case 'text':
      return paragraphs(block.html);
    case 'table':
      return [
        {
          type: 'table',
          is_bordered: true,
          is_striped: true,
          is_compact: true,
          cells: [
            block.columns.map((column) => cell(column, true)),
            ...block.rows.map((row) => row.cells.map((c) => cell(c))),
          ],
        },
      ];
    case 'section':
      return [
        {
          type: 'details',
          summary: htmlToRichText(block.title),
          blocks: block.blocks.flatMap(richBlocks),
          ...(block.open ? { is_open: true as const } : {}),
        },
      ];
  }
}

/** The screen as a rich message: the heading, then its blocks. */
export function screenRich(screen: Screen): Rich {
  const heading = htmlToRichText(`${screen.title}${screen.titleNote ?? ''}`);
  return { blocks: [{ type: 'heading', size: 3, text: heading }, ...screen.blocks.flatMap(richBlocks)] };
}

/** What a rich message spends of Telegram's limits: characters, blocks and the deepest nesting. */
export interface RichSize {
  characters: number;
  blocks: number;
  depth: number;
}

function textSize(text: RichText | undefined, depth: number, size: RichSize): void {
  if (text === undefined) return;
  size.depth = Math.max(size.depth, depth);
  if (typeof text === 'string') {
    size.characters += [...text].length;
  } else if (Array.isArray(text)) {
    for (const part of text) textSize(part, depth, size);
  } else if ('text' in text) {
    textSize(text.text as RichText, depth + 1, size);
  }
}

function blockSize(block: Block, depth: number, size: RichSize): void {
  size.blocks += 1;
  size.depth = Math.max(size.depth, depth);
  switch (block.type) {
    case 'table':
      size.blocks += block.cells.length;
      for (const row of block.cells) for (const c of row) textSize(c.text, depth + 1, size);
      break;
    case 'details':
      textSize(block.summary, depth + 1, size);
      for (const inner of block.blocks) blockSize(inner, depth + 1, size);
      break;
    case 'heading':
    case 'paragraph':
      textSize(block.text, depth + 1, size);
      break;
    default:
      break;
  }
}

/** Measures a rich message against `RICH_LIMITS` (the blocks the bot builds; media it has none). */
export function richSize(message: Rich): RichSize {
  const size: RichSize = { characters: 0, blocks: 0, depth: 0 };
  for (const block of message.blocks ?? []) blockSize(block, 1, size);
  return size;
}

/** Whether a rich message is within every limit Telegram sets. */
export function fitsRich(message: Rich, columns = 0): boolean {
  const size = richSize(message);
  return (
    size.characters <= RICH_LIMITS.characters &&
    size.blocks <= RICH_LIMITS.blocks &&
    size.depth <= RICH_LIMITS.depth &&
    columns <= RICH_LIMITS.tableColumns
  );
}
