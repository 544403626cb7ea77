/**
 * Telegram's HTML parse mode, as the Bot API server applies it (tdlib's `parse_html`): the text a
 * message keeps is plain, its formatting is a list of entities with offsets in UTF-16 code units,
 * and markup Telegram cannot parse is refused with Telegram's own words, so a bot that sends a
 * broken tag meets the same "can't parse entities" error here as in production.
 */

export interface MessageEntity {
  type: string;
  offset: number;
  length: number;
  url?: string;
  /** A `text_mention`: the user a `tg://user?id=` link names. */
  user?: { id: number; is_bot: boolean; first_name: string };
  language?: string;
  custom_emoji_id?: string;
}

export interface ParsedText {
  text: string;
  entities: MessageEntity[];
}

/** Thrown with the description Telegram gives after "Bad Request: can't parse entities: ". */
export class HtmlParseError extends Error {
  override name = 'HtmlParseError';
}

const SIMPLE_TAGS: Record<string, string> = {
  b: 'bold',
  strong: 'bold',
  i: 'italic',
  em: 'italic',
  u: 'underline',
  ins: 'underline',
  s: 'strikethrough',
  strike: 'strikethrough',
  del: 'strikethrough',
  'tg-spoiler': 'spoiler',
  code: 'code',
};
const OTHER_TAGS = new Set(['a', 'pre', 'span', 'blockquote', 'tg-emoji']);

const NAMED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

interface OpenTag {
  name: string;
  /** Where the entity starts in the output, in UTF-16 code units. */
  start: number;
  attributes: Map<string, string>;
  /** Index in `entities` where this tag's entity goes, so outer entities come first. */
  slot: number;
}

/** Parses `html` the way Telegram does for `parse_mode: 'HTML'`; throws HtmlParseError. */
export function parseTelegramHtml(html: string): ParsedText {
  let text = '';
  const stack: OpenTag[] = [];
  const slots: (MessageEntity | undefined)[] = [];
  const bytesBefore = (index: number): number => Buffer.byteLength(html.slice(0, index));
  let i = 0;
  while (i < html.length) {
    const char = html[i];
    if (char === '&') {
      const entity = /^&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]{2,8});/.exec(html.slice(i, i + 12));
      const decoded = entity ? decodeEntity(entity[1] ?? '') : undefined;
      if (entity && decoded !== undefined) {
        text += decoded;
        i += entity[0].length;
      } else {
        // Telegram keeps an ampersand it cannot read as an entity as it is.
        text += '&';
        i += 1;
      }
      continue;
    }
    if (char !== '<') {
      text += char;
      i += 1;
      continue;
    }
    const tagStart = i;
    if (html[i + 1] === '/') {
      const end = html.indexOf('>', i);
      const name = (end < 0 ? html.slice(i + 2) : html.slice(i + 2, end)).trim().toLowerCase();
      const open = stack.pop();
      if (!open) throw new HtmlParseError(`Unexpected end tag at byte offset ${bytesBefore(tagStart)}`);
      if (end < 0 || (name !== '' && name !== open.name)) {
        throw new HtmlParseError(
          `Unmatched end tag at byte offset ${bytesBefore(tagStart)}, expected "</${open.name}>", found "${html.slice(tagStart, end < 0 ? undefined : end + 1)}"`,
        );
      }
      slots[open.slot] = entityFor(open, text.length - open.start);
      i = end + 1;
      continue;
    }
    const nameMatch = /^[a-zA-Z][a-zA-Z0-9-]*/.exec(html.slice(i + 1));
    const name = (nameMatch?.[0] ?? '').toLowerCase();
    if (!(name in SIMPLE_TAGS) && !OTHER_TAGS.has(name)) {
      throw new HtmlParseError(`Unsupported start tag "${name}" at byte offset ${bytesBefore(tagStart)}`);
    }
    const { attributes, next } = readAttributes(html, i + 1 + name.length, name, bytesBefore(tagStart));
    if (name === 'span' && attributes.get('class') !== 'tg-spoiler') {
      throw new HtmlParseError(
        `Tag "span" must have class "tg-spoiler" at byte offset ${bytesBefore(tagStart)}`,
      );
    }
    stack.push({ name, start: text.length, attributes, slot: slots.length });
    slots.push(undefined);
    i = next;
  }
  const unclosed = stack.pop();
  if (unclosed) throw new HtmlParseError(`Can't find end tag corresponding to start tag "${unclosed.name}"`);
  const entities = slots.filter((e): e is MessageEntity => e !== undefined && e.length > 0);
  // A `<pre><code class="language-x">` pair is one pre entity with a language.
  return { text, entities: mergePreCode(entities) };
}

