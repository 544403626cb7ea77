// The page's entry (index.html loads it as a module): wires the parts together, draws the state
// the server gives, then follows the local Bot API server's events. The parts, each a module:
// chat-list, message-view (with formatting, rich-view, buttons and ephemeral-view), composer (with
// inline-mode), sandbox-panel, notices, mini-app-panel (the bot's Mini App over the chat); state
// and words are shared by all, transport is the only way to the server.

import { onSwitchInline } from './buttons.js';
import { drawChats, openChat } from './chat-list.js';
import { drawMenu, drawReplyKeyboard, wireComposer } from './composer.js';
import { dropEphemeral, keepEphemeral } from './ephemeral-view.js';
import { showInline, startInline } from './inline-mode.js';
import { drawLog } from './message-view.js';
import { drawMenuButton, wireMiniApp } from './mini-app-panel.js';
import { clearStatus, showAction, showAlert, showToast, wireNotices } from './notices.js';
import { drawSandbox, wireSandbox } from './sandbox-panel.js';
import { $, chat, chatMessages, state, words } from './state.js';
import { fetchState, listen } from './transport.js';

/** A "switch inline" button: the chat the query is for opens, with `@bot query` in its input. */
function switchInline(query, chatId) {
  openChat(chatId);
  startInline(query);
}

/** One event of the local Bot API server (events.ts): the state it changes, redrawn where it shows. */
function onEvent(event) {
  if (event.type === 'message' || event.type === 'edited') {
    const chatId = event.message.chat.id;
    chatMessages(chatId).set(event.message.message_id, event.message);
    if (event.type === 'message' && event.message.from?.is_bot) clearStatus(chatId);
    if (chatId === state.chatId) drawLog();
    else if (event.type === 'message' && chat(chatId)) {
      state.unread.set(chatId, (state.unread.get(chatId) ?? 0) + 1);
      drawChats();
    }
  } else if (event.type === 'ephemeral' || event.type === 'ephemeral-deleted') {
    // Kept with who sees it; only that member's view draws it.
    if (event.type === 'ephemeral') keepEphemeral(event);
    else dropEphemeral(event);
    if (event.chatId === state.chatId) drawLog();
  } else if (event.type === 'deleted') {
    chatMessages(event.chatId).delete(event.messageId);
    if (event.chatId === state.chatId) drawLog();
  } else if (event.type === 'toast' && event.chatId === state.chatId) {
    if (event.showAlert) showAlert(event.text);
    else showToast(event.text);
  } else if (event.type === 'action' && event.chatId === state.chatId) {
    showAction(event.chatId, event.action);
  } else if (event.type === 'inline-results') {
    state.inlineAnswers.set(event.queryId, event.results);
    if (event.queryId === state.inlineQueryId) showInline(event.results);
  } else if (event.type === 'profile') {
    refreshState();
  } else if (event.type === 'force-reply') {
    state.forceReplies.set(event.chatId, event.messageId);
  } else if (event.type === 'reply-keyboard') {
    if (event.keyboard) state.replyKeyboards.set(event.chatId, event.keyboard);
    else state.replyKeyboards.delete(event.chatId);
    if (event.chatId === state.chatId) drawReplyKeyboard();
  }
}

function applyLanguage() {
  document.documentElement.lang = state.lang;
  $('lang').value = state.lang;
  for (const element of document.querySelectorAll('[data-i18n]'))
    element.textContent = words()[element.dataset.i18n];
  for (const element of document.querySelectorAll('[data-i18n-label]'))
    element.setAttribute('aria-label', words()[element.dataset.i18nLabel]);
  $('input').placeholder = words().message;
}

async function refreshState() {
  state.info = await fetchState();
  drawSandbox();
  drawMenu();
  if (state.chatId !== undefined) drawMenuButton();
}

function wire() {
  wireComposer();
  wireSandbox(refreshState);
  wireNotices();
  wireMiniApp();
  onSwitchInline(switchInline);
  $('lang').addEventListener('change', (event) => {
    state.lang = event.target.value;
    localStorage.setItem('playground-lang', state.lang);
    applyLanguage();
    drawMenu();
    drawSandbox();
    openChat(state.chatId);
  });
}

async function startPage() {
  applyLanguage();
  await refreshState();
  wire();
  openChat(state.info.chats[0].id);
  listen(onEvent);
  // The sandbox's open invoices and orders change as the bot orders and the clock moves.
  setInterval(refreshState, 5000);
  document.body.dataset.ready = 'true';
}

startPage();
