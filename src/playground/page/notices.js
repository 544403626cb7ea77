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

/** Copies `text`; the pressed `button`, if given, says so for a moment (a toast alone is easy to miss on a phone). */
export async function copy(text, button) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // A page without clipboard rights still shows what would be copied.
  }
  showToast(`${words().copied}: ${text}`);
  if (!button) return;
  if (button.dataset.label === undefined) button.dataset.label = button.textContent;
  button.textContent = `✓ ${words().copied}`;
  clearTimeout(button.copiedTimer);
  button.copiedTimer = setTimeout(() => {
    button.textContent = button.dataset.label;
    delete button.dataset.label;
  }, 2000);
}

export function wireNotices() {
  $('alert-ok').addEventListener('click', () => {
    $('alert').hidden = true;
  });
}
