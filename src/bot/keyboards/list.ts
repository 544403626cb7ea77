import { Markup } from 'telegraf';
import type { InlineKeyboardButton } from 'telegraf/types';
import { encodeCallback } from './callback-data.js';

/** The ◀ n/m ▶ row under a paged list; empty for a single page. */
export function pagerRow(
  listId: string,
  page: number,
  pages: number,
  filter: string,
): InlineKeyboardButton[] {
  if (pages <= 1) return [];
  const row: InlineKeyboardButton[] = [];
  row.push(
    page > 0
      ? Markup.button.callback('◀', encodeCallback('page', listId, page - 1, filter))
      : Markup.button.callback(' ', encodeCallback('noop')),
  );
  row.push(Markup.button.callback(`${page + 1}/${pages}`, encodeCallback('noop')));
  row.push(
    page < pages - 1
      ? Markup.button.callback('▶', encodeCallback('page', listId, page + 1, filter))
      : Markup.button.callback(' ', encodeCallback('noop')),
  );
  return row;
}

/** Lays buttons out `perRow` to a row. */
export function inRows(buttons: InlineKeyboardButton[], perRow: number): InlineKeyboardButton[][] {
  const rows: InlineKeyboardButton[][] = [];
  for (let i = 0; i < buttons.length; i += perRow) rows.push(buttons.slice(i, i + perRow));
  return rows;
}

/** A link as a URL button (Telegram opens it) — the text of the message carries it as well. */
export function linkKeyboard(label: string, url: string) {
  return Markup.inlineKeyboard([[Markup.button.url(label, url)]]);
}
