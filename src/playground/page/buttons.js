// A bot's button as a phone draws it, in an inline keyboard or in a rich message: callback buttons
// press (naming the message — or the ephemeral message — and the label, so the server can refuse a
// press a phone would not make), URL buttons open a tab (a link to the bot's Mini App, like a
// `web_app` button, opens it in the panel: mini-app-panel.js), copy buttons copy, "switch inline"
// buttons fill the input. A disabled button (Bot API 10.3) is a real disabled <button>: greyed, not
// pressable, and found by Playwright's getByRole('button', { disabled: true }).

import { isMiniAppLink, openMiniApp } from './mini-app-panel.js';
import { copy, showError } from './notices.js';
import { markButtonStyle, sender, state } from './state.js';
import { call } from './transport.js';

/**
 * What a "switch inline" button does, given by main.js: it opens another chat, and the chat list
 * draws the message view, so this module cannot import it.
 */
let switchInline = () => {};
export function onSwitchInline(handler) {
  switchInline = handler;
}

/** The press of a callback button: on a message by its id, on an ephemeral one by its own id. */
function press(message, label, data) {
  const which =
    message.ephemeral_message_id !== undefined
      ? { ephemeralMessageId: message.ephemeral_message_id }
      : { messageId: message.message_id };
  return call('press', {
    chatId: message.chat.id,
    userId: sender(),
    ...which,
    text: label,
    data,
    lang: state.lang,
  }).catch(showError);
}

/** One button of `message`; `label` is its text as shown (a rich button's label is rich text). */
export function buttonElement(message, button, label = button.text) {
  const element = document.createElement('button');
  element.type = 'button';
  element.textContent = label;
  markButtonStyle(element, button);
  if (button.disabled) {
    element.disabled = true;
    element.classList.add('disabled');
  } else if (button.web_app) {
    element.addEventListener('click', () => openMiniApp('web_app', button.web_app.url));
  } else if (button.url && isMiniAppLink(button.url)) {
    // The bot's own Mini App (t.me/<bot>/<short name>): opened in the panel, as Telegram does.
    element.addEventListener('click', () => openMiniApp('url', button.url));
  } else if (button.url) {
    element.textContent = `${label} ↗`;
    element.setAttribute('aria-label', label);
    element.addEventListener('click', () => window.open(button.url, '_blank', 'noopener'));
  } else if (button.callback_data !== undefined) {
    element.addEventListener('click', () => press(message, label, button.callback_data));
  } else if (button.copy_text) {
    element.addEventListener('click', () => copy(button.copy_text.text, element));
  } else if (button.switch_inline_query_current_chat !== undefined) {
    element.addEventListener('click', () =>
      switchInline(button.switch_inline_query_current_chat, state.chatId),
    );
  } else if (button.switch_inline_query !== undefined || button.switch_inline_query_chosen_chat) {
    const query = button.switch_inline_query ?? button.switch_inline_query_chosen_chat.query ?? '';
    const client = state.info.chats.find((c) => c.kind === 'private' && c.id !== state.info.chats[0].id);
    element.addEventListener('click', () => switchInline(query, client?.id ?? state.chatId));
  }
  return element;
}

/** A row of buttons, as an inline keyboard's row or a rich message's buttons block. */
export function buttonRow(buttons) {
  const line = document.createElement('div');
  line.className = 'row';
  line.append(...buttons);
  return line;
}
