/**
 * Messages and edits: a text the user sends, and the bot's side — sendMessage, sendRichMessage,
 * sendChatAction, editMessageText (a text or a rich message) and deleteMessage — with Telegram's
 * refusals beside each: an empty text, a text over 4,096 characters (counted after the HTML is
 * parsed), HTML Telegram cannot parse, "message is not modified", "message to edit not found",
 * "message can't be edited", "message to delete not found"; a rich message's own limits are in
 * rich.ts. Posting a bot message (ephemeral when the call asks: ephemeral.ts) and finding the
 * message an edit names are shared with the other families that send (files.ts) and edit
 * (keyboards.ts, ephemeral-edits.ts).
 */
import { applyParseMode, HtmlParseError } from '../telegram-html.js';
import { isEphemeralCommand } from './bot-profile.js';
import { checkThread, requireChat } from './chats.js';
import {
  postEphemeralMessage,
  queueEphemeralUserMessage,
  readEphemeralParameters,
  refuseOrdinaryReplyToEphemeral,
} from './ephemeral.js';
import { badRequest, NOT_MODIFIED } from './failures.js';
import { CHAT_ACTIONS, inlineMarkup, replyKeyboardRows, validateReplyMarkup } from './markup.js';
import { readRichMessage } from './rich.js';
import { type BotApiState, chatIdOf, messageKey, type StoredMessage } from './state.js';
import { isRecord, type Json, recordOrUndefined, stringOrUndefined, toInteger } from './wire.js';

/** Who sends a text with `sendText`, and where. */
export interface SendTextOptions {
  chatId?: number;
  userId?: number;
  languageCode?: string;
  chatType?: 'private' | 'group' | 'supergroup';
  messageId?: number;
  /** The forum topic the message is written in. */
  threadId?: number;
  /** The message (in the same chat) this one replies to: its copy goes in `reply_to_message`. */
  replyToMessageId?: number;
}

/**
 * A user's text message, queued as an update (a leading /command gets a bot_command entity). In a
 * group, a command the bot registered `is_ephemeral` for this member is an ephemeral message.
 */
export function queueUserText(state: BotApiState, text: string, opts: SendTextOptions = {}): Json {
  const from = state.user(opts.userId, opts.languageCode);
  const chat = state.chatForUser(from, opts.chatType ?? 'private', opts.chatId);
  const chatId = chat.id as number;
  const inGroup = chat.type === 'group' || chat.type === 'supergroup';
  if (inGroup) state.addMember(chatId, from.id);
  const ephemeral =
    inGroup && isEphemeralCommand(state, text, chatId, from.id, stringOrUndefined(from.language_code));
  const message: Json = {
    message_id: ephemeral ? 0 : state.takeMessageId(chatId, opts.messageId),
    from,
    chat,
    date: state.unixTime(),
    text,
  };
  if (opts.threadId !== undefined) {
    message.message_thread_id = opts.threadId;
    message.is_topic_message = true;
  }
  const command = /^\/[A-Za-z0-9_]{1,32}(@[A-Za-z0-9_]{3,32})?/.exec(text);
  if (command) message.entities = [{ offset: 0, length: command[0].length, type: 'bot_command' }];
  if (ephemeral) return queueEphemeralUserMessage(state, message, from.id);
  const repliedTo =
    opts.replyToMessageId === undefined
      ? undefined
      : state.messages.get(messageKey(chat.id as number, opts.replyToMessageId));
  if (repliedTo) message.reply_to_message = structuredClone(repliedTo.message);
  state.storeMessage(message, undefined);
  state.events.emit({ type: 'message', chatId: chat.id as number, message });
  return state.updates.push({ message: structuredClone(message) });
}

/** The messages a chat shows now, by message_id. */
export function listVisibleMessages(state: BotApiState, chatId: number): Json[] {
  return [...state.messages.values()]
    .filter((m) => chatIdOf(m.message) === chatId)
    .map((m) => structuredClone(m.message))
    .sort((a, b) => Number(a.message_id) - Number(b.message_id));
}

