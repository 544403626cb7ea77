// The open chat's messages as Telegram draws them: bubbles with the sender in a group, documents,
// formatted text or a rich message (rich-view.js), "via @bot", the time (✎ once edited) and the
// inline keyboard under a message (buttons.js); in a group, the ephemeral messages of the member
// writing, marked «видно только вам» (ephemeral-view.js). An edit or a deletion redraws the log
// from the messages the events left in the state.

import { buttonElement, buttonRow } from './buttons.js';
import { messagesSeenBy } from './ephemeral-view.js';
import { formatted } from './formatting.js';
import { richView } from './rich-view.js';
import { $, chat, chatMessages, sender, state, words } from './state.js';

function keyboard(message) {
  const rows = message.reply_markup?.inline_keyboard;
  if (!rows) return undefined;
  const box = document.createElement('div');
  box.className = 'keyboard';
  for (const row of rows) box.append(buttonRow(row.map((button) => buttonElement(message, button))));
  return box;
}

/** The mark on an ephemeral message, which only its member's view shows. */
function onlyYou() {
  const note = document.createElement('div');
  note.className = 'ephemeral-note';
  note.textContent = `👁 ${words().onlyYou}`;
  return note;
}

function bubble(message) {
  const fromBot = message.from?.is_bot === true;
  const item = document.createElement('article');
  item.className = `message ${fromBot ? 'incoming' : 'outgoing'}`;
  item.dataset.id = String(message.message_id);
  if (message.seenBy) {
    item.classList.add('ephemeral');
    item.dataset.ephemeralId = String(message.ephemeral_message_id);
    item.append(onlyYou());
  }
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
  if (message.rich_message) item.append(richView(message.rich_message, message));
  if (message.via_bot) {
    const via = document.createElement('div');
    via.className = 'via';
    via.textContent = `${words().via} @${message.via_bot.username}`;
    item.append(via);
  }
  const meta = document.createElement('div');
  meta.className = 'meta';
  // In the sandbox's zone (Minsk), as its clock and the bot's own times are.
  const time = new Date(message.date * 1000).toLocaleTimeString(state.lang, {
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'Europe/Minsk',
  });
  meta.textContent = message.edit_date ? `✎ ${time}` : time;
  item.append(meta);
  const buttons = keyboard(message);
  if (buttons) item.append(buttons);
  return item;
}

export function drawLog() {
  const log = $('log');
  // In a group each member's view differs by the ephemeral messages they alone see.
  log.replaceChildren(...messagesSeenBy(state.chatId, sender()).map(bubble));
  log.scrollTop = log.scrollHeight;
  $('welcome').hidden = !(state.chatId === state.info.chats[0].id && chatMessages(state.chatId).size === 0);
}
