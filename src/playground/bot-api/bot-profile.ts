/**
 * What the bot says about itself: getMe, the command menus (setMyCommands per scope and language,
 * BOT_COMMAND_INVALID and description lengths refused, `is_ephemeral` kept) and the descriptions
 * (setMyDescription up to 512 characters, setMyShortDescription up to 120, per language); and which
 * of a group member's commands are ephemeral, by the list Telegram would show that member.
 */
import { badRequest } from './failures.js';
import type { BotApiState, BotInfo } from './state.js';
import { isRecord, type Json, recordOrUndefined, stringOrUndefined } from './wire.js';

/** Commands set by setMyCommands for this language and scope. */
export function readMyCommands(
  state: BotApiState,
  opts: { languageCode?: string; scope?: Json } = {},
): unknown[] {
  return structuredClone(state.commands.get(commandsKey(opts.scope, opts.languageCode)) ?? []);
}

/** What setMyDescription / setMyShortDescription set for this language ('' when none). */
export function readMyDescription(
  state: BotApiState,
  opts: { languageCode?: string; short?: boolean } = {},
): string {
  return state.descriptions.get(descriptionKey(opts.short === true, opts.languageCode)) ?? '';
}

export function getMe(state: BotApiState): BotInfo {
  return structuredClone(state.botInfo);
}

export function setMyCommands(state: BotApiState, p: Json): true {
  if (!Array.isArray(p.commands)) throw badRequest('parameter "commands" is required');
  const commands: unknown[] = p.commands;
  for (const entry of commands) {
    const command = isRecord(entry) ? entry.command : undefined;
    const description = isRecord(entry) ? entry.description : undefined;
    if (typeof command !== 'string' || !/^[a-z0-9_]{1,32}$/.test(command)) {
      throw badRequest('BOT_COMMAND_INVALID');
    }
    if (typeof description !== 'string' || description.length < 1 || description.length > 256) {
      throw badRequest('command description must be 1-256 characters long');
    }
    if (isRecord(entry) && entry.is_ephemeral !== undefined && typeof entry.is_ephemeral !== 'boolean') {
      throw badRequest('can\'t parse BotCommand: Field "is_ephemeral" must be of type Boolean');
    }
  }
  state.commands.set(commandsKey(recordOrUndefined(p.scope), stringOrUndefined(p.language_code)), commands);
  state.events.emit({ type: 'profile', what: 'commands' });
  return true;
}

export function getMyCommands(state: BotApiState, p: Json): unknown[] {
  return structuredClone(
    state.commands.get(commandsKey(recordOrUndefined(p.scope), stringOrUndefined(p.language_code))) ?? [],
  );
}

export function deleteMyCommands(state: BotApiState, p: Json): true {
  state.commands.delete(commandsKey(recordOrUndefined(p.scope), stringOrUndefined(p.language_code)));
  return true;
}

export function setMyDescription(state: BotApiState, p: Json): true {
  return setDescription(state, p, false);
}

export function setMyShortDescription(state: BotApiState, p: Json): true {
  return setDescription(state, p, true);
}

export function getMyDescription(state: BotApiState, p: Json): Json {
  return {
    description: state.descriptions.get(descriptionKey(false, stringOrUndefined(p.language_code))) ?? '',
  };
}

export function getMyShortDescription(state: BotApiState, p: Json): Json {
  return {
    short_description: state.descriptions.get(descriptionKey(true, stringOrUndefined(p.language_code))) ?? '',
  };
}

function setDescription(state: BotApiState, p: Json, short: boolean): true {
  const field = short ? 'short_description' : 'description';
  const text = stringOrUndefined(p[field]) ?? '';
  if (text.length > (short ? 120 : 512)) throw badRequest(`${short ? 'SHORT_' : ''}DESCRIPTION_TOO_LONG`);
  const key = descriptionKey(short, stringOrUndefined(p.language_code));
  if (text === '') state.descriptions.delete(key);
  else state.descriptions.set(key, text);
  state.events.emit({ type: 'profile', what: short ? 'short_description' : 'description' });
  return true;
}

/**
 * Whether a member's text in a group is a command of ours registered `is_ephemeral: true` in the
 * list Telegram shows that member there: the first list set of chat_member, chat, all_group_chats
 * and default, each in the member's language before none (the administrator scopes are not
 * modelled: the server does not know who administers a group).
 */
export function isEphemeralCommand(
  state: BotApiState,
  text: string,
  chatId: number,
  userId: number,
  languageCode: string | undefined,
): boolean {
  const match = /^\/([A-Za-z0-9_]{1,32})(?:@([A-Za-z0-9_]{3,32}))?(?:\s|$)/.exec(text);
  if (!match?.[1]) return false;
  if (match[2] !== undefined && match[2].toLowerCase() !== state.botInfo.username.toLowerCase()) return false;
  const name = match[1].toLowerCase();
  const list = groupCommandList(state, chatId, userId, languageCode ?? '');
  return list.some((entry) => isRecord(entry) && entry.command === name && entry.is_ephemeral === true);
}

function groupCommandList(state: BotApiState, chatId: number, userId: number, language: string): unknown[] {
  const lists = [...state.commands].map(([key, commands]) => {
    const cut = key.lastIndexOf('|');
    return { scope: JSON.parse(key.slice(0, cut)) as Json, language: key.slice(cut + 1), commands };
  });
  const scopes: ((scope: Json) => boolean)[] = [
    (s) => s.type === 'chat_member' && Number(s.chat_id) === chatId && Number(s.user_id) === userId,
    (s) => s.type === 'chat' && Number(s.chat_id) === chatId,
    (s) => s.type === 'all_group_chats',
    (s) => s.type === 'default',
  ];
  for (const applies of scopes) {
    for (const wanted of [language, '']) {
      const found = lists.find((list) => applies(list.scope) && list.language === wanted);
      if (found) return found.commands;
    }
  }
  return [];
}

function commandsKey(scope: Json | undefined, languageCode: string | undefined): string {
  return `${JSON.stringify(scope ?? { type: 'default' })}|${languageCode ?? ''}`;
}

function descriptionKey(short: boolean, languageCode: string | undefined): string {
  return `${short ? 'short' : 'long'}|${languageCode ?? ''}`;
}
