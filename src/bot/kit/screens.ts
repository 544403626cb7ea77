/**
 * Sends and edits screens (screen.ts) as rich messages where the Bot API has them (10.1), as HTML
 * where it does not. `RICH_MESSAGES=off` chooses HTML from the start, for a self-hosted Bot API
 * server older than 10.1. A server that answers a rich call as an unknown or unsupported method
 * is met once: the bot logs it, sends that screen as HTML and keeps to HTML from then on, so a
 * partner never gets a silent screen.
 */
import { type Telegram, TelegramError } from 'telegraf';
import type { InlineKeyboardMarkup, Message } from 'telegraf/types';
import { MESSAGE_LIMIT } from '../../core/paging.js';
import { splitMessage } from '../../core/text.js';
import type { Logger } from '../../logger.js';
import type { BotContext } from '../context.js';
import { callBotApi } from './bot-api-today.js';
import { fitsRich, screenRich } from './rich-screen.js';
import {
  type Screen,
  type ScreenExtra,
  type ScreenPort,
  type ScreenSource,
  type SentScreen,
  screenHtml,
} from './screen.js';

/** Errors of a server that does not know rich messages (an unknown method, an unknown field). */
const UNSUPPORTED = /method not found|not supported|unsupported|unknown method|unknown (?:field|parameter)/i;
/** Refusals about the message, not its content: HTML would meet them too. */
const NOT_ABOUT_CONTENT = /not modified|not found|can't be edited|blocked|kicked|rights/i;

const isUnsupported = (error: TelegramError) =>
  error.code === 404 || (error.code === 400 && UNSUPPORTED.test(error.description));

/** The forum topic of the update's message, where the answer belongs (as telegraf's `reply` does). */
function threadOf(ctx: BotContext): { message_thread_id?: number } {
  const message = ctx.msg;
  return message !== undefined && 'is_topic_message' in message && message.is_topic_message
    ? { message_thread_id: message.message_thread_id as number }
    : {};
}

const markupOf = (screen: Screen): { reply_markup?: InlineKeyboardMarkup } =>
  screen.keyboard === undefined || screen.keyboard.length === 0
    ? {}
    : { reply_markup: { inline_keyboard: screen.keyboard } };

const build = (source: ScreenSource, rich: boolean): Screen =>
  typeof source === 'function' ? source(rich) : source;

/** The extra of a further part of the same screen: to the same member, tied to no button. */
const following = (extra: ScreenExtra): ScreenExtra =>
  extra.ephemeral_message_parameters === undefined
    ? {}
    : {
        ephemeral_message_parameters: {
          receiver_user_id: extra.ephemeral_message_parameters.receiver_user_id,
        },
      };

const HTML_EXTRA = { parse_mode: 'HTML' as const, link_preview_options: { is_disabled: true } };

/** What sending a screen outside an update needs of a Telegram client. */
export type TelegramSender = Pick<Telegram, 'callApi' | 'sendMessage'>;

export class Screens implements ScreenPort<BotContext> {
  private rich: boolean;

  constructor(
    rich: boolean,
    private readonly logger: Logger,
  ) {
    this.rich = rich;
  }

  get richMessages(): boolean {
    return this.rich;
  }

  async send(ctx: BotContext, source: ScreenSource, extra: ScreenExtra = {}): Promise<SentScreen> {
    const chatId = ctx.chat?.id;
    if (chatId === undefined) throw new Error('a screen needs a chat to be sent to');
    // Through `ctx.reply`: the update's own middlewares (a member's ephemeral answer) see the parts.
    return this.deliver(ctx.telegram, chatId, source, { ...threadOf(ctx), ...extra }, (text, options) =>
      ctx.reply(text, options),
    );
  }

  /**
   * Sends a screen to a chat outside any update (a change made in the Mini App, reported in the
   * chat the account belongs to).
   */
  sendTo(telegram: TelegramSender, chatId: number, source: ScreenSource): Promise<SentScreen> {
    return this.deliver(telegram, chatId, source, {}, (text, options) =>
      telegram.sendMessage(chatId, text, options),
    );
  }

