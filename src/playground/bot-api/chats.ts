/**
 * Chats and members: the users and groups a test names (with a group's members), the chat a call names (refused when it
 * names none), getChatMember, and forum topics — createForumTopic, and the `message_thread_id` a
 * call writes in, refused when the forum has no such topic.
 */
import { badRequest } from './failures.js';
import type { BotApiState, ChatProfile, UserProfile } from './state.js';
import { type Json, stringOrUndefined, toInteger } from './wire.js';

/** Name a user for the updates the server makes. */
export function defineUser(state: BotApiState, user: UserProfile): void {
  state.users.set(user.id, structuredClone(user));
}

/** Name a group for the updates the server makes, and its members (a message's chat never shows them). */
export function defineChat(state: BotApiState, chat: ChatProfile): void {
  const { members, ...profile } = structuredClone(chat);
  state.chats.set(chat.id, {
    ...profile,
    ...(chat.type === 'supergroup' ? { is_forum: chat.is_forum ?? false } : {}),
  });
  for (const userId of members ?? []) state.addMember(chat.id, userId);
}

/** The chat a call names; chats are made up on first use, so only a missing or odd id is refused. */
export function requireChat(p: Json): number {
  const raw = p.chat_id;
  if (raw === undefined || raw === '') throw badRequest('chat_id is empty');
  const chatId = toInteger(raw);
  if (chatId === undefined) throw badRequest('chat not found');
  return chatId;
}

/** The forum topic a call writes in; a topic a forum does not have is refused, as by Telegram. */
export function checkThread(state: BotApiState, chatId: number, p: Json): number | undefined {
  const threadId = toInteger(p.message_thread_id);
  if (threadId === undefined) return undefined;
  const chat = state.chats.get(chatId);
  const topics = state.topics.get(chatId);
  if (chat?.is_forum === true && threadId !== 1 && !topics?.has(threadId)) {
    throw badRequest('message thread not found');
  }
  return threadId;
}

export function createForumTopic(state: BotApiState, p: Json): Json {
  const chatId = requireChat(p);
  if (state.chats.get(chatId)?.is_forum !== true) throw badRequest('the chat is not a forum');
  const name = stringOrUndefined(p.name) ?? '';
  if (name.length < 1 || name.length > 128) throw badRequest('TOPIC_TITLE_EMPTY');
  const topics = state.topics.get(chatId) ?? new Set<number>();
  const threadId = state.takeMessageId(chatId, undefined);
  topics.add(threadId);
  state.topics.set(chatId, topics);
  return { message_thread_id: threadId, name, icon_color: 7322096 };
}

/**
 * A member of a chat, as far as the server knows: in a group, its members (defineChat's and whoever
 * wrote there) are `member`, anyone else `left` (Telegram's answer for a user not in the group);
 * the bot is a member of every chat. In a private chat its user and the bot are members. The
 * server does not model administrators, so nobody is `creator` or `administrator`.
 */
export function getChatMember(state: BotApiState, p: Json): Json {
  const chatId = requireChat(p);
  if (p.user_id === undefined || p.user_id === '') throw badRequest('user_id is empty');
  const userId = toInteger(p.user_id);
  if (userId === undefined || userId <= 0) throw badRequest('invalid user_id specified');
  const chat = state.chats.get(chatId);
  if (chatId < 0 && chat === undefined) throw badRequest('chat not found');
  const isBot = userId === state.botInfo.id;
  const member = isBot || (chatId > 0 ? userId === chatId : state.isMember(chatId, userId));
  return {
    status: member ? 'member' : 'left',
    user: isBot ? state.botUser() : state.user(userId, undefined),
  };
}
