/**
 * One view model per screen that is a table or a document (a list, a summary, a preview, a report),
 * drawn by two renderers: Telegram's rich message blocks (Bot API 10.1, rich-screen.ts) and the
 * HTML lines every Bot API server takes (here). Features build a `Screen`; `Screens` (screens.ts)
 * decides which renderer a chat gets. A screen that is a sentence stays a plain `ctx.reply`.
 *
 * Texts in a screen are Telegram HTML of the inline kind (`<b>`, `<i>`, `<code>`, `<a href>`),
 * escaped as every HTML text of the bot already is; the rich renderer reads them into rich text.
 */
import type { EphemeralMessageParameters } from '@grammyjs/types';
import type { InlineKeyboardButton, Message } from 'telegraf/types';

/** A row of a table: its cells for the rich table, and the line today's HTML screen shows for it. */
export interface TableRow {
  cells: string[];
  html: string;
}

export type ScreenBlock =
  /** A paragraph: the same words in both renderers. */
  | { type: 'text'; html: string }
  /**
   * A table: a header row and a row per item; in HTML, each row's own line — a blank line apart,
   * or (`compact`) one under another, as a preview's record lines always were.
   */
  | { type: 'table'; columns: string[]; rows: TableRow[]; compact?: boolean }
  /**
   * A part with a title (a domain of a bulk report, a section of a summary): an expandable details
   * block in a rich message, the bold title above its lines in HTML.
   */
  | { type: 'section'; title: string; blocks: ScreenBlock[]; open?: boolean };

export interface Screen {
  /** The heading (inline HTML); in HTML it is the bold first line. */
  title: string;
  /** Added to the title in both renderers, not bold in HTML (the page of a list: "· стр. 1 из 3"). */
  titleNote?: string;
  blocks: ScreenBlock[];
  keyboard?: InlineKeyboardButton[][];
}

/**
 * A screen, or how to build it for one renderer: a list pages differently for a rich message
 * (32,768 characters) than for HTML (4,096), so it is built once the renderer is known.
 */
export type ScreenSource = Screen | ((rich: boolean) => Screen);

/** What a handler has of `Screens` (screens.ts) on its context: `ctx.screens`. */
/**
 * A screen as it went out: the message, and the screen it shows — `rich` when it went as a rich
 * message (an edit of it must be one too), else the screen its HTML was drawn from.
 */
export interface SentScreen {
  chatId: number;
  messageId: number;
  rich: boolean;
  /** The screen as it went out (built for the renderer that drew it). */
  screen: Screen;
  /** The message as the Bot API returned it (the last part of an HTML screen in parts). */
  message: Message;
}

export interface ScreenPort<C> {
  /** Whether screens go out as rich messages now (false once the server refused them). */
  readonly richMessages: boolean;
  /**
   * The screen as a new message in the update's chat (and topic); `extra` makes it one member's
   * alone in a group (ephemeral parameters, as `ctx.toMember.send` hands them in).
   */
  send(ctx: C, source: ScreenSource, extra?: ScreenExtra): Promise<SentScreen>;
  /** The screen in place of the message whose button was pressed. */
  edit(ctx: C, source: ScreenSource): Promise<void>;
}

/** What a screen's message carries besides itself (see screens.ts). */
export interface ScreenExtra {
  ephemeral_message_parameters?: EphemeralMessageParameters;
}

/** Blank lines between the parts of an HTML screen, as the bot's lists always had. */
const GAP = '\n\n';

function blockHtml(block: ScreenBlock): string {
  switch (block.type) {
    case 'text':
      return block.html;
    case 'table':
      return block.rows.map((row) => row.html).join(block.compact ? '\n' : GAP);
    case 'section':
      return [`<b>${block.title}</b>`, ...block.blocks.map(blockHtml)].join('\n');
  }
}

/** The screen as today's HTML message text: the bold title, then each block, a blank line apart. */
export function screenHtml(screen: Screen): string {
  const heading = `<b>${screen.title}</b>${screen.titleNote ?? ''}`;
  return [heading, ...screen.blocks.map(blockHtml)].join(GAP);
}

type Table = Extract<ScreenBlock, { type: 'table' }>;

/** The last table of the blocks (sections looked into) with a row besides `cut`'s marks, or undefined. */
function lastTableWithRows(blocks: ScreenBlock[], cut: Set<TableRow>): Table | undefined {
  for (const block of [...blocks].reverse()) {
    if (block.type === 'section') {
      const inner = lastTableWithRows(block.blocks, cut);
      if (inner) return inner;
    } else if (block.type === 'table' && block.rows.some((row) => !cut.has(row))) {
      return block;
    }
  }
  return undefined;
}

const cloneBlock = (block: ScreenBlock): ScreenBlock =>
  block.type === 'table'
    ? { ...block, rows: [...block.rows] }
    : block.type === 'section'
      ? { ...block, blocks: block.blocks.map(cloneBlock) }
      : block;

/**
 * The screen with table rows dropped from the end until its HTML is within `maxUnits` (Telegram
 * counts 4,096 for a message; the bot keeps some room), the cut marked `more` — as the HTML screens
 * always cut their lines. Counts and headings stay whole; a screen that fits is returned as it is.
 */
export function fitScreenHtml(screen: Screen, maxUnits = 4000, more = '…'): Screen {
  if (screenHtml(screen).length <= maxUnits) return screen;
  const fitted: Screen = { ...screen, blocks: screen.blocks.map(cloneBlock) };
  const marks = new Set<TableRow>();
  const marked = new Set<Table>();
  for (
    let table = lastTableWithRows(fitted.blocks, marks);
    table;
    table = lastTableWithRows(fitted.blocks, marks)
  ) {
    if (!marked.has(table)) {
      const mark = { cells: [more], html: more };
      marks.add(mark);
      marked.add(table);
      table.rows.push(mark);
    }
    // The mark is the last row; the row before it goes.
    table.rows.splice(table.rows.length - 2, 1);
    if (screenHtml(fitted).length <= maxUnits) return fitted;
  }
  return fitted;
}