/** The ephemeral messages a chat holds now, by ephemeral_message_id. */
export function listEphemeralMessages(state: BotApiState, chatId: number): Json[] {
  return [...state.ephemeralMessages.values()]
    .filter((m) => chatIdOf(m.message) === chatId)
    .map((m) => structuredClone(m.message))
    .sort((a, b) => Number(a.ephemeral_message_id) - Number(b.ephemeral_message_id));
}

export function sendMessage(state: BotApiState, p: Json): Json {
  const chatId = requireChat(p);
  const shown = formatText(typeof p.text === 'string' ? p.text : '', p, 'entities');
  if (shown.text.trim() === '') throw badRequest('message text is empty');
  if (shown.text.length > 4096) throw badRequest('message is too long');
  return postBotMessage(state, chatId, shown, p);
}

/** sendRichMessage (Bot API 10.1): a message of blocks; the Message carries `rich_message`. */
export function sendRichMessage(state: BotApiState, p: Json): Json {
  const chatId = requireChat(p);
  return postBotMessage(state, chatId, { rich_message: readRichMessage(p.rich_message) }, p);
}

export function sendChatAction(state: BotApiState, p: Json): true {
  const chatId = requireChat(p);
  if (typeof p.action !== 'string' || p.action === '') throw badRequest('parameter "action" is required');
  if (!CHAT_ACTIONS.has(p.action)) throw badRequest('wrong parameter action in request');
  const threadId = checkThread(state, chatId, p);
  state.events.emit({
    type: 'action',
    chatId,
    action: p.action,
    ...(threadId !== undefined ? { threadId } : {}),
  });
  return true;
}

export function editMessageText(state: BotApiState, p: Json): Json | true {
  const stored = editTarget(state, p);
  applyTextEdit(stored, p);
  return finishEdit(state, stored, p);
}

/**
 * A new text or rich message (Bot API 10.1: `rich_message` instead of `text`), checked and put in
 * the message in place of what it showed; shared by editMessageText and editEphemeralMessageText.
 * Editing without reply_markup removes the inline keyboard, as in Telegram.
 */
export function applyTextEdit(stored: Pick<StoredMessage, 'message' | 'parseMode'>, p: Json): void {
  if (p.rich_message !== undefined && p.text !== undefined) {
    throw badRequest('exactly one of "text" and "rich_message" must be specified');
  }
  let content: Json;
  if (p.rich_message !== undefined) {
    content = { rich_message: readRichMessage(p.rich_message) };
  } else {
    const shown = formatText(typeof p.text === 'string' ? p.text : '', p, 'entities');
    if (shown.text.trim() === '') throw badRequest('message text is empty');
    if (shown.text.length > 4096) throw badRequest('MESSAGE_TOO_LONG');
    content = { text: shown.text, entities: shown.entities };
  }
  const before = stored.message;
  if (typeof before.text !== 'string' && before.rich_message === undefined) {
    throw badRequest('there is no text in the message to edit');
  }
  const markup = inlineMarkup(p.reply_markup);
  if (
    sameJson(before.text, content.text) &&
    sameJson(before.entities, content.entities) &&
    sameJson(before.rich_message, content.rich_message) &&
    sameJson(before.reply_markup, markup)
  ) {
    throw badRequest(NOT_MODIFIED);
  }
  for (const field of ['text', 'entities', 'rich_message']) setOrDelete(before, field, content[field]);
  stored.parseMode = content.rich_message === undefined ? stringOrUndefined(p.parse_mode) : undefined;
  setOrDelete(before, 'reply_markup', markup);
}

export function deleteMessage(state: BotApiState, p: Json): true {
  const chatId = requireChat(p);
  const messageId = toInteger(p.message_id);
  const key = messageKey(chatId, messageId ?? 0);
  const stored = state.messages.get(key);
  if (!stored) throw badRequest('message to delete not found');
  const privateChat = isRecord(stored.message.chat) && stored.message.chat.type === 'private';
  if (!privateChat && !state.isFromBot(stored.message)) throw badRequest("message can't be deleted");
  state.messages.delete(key);
  state.events.emit({ type: 'deleted', chatId, messageId: messageId ?? 0 });
  return true;
}

