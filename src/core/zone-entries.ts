/*
 * The words of a zone file (RFC 1035 master file format) before they mean anything: logical
 * entries over parenthesised lines, tokens quoted or not, comments, TTL words and character
 * strings. zone-reader.ts reads records and directives from these entries.
 */

export interface ZoneToken {
  /** The token as written, escapes kept, quotes removed. */
  text: string;
  quoted: boolean;
}

/** One logical line of a zone file: physical lines joined by parentheses, comments dropped. */
export interface ZoneEntry {
  /** 1-based number of its first physical line. */
  line: number;
  /** 1-based number of its last physical line. */
  lastLine: number;
  /** Starts with a blank: the owner is the previous one. */
  blankOwner: boolean;
  tokens: ZoneToken[];
  error: 'quote' | 'parentheses' | undefined;
}

const BLANK = /[ \t]/;
/** Characters that end an unquoted token. */
const DELIMITER = /[\s;()"]/;

/**
 * The entry starting at `start` (0-based) and the index of the line after it. An unclosed quote or
 * parenthesis gives an entry of the first line alone with the error, so a stray '(' in a pasted
 * line cannot swallow the lines after it.
 */
export function scanEntry(lines: readonly string[], start: number): { entry: ZoneEntry; next: number } {
  const tokens: ZoneToken[] = [];
  const blankOwner = BLANK.test(lines[start]?.[0] ?? '');
  const alone = (error: ZoneEntry['error']) => ({
    entry: { line: start + 1, lastLine: start + 1, blankOwner, tokens: [], error },
    next: start + 1,
  });
  let depth = 0;
  for (let index = start; index < lines.length; index++) {
    const line = lines[index] ?? '';
    let position = 0;
    while (position < line.length) {
      const char = line[position] ?? '';
      if (char === ';') break;
      if (/\s/.test(char)) {
        position++;
      } else if (char === '(') {
        depth++;
        position++;
      } else if (char === ')') {
        depth--;
        if (depth < 0) return alone('parentheses');
        position++;
      } else if (char === '"') {
        const match = /"((?:[^"\\]|\\.)*)"/y;
        match.lastIndex = position;
        const quoted = match.exec(line);
        if (!quoted) return alone('quote');
        tokens.push({ text: quoted[1] ?? '', quoted: true });
        position = match.lastIndex;
      } else {
        let text = '';
        while (position < line.length) {
          const next = line[position] ?? '';
          if (next === '\\' && position + 1 < line.length) {
            text += line.slice(position, position + 2);
            position += 2;
            continue;
          }
          if (DELIMITER.test(next)) break;
          text += next;
          position++;
        }
        tokens.push({ text, quoted: false });
      }
    }
    if (depth === 0) {
      return {
        entry: { line: start + 1, lastLine: index + 1, blankOwner, tokens, error: undefined },
        next: index + 1,
      };
    }
  }
  return alone('parentheses');
}

/** The line without its zone-file comment (a ';' outside quotes); undefined when it has none. */
export function withoutComment(line: string): string | undefined {
  const kept = /^(?:[^;"\\]|\\.|"(?:[^"\\]|\\.)*")*/.exec(line)?.[0] ?? '';
  return line[kept.length] === ';' ? kept.trimEnd() : undefined;
}

const TTL_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

/** A ttl in seconds: `3600` or BIND units (`1h30m`, `2d`); undefined when not one. */
export function readTtl(word: string): number | undefined {
  if (/^\d+$/.test(word)) return Number(word);
  if (!/^(?:\d+[smhdw])+$/i.test(word)) return undefined;
  let seconds = 0;
  for (const [, amount = '', unit = ''] of word.matchAll(/(\d+)([smhdw])/gi)) {
    seconds += Number(amount) * (TTL_UNITS[unit.toLowerCase()] ?? 0);
  }
  return seconds;
}

const utf8 = new TextDecoder('utf-8');
const utf8Encoder = new TextEncoder();

/**
 * The bytes of zone-file character strings' content (quotes already removed): `\DDD` is a byte,
 * `\X` is X, everything else stands for its UTF-8 bytes.
 */
function zoneTextBytes(raw: string): number[] {
  const bytes: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const char = raw[i] ?? '';
    if (char === '\\' && i + 1 < raw.length) {
      const digits = /^\d{3}/.exec(raw.slice(i + 1, i + 4));
      if (digits && Number(digits[0]) <= 255) {
        bytes.push(Number(digits[0]));
        i += 3;
        continue;
      }
      i++;
    }
    const codePoint = raw.codePointAt(i) ?? 0;
    const piece = String.fromCodePoint(codePoint);
    if (piece.length === 2) i++;
    bytes.push(...utf8Encoder.encode(piece));
  }
  return bytes;
}

/**
 * Decodes the content of zone-file character strings (see zoneTextBytes), the bytes read as UTF-8,
 * so a BIND dump of Cyrillic text (`\208\159…`) comes back as text. Lenient: a byte of no UTF-8
 * character becomes U+FFFD (for the provider's listing, read as it is); an import reads with
 * readZoneText, which refuses it.
 */
export function decodeZoneText(raw: string): string {
  return utf8.decode(new Uint8Array(zoneTextBytes(raw)));
}

/** A byte as BIND writes it in a character string: `\000`. */
const byteEscape = (byte: number): string => `\\${String(byte).padStart(3, '0')}`;

/**
 * The text of zone-file character strings (see zoneTextBytes), or the first byte that is not
 * text, as BIND writes it: a byte of no UTF-8 character (`\255`; a broken sequence is named by
 * its first byte). A control character (`\000`, `\010`) is a character, so it is text here: a
 * string carries it, and the export writes it back as the same escape.
 */
export function readZoneText(raw: string): { ok: true; text: string } | { ok: false; byte: string } {
  const bytes = zoneTextBytes(raw);
  // ignoreBOM: a text that starts with U+FEFF keeps it, as BIND keeps its bytes.
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let text = '';
  /** Where the character being decoded began. */
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    let piece: string;
    try {
      piece =
        i < bytes.length
          ? decoder.decode(new Uint8Array([bytes[i] ?? 0]), { stream: true })
          : decoder.decode();
    } catch {
      return { ok: false, byte: byteEscape(bytes[start] ?? 0) };
    }
    if (piece === '') continue;
    text += piece;
    start = i + 1;
  }
  return { ok: true, text };
}

/**
 * When the whole text is one or more zone-file quoted strings (`"a" "b"`), their decoded
 * concatenation; otherwise undefined (the text is verbatim).
 */
export function unquoteZoneStrings(rdata: string): string | undefined {
  const parts: string[] = [];
  const quoted = /\s*"((?:[^"\\]|\\[\s\S])*)"\s*/y;
  let position = 0;
  while (position < rdata.length) {
    quoted.lastIndex = position;
    const match = quoted.exec(rdata);
    if (!match) return undefined;
    parts.push(match[1] ?? '');
    position = quoted.lastIndex;
  }
  return parts.length > 0 ? decodeZoneText(parts.join('')) : undefined;
}
