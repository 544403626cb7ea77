/**
 * Ephemeral messages (Bot API 10.2–10.3): a message in a group that one member sees (and the bot),
 * with `message_id: 0`, its own `ephemeral_message_id` (counted per chat) and `receiver_user`.
 * The bot sends one with `ephemeral_message_parameters` on any send method; a member sends one with
 * a command the bot registered `is_ephemeral`. Refused as Telegram would: in a private chat, to a
 * user who is not a member of the group, with a callback query of another user or chat, with a
 * reply keyboard or its removal (an inline keyboard or a ForceReply is taken), and a reply to an
 * ephemeral message that is not ephemeral itself or comes after 15 s. The edits and deletion are in ephemeral-edits.ts.
 */
import { checkThread } from './chats.js';
import { badRequest } from './failures.js';
import { inlineMarkup, validateReplyMarkup } from './markup.js';
import { type BotApiState, ephemeralKey, type StoredEphemeral } from './state.js';
import { isRecord, type Json, recordOrUndefined, stringOrUndefined, toInteger } from './wire.js';

/** An ephemeral message may be replied to within this long of being sent. */
export const EPHEMERAL_REPLY_WINDOW_MS = 15_000;

/** The refusals, in the words the local server answers with (after "Bad Request: "). */
export const EPHEMERAL_REFUSALS = {
  notGroup: 'ephemeral messages can be sent only to group and supergroup chats',
  noReceiver: 'ephemeral message receiver is not specified',
  notMember: 'ephemeral message receiver is not a member of the chat',
  queryInvalid: 'query is too old and response timeout expired or query ID is invalid',
  queryElsewhere: 'the callback query was not sent by the ephemeral message receiver in this chat',
  replaceWithoutQuery: 'replace_callback_query_message requires callback_query_id',
  inlineOnly: 'ephemeral messages can have only an inline keyboard',
  replyNotEphemeral: 'a reply to an ephemeral message must itself be an ephemeral message',
  replyNotFound: 'message to be replied not found',
} as const;

/** `ephemeral_message_parameters` as a call gives them, or undefined for an ordinary message. */
export function readEphemeralParameters(p: Json): Json | undefined {
  const given = p.ephemeral_message_parameters;
  if (given === undefined || given === null) return undefined;
  if (!isRecord(given)) throw badRequest("can't parse EphemeralMessageParameters JSON object");
  return given;
}

/** An ordinary message may not reply to an ephemeral one: the reply must be ephemeral too. */
export function refuseOrdinaryReplyToEphemeral(p: Json): void {
  if (recordOrUndefined(p.reply_parameters)?.ephemeral_message_id !== undefined) {
    throw badRequest(EPHEMERAL_REFUSALS.replyNotEphemeral);
  }
}

/** The bot's ephemeral message with these fields (text, rich_message, document…), for one member. */
export function postEphemeralMessage(
  state: BotApiState,
  chatId: number,
  fields: Json,
  p: Json,
  parameters: Json,
): Json {
  const chat = state.chatById(chatId);
  if (chat.type !== 'group' && chat.type !== 'supergroup') throw badRequest(EPHEMERAL_REFUSALS.notGroup);
  const receiverId = toInteger(parameters.receiver_user_id);
  if (receiverId === undefined) throw badRequest(EPHEMERAL_REFUSALS.noReceiver);
  if (!state.isMember(chatId, receiverId)) throw badRequest(EPHEMERAL_REFUSALS.notMember);
  const replaces = replacedMessage(state, chatId, receiverId, parameters);
  checkEphemeralReply(state, chatId, receiverId, p);
  const threadId = checkThread(state, chatId, p);
  validateReplyMarkup(p.reply_markup);
  const markup = inlineMarkup(p.reply_markup);
  // A ForceReply asks this one member to answer, which suits a message only they see (sendMessage
  // takes any reply_markup with ephemeral_message_parameters); a reply keyboard or its removal
  // would change the member's keyboard for the whole chat, and is refused.
  const forceReply = isRecord(p.reply_markup) && p.reply_markup.force_reply === true;
  if (!markup && !forceReply && isRecord(p.reply_markup) && p.reply_markup.inline_keyboard === undefined) {
    throw badRequest(EPHEMERAL_REFUSALS.inlineOnly);
  }
  const message: Json = {
    message_id: 0,
    from: state.botUser(),
    chat,
    date: state.unixTime(),
    ...(threadId !== undefined ? { message_thread_id: threadId, is_topic_message: true } : {}),
    receiver_user: publicUser(state.user(receiverId, undefined)),
    ephemeral_message_id: state.takeEphemeralMessageId(chatId),
    ...fields,
  };
  if (markup) message.reply_markup = markup;
  const stored: StoredEphemeral = {
    message,
    parseMode: stringOrUndefined(p.parse_mode),
    visibleTo: receiverId,
    sentAtMs: state.now(),
    ...(replaces ? { replaces } : {}),
  };
  storeEphemeral(state, stored);
  return structuredClone(message);
}

