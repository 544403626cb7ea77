// The composer under the log: the input (Enter sends, Shift+Enter makes a new line), 📎 for a file,
// «Пишет» in a group, the «/» command menu, and the reply keyboard the bot puts in place of the
// phone's keyboard, with Telegram's group picker. Each sends what a Telegram app would.

import { askInline } from './inline-mode.js';
import { drawLog } from './message-view.js';
import { showError } from './notices.js';
import { $, chatName, markButtonStyle, sender, state } from './state.js';
import { call } from './transport.js';

async function send(text) {
  if (text.trim() === '') return;
  // As Telegram's apps do: the answer to a ForceReply question goes as a reply to it.
  const replyTo = state.forceReplies.get(state.chatId);
  state.forceReplies.delete(state.chatId);
  await call('send', {
    chatId: state.chatId,
    userId: sender(),
    text,
    lang: state.lang,
    ...(replyTo === undefined ? {} : { replyTo }),
  }).catch(showError);
}

async function upload(file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  await call('upload', {
    chatId: state.chatId,
    userId: sender(),
    fileName: file.name,
    base64: btoa(binary),
  }).catch(showError);
}

export function drawMenu() {
  const menu = $('menu');
  const commands =
    state.info.commands[state.lang].length > 0 ? state.info.commands[state.lang] : state.info.commands.ru;
  menu.replaceChildren(
    ...commands.map((command) => {
      const item = document.createElement('button');
      item.type = 'button';
      item.className = 'command';
      const name = document.createElement('strong');
      name.textContent = `/${command.command}`;
      item.append(name, ` ${command.description}`);
      item.addEventListener('click', () => {
        toggleMenu(false);
        send(`/${command.command}`);
      });
      return item;
    }),
  );
}

function toggleMenu(open) {
  $('menu').hidden = !open;
  $('menu-button').setAttribute('aria-expanded', String(open));
}

/** The reply keyboard under the input: text buttons send their text; "choose a chat" opens a picker. */
export function drawReplyKeyboard() {
  const box = $('reply-keyboard');
  const rows = state.replyKeyboards.get(state.chatId);
  box.hidden = !rows;
  if (!rows) {
    box.replaceChildren();
    return;
  }
  box.replaceChildren(
    ...rows.flat().map((button) => {
      const element = document.createElement('button');
      element.type = 'button';
      element.textContent = button.text;
      markButtonStyle(element, button);
      element.addEventListener('click', () => {
        if (button.request_chat) pickChat(button.request_chat);
        else send(button.text);
      });
      return element;
    }),
  );
}

/** Telegram's chat picker, as the page can offer it: the playground's groups. */
function pickChat(request) {
  const box = $('reply-keyboard');
  const groups = state.info.chats.filter((c) => c.kind === 'group');
  box.replaceChildren(
    ...groups.map((group) => {
      const element = document.createElement('button');
      element.type = 'button';
      element.textContent = `👥 ${chatName(group)}`;
      element.addEventListener('click', () =>
        call('share', {
          chatId: state.chatId,
          userId: sender(),
          requestId: request.request_id,
          sharedChatId: group.id,
        }).catch(showError),
      );
      return element;
    }),
  );
}

export function wireComposer() {
  $('composer').addEventListener('submit', (event) => {
    event.preventDefault();
    const input = $('input');
    const text = input.value;
    // `@bot query` is an inline query, not a message: a chosen result is what gets posted.
    if (text.startsWith(`@${state.info.bot.username}`)) return;
    input.value = '';
    send(text);
  });
  $('input').addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      $('composer').requestSubmit();
    }
  });
  $('input').addEventListener('input', askInline);
  $('file').addEventListener('change', async (event) => {
    const [file] = event.target.files;
    if (file) await upload(file);
    event.target.value = '';
  });
  // Who writes is also whose view the log shows: each member sees only their ephemeral messages.
  $('as').addEventListener('change', (event) => {
    state.senders.set(state.chatId, Number(event.target.value));
    drawLog();
  });
  $('menu-button').addEventListener('click', () => toggleMenu($('menu').hidden));
  $('start').addEventListener('click', () => send('/start'));
}
