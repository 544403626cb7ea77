import { Markup } from 'telegraf';
import type { InlineKeyboardButton } from 'telegraf/types';
import { encodeKitCallback } from './actions.js';
import { copyTextButton } from './bot-api-today.js';
import type { Translate } from './i18n.js';

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
        encodeKitCallback('page', listId, page - 1, filter),
      ),
    );
  }
  if (page < pages - 1) {
    row.push(
      Markup.button.callback(
        t('common:nextPage', { page: page + 2 }),
        encodeKitCallback('page', listId, page + 1, filter),
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

/**
 * A link as a URL button (Telegram opens it) and a button that copies it (to paste into an e-mail
 * or a messenger to a client who is not on Telegram) — the text of the message carries it as well;
 * `below` is a row under them (an unpaid invoice's "Send to client").
 */
export function linkKeyboard(
  label: string,
  url: string,
  below: InlineKeyboardButton[] = [],
  copyLabel?: string,
) {
  const copy = copyLabel === undefined ? undefined : copyTextButton(copyLabel, url);
  const first = copy ? [Markup.button.url(label, url), copy] : [Markup.button.url(label, url)];
  return Markup.inlineKeyboard([first, below].filter((row) => row.length > 0));
}

/**
 * The inline query for an invoice: a team group's (`#<group id> …`: the order is the group's
 * account's, not the member's own) or the partner's own.
 */
export function groupQuery(groupId: number | undefined, query: string): string {
  return groupId === undefined ? query : `#${groupId} ${query}`;
}

const GROUP_QUERY = /^#(-\d{1,20})(?:\s+|$)(.*)$/s;

/** Reads a query `groupQuery` made: the group it names (if any) and what is left to search. */
export function readGroupQuery(query: string): { groupId: number | undefined; typed: string } {
  const match = GROUP_QUERY.exec(query);
  return match ? { groupId: Number(match[1]), typed: match[2] ?? '' } : { groupId: undefined, typed: query };
}

/**
 * "📤 Send to client": opens the inline picker (`@bot <query>`) in a chat the partner chooses; an
 * invoice number as the query preselects that invoice, an empty one lists every unpaid invoice.
 * A switch button carries no callback data.
 */
export function sendToClientButton(t: Translate, query: string): InlineKeyboardButton {
  // The picker offers private chats and groups only: an invoice is not for a channel or a bot.
  return {
    text: t('inline:sendToClient'),
    switch_inline_query_chosen_chat: {
      query,
      allow_user_chats: true,
      allow_group_chats: true,
      allow_bot_chats: false,
      allow_channel_chats: false,
    },
  };
}