  private async deliver(
    telegram: Pick<Telegram, 'callApi'>,
    chatId: number,
    source: ScreenSource,
    extra: ScreenExtra & { message_thread_id?: number },
    reply: (text: string, options: Parameters<Telegram['sendMessage']>[2]) => Promise<Message.TextMessage>,
  ): Promise<SentScreen> {
    const screen = build(source, this.rich);
    const rich = this.richOf(screen);
    if (rich !== undefined) {
      let sent: unknown;
      const done = await this.tryRich(async () => {
        sent = await callBotApi(telegram, 'sendRichMessage', {
          chat_id: chatId,
          ...extra,
          rich_message: rich,
          ...markupOf(screen),
        });
      });
      if (done) {
        // telegraf's Message type predates rich messages; the object is the Bot API's Message.
        const message = sent as Message;
        return { chatId, messageId: message.message_id, rich: true, screen, message };
      }
    }
    // As HTML, a long screen goes in parts (split between lines, so no tag is cut), the
    // keyboard under the last; the parts after the first answer no button of their own.
    const html = build(source, false);
    const parts = splitMessage(screenHtml(html), MESSAGE_LIMIT);
    const { message_thread_id: _thread, ...memberExtra } = extra;
    let partExtra: ScreenExtra = memberExtra;
    for (const part of parts.slice(0, -1)) {
      await reply(part, { ...HTML_EXTRA, ...partExtra });
      partExtra = following(memberExtra);
    }
    const message = await reply(parts.at(-1) ?? '', { ...HTML_EXTRA, ...partExtra, ...markupOf(html) });
    return { chatId, messageId: message.message_id, rich: false, screen: html, message };
  }

  async edit(ctx: BotContext, source: ScreenSource): Promise<void> {
    const message = ctx.callbackQuery?.message;
    const chatId = ctx.chat?.id;
    const screen = build(source, this.rich);
    const rich = this.richOf(screen);
    if (rich !== undefined && message !== undefined && chatId !== undefined) {
      const edited = await this.tryRich(() =>
        callBotApi(ctx.telegram, 'editMessageText', {
          chat_id: chatId,
          message_id: message.message_id,
          rich_message: rich,
          ...markupOf(screen),
        }),
      );
      if (edited) return;
    }
    const html = build(source, false);
    await ctx.editMessageText(screenHtml(html), { ...HTML_EXTRA, ...markupOf(html) });
  }

  /** The rich message for a screen, or undefined when HTML is due (off, or over a limit). */
  private richOf(screen: Screen) {
    if (!this.rich) return undefined;
    const message = screenRich(screen);
    const columns = Math.max(0, ...screen.blocks.map((b) => (b.type === 'table' ? b.columns.length : 0)));
    return fitsRich(message, columns) ? message : undefined;
  }

  /**
   * Makes a rich call; false when the screen is to go as HTML instead. A server without rich
   * messages turns them off for good (logged once); any other refusal of a rich screen (a limit the
   * bot miscounted) sends that one screen as HTML and is logged. "Not modified" and every
   * non-refusal (a network error, 429, 403) are the caller's, as for any other call.
   */
  private async tryRich(call: () => Promise<unknown>): Promise<boolean> {
    try {
      await call();
      return true;
    } catch (error) {
      if (
        !(error instanceof TelegramError) ||
        error.code >= 500 ||
        error.code === 429 ||
        error.code === 403
      ) {
        throw error;
      }
      if (!isUnsupported(error) && NOT_ABOUT_CONTENT.test(error.description)) throw error;
      if (isUnsupported(error)) {
        if (this.rich) {
          this.rich = false;
          this.logger.warn(
            { code: error.code, description: error.description },
            'the Bot API server does not take rich messages: screens go as HTML from now on',
          );
        }
      } else {
        this.logger.warn(
          { code: error.code, description: error.description },
          'a rich screen was refused: sent as HTML',
        );
      }
      return false;
    }
  }
}
