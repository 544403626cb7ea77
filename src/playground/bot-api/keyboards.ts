/**
 * Keyboards and callbacks: a user pressing an inline button (a callback_query the bot answers once
 * with answerCallbackQuery, its text within 200 characters, else "query is too old…"; on an
 * ephemeral message only its receiver may press, and a disabled button presses nothing), the bot
 * changing a message's keyboard (editMessageReplyMarkup, "message is not modified" when it is the
 * same), and a user picking a chat for a `request_chat` button. What a keyboard may hold is
 * checked in markup.ts.
 */
import { findEphemeral } from './ephemeral.js';
import { badRequest, NOT_MODIFIED } from './failures.js';
import { inlineMarkup } from './markup.js';
import { editTarget, finishEdit, sameJson, setOrDelete } from './messages.js';
import { plainRichText, richButtons } from './rich-walk.js';
import {
  type BotApiState,
  type CallbackQueryRecord,
  chatIdOf,
  messageKey,
  type StoredMessage,
} from './state.js';
import { isRecord, type Json, stringOrUndefined } from './wire.js';

/** Who presses a button with `pressButton`, and on which message. */
export interface PressButtonOptions {
  chatId?: number;
  userId?: number;
  /** The bot message carrying the button; default: the bot's latest message with an inline keyboard. */
  messageId?: number;
  /** The ephemeral message carrying the button, instead of `messageId`: only its receiver may press. */
  ephemeralMessageId?: number;
  /**
   * The label of the button pressed, as a client shows it: the button is then looked up on the
   * message, and a press on a disabled button (or on a label the message has not, or one that sends
   * no callback) is refused — nothing reaches the bot.
   */
  text?: string;
  languageCode?: string;
}

/** A press a client must not make: on a disabled button, or on another member's ephemeral message. */
export class PressRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PressRefused';
  }
}

/**
 * A user's press on a button with this data, queued as a callback_query update; refused with
 * `PressRefused` (nothing queued) where a Telegram app would not let the user press.
 */
export function queueButtonPress(state: BotApiState, data: string, opts: PressButtonOptions = {}): Json {
  const from = state.user(opts.userId, opts.languageCode);
  const chatId = opts.chatId ?? from.id;
  let message: Json;
  let pressed: CallbackQueryRecord['pressed'];
  if (opts.ephemeralMessageId !== undefined) {
    const ephemeral = findEphemeral(state, chatId, opts.ephemeralMessageId);
    if (!ephemeral) throw new PressRefused(`no ephemeral message ${opts.ephemeralMessageId} in the chat`);
    if (ephemeral.visibleTo !== from.id) {
      throw new PressRefused('only the receiver of an ephemeral message can press its buttons');
    }
    message = structuredClone(ephemeral.message);
    pressed = { ephemeralMessageId: opts.ephemeralMessageId };
  } else {
    const stored =
      opts.messageId !== undefined
        ? state.messages.get(messageKey(chatId, opts.messageId))
        : latestKeyboard(state, chatId);
    if (stored) {
      message = structuredClone(stored.message);
    } else {
      if (opts.text !== undefined) throw new PressRefused('no such message in the chat');
      // The test presses a button on a message the server never saw: make one up so edits work.
      message = {
        message_id: state.takeMessageId(chatId, opts.messageId),
        from: state.botUser(),
        chat: state.chatById(chatId),
        date: state.unixTime(),
        text: '…',
        reply_markup: { inline_keyboard: [[{ text: data, callback_data: data }]] },
      };
      state.storeMessage(message, undefined);
      message = structuredClone(message);
    }
    pressed = { messageId: Number(message.message_id) };
  }
  const callbackData = opts.text === undefined ? data : pressableData(message, opts.text, data);
  const id = state.takeCallbackQueryId();
  state.callbackQueries.set(id, { answered: false, chatId, userId: from.id, pressed });
  return state.updates.push({
    callback_query: {
      id,
      from,
      message,
      chat_instance: `${-Math.abs(chatId) * 7 - 13}`,
      data: callbackData,
    },
  });
}

/** The callback data of the button with this label on the message, if it can be pressed. */
function pressableData(message: Json, label: string, data: string): string {
  const keyboard = isRecord(message.reply_markup) ? message.reply_markup.inline_keyboard : undefined;
  const buttons = [
    ...(Array.isArray(keyboard) ? keyboard.flat() : []).filter(isRecord),
    ...richButtons(message.rich_message),
  ];
  const named = buttons.filter((button) => plainRichText(button.text) === label);
  if (named.length === 0) throw new PressRefused(`no button "${label}" on the message`);
  if (named.every((button) => button.disabled !== undefined)) {
    throw new PressRefused(`the button "${label}" is disabled`);
  }
  const found = named.find((button) => button.callback_data === data);
  if (!found) throw new PressRefused(`the button "${label}" does not send this callback`);
  return data;
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
    date: state.unixTime(),
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
