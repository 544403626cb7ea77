/**
 * What Telegram accepts in a message's markup and answers: inline keyboards (one action per
 * button, callback data within 64 bytes, valid URLs, copy_text, a style, `disabled: {}` buttons of
 * Bot API 10.3), reply keyboards with
 * request_chat and a style, inline query results, and the chat actions it knows.
 */
import { Buffer } from 'node:buffer';
import { applyParseMode, HtmlParseError } from '../telegram-html.js';
import { badRequest } from './failures.js';
import { isRecord, type Json, recordOrUndefined } from './wire.js';

/** The chat actions Telegram knows (sendChatAction refuses others). */
export const CHAT_ACTIONS = new Set([
  'typing',
  'upload_photo',
  'record_video',
  'upload_video',
  'record_voice',
  'upload_voice',
  'upload_document',
  'choose_sticker',
  'find_location',
  'record_video_note',
  'upload_video_note',
]);

/** An inline button's actions: exactly one per button (`disabled: {}` is one: a button that does nothing). */
export const BUTTON_ACTIONS = [
  'url',
  'callback_data',
  'web_app',
  'login_url',
  'switch_inline_query',
  'switch_inline_query_current_chat',
  'switch_inline_query_chosen_chat',
  'copy_text',
  'callback_game',
  'pay',
  // Bot API 10.3: a button that does nothing (what a member's role lacks).
  'disabled',
];

/** What a message keeps of an inline button (and answers with): its label, style and action. */
const BUTTON_FIELDS = ['text', 'style', ...BUTTON_ACTIONS];

/** How Telegram may draw a button (Bot API 9.4); "default" or "" is the app's own, as none. */
const BUTTON_STYLES = new Set(['primary', 'danger', 'success']);

/**
 * A button's style as the Bot API server reads it: in any case, "default" or empty as none, a
 * number as its digits (and so refused); anything else refused under the button's error
 * prefix ("can't parse inline keyboard button" or "can't parse keyboard button").
 */
function readButtonStyle(button: Json, prefix: string): string | undefined {
  const style = button.style;
  if (style === undefined || style === null) return undefined;
  if (typeof style !== 'string' && typeof style !== 'number') {
    throw badRequest(`${prefix}: Field "style" must be of type String`);
  }
  const word = String(style).toLowerCase();
  if (word === '' || word === 'default') return undefined;
  if (!BUTTON_STYLES.has(word)) throw badRequest(`${prefix}: invalid button style specified`);
  return word;
}

/**
 * A reply keyboard as a client gets it (checked before): a button given as a bare string is the
 * text button it stands for, and each style is kept as Telegram keeps it.
 */
export function replyKeyboardRows(rows: unknown[]): Json[][] {
  return rows.map((row) =>
    (Array.isArray(row) ? row : []).map((button: unknown): Json => {
      if (!isRecord(button)) return { text: String(button) };
      const { style: _given, ...kept } = structuredClone(button);
      const style = readButtonStyle(button, "can't parse keyboard button");
      return style === undefined ? kept : { ...kept, style };
    }),
  );
}

/**
 * The inline keyboard a message keeps (other reply markups are not part of the message), with only
 * the fields Telegram knows: telegraf's Markup adds `hide: false` to every button, which Telegram
 * ignores and never echoes back.
 */
export function inlineMarkup(markup: unknown): Json | undefined {
  validateReplyMarkup(markup);
  if (!isRecord(markup) || !Array.isArray(markup.inline_keyboard)) return undefined;
  const rows: unknown[] = markup.inline_keyboard;
  if (rows.length === 0) return undefined;
  const keyboard = rows.map((row) =>
    (Array.isArray(row) ? row : []).map((button: unknown) => {
      const kept: Json = {};
      if (isRecord(button)) {
        for (const field of BUTTON_FIELDS) {
          if (button[field] !== undefined) kept[field] = structuredClone(button[field]);
        }
        // Kept as Telegram echoes it: lower case, and none for the app's own.
        const style = readButtonStyle(button, "can't parse inline keyboard button");
        if (style === undefined) delete kept.style;
        else kept.style = style;
      }
      return kept;
    }),
  );
  return { inline_keyboard: keyboard };
}

