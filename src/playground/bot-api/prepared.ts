/**
 * Prepared inline messages (Bot API 8.0): the bot stores an inline result for one user with
 * savePreparedInlineMessage (the result checked as answerInlineQuery's are; at least one chat type
 * allowed, else Telegram's "at least one chat type must be allowed"), and answers the Mini App its
 * PreparedInlineMessage {id, expiration_date}; the app calls shareMessage(id), the user picks a chat
 * of an allowed type, and the result is posted there as an inline result picked there is
 * (`postInlineResult`: "via @bot", its keyboard, a chosen_inline_result with query '').
 */
import { randomBytes } from 'node:crypto';
import { badRequest } from './failures.js';
import { postInlineResult } from './inline.js';
import { validInlineResults } from './markup.js';
import type { BotApiState, PreparedChatTypes } from './state.js';
import type { Json } from './wire.js';

/** How long a prepared message may be sent, in seconds (24 hours). */
export const PREPARED_MESSAGE_TTL_S = 24 * 60 * 60;

/**
 * Why a prepared message is not sent, in the words the Mini App gets in `prepared_message_failed`:
 * unknown, expired or another user's id → MESSAGE_EXPIRED; a chat of a type not allowed →
 * MESSAGE_SEND_FAILED.
 */
export class PreparedRefused extends Error {
  constructor(readonly error: 'MESSAGE_EXPIRED' | 'MESSAGE_SEND_FAILED') {
    super(error);
    this.name = 'PreparedRefused';
  }
}

/** The kind of chat a prepared message goes to, as the allow_* flags name them. */
export type PreparedChatKind = keyof PreparedChatTypes;

export function savePreparedInlineMessage(state: BotApiState, p: Json): Json {
  const userId = Number(p.user_id);
  if (p.user_id === undefined || !Number.isSafeInteger(userId) || userId <= 0) {
    throw badRequest('invalid user_id specified');
  }
  if (p.result === undefined) throw badRequest('parameter "result" is required');
  const [result] = validInlineResults([p.result]);
  const allowed: PreparedChatTypes = {
    user: p.allow_user_chats === true,
    bot: p.allow_bot_chats === true,
    group: p.allow_group_chats === true,
    channel: p.allow_channel_chats === true,
  };
  if (!Object.values(allowed).some(Boolean)) throw badRequest('at least one chat type must be allowed');
  const id = randomBytes(6).toString('base64url');
  const expirationDate = Math.floor(state.now() / 1000) + PREPARED_MESSAGE_TTL_S;
  state.preparedMessages.set(id, { userId, result: result ?? {}, allowed, expirationDate });
  return { id, expiration_date: expirationDate };
}

/** Where the user may send this prepared message; refused as the Mini App would be told. */
export function readPreparedMessage(state: BotApiState, id: string, userId: number): PreparedChatTypes {
  const prepared = state.preparedMessages.get(id);
  if (
    prepared === undefined ||
    prepared.userId !== userId ||
    prepared.expirationDate <= Math.floor(state.now() / 1000)
  ) {
    throw new PreparedRefused('MESSAGE_EXPIRED');
  }
  return { ...prepared.allowed };
}

/**
 * The user sends a prepared message to a chat of theirs (`kind` says which allow_* flag it needs):
 * posted there "via @bot", and a chosen_inline_result queued for the bot.
 */
export function sendPreparedMessage(
  state: BotApiState,
  id: string,
  opts: { userId: number; chatId: number; kind: PreparedChatKind },
): Json {
  const allowed = readPreparedMessage(state, id, opts.userId);
  if (!allowed[opts.kind]) throw new PreparedRefused('MESSAGE_SEND_FAILED');
  const prepared = state.preparedMessages.get(id);
  const from = state.user(opts.userId, undefined);
  return postInlineResult(state, prepared?.result ?? {}, from, opts.chatId, '');
}
