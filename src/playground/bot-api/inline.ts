/**
 * Inline mode: a user typing `@bot query` (an inline_query the bot answers once with
 * answerInlineQuery, else "query is too old…"; its results checked in markup.ts), the user picking
 * a result (posted in the chat "via @bot", with an inline_message_id when it has a keyboard, and a
 * chosen_inline_result), and such a message as it shows after edits by inline_message_id.
 */
import { randomBytes } from 'node:crypto';
import { applyParseMode } from '../telegram-html.js';
import { badRequest } from './failures.js';
import { inlineMarkup, validInlineResults } from './markup.js';
import { type BotApiState, messageKey } from './state.js';
import { type Json, recordOrUndefined } from './wire.js';

/** Who types an inline query with `sendInlineQuery`, and where. */
export interface InlineQueryOptions {
  userId?: number;
  languageCode?: string;
  /** The type of the chat the user types `@bot …` in. */
  chatType?: 'sender' | 'private' | 'group' | 'supergroup';
}

/** Who picks an inline result with `chooseInlineResult`, and where it is posted. */
export interface ChooseInlineResultOptions {
  userId?: number;
  /** The chat the chosen result is posted in (default: the user's private chat with the bot). */
  chatId?: number;
}

/** A user's inline query, queued as an update; returns its id for `queueChosenInlineResult`. */
export function queueInlineQuery(state: BotApiState, query: string, opts: InlineQueryOptions = {}): string {
  const from = state.user(opts.userId, opts.languageCode);
  const id = state.takeInlineQueryId();
  state.inlineQueries.set(id, { userId: from.id, query, results: undefined });
  state.updates.push({
    inline_query: { id, from, query, offset: '', chat_type: opts.chatType ?? 'sender' },
  });
  return id;
}

/** A user's pick of an answered result: posted in the chat, and a chosen_inline_result queued. */
export function queueChosenInlineResult(
  state: BotApiState,
  queryId: string,
  resultId: string,
  opts: ChooseInlineResultOptions = {},
): Json {
  const query = state.inlineQueries.get(queryId);
  const result = query?.results?.find((r) => r.id === resultId);
  if (!query || !result) throw new Error(`No result "${resultId}" answered for inline query ${queryId}`);
  const from = state.user(opts.userId ?? query.userId, undefined);
  return postInlineResult(state, result, from, opts.chatId ?? from.id, query.query);
}

/**
 * The one way an inline result reaches a chat (a result picked above the input, or a Mini App's
 * prepared message sent with shareMessage): posted from the user "via @bot" with its keyboard, an
 * inline_message_id kept when it has one, and a chosen_inline_result queued for the bot with the
 * query it answered ('' for a prepared message).
 */
export function postInlineResult(
  state: BotApiState,
  result: Json,
  from: Json & { id: number },
  chatId: number,
  query: string,
): Json {
  const content = recordOrUndefined(result.input_message_content) ?? {};
  const message: Json = {
    message_id: state.takeMessageId(chatId, undefined),
    from,
    chat: chatId === from.id ? state.chatForUser(from, 'private', chatId) : state.chatById(chatId),
    date: state.unixTime(),
    via_bot: state.botUser(),
    ...applyParseMode(String(content.message_text ?? ''), content.parse_mode, content.entities),
  };
  const markup = inlineMarkup(result.reply_markup);
  if (markup) message.reply_markup = markup;
  state.storeMessage(message, undefined);
  state.events.emit({ type: 'message', chatId, message });
  const chosen: Json = { result_id: result.id, from, query };
  if (markup) {
    const inlineMessageId = `AgAAA${randomBytes(18).toString('base64url')}`;
    state.inlineMessages.set(inlineMessageId, messageKey(chatId, Number(message.message_id)));
    chosen.inline_message_id = inlineMessageId;
  }
  return state.updates.push({ chosen_inline_result: chosen });
}

/** A message posted through inline mode, as it shows now. */
export function readInlineMessage(state: BotApiState, inlineMessageId: string): Json | undefined {
  const key = state.inlineMessages.get(inlineMessageId);
  const stored = key === undefined ? undefined : state.messages.get(key);
  return stored ? structuredClone(stored.message) : undefined;
}

export function answerInlineQuery(state: BotApiState, p: Json): true {
  const id = typeof p.inline_query_id === 'string' ? p.inline_query_id : String(p.inline_query_id);
  const query = state.inlineQueries.get(id);
  if (!query || query.results !== undefined) {
    throw badRequest('query is too old and response timeout expired or query ID is invalid');
  }
  const results = validInlineResults(p.results);
  query.results = results;
  const button = recordOrUndefined(p.button);
  state.events.emit({
    type: 'inline-results',
    queryId: id,
    userId: query.userId,
    results,
    ...(button ? { button } : {}),
  });
  return true;
}