export function validateReplyMarkup(markup: unknown): void {
  if (markup === undefined) return;
  if (!isRecord(markup)) throw badRequest("can't parse reply keyboard markup JSON object");
  if (Array.isArray(markup.keyboard)) {
    for (const row of markup.keyboard) {
      for (const button of Array.isArray(row) ? row : []) {
        if (isRecord(button)) readButtonStyle(button, "can't parse keyboard button");
        const request = isRecord(button) ? recordOrUndefined(button.request_chat) : undefined;
        if (request && typeof request.request_id !== 'number') throw badRequest('REQUEST_ID_INVALID');
      }
    }
    return;
  }
  if (markup.inline_keyboard === undefined) return;
  if (!Array.isArray(markup.inline_keyboard))
    throw badRequest('field "inline_keyboard" of the InlineKeyboardMarkup should be an Array of Arrays');
  for (const row of markup.inline_keyboard) {
    if (!Array.isArray(row))
      throw badRequest('field "inline_keyboard" of the InlineKeyboardMarkup should be an Array of Arrays');
    for (const button of row) validateInlineButton(button);
  }
}

/** One inline button: a label and exactly one action, each within Telegram's limits. */
function validateInlineButton(button: unknown): void {
  if (!isRecord(button) || typeof button.text !== 'string') throw badRequest('can\'t find field "text"');
  if (button.text.trim() === '') throw badRequest('BUTTON_TEXT_INVALID');
  readButtonStyle(button, "can't parse inline keyboard button");
  const actions = BUTTON_ACTIONS.filter((field) => button[field] !== undefined);
  if (actions.length === 0) {
    throw badRequest("can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard");
  }
  if (actions.length > 1)
    throw badRequest("can't parse inline keyboard button: exactly one action is allowed");
  checkButtonAction(button, "can't parse inline keyboard button");
}

/**
 * The action of a button (of an inline keyboard or a rich message), within Telegram's limits:
 * callback data of 1-64 bytes, an http(s) or tg:// URL, a copy_text of 1-256 characters, objects
 * where Telegram wants objects.
 */
export function checkButtonAction(button: Json, prefix: string): void {
  const data = button.callback_data;
  if (
    data !== undefined &&
    (typeof data !== 'string' || Buffer.byteLength(data) < 1 || Buffer.byteLength(data) > 64)
  ) {
    throw badRequest('BUTTON_DATA_INVALID');
  }
  if (
    button.url !== undefined &&
    (typeof button.url !== 'string' || !/^(https?|tg):\/\/[^\s]+$/i.test(button.url))
  ) {
    throw badRequest('BUTTON_URL_INVALID');
  }
  if (button.copy_text !== undefined) {
    const text = isRecord(button.copy_text) ? button.copy_text.text : undefined;
    if (typeof text !== 'string' || text.length < 1 || text.length > 256)
      throw badRequest('COPY_TEXT_INVALID');
  }
  for (const field of ['switch_inline_query_chosen_chat', 'disabled']) {
    if (button[field] !== undefined && !isRecord(button[field])) {
      throw badRequest(`${prefix}: field ${field} must be an object`);
    }
  }
}

/** The results of answerInlineQuery, checked as Telegram checks them. */
export function validInlineResults(value: unknown): Json[] {
  if (!Array.isArray(value)) throw badRequest('parameter "results" is required');
  if (value.length > 50) throw badRequest('RESULTS_TOO_MUCH');
  const seen = new Set<string>();
  return value.map((entry: unknown) => {
    if (!isRecord(entry) || typeof entry.id !== 'string' || typeof entry.type !== 'string') {
      throw badRequest("can't parse InlineQueryResult JSON object");
    }
    if (Buffer.byteLength(entry.id) < 1 || Buffer.byteLength(entry.id) > 64)
      throw badRequest('RESULT_ID_INVALID');
    if (seen.has(entry.id)) throw badRequest('RESULT_ID_DUPLICATE');
    seen.add(entry.id);
    if (entry.type === 'article') {
      const content = recordOrUndefined(entry.input_message_content);
      if (typeof entry.title !== 'string' || entry.title === '') throw badRequest('RESULT_TITLE_EMPTY');
      if (!content || typeof content.message_text !== 'string' || content.message_text.trim() === '') {
        throw badRequest('MESSAGE_EMPTY');
      }
      if (content.parse_mode === 'HTML') {
        try {
          applyParseMode(content.message_text, 'HTML', undefined);
        } catch (error) {
          if (error instanceof HtmlParseError) throw badRequest(`can't parse entities: ${error.message}`);
          throw error;
        }
      }
    }
    validateReplyMarkup(entry.reply_markup);
    return structuredClone(entry);
  });
}
