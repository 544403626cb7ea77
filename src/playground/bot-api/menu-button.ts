/**
 * The bot's menu button by the input of a private chat (setChatMenuButton / getChatMenuButton):
 * the default one, or one chat's; MenuButtonCommands, MenuButtonWebApp {text, web_app: {url}} or
 * MenuButtonDefault. A chat with none of its own shows the default one; with none set at all, the
 * commands (MenuButtonDefault).
 */
import { badRequest } from './failures.js';
import type { BotApiState } from './state.js';
import { type Json, recordOrUndefined } from './wire.js';

/** The menu button a chat shows now (its own, else the default). */
export function readMenuButton(state: BotApiState, chatId: number | undefined): Json {
  const button =
    (chatId === undefined ? undefined : state.menuButtons.get(chatId)) ?? state.menuButtons.get('default');
  return structuredClone(button ?? { type: 'default' });
}

export function setChatMenuButton(state: BotApiState, p: Json): true {
  const key = chatKey(p.chat_id);
  const given = p.menu_button === undefined ? { type: 'default' } : recordOrUndefined(p.menu_button);
  if (!given) throw badRequest("can't parse menu button JSON object");
  let button: Json;
  if (given.type === 'default' || given.type === 'commands') {
    button = { type: given.type };
  } else if (given.type === 'web_app') {
    const text = typeof given.text === 'string' ? given.text.trim() : '';
    const url = recordOrUndefined(given.web_app)?.url;
    if (text === '') throw badRequest('menu button text must be non-empty');
    if (typeof url !== 'string' || !/^https?:\/\/[^\s]+$/i.test(url)) {
      throw badRequest('BUTTON_URL_INVALID');
    }
    button = { type: 'web_app', text, web_app: { url } };
  } else {
    throw badRequest('unsupported menu button type specified');
  }
  if (button.type === 'default') state.menuButtons.delete(key);
  else state.menuButtons.set(key, button);
  state.events.emit({ type: 'profile', what: 'menu_button' });
  return true;
}

export function getChatMenuButton(state: BotApiState, p: Json): Json {
  const key = chatKey(p.chat_id);
  return readMenuButton(state, key === 'default' ? undefined : key);
}

/** A private chat's id (a user's, so positive), or the default button's key. */
function chatKey(value: unknown): number | 'default' {
  if (value === undefined || value === null) return 'default';
  const id = Number(value);
  if (!Number.isSafeInteger(id) || id === 0) throw badRequest('chat not found');
  if (id < 0) throw badRequest('chat_id must be a private chat');
  return id;
}
