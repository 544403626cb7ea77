// The open chat's messages as Telegram draws them: bubbles with the sender in a group, documents,
// formatted text, "via @bot", the time (✎ once edited) and the inline keyboard under a message.
// An edit or a deletion redraws the log from the messages the events left in the state.

import { formatted } from './formatting.js';
import { copy, showError } from './notices.js';
import { $, chat, chatMessages, markButtonStyle, sender, state, words } from './state.js';
import { call } from './transport.js';

/**
 * What a "switch inline" button does, given by main.js: it opens another chat, and the chat list
 * draws this view, so this module cannot import it.
 */
let switchInline = () => {};
export function onSwitchInline(handler) {
  switchInline = handler;
}

function keyboard(message) {
  const rows = message.reply_markup?.inline_keyboard;
  if (!rows) return undefined;
  const box = document.createElement('div');
  box.className = 'keyboard';
  for (const row of rows) {
    const line = document.createElement('div');
    line.className = 'row';
    for (const button of row) line.append(inlineButton(message, button));
    box.append(line);
  }
  return box;
}

function inlineButton(message, button) {
  const element = document.createElement('button');
  element.type = 'button';
  element.textContent = button.text;
  markButtonStyle(element, button);
  if (button.url) {
    element.textContent = `${button.text} ↗`;
    element.setAttribute('aria-label', button.text);
    element.addEventListener('click', () => window.open(button.url, '_blank', 'noopener'));
  } else if (button.callback_data !== undefined) {
    element.addEventListener('click', () =>
      call('press', {
        chatId: message.chat.id,
        userId: sender(),
        messageId: message.message_id,
        data: button.callback_data,
        lang: state.lang,
      }).catch(showError),
    );
  } else if (button.disabled) {
    element.disabled = true;
  } else if (button.copy_text) {
    element.addEventListener('click', () => copy(button.copy_text.text));
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

function bubble(message) {
  const fromBot = message.from?.is_bot === true;
  const item = document.createElement('article');
  item.className = `message ${fromBot ? 'incoming' : 'outgoing'}`;
  item.dataset.id = String(message.message_id);
  const current = chat(message.chat.id);
  if (current?.kind === 'group' && !fromBot) {
    const name = document.createElement('div');
    name.className = 'author';
    name.textContent = message.from.first_name;
    item.append(name);
  }
  if (message.document) {
    const file = document.createElement('a');
    file.className = 'document';
    file.href = `/api/files/${encodeURIComponent(message.document.file_id)}`;
    file.download = message.document.file_name;
    file.textContent = `📄 ${message.document.file_name}`;
    file.setAttribute('aria-label', `${words().download} ${message.document.file_name}`);
    item.append(file);
  }
  const text = message.text ?? message.caption;
  if (text !== undefined) item.append(formatted(text, message.entities ?? message.caption_entities));
  if (message.via_bot) {
    const via = document.createElement('div');
    via.className = 'via';
    via.textContent = `${words().via} @${message.via_bot.username}`;
    item.append(via);
  }
  const meta = document.createElement('div');
  meta.className = 'meta';
  const time = new Date(message.date * 1000).toLocaleTimeString(state.lang, {
    hour: '2-digit',
    minute: '2-digit',
  });
  meta.textContent = message.edit_date ? `✎ ${time}` : time;
  item.append(meta);
  const buttons = keyboard(message);
  if (buttons) item.append(buttons);
  return item;
}

export function drawLog() {
  const log = $('log');
  log.replaceChildren(...[...chatMessages(state.chatId).values()].map(bubble));
  log.scrollTop = log.scrollHeight;
  $('welcome').hidden = !(state.chatId === state.info.chats[0].id && chatMessages(state.chatId).size === 0);
}
