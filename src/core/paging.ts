/**
 * Splits rendered list items into pages that fit one Telegram message (4096 characters)
 * together with a header, at most `perPage` items each. An item longer than a page is cut.
 */
export function paginate(
  items: readonly string[],
  options: { perPage: number; maxChars: number },
): string[][] {
  const pages: string[][] = [];
  let current: string[] = [];
  let size = 0;
  for (const raw of items) {
    const item = raw.length > options.maxChars ? `${raw.slice(0, options.maxChars - 1)}…` : raw;
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
