// The playground's Telegram client: draws the chats from the local Bot API server's events and
// sends what the user does back as the updates Telegram would make. Plain browser JavaScript.

import { formatted } from './formatting.js';
import { clearStatus, copy, showAction, showAlert, showError, showToast, wireNotices } from './notices.js';
import { $, chat, chatMessages, person, sender, state, words } from './state.js';
import { call, fetchState, listen } from './transport.js';

// ---- messages ---------------------------------------------------------------------------------

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
  } else if (button.copy_text) {
    element.addEventListener('click', () => copy(button.copy_text.text));
  } else if (button.switch_inline_query_current_chat !== undefined) {
    element.addEventListener('click', () =>
      startInline(button.switch_inline_query_current_chat, state.chatId),
    );
  } else if (button.switch_inline_query !== undefined || button.switch_inline_query_chosen_chat) {
    const query = button.switch_inline_query ?? button.switch_inline_query_chosen_chat.query ?? '';
    const client = state.info.chats.find((c) => c.kind === 'private' && c.id !== state.info.chats[0].id);
    element.addEventListener('click', () => startInline(query, client?.id ?? state.chatId));
  }
  return element;
}

function startInline(query, chatId) {
  openChat(chatId);
  const input = $('input');
  input.value = `@${state.info.bot.username} ${query}`;
  input.focus();
  askInline();
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

function drawLog() {
  const log = $('log');
  log.replaceChildren(...[...chatMessages(state.chatId).values()].map(bubble));
  log.scrollTop = log.scrollHeight;
  $('welcome').hidden = !(state.chatId === state.info.chats[0].id && chatMessages(state.chatId).size === 0);
}

function drawChats() {
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
      button.textContent = `${c.title}${detail}${unread > 0 ? ` (${unread})` : ''}`;
      button.addEventListener('click', () => openChat(c.id));
      item.append(button);
      return item;
    }),
  );
}

