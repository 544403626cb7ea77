// The page's one state, shared by its modules: what the server said (`info`), which chat is open,
// what each chat holds and what the user chose. A module changes it in place and keeps no copy, so
// whichever draws next draws what is true now.

import { WORDS } from './words.js';

/** An element of index.html by its id. */
export const $ = (id) => document.getElementById(id);

export const state = {
  lang: localStorage.getItem('playground-lang') === 'en' ? 'en' : 'ru',
  info: undefined,
  chatId: undefined,
  /** chatId → Map(messageId → message) */
  messages: new Map(),
  unread: new Map(),
  senders: new Map(),
  inlineQueryId: undefined,
  /** chatId → the reply keyboard the bot put under the input. */
  replyKeyboards: new Map(),
  /** chatId → the bot's message asking for a reply (ForceReply): the next text answers it. */
  forceReplies: new Map(),
  /** queryId → results, kept for an answer that arrives before the query's id does. */
  inlineAnswers: new Map(),
};

export const words = () => WORDS[state.lang];

/** The styles a Telegram app colours a button in (Bot API 9.4); none is the app's own. */
const BUTTON_STYLES = new Set(['danger', 'success', 'primary']);

/**
 * Marks a drawn button with the style the bot gave it, for style.css to colour (red, green,
 * blue). The label stays the button's text, so its accessible name is the same either way.
 */
export function markButtonStyle(element, button) {
  if (BUTTON_STYLES.has(button.style)) element.dataset.style = button.style;
}

export function person(id) {
  return state.info.people.find((p) => p.id === id);
}

/** A chat's name on the page, in its language (the bot knows the chat by its Telegram title). */
export const chatName = (c) => (state.lang === 'en' && c.titleEn) || c.title;

export function chat(id) {
  return state.info.chats.find((c) => c.id === id);
}

/** Who writes in the open chat: the member chosen under «Пишет», else its first member. */
export function sender() {
  const current = chat(state.chatId);
  return state.senders.get(state.chatId) ?? current.members[0];
}

export function chatMessages(chatId) {
  let messages = state.messages.get(chatId);
  if (!messages) {
    messages = new Map();
    state.messages.set(chatId, messages);
  }
  return messages;
}
