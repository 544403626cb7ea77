import type { InlineKeyboardButton } from 'telegraf/types';
import { MESSAGE_LIMIT, paginate } from '../../core/paging.js';
import type { BotContext } from '../context.js';
import { inRows, pagerRow } from './keyboards.js';

/** One rendered row of a list: its HTML text and, optionally, a button acting on it. */
export interface ListRow {
  html: string;
  button?: InlineKeyboardButton;
}

/**
 * A list the bot shows page by page: how to load its rows for a filter, and its title. The
 * same definition serves the command (first page, new message) and the ◀ ▶ buttons (edit).
 */
export interface PagedList {
  /** Short id used in the page buttons' callback data. */
  id: string;
  perPage?: number;
  /** Item buttons to a row (2 unless told): long labels read better one to a row. */
  buttonsPerRow?: number;
  /** Rows to show, already in display order; `filter` is `-` for none. */
  load(
    ctx: BotContext,
    filter: string,
  ): Promise<{ title: string; rows: ListRow[]; empty: string; footer?: InlineKeyboardButton[] }>;
}

const HEADER_ROOM = 400;

/**
 * Registers list definitions and renders their pages. Pages are cut so that no message exceeds
 * Telegram's 4096 characters; each page's item buttons sit above the pager row.
 */
export class PagedLists {
  private readonly lists = new Map<string, PagedList>();

  /** The `page` button: another page of a list, in place of the pressed one. */
  async turnPage(ctx: BotContext, listId: string, page: number, filter: string): Promise<void> {
    const list = this.lists.get(listId);
    if (!list) return;
    await this.show(ctx, list, filter, page, 'edit');
  }

  register(list: PagedList): PagedList {
    this.lists.set(list.id, list);
    return list;
  }

  /** Shows one page as a new message (`reply`) or in place of the pressed one (`edit`). */
  async show(
    ctx: BotContext,
    list: PagedList,
    filter: string,
    page: number,
    mode: 'reply' | 'edit',
  ): Promise<void> {
    const { title, rows, empty, footer = [] } = await list.load(ctx, filter);
    if (rows.length === 0) {
      // The footer's actions (Add, New order) matter most when the list is empty.
      await ctx.reply(empty, {
        parse_mode: 'HTML',
        ...(footer.length > 0 ? { reply_markup: { inline_keyboard: [footer] } } : {}),
      });
      return;
    }
    const perPage = list.perPage ?? 10;
    // Paginate on the rendered rows, remembering which row each piece came from.
    const pages = paginate(
      rows.map((r) => r.html),
      { perPage, maxChars: MESSAGE_LIMIT - HEADER_ROOM },
    );
    let offset = 0;
    const pageRows = pages.map((texts) => {
      const slice = rows
        .slice(offset, offset + texts.length)
        .map((row, i) => ({ ...row, html: texts[i] ?? row.html }));
      offset += texts.length;
      return slice;
    });
    const index = Math.min(Math.max(page, 0), pageRows.length - 1);
    const current = pageRows[index] ?? [];
    const pageNote =
      pageRows.length > 1 ? ` · ${ctx.t('common:pageOf', { page: index + 1, pages: pageRows.length })}` : '';
    const text = [`<b>${title}</b>${pageNote}`, ...current.map((r) => r.html)].join('\n\n');
    const buttons = current.flatMap((r) => (r.button ? [r.button] : []));
    const keyboard = [
      ...inRows(buttons, list.buttonsPerRow ?? 2),
      pagerRow(ctx.t, list.id, index, pageRows.length, filter),
      footer,
    ].filter((row) => row.length > 0);
    const extra = {
      parse_mode: 'HTML' as const,
      link_preview_options: { is_disabled: true },
      reply_markup: { inline_keyboard: keyboard },
    };
    if (mode === 'edit') {
      await ctx.editMessageText(text, extra);
    } else {
      await ctx.reply(text, extra);
    }
  }
}
