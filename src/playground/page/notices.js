// What the page says beside the messages: the chat's status line ("печатает…"), toasts and alerts
// (answerCallbackQuery), the page's own errors, and what a copy button copied.

import { $, state, words } from './state.js';

let statusTimer;

/** The open chat's status line at rest: "бот" in the bot's private chat, nothing in the others. */
export function clearStatus(chatId) {
  if (chatId !== state.chatId) return;
  clearTimeout(statusTimer);
  $('chat-status').textContent = chatId === state.info.chats[0].id ? words().bot : '';
}

/** sendChatAction: shown for five seconds, as Telegram shows it, unless the answer comes first. */
export function showAction(chatId, action) {
  $('chat-status').textContent = action === 'typing' ? words().typing : words().uploading;
  clearTimeout(statusTimer);
  statusTimer = setTimeout(() => clearStatus(chatId), 5000);
}

export function showToast(text) {
  const toast = $('toast');
  toast.textContent = text;
  toast.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => {
    toast.hidden = true;
  }, 3500);
}

export function showAlert(text) {
  $('alert-text').textContent = text;
  $('alert').hidden = false;
  $('alert-ok').focus();
}

export function showError(error) {
  showToast(`⚠ ${error.message}`);
}

export async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // A page without clipboard rights still shows what would be copied.
  }
  showToast(`${words().copied}: ${text}`);
}

export function wireNotices() {
  $('alert-ok').addEventListener('click', () => {
    $('alert').hidden = true;
  });
}
