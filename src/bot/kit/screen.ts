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
  /** A table: a header row and a row per item; in HTML, each row's own line. */
  | { type: 'table'; columns: string[]; rows: TableRow[] }
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
export interface ScreenPort<C> {
  /** Whether screens go out as rich messages now (false once the server refused them). */
  readonly richMessages: boolean;
  /**
   * The screen as a new message in the update's chat (and topic); `extra` makes it one member's
   * alone in a group (ephemeral parameters, as `ctx.toMember.send` hands them in).
   */
  send(ctx: C, source: ScreenSource, extra?: ScreenExtra): Promise<Message>;
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
      return block.rows.map((row) => row.html).join(GAP);
    case 'section':
      return [`<b>${block.title}</b>`, ...block.blocks.map(blockHtml)].join('\n');
  }
}

/** The screen as today's HTML message text: the bold title, then each block, a blank line apart. */
export function screenHtml(screen: Screen): string {
  const heading = `<b>${screen.title}</b>${screen.titleNote ?? ''}`;
  return [heading, ...screen.blocks.map(blockHtml)].join(GAP);
}
