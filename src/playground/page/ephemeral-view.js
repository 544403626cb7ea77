// Ephemeral messages (Bot API 10.2–10.3) in a group: each is seen by one member (and the bot). The
// page keeps them among the chat's messages under the key `e<ephemeral_message_id>`, with who sees
// them; a member's view shows theirs — in place of the message it replaces, when the bot asked for
// that (replace_callback_query_message) — and never another member's.

import { chatMessages } from './state.js';

/** The key of an ephemeral message among its chat's messages. */
export function ephemeralKey(ephemeralMessageId) {
  return `e${ephemeralMessageId}`;
}

/** An ephemeral event (events.ts): the message kept, with who sees it and what it replaces. */
export function keepEphemeral(event) {
  chatMessages(event.chatId).set(ephemeralKey(event.message.ephemeral_message_id), {
    ...event.message,
    seenBy: { userId: event.visibleTo, replaces: event.replaces },
  });
}

export function dropEphemeral(event) {
  chatMessages(event.chatId).delete(ephemeralKey(event.ephemeralMessageId));
}

function replacedKey(replaces) {
  if (!replaces) return undefined;
  return replaces.messageId ?? ephemeralKey(replaces.ephemeralMessageId);
}

/** The chat's messages as `viewer` sees them, in order. */
export function messagesSeenBy(chatId, viewer) {
  const entries = [...chatMessages(chatId).entries()];
  const keys = new Set(entries.map(([key]) => key));
  const mine = (message) => message.seenBy === undefined || message.seenBy.userId === viewer;
  // What this viewer sees in place of another message, by that message's key.
  const inPlaceOf = new Map();
  for (const [, message] of entries) {
    const replaced = replacedKey(message.seenBy?.replaces);
    if (replaced !== undefined && keys.has(replaced) && mine(message)) inPlaceOf.set(replaced, message);
  }
  const shown = [];
  for (const [key, message] of entries) {
    if (!mine(message)) continue;
    const replaced = replacedKey(message.seenBy?.replaces);
    if (replaced !== undefined && inPlaceOf.get(replaced) === message) continue;
    shown.push(inPlaceOf.get(key) ?? message);
  }
  return shown;
}