/**
 * A member's command that the bot registered `is_ephemeral`: only they (and the bot) see it, so it
 * is queued with `message_id: 0`, an `ephemeral_message_id`, and the bot as its `receiver_user`.
 */
export function queueEphemeralUserMessage(state: BotApiState, message: Json, senderId: number): Json {
  const chatId = Number((message.chat as Json).id);
  message.message_id = 0;
  message.receiver_user = state.botUser();
  message.ephemeral_message_id = state.takeEphemeralMessageId(chatId);
  storeEphemeral(state, { message, parseMode: undefined, visibleTo: senderId, sentAtMs: state.now() });
  return state.updates.push({ message: structuredClone(message) });
}

/** The ephemeral message with this id in a chat, if it is still there. */
export function findEphemeral(
  state: BotApiState,
  chatId: number,
  id: number | undefined,
): StoredEphemeral | undefined {
  return id === undefined ? undefined : state.ephemeralMessages.get(ephemeralKey(chatId, id));
}

/** Tell a client about an ephemeral message, new or edited: only its member's view shows it. */
export function emitEphemeral(state: BotApiState, stored: StoredEphemeral): void {
  state.events.emit({
    type: 'ephemeral',
    chatId: Number((stored.message.chat as Json).id),
    message: stored.message,
    visibleTo: stored.visibleTo,
    ...(stored.replaces ? { replaces: stored.replaces } : {}),
  });
}

function storeEphemeral(state: BotApiState, stored: StoredEphemeral): void {
  const chatId = Number((stored.message.chat as Json).id);
  state.ephemeralMessages.set(ephemeralKey(chatId, Number(stored.message.ephemeral_message_id)), stored);
  emitEphemeral(state, stored);
}

/** With replace_callback_query_message: the message the receiver pressed, which this one replaces. */
function replacedMessage(
  state: BotApiState,
  chatId: number,
  receiverId: number,
  parameters: Json,
): StoredEphemeral['replaces'] {
  const queryId = parameters.callback_query_id;
  if (queryId === undefined) {
    if (parameters.replace_callback_query_message === true) {
      throw badRequest(EPHEMERAL_REFUSALS.replaceWithoutQuery);
    }
    return undefined;
  }
  const query = state.callbackQueries.get(String(queryId));
  if (!query) throw badRequest(EPHEMERAL_REFUSALS.queryInvalid);
  if (query.chatId !== chatId || query.userId !== receiverId) {
    throw badRequest(EPHEMERAL_REFUSALS.queryElsewhere);
  }
  return parameters.replace_callback_query_message === true ? structuredClone(query.pressed) : undefined;
}

/** A reply to an ephemeral message: to one its receiver sees, within 15 s of it being sent. */
function checkEphemeralReply(state: BotApiState, chatId: number, receiverId: number, p: Json): void {
  const reply = recordOrUndefined(p.reply_parameters);
  if (reply?.ephemeral_message_id === undefined) return;
  const target = findEphemeral(state, chatId, toInteger(reply.ephemeral_message_id));
  if (
    !target ||
    target.visibleTo !== receiverId ||
    state.now() - target.sentAtMs > EPHEMERAL_REPLY_WINDOW_MS
  ) {
    throw badRequest(EPHEMERAL_REFUSALS.replyNotFound);
  }
}

/** A User as a message shows another user: no language. */
function publicUser(user: Json): Json {
  const { language_code: _language, ...rest } = user;
  return rest;
}