/**
 * Post a bot message with these fields (text, rich_message, document…) in a chat: the topic and
 * the markup are checked, the message is stored, and a client is told about it and any reply
 * keyboard it brings. With `ephemeral_message_parameters` it is an ephemeral message instead.
 */
export function postBotMessage(state: BotApiState, chatId: number, fields: Json, p: Json): Json {
  const ephemeral = readEphemeralParameters(p);
  if (ephemeral) return postEphemeralMessage(state, chatId, fields, p, ephemeral);
  refuseOrdinaryReplyToEphemeral(p);
  const threadId = checkThread(state, chatId, p);
  const markup = inlineMarkup(p.reply_markup);
  if (!markup) validateReplyMarkup(p.reply_markup);
  const message: Json = {
    message_id: state.takeMessageId(chatId, undefined),
    from: state.botUser(),
    chat: state.chatById(chatId),
    date: state.unixTime(),
    ...(threadId !== undefined ? { message_thread_id: threadId, is_topic_message: true } : {}),
    ...fields,
  };
  if (markup) message.reply_markup = markup;
  state.storeMessage(message, stringOrUndefined(p.parse_mode));
  state.events.emit({ type: 'message', chatId, message });
  const reply = recordOrUndefined(p.reply_markup);
  if (reply && Array.isArray(reply.keyboard)) {
    state.events.emit({ type: 'reply-keyboard', chatId, keyboard: replyKeyboardRows(reply.keyboard) });
  } else if (reply?.remove_keyboard === true) {
    state.events.emit({ type: 'reply-keyboard', chatId });
  } else if (reply?.force_reply === true) {
    // A client opens a reply to it (for the users it aims at, when selective).
    state.events.emit({ type: 'force-reply', chatId, messageId: message.message_id as number });
  }
  return structuredClone(message);
}

/** The text a call sends, parsed as Telegram parses it (refusing what Telegram cannot parse). */
export function formatText(
  text: string,
  p: Json,
  entitiesField: string,
): { text: string; entities?: unknown } {
  try {
    return applyParseMode(text, p.parse_mode, p[entitiesField]);
  } catch (error) {
    if (error instanceof HtmlParseError) throw badRequest(`can't parse entities: ${error.message}`);
    throw error;
  }
}

/** The message an edit names: by chat and id, or by the inline_message_id of an inline result. */
export function editTarget(state: BotApiState, p: Json): StoredMessage {
  if (p.inline_message_id === undefined) return editableMessage(state, p);
  const key =
    typeof p.inline_message_id === 'string' ? state.inlineMessages.get(p.inline_message_id) : undefined;
  const stored = key === undefined ? undefined : state.messages.get(key);
  if (!stored) throw badRequest('MESSAGE_ID_INVALID');
  return stored;
}

/** Date an edit and tell a client; an edit by inline_message_id answers true, not the message. */
export function finishEdit(state: BotApiState, stored: StoredMessage, p: Json): Json | true {
  stored.message.edit_date = state.unixTime();
  state.events.emit({ type: 'edited', chatId: chatIdOf(stored.message), message: stored.message });
  return p.inline_message_id !== undefined ? true : structuredClone(stored.message);
}

export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function setOrDelete(target: Json, key: string, value: unknown): void {
  if (value === undefined) delete target[key];
  else target[key] = value;
}

function editableMessage(state: BotApiState, p: Json): StoredMessage {
  const chatId = requireChat(p);
  const stored = state.messages.get(messageKey(chatId, toInteger(p.message_id) ?? 0));
  if (!stored) throw badRequest('message to edit not found');
  if (!state.isFromBot(stored.message)) throw badRequest("message can't be edited");
  return stored;
}
