/**
 * Keyboards and callbacks: a user pressing an inline button (a callback_query the bot answers once
 * with answerCallbackQuery, its text within 200 characters, else "query is too old…"), the bot
 * changing a message's keyboard (editMessageReplyMarkup, "message is not modified" when it is the
 * same), and a user picking a chat for a `request_chat` button. What a keyboard may hold is
 * checked in markup.ts.
 */
import { badRequest, NOT_MODIFIED } from './failures.js';
import { inlineMarkup } from './markup.js';
import { editTarget, finishEdit, sameJson, setOrDelete } from './messages.js';
import { type BotApiState, chatIdOf, messageKey, type StoredMessage, unixTime } from './state.js';
import { type Json, stringOrUndefined } from './wire.js';

/** Who presses a button with `pressButton`, and on which message. */
export interface PressButtonOptions {
  chatId?: number;
  userId?: number;
  /** The bot message carrying the button; default: the bot's latest message with an inline keyboard. */
  messageId?: number;
  languageCode?: string;
}

/** A user's press on a button with this data, queued as a callback_query update. */
export function queueButtonPress(state: BotApiState, data: string, opts: PressButtonOptions = {}): Json {
  const from = state.user(opts.userId, opts.languageCode);
  const chatId = opts.chatId ?? from.id;
  const stored =
    opts.messageId !== undefined
      ? state.messages.get(messageKey(chatId, opts.messageId))
      : latestKeyboard(state, chatId);
  let message: Json;
  if (stored) {
    message = structuredClone(stored.message);
  } else {
    // The test presses a button on a message the server never saw: make one up so edits work.
    message = {
      message_id: state.takeMessageId(chatId, opts.messageId),
      from: state.botUser(),
      chat: state.chatById(chatId),
      date: unixTime(),
      text: '…',
      reply_markup: { inline_keyboard: [[{ text: data, callback_data: data }]] },
    };
    state.storeMessage(message, undefined);
    message = structuredClone(message);
  }
  const id = state.takeCallbackQueryId();
  state.callbackQueries.set(id, { answered: false, chatId });
  return state.updates.push({
    callback_query: {
      id,
      from,
      message,
      chat_instance: `${-Math.abs(chatId) * 7 - 13}`,
      data,
    },
  });
}

/** A user's pick in the chat picker a `request_chat` button opened, queued as a chat_shared message. */
export function queueSharedChat(
  state: BotApiState,
  requestId: number,
  sharedChatId: number,
  opts: { userId?: number; chatId?: number } = {},
): Json {
  const from = state.user(opts.userId, undefined);
  const chat = state.chatForUser(from, 'private', opts.chatId);
  const message: Json = {
    message_id: state.takeMessageId(chat.id as number, undefined),
    from,
    chat,
    date: unixTime(),
    chat_shared: { request_id: requestId, chat_id: sharedChatId },
  };
  state.storeMessage(message, undefined);
  state.events.emit({ type: 'message', chatId: chat.id as number, message });
  return state.updates.push({ message: structuredClone(message) });
}

export function answerCallbackQuery(state: BotApiState, p: Json): true {
  const id = typeof p.callback_query_id === 'string' ? p.callback_query_id : String(p.callback_query_id);
  const query = state.callbackQueries.get(id);
  if (!query || query.answered) {
    throw badRequest('query is too old and response timeout expired or query ID is invalid');
  }
  const text = stringOrUndefined(p.text) ?? '';
  if (text.length > 200) throw badRequest('MESSAGE_TOO_LONG');
  query.answered = true;
  if (text !== '') {
    const url = stringOrUndefined(p.url);
    state.events.emit({
      type: 'toast',
      chatId: query.chatId,
      text,
      showAlert: p.show_alert === true,
      ...(url !== undefined ? { url } : {}),
    });
  }
  return true;
}

export function editMessageReplyMarkup(state: BotApiState, p: Json): Json | true {
  const stored = editTarget(state, p);
  const markup = inlineMarkup(p.reply_markup);
  if (sameJson(stored.message.reply_markup, markup)) throw badRequest(NOT_MODIFIED);
  setOrDelete(stored.message, 'reply_markup', markup);
  return finishEdit(state, stored, p);
}

/** The bot's latest message with a keyboard in a chat (else its latest message): what a press hits. */
function latestKeyboard(state: BotApiState, chatId: number): StoredMessage | undefined {
  let best: StoredMessage | undefined;
  let fallback: StoredMessage | undefined;
  for (const stored of state.messages.values()) {
    if (chatIdOf(stored.message) !== chatId || !state.isFromBot(stored.message)) continue;
    const id = Number(stored.message.message_id);
    if (!fallback || id > Number(fallback.message.message_id)) fallback = stored;
    if (stored.message.reply_markup !== undefined && (!best || id > Number(best.message.message_id)))
      best = stored;
  }
  return best ?? fallback;
}
