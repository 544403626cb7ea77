import { cutGraphemes } from './text.js';

/**
 * Splits rendered list items into pages that fit one Telegram message (4096 characters)
 * together with a header, at most `perPage` items each. An item longer than a page is cut, on a
 * grapheme boundary (a cut inside a surrogate pair is a message Telegram refuses).
 */
export function paginate(
  items: readonly string[],
  options: { perPage: number; maxChars: number },
): string[][] {
  const pages: string[][] = [];
  let current: string[] = [];
  let size = 0;
  for (const raw of items) {
    const item = cutGraphemes(raw, options.maxChars);
    const cost = item.length + 2;
    if (current.length > 0 && (current.length >= options.perPage || size + cost > options.maxChars)) {
      pages.push(current);
      current = [];
      size = 0;
    }
    current.push(item);
    size += cost;
  }
  if (current.length > 0) pages.push(current);
  return pages;
}

/** Telegram's limit on the text of one message. */
export const MESSAGE_LIMIT = 4096;
