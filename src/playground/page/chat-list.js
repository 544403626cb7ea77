// The chat list on the left and what opening a chat does: its title, who may write in it («Пишет»),
// its messages and its reply keyboard. A count shows what arrived in a chat not looked at, as a
// notification would.

import { drawReplyKeyboard } from './composer.js';
import { hideInline } from './inline-mode.js';
import { drawLog } from './message-view.js';
import { drawMenuButton } from './mini-app-panel.js';
import { clearStatus } from './notices.js';
import { $, chat, chatName, person, sender, state, words } from './state.js';

export function drawChats() {
  const list = $('chats');
  list.replaceChildren(
    ...state.info.chats.map((c) => {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.className = c.id === state.chatId ? 'current' : '';
      if (c.id === state.chatId) button.setAttribute('aria-current', 'true');
      const unread = state.unread.get(c.id) ?? 0;
      const detail = c.kind === 'group' ? ` · ${c.members.length} ${words().members}` : '';
      button.textContent = `${chatName(c)}${detail}${unread > 0 ? ` (${unread})` : ''}`;
      button.addEventListener('click', () => openChat(c.id));
      item.append(button);
      return item;
    }),
  );
}

export function openChat(chatId) {
  state.chatId = chatId;
  state.unread.set(chatId, 0);
  const current = chat(chatId);
  $('chat-title').textContent = chatName(current);
  $('toast').hidden = true;
  clearStatus(chatId);
  const as = $('as');
  $('as-label').hidden = current.members.length < 2;
  as.replaceChildren(
    ...current.members.map((id) => {
      const option = document.createElement('option');
      option.value = String(id);
      const who = person(id);
      option.textContent = `${who.first_name} ${who.last_name ?? ''}`.trim();
      return option;
    }),
  );
  as.value = String(sender());
  hideInline();
  drawChats();
  drawLog();
  drawReplyKeyboard();
  drawMenuButton();
}
