/**
 * Cutting text for Telegram. Telegram refuses a message over 4,096 characters (UTF-16 units)
 * and a string cut inside a surrogate pair, so every cut here is on a grapheme boundary: an
 * emoji, a flag or a letter with its accents is kept whole or dropped whole.
 */

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * `text` cut to at most `maxUnits` UTF-16 units, ending on a grapheme boundary; when anything was
 * cut, the result ends with `ellipsis` (counted in `maxUnits`).
 */
export function cutGraphemes(text: string, maxUnits: number, ellipsis = '…'): string {
  if (text.length <= maxUnits) return text;
  const budget = Math.max(0, maxUnits - ellipsis.length);
  let end = 0;
  for (const { segment, index } of graphemes.segment(text)) {
    if (index + segment.length > budget) break;
    end = index + segment.length;
  }
  return `${text.slice(0, end)}${ellipsis}`;
}

/** How much of a user's input an answer may quote back: enough to recognise it, never a wall. */
export const ECHO_LIMIT = 40;

/** A short prefix of user input to quote in an answer (plain text; escape it for HTML). */
export function echoInput(text: string, maxUnits = ECHO_LIMIT): string {
  return cutGraphemes(text.replace(/\s+/g, ' ').trim(), maxUnits);
}

/**
 * Splits text into chunks of at most `maxUnits` UTF-16 units, at line breaks where possible and
 * never inside a grapheme (a single line longer than a chunk is split between graphemes).
 */
export function splitMessage(text: string, maxUnits: number): string[] {
  const chunks: string[] = [];
  let current = '';
  const push = () => {
    if (current !== '') chunks.push(current);
    current = '';
  };
  for (const line of text.split('\n')) {
    const candidate = current === '' ? line : `${current}\n${line}`;
    if (candidate.length <= maxUnits) {
      current = candidate;
      continue;
    }
    push();
    if (line.length <= maxUnits) {
      current = line;
      continue;
    }
    let piece = '';
    for (const { segment } of graphemes.segment(line)) {
      // A "grapheme" longer than a whole chunk (a letter with thousands of combining marks) is
      // cut between code points: never inside a surrogate pair, never an empty chunk.
      for (const part of segment.length > maxUnits ? [...segment] : [segment]) {
        if (piece !== '' && piece.length + part.length > maxUnits) {
          chunks.push(piece);
          piece = '';
        }
        piece += part;
      }
    }
    current = piece;
  }
  push();
  return chunks.length > 0 ? chunks : [''];
}

/** Plain text of a bit of the bot's own HTML: tags dropped, the three entities we write undone. */
export function htmlToPlain(html: string): string {
  return html
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

/**
 * As many whole lines as fit in `maxUnits`, joined by line breaks; when lines are left out, the
 * last line is `more`. A line is never cut, so the tags of an HTML line stay balanced.
 */
export function joinLinesWithin(lines: readonly string[], maxUnits: number, more = '…'): string {
  const whole = lines.join('\n');
  if (whole.length <= maxUnits) return whole;
  const budget = maxUnits - more.length - 1;
  const kept: string[] = [];
  let size = -1;
  for (const line of lines) {
    if (size + 1 + line.length > budget) break;
    kept.push(line);
    size += 1 + line.length;
  }
  return [...kept, more].join('\n');
}

/**
 * Characters that show nothing yet make a typed answer look filled: zero-width space and joiners,
 * direction marks, the word joiner and invisible operators, the byte-order mark, the soft hyphen.
 */
const INVISIBLE = /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF]/g;

/**
 * A typed answer as a field should see it: invisible characters dropped, every run of spaces
 * (no-break and other Unicode spaces, line breaks) made one plain space, trimmed. An answer of
 * nothing but such characters becomes '' and counts as empty.
 */
export function normalizeTyped(text: string): string {
  return text.replace(INVISIBLE, '').replace(/\s+/g, ' ').trim();
}
