import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { paginate } from '../../src/core/paging.js';
import { cutGraphemes, ECHO_LIMIT, echoInput, joinLinesWithin, splitMessage } from '../../src/core/text.js';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const graphemesOf = (text: string): string[] => [...segmenter.segment(text)].map((s) => s.segment);

/**
 * Text as users and providers write it: Latin and Cyrillic, emoji of one and two code points,
 * a ZWJ family, a flag, a letter with a combining accent, spaces and line breaks. The longest
 * grapheme here is 8 UTF-16 units (the family).
 */
const PIECES = ['a', 'я', '1', ' ', '\n', '😀', '👍🏽', '👨‍👩‍👧', '🇧🇾', 'é', 'e\u0301', '<', '&'];
const LONGEST_PIECE = 8;
const userText = fc.string({ unit: fc.constantFrom(...PIECES), maxLength: 300 });

/** Whether `cut` is `text` up to a grapheme boundary. */
const isGraphemePrefix = (cut: string, text: string): boolean => {
  if (!text.startsWith(cut)) return false;
  let end = 0;
  for (const grapheme of graphemesOf(text)) {
    if (end === cut.length) return true;
    end += grapheme.length;
  }
  return end === cut.length;
};

describe('cutGraphemes', () => {
  it('keeps short text as it is and cuts long text to the limit, on a grapheme boundary', () => {
    fc.assert(
      fc.property(userText, fc.integer({ min: 1, max: 320 }), (text, max) => {
        const cut = cutGraphemes(text, max);
        expect(cut.length).toBeLessThanOrEqual(max);
        expect(cut).not.toMatch(LONE_SURROGATE);
        if (text.length <= max) {
          expect(cut).toBe(text);
        } else {
          expect(cut.endsWith('…')).toBe(true);
          expect(isGraphemePrefix(cut.slice(0, -1), text)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('drops a flag or a family whole rather than half of it', () => {
    expect(cutGraphemes('ab🇧🇾🇧🇾', 4)).toBe('ab…');
    expect(cutGraphemes('👨‍👩‍👧 family', 6)).toBe('…');
    expect(cutGraphemes(`a${'😀'.repeat(10)}`, 6)).toBe('a😀😀…');
  });
});

describe('echoInput', () => {
  it('quotes at most a short single-line prefix, never half an emoji', () => {
    fc.assert(
      fc.property(userText, (text) => {
        const echo = echoInput(text);
        expect(echo.length).toBeLessThanOrEqual(ECHO_LIMIT);
        expect(echo).not.toMatch(LONE_SURROGATE);
        expect(echo).not.toContain('\n');
      }),
    );
    expect(echoInput(`a${'😀'.repeat(2500)}`)).toBe(`a${'😀'.repeat(19)}…`);
  });
});

describe('splitMessage', () => {
  /**
   * The chunks are the text in order, with only line breaks left out between them, and every
   * chunk starts and ends on a grapheme boundary of the text.
   */
  const coversInOrder = (chunks: string[], text: string): boolean => {
    const boundaries = new Set([0]);
    let end = 0;
    for (const grapheme of graphemesOf(text)) {
      end += grapheme.length;
      boundaries.add(end);
    }
    let position = 0;
    for (const chunk of chunks) {
      let start = position;
      while (!text.startsWith(chunk, start) && text[start] === '\n') start += 1;
      if (!text.startsWith(chunk, start)) return false;
      position = start + chunk.length;
      if (!boundaries.has(start) || !boundaries.has(position)) return false;
    }
    return /^\n*$/.test(text.slice(position));
  };

  it('never goes over the limit, never splits a grapheme, and loses nothing but line breaks', () => {
    fc.assert(
      fc.property(userText, fc.integer({ min: LONGEST_PIECE, max: 200 }), (text, max) => {
        const chunks = splitMessage(text, max);
        expect(chunks.length).toBeGreaterThan(0);
        for (const chunk of chunks) {
          expect(chunk.length).toBeLessThanOrEqual(max);
          expect(chunk).not.toMatch(LONE_SURROGATE);
        }
        expect(coversInOrder(chunks, text)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('prefers line breaks to cuts inside a line', () => {
    expect(splitMessage('aaa\nbbb\nccc', 7)).toEqual(['aaa\nbbb', 'ccc']);
    expect(splitMessage(`x${'😀'.repeat(5)}`, 4)).toEqual(['x😀', '😀😀', '😀😀']);
  });
});

describe('joinLinesWithin', () => {
  it('keeps whole lines in order within the limit, and marks what was left out', () => {
    fc.assert(
      fc.property(fc.array(userText, { maxLength: 20 }), fc.integer({ min: 1, max: 400 }), (lines, max) => {
        const joined = joinLinesWithin(lines, max);
        expect(joined.length).toBeLessThanOrEqual(max);
        expect(joined).not.toMatch(LONE_SURROGATE);
        if (lines.join('\n').length <= max) {
          expect(joined).toBe(lines.join('\n'));
        } else {
          expect(joined.endsWith('…')).toBe(true);
          const kept = joined.slice(0, -1);
          expect(lines.join('\n').startsWith(kept)).toBe(true);
          // Cut only after a whole line.
          expect(kept === '' || lines.join('\n')[kept.length - 1] === '\n').toBe(true);
        }
      }),
    );
  });
});

describe('paginate', () => {
  it('cuts an over-long item between graphemes, never inside an emoji', () => {
    const [[item] = []] = paginate([`a${'😀'.repeat(50)}`], { perPage: 10, maxChars: 20 });
    expect(item).toBe(`a${'😀'.repeat(9)}…`);
    fc.assert(
      fc.property(fc.array(userText, { maxLength: 10 }), fc.integer({ min: 1, max: 60 }), (items, max) => {
        for (const page of paginate(items, { perPage: 5, maxChars: max })) {
          for (const cut of page) {
            expect(cut.length).toBeLessThanOrEqual(max);
            expect(cut).not.toMatch(LONE_SURROGATE);
          }
        }
      }),
    );
  });
});

describe('splitMessage with a grapheme longer than a chunk', () => {
  it('cuts it between code points: no empty chunk, none over the limit', () => {
    const chunks = splitMessage(`e${'\u0301'.repeat(5_000)}`, 4_096);
    expect(chunks.map((c) => c.length)).toEqual([4_096, 905]);
  });
});
