import type { InlineKeyboardButton } from 'telegraf/types';
import { MESSAGE_LIMIT, paginate } from '../../core/paging.js';
import type { BotContext } from '../context.js';
import { inRows, pagerRow } from './keyboards.js';
import { RICH_LIMITS } from './rich-screen.js';
import type { Screen } from './screen.js';

/**
 * One rendered row of a list: its HTML line and, optionally, a button acting on it; for a list
 * with columns, its cells (inline HTML), which a rich message shows as a table row.
 */
export interface ListRow {
  html: string;
  cells?: string[];
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
  ): Promise<{
    title: string;
    rows: ListRow[];
    empty: string;
    footer?: InlineKeyboardButton[];
    /** A row under the footer, on every page: a wide button of its own (open the Mini App). */
    below?: InlineKeyboardButton[];
    /** The table's header when every row has cells; without it a rich page shows the rows' lines. */
    columns?: string[];
  }>;
}

const HEADER_ROOM = 400;
/**
 * A footer's actions to a row: six in one row (the DNS list's) a 390 px phone cuts to «NS…»;
 * three keep each label whole.
 */
const FOOTER_PER_ROW = 3;

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
    const { title, rows, empty, footer = [], below = [], columns } = await list.load(ctx, filter);
    if (rows.length === 0) {
      // The footer's actions (Add, New order) matter most when the list is empty.
      await ctx.reply(empty, {
        parse_mode: 'HTML',
        ...(footer.length + below.length > 0
          ? {
              reply_markup: {
                inline_keyboard: [...inRows(footer, FOOTER_PER_ROW), below].filter((row) => row.length > 0),
              },
            }
          : {}),
      });
      return;
    }
    const screen = (rich: boolean): Screen => {
      const pages = rich
        ? richPages(rows, footer.length + below.length)
        : htmlPages(rows, list.perPage ?? 10);
      const index = Math.min(Math.max(page, 0), pages.length - 1);
      const current = pages[index] ?? [];
      const buttons = current.flatMap((r) => (r.button ? [r.button] : []));
      const keyboard = [
        ...inRows(buttons, list.buttonsPerRow ?? 2),
        pagerRow(ctx.t, list.id, index, pages.length, filter),
        ...inRows(footer, FOOTER_PER_ROW),
        below,
      ].filter((row) => row.length > 0);
      const tabled = columns !== undefined && current.every((r) => r.cells !== undefined);
      return {
        title,
        ...(pages.length > 1
          ? { titleNote: ` · ${ctx.t('common:pageOf', { page: index + 1, pages: pages.length })}` }
          : {}),
        blocks: tabled
          ? [{ type: 'table', columns, rows: current.map((r) => ({ cells: r.cells ?? [], html: r.html })) }]
          : current.map((r) => ({ type: 'text', html: r.html })),
        keyboard,
      };
    };
    if (mode === 'edit') {
      await ctx.screens.edit(ctx, screen);
    } else {
      await ctx.screens.send(ctx, screen);
    }
  }
}

/** Pages of a list as HTML: at most `perPage` rows, and the text within one message. */
function htmlPages(rows: ListRow[], perPage: number): ListRow[][] {
  // Paginate on the rendered rows, remembering which row each piece came from.
  const pages = paginate(
    rows.map((r) => r.html),
    { perPage, maxChars: MESSAGE_LIMIT - HEADER_ROOM },
  );
  let offset = 0;
  return pages.map((texts) => {
    const slice = rows
      .slice(offset, offset + texts.length)
      .map((row, i) => ({ ...row, html: texts[i] ?? row.html }));
    offset += texts.length;
    return slice;
  });
}

/**
 * Telegram draws at most about a hundred buttons under one message; a rich page keeps its rows'
 * buttons (with the pager and the footer) within that, and its text well inside the rich limits.
 */
const RICH_BUTTONS = 96;
const RICH_ROWS = 200;
const RICH_CHARS = RICH_LIMITS.characters - 2_000;

/** Pages of a list as rich messages: a whole zone of a few dozen records is one page. */
function richPages(rows: ListRow[], footerButtons: number): ListRow[][] {
  const pages: ListRow[][] = [];
  let current: ListRow[] = [];
  let buttons = 0;
  let chars = 0;
  const buttonRoom = RICH_BUTTONS - footerButtons - 2;
  for (const row of rows) {
    const cost = [...(row.cells ?? [row.html]).join('')].length;
    const button = row.button ? 1 : 0;
    if (
      current.length > 0 &&
      (current.length >= RICH_ROWS || buttons + button > buttonRoom || chars + cost > RICH_CHARS)
    ) {
      pages.push(current);
      current = [];
      buttons = 0;
      chars = 0;
    }
    current.push(row);
    buttons += button;
    chars += cost;
  }
  if (current.length > 0) pages.push(current);
  return pages;
}
