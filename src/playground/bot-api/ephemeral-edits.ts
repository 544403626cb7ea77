/**
 * Editing and deleting ephemeral messages (Bot API 10.2–10.3): editEphemeralMessageText (a text
 * or a rich message), editEphemeralMessageCaption, editEphemeralMessageReplyMarkup and
 * deleteEphemeralMessage, each naming the message by chat, receiver and ephemeral_message_id and
 * answering true. Refused in the words Telegram uses for ordinary messages: "message to edit not
 * found" / "message to delete not found" (no such id in the chat, or another receiver), "message
 * can't be edited" / "message can't be deleted" (a member's own ephemeral command), "message is
 * not modified", "there is no caption in the message to edit".
 */
import { requireChat } from './chats.js';
import { emitEphemeral, findEphemeral } from './ephemeral.js';
import { badRequest, NOT_MODIFIED } from './failures.js';
import { inlineMarkup } from './markup.js';
import { applyTextEdit, formatText, sameJson, setOrDelete } from './messages.js';
import { type BotApiState, ephemeralKey, type StoredEphemeral } from './state.js';
import { type Json, stringOrUndefined, toInteger } from './wire.js';

export function editEphemeralMessageText(state: BotApiState, p: Json): true {
  const stored = editableEphemeral(state, p);
  applyTextEdit(stored, p);
  return finishEphemeralEdit(state, stored);
}

export function editEphemeralMessageCaption(state: BotApiState, p: Json): true {
  const stored = editableEphemeral(state, p);
  if (stored.message.document === undefined) throw badRequest('there is no caption in the message to edit');
  const caption = formatText(stringOrUndefined(p.caption) ?? '', p, 'caption_entities');
  if (caption.text.length > 1024) throw badRequest('message caption is too long');
  const text = caption.text === '' ? undefined : caption.text;
  const markup = inlineMarkup(p.reply_markup);
  if (
    sameJson(stored.message.caption, text) &&
    sameJson(stored.message.caption_entities, caption.entities) &&
    sameJson(stored.message.reply_markup, markup)
  ) {
    throw badRequest(NOT_MODIFIED);
  }
  setOrDelete(stored.message, 'caption', text);
  setOrDelete(stored.message, 'caption_entities', caption.entities);
  setOrDelete(stored.message, 'reply_markup', markup);
  return finishEphemeralEdit(state, stored);
}

export function editEphemeralMessageReplyMarkup(state: BotApiState, p: Json): true {
  const stored = editableEphemeral(state, p);
  const markup = inlineMarkup(p.reply_markup);
  if (sameJson(stored.message.reply_markup, markup)) throw badRequest(NOT_MODIFIED);
  setOrDelete(stored.message, 'reply_markup', markup);
  return finishEphemeralEdit(state, stored);
}

export function deleteEphemeralMessage(state: BotApiState, p: Json): true {
  const { chatId, stored } = namedEphemeral(state, p, 'message to delete not found');
  if (!state.isFromBot(stored.message)) throw badRequest("message can't be deleted");
  const id = Number(stored.message.ephemeral_message_id);
  state.ephemeralMessages.delete(ephemeralKey(chatId, id));
  state.events.emit({
    type: 'ephemeral-deleted',
    chatId,
    ephemeralMessageId: id,
    visibleTo: stored.visibleTo,
  });
  return true;
}

function editableEphemeral(state: BotApiState, p: Json): StoredEphemeral {
  const { stored } = namedEphemeral(state, p, 'message to edit not found');
  if (!state.isFromBot(stored.message)) throw badRequest("message can't be edited");
  return stored;
}

/** The ephemeral message a call names: its chat, its id, and the receiver it was sent to. */
function namedEphemeral(
  state: BotApiState,
  p: Json,
  notFound: string,
): { chatId: number; stored: StoredEphemeral } {
  const chatId = requireChat(p);
  const stored = findEphemeral(state, chatId, toInteger(p.ephemeral_message_id));
  if (!stored || toInteger(p.receiver_user_id) !== stored.visibleTo) throw badRequest(notFound);
  return { chatId, stored };
}

function finishEphemeralEdit(state: BotApiState, stored: StoredEphemeral): true {
  stored.message.edit_date = state.unixTime();
  emitEphemeral(state, stored);
  return true;
}