/** The reply keyboard under the input: text buttons send their text; "choose a chat" opens a picker. */
function drawReplyKeyboard() {
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
      element.textContent = `👥 ${group.title}`;
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

function openChat(chatId) {
  state.chatId = chatId;
  state.unread.set(chatId, 0);
  const current = chat(chatId);
  $('chat-title').textContent = current.title;
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
}

// ---- events from the local Bot API server -----------------------------------------------------

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

// ---- inline mode ------------------------------------------------------------------------------

let inlineTimer;
function askInline() {
  clearTimeout(inlineTimer);
  const prefix = `@${state.info.bot.username}`;
  const value = $('input').value;
  if (!value.startsWith(prefix)) {
    hideInline();
    return;
  }
  inlineTimer = setTimeout(async () => {
    const query = value.slice(prefix.length).trim();
    const { queryId } = await call('inline', { userId: sender(), query, lang: state.lang });
    state.inlineQueryId = queryId;
    const answered = state.inlineAnswers.get(queryId);
    if (answered) showInline(answered);
  }, 250);
}

function showInline(results) {
  const box = $('inline-results');
  box.replaceChildren(
    ...results.map((result) => {
      const option = document.createElement('button');
      option.type = 'button';
      option.setAttribute('role', 'option');
      option.className = 'result';
      const title = document.createElement('strong');
      title.textContent = result.title ?? result.id;
      option.append(title);
      if (result.description) {
        const description = document.createElement('span');
        description.textContent = result.description;
        option.append(description);
      }
      const queryId = state.inlineQueryId;
      option.addEventListener('click', async () => {
        await call('choose', { queryId, resultId: result.id, userId: sender(), chatId: state.chatId }).catch(
          showError,
        );
        $('input').value = '';
        hideInline();
      });
      return option;
    }),
  );
  box.hidden = results.length === 0;
}

function hideInline() {
  state.inlineQueryId = undefined;
  $('inline-results').hidden = true;
}

// ---- the command menu, the composer, the sandbox ------------------------------------------------

function drawMenu() {
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

function describeItem(item) {
  const parts = [`№ ${item.number}`, item.domain ?? words().kinds[item.kind] ?? item.kind];
  if (item.amount !== undefined)
    parts.push(item.amount.toLocaleString(state.lang, { minimumFractionDigits: 2 }));
  return parts.join(' · ');
}

function fillSelect(select, items) {
  if (items.length === 0) {
    const none = document.createElement('option');
    none.value = '';
    none.textContent = words().none;
    select.replaceChildren(none);
    return;
  }
  const chosen = select.value;
  select.replaceChildren(
    ...items.map((item) => {
      const option = document.createElement('option');
      option.value = String(item.id);
      option.textContent = describeItem(item);
      return option;
    }),
  );
  if (items.some((item) => String(item.id) === chosen)) select.value = chosen;
}

function drawSandbox() {
  const sandbox = state.info.sandbox;
  $('sandbox-token').textContent = sandbox.token;
  $('welcome-token').textContent = sandbox.token;
  $('sandbox-now').textContent = sandbox.now;
  fillSelect($('unpaid'), sandbox.unpaid);
  fillSelect($('pending'), sandbox.pending);
  fillSelect($('completed'), sandbox.completed);
  $('bot-description').textContent = state.info.descriptions[state.lang] || state.info.descriptions.ru || '';
}

async function control(action, body) {
  try {
    await call(action, body);
    $('sandbox-result').textContent = `${words().done}.`;
  } catch (error) {
    $('sandbox-result').textContent = `⚠ ${error.message}`;
  }
  await refreshState();
}

/** `DD.MM.YYYY HH:MM` plus whole days. */
function laterBy(now, days) {
  const [date, time] = now.split(' ');
  const [d, m, y] = date.split('.').map(Number);
  const moved = new Date(Date.UTC(y, m - 1, d + days));
  const pad = (n) => String(n).padStart(2, '0');
  return `${pad(moved.getUTCDate())}.${pad(moved.getUTCMonth() + 1)}.${moved.getUTCFullYear()} ${time}`;
}

function applyLanguage() {
  document.documentElement.lang = state.lang;
  $('lang').value = state.lang;
  for (const element of document.querySelectorAll('[data-i18n]'))
    element.textContent = words()[element.dataset.i18n];
  $('input').placeholder = words().message;
}

async function refreshState() {
  state.info = await fetchState();
  drawSandbox();
  drawMenu();
}

function wire() {
  $('composer').addEventListener('submit', (event) => {
    event.preventDefault();
    const input = $('input');
    const text = input.value;
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
  $('as').addEventListener('change', (event) => state.senders.set(state.chatId, Number(event.target.value)));
  $('menu-button').addEventListener('click', () => toggleMenu($('menu').hidden));
  $('start').addEventListener('click', () => send('/start'));
  $('copy-token').addEventListener('click', () => copy(state.info.sandbox.token));
  $('copy-welcome-token').addEventListener('click', () => copy(state.info.sandbox.token));
  wireNotices();
  $('lang').addEventListener('change', (event) => {
    state.lang = event.target.value;
    localStorage.setItem('playground-lang', state.lang);
    applyLanguage();
    drawMenu();
    drawSandbox();
    openChat(state.chatId);
  });
  const selected = (id) => Number($(id).value);
  $('pay').addEventListener(
    'click',
    () => $('unpaid').value && control('pay', { invoiceId: selected('unpaid') }),
  );
  $('complete').addEventListener(
    'click',
    () => $('pending').value && control('complete', { orderId: selected('pending') }),
  );
  $('renew').addEventListener(
    'click',
    () => $('completed').value && control('renew', { orderId: selected('completed') }),
  );
  $('day').addEventListener('click', () => control('clock', { now: laterBy(state.info.sandbox.now, 1) }));
  $('month').addEventListener('click', () => control('clock', { now: laterBy(state.info.sandbox.now, 30) }));
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
