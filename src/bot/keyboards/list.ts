import { Markup } from 'telegraf';
import type { InlineKeyboardButton } from 'telegraf/types';
import type { Translate } from '../i18n.js';
import { encodeCallback } from './callback-data.js';

/**
 * The row under a paged list: `◀ стр. 1` and `стр. 3 ▶`, only the ones that lead somewhere (the
 * page number itself is in the message's title, not on a button that does nothing); empty for a
 * single page.
 */
export function pagerRow(
  t: Translate,
  listId: string,
  page: number,
  pages: number,
  filter: string,
): InlineKeyboardButton[] {
  if (pages <= 1) return [];
  const row: InlineKeyboardButton[] = [];
  if (page > 0) {
    row.push(
      Markup.button.callback(
        t('common:previousPage', { page }),
        encodeCallback('page', listId, page - 1, filter),
      ),
    );
  }
  if (page < pages - 1) {
    row.push(
      Markup.button.callback(
        t('common:nextPage', { page: page + 2 }),
        encodeCallback('page', listId, page + 1, filter),
      ),
    );
  }
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