function readAttributes(
  html: string,
  from: number,
  tag: string,
  tagOffset: number,
): { attributes: Map<string, string>; next: number } {
  const attributes = new Map<string, string>();
  let i = from;
  for (;;) {
    while (i < html.length && /\s/.test(html[i] ?? '')) i += 1;
    if (i >= html.length) {
      throw new HtmlParseError(`Unclosed start tag at byte offset ${tagOffset}`);
    }
    if (html[i] === '>') return { attributes, next: i + 1 };
    const nameMatch = /^[a-zA-Z0-9_-]+/.exec(html.slice(i));
    if (!nameMatch) {
      throw new HtmlParseError(`Empty attribute name in the tag "${tag}" at byte offset ${tagOffset}`);
    }
    const name = nameMatch[0].toLowerCase();
    i += nameMatch[0].length;
    while (i < html.length && /\s/.test(html[i] ?? '')) i += 1;
    let value = '';
    if (html[i] === '=') {
      i += 1;
      while (i < html.length && /\s/.test(html[i] ?? '')) i += 1;
      const quote = html[i];
      if (quote === '"' || quote === "'") {
        const end = html.indexOf(quote, i + 1);
        if (end < 0) {
          throw new HtmlParseError(`Unclosed end of attribute value at byte offset ${tagOffset}`);
        }
        value = decodeAttribute(html.slice(i + 1, end));
        i = end + 1;
      } else {
        const bare = /^[^\s>]*/.exec(html.slice(i))?.[0] ?? '';
        value = decodeAttribute(bare);
        i += bare.length;
      }
    }
    attributes.set(name, value);
  }
}

function entityFor(open: OpenTag, length: number): MessageEntity | undefined {
  const base = { offset: open.start, length };
  const simple = SIMPLE_TAGS[open.name];
  if (simple) {
    const language = open.name === 'code' ? /^language-(.+)$/.exec(open.attributes.get('class') ?? '') : null;
    return language ? { type: 'code', ...base, language: language[1] ?? '' } : { type: simple, ...base };
  }
  switch (open.name) {
    case 'a': {
      const href = open.attributes.get('href') ?? '';
      // Telegram turns a link to a user into a mention of them (what a selective ForceReply aims at).
      const user = /^tg:\/\/user\?id=(\d{1,15})$/.exec(href);
      if (user)
        return {
          type: 'text_mention',
          ...base,
          user: { id: Number(user[1]), is_bot: false, first_name: '' },
        };
      return href === '' ? undefined : { type: 'text_link', ...base, url: href };
    }
    case 'pre':
      return { type: 'pre', ...base };
    case 'span':
      return { type: 'spoiler', ...base };
    case 'blockquote':
      return { type: open.attributes.has('expandable') ? 'expandable_blockquote' : 'blockquote', ...base };
    case 'tg-emoji':
      return { type: 'custom_emoji', ...base, custom_emoji_id: open.attributes.get('emoji-id') ?? '' };
    default:
      return undefined;
  }
}

function mergePreCode(entities: MessageEntity[]): MessageEntity[] {
  const merged: MessageEntity[] = [];
  for (const entity of entities) {
    const outer = merged.at(-1);
    if (
      entity.type === 'code' &&
      outer?.type === 'pre' &&
      outer.offset === entity.offset &&
      outer.length === entity.length
    ) {
      if (entity.language !== undefined) outer.language = entity.language;
      continue;
    }
    if (entity.type === 'code' && entity.language !== undefined) {
      const { language: _language, ...plain } = entity;
      merged.push(plain);
      continue;
    }
    merged.push(entity);
  }
  return merged;
}

function decodeEntity(body: string): string | undefined {
  if (body.startsWith('#')) {
    const code = body[1] === 'x' ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
  }
  return NAMED_ENTITIES[body.toLowerCase()];
}

function decodeAttribute(value: string): string {
  return value.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]{2,8});/g, (all, body: string) => {
    return decodeEntity(body) ?? all;
  });
}

/** What the formatting makes of `text` under `parseMode` (only HTML is parsed; others as sent). */
export function applyParseMode(
  text: string,
  parseMode: unknown,
  entities: unknown,
): { text: string; entities?: unknown } {
  if (parseMode === 'HTML') {
    const parsed = parseTelegramHtml(text);
    return parsed.entities.length > 0 ? parsed : { text: parsed.text };
  }
  return Array.isArray(entities) ? { text, entities } : { text };
}
