/**
 * What the local Bot API server knows, in one place that every method family is given: the bot,
 * users and chats (and who is a member of a group), the messages each chat shows, the ephemeral
 * messages only one member sees, files, forum topics, open callback and inline queries, prepared
 * inline messages, menu buttons, the commands and descriptions set, the update queue, and the event log a client follows.
 * The families keep no state of their own, so each sees what another did: an edit finds the
 * message sendMessage stored, getFile the document a user sent.
 */
import type { Buffer } from 'node:buffer';
import { EventLog } from '../events.js';
import { UpdateQueue } from './update-queue.js';
import { isRecord, type Json } from './wire.js';

/** The bot the server answers for, as getMe returns it. */
export interface BotInfo {
  id: number;
  is_bot: true;
  first_name: string;
  username: string;
  can_join_groups: boolean;
  can_read_all_group_messages: boolean;
  supports_inline_queries: boolean;
}

/** Who a user is, for the updates the server makes (names a client shows). */
export interface UserProfile {
  id: number;
  first_name: string;
  last_name?: string;
  username?: string;
  language_code?: string;
}

/** A group or supergroup, for the updates the server makes (the title a client shows). */
export interface ChatProfile {
  id: number;
  type: 'group' | 'supergroup';
  title: string;
  is_forum?: boolean;
  /**
   * The users in the group: an ephemeral message may go to them only. A user who writes in a group
   * becomes a member too.
   */
  members?: readonly number[];
}

export const DEFAULT_USER_ID = 100_001;
export const DEFAULT_GROUP_CHAT_ID = -4_000_000_001;
export const DEFAULT_SUPERGROUP_CHAT_ID = -1_001_000_000_001;

/** A message as its chat shows it now. */
export interface StoredMessage {
  message: Json;
  /** parse_mode the text was sent with; part of "is it modified?" since it changes what shows. */
  parseMode: string | undefined;
}

/** An ephemeral message: seen in its group by one member (and the bot), not counted in message ids. */
export interface StoredEphemeral {
  /** message_id 0, ephemeral_message_id, receiver_user (the member, or the bot for a user's command). */
  message: Json;
  parseMode: string | undefined;
  /** The one member who sees it: its receiver, or the member who sent an ephemeral command. */
  visibleTo: number;
  /** When it was posted (ms, the server's clock): a reply to it must come within 15 s. */
  sentAtMs: number;
  /** What it is shown in place of for that member (replace_callback_query_message). */
  replaces?: { messageId: number } | { ephemeralMessageId: number };
}

/** A callback query a user made, until answered: where, by whom, on which message. */
export interface CallbackQueryRecord {
  answered: boolean;
  chatId: number;
  userId: number;
  /** The pressed message: a message id, or an ephemeral message's id. */
  pressed: { messageId: number } | { ephemeralMessageId: number };
}

/** A file the server holds, sent by the user or the bot. */
export interface StoredFile {
  file_id: string;
  file_unique_id: string;
  file_path: string;
  fileName: string;
  content: Buffer;
}

/** An inline query a user typed, and what the bot answered. */
export interface InlineQuery {
  userId: number;
  query: string;
  /** The results answerInlineQuery gave; undefined until it is answered. */
  results: Json[] | undefined;
}

/** Where a prepared inline message may be sent (savePreparedInlineMessage's allow_* flags). */
export interface PreparedChatTypes {
  user: boolean;
  bot: boolean;
  group: boolean;
  channel: boolean;
}

/** A message savePreparedInlineMessage stored for one user of the Mini App to send. */
export interface PreparedMessage {
  userId: number;
  /** The InlineQueryResult, checked as answerInlineQuery's results are. */
  result: Json;
  allowed: PreparedChatTypes;
  /** Unix seconds, by the server's clock (`now`). */
  expirationDate: number;
}

/** The server's whole state; the method families read and change it, and keep none of their own. */
/** The bot's name as getMe gives it: the playground's chat with the bot and the Mini App's header say it. */
export const BOT_FIRST_NAME = 'Partner Bot';

export class BotApiState {
  readonly botInfo: BotInfo;
  /** What a client sees happen: the playground's page and tests follow it. */
  readonly events = new EventLog();
  readonly updates = new UpdateQueue();
  readonly users = new Map<number, UserProfile>();
  readonly chats = new Map<number, Json>();
  /** Forum topics opened with createForumTopic, by chat. */
  readonly topics = new Map<number, Set<number>>();
  /** By `messageKey`; a deleted message is gone from here. */
  readonly messages = new Map<string, StoredMessage>();
  /** By file_id. */
  readonly files = new Map<string, StoredFile>();
  readonly callbackQueries = new Map<string, CallbackQueryRecord>();
  /** By `ephemeralKey`; a deleted ephemeral message is gone from here. */
  readonly ephemeralMessages = new Map<string, StoredEphemeral>();
  /** Group id → its members' ids (defineChat's members, and whoever wrote there). */
  readonly members = new Map<number, Set<number>>();
  readonly inlineQueries = new Map<string, InlineQuery>();
  /** inline_message_id → the key of the message it names. */
  readonly inlineMessages = new Map<string, string>();
  /** savePreparedInlineMessage's messages, by their id. */
  readonly preparedMessages = new Map<string, PreparedMessage>();
  /** setChatMenuButton's buttons: by private chat id, and the default under 'default'. */
  readonly menuButtons = new Map<number | 'default', Json>();
  /** setMyCommands's lists, by scope and language. */
  readonly commands = new Map<string, unknown[]>();
  /** setMyDescription's and setMyShortDescription's texts, by length and language. */
  readonly descriptions = new Map<string, string>();
  private readonly lastMessageId = new Map<number, number>();
  private readonly lastEphemeralId = new Map<number, number>();
  private fileCounter = 0;
  private callbackCounter = 0;
  private inlineCounter = 0;

  constructor(
    readonly token: string,
    /** Set for `telegram-bot-api --local`: files are written under it, not served. */
    readonly localDir: string | undefined,
    /** The server's clock in ms (tests move it to check the 15 s reply window). */
    readonly now: () => number = Date.now,
    /** What messages are dated by (the playground's sandbox clock); the machine's by default. */
    private readonly messageClock: () => number = Date.now,
  ) {
    const id = Number.parseInt(token.split(':')[0] ?? '', 10);
    this.botInfo = {
      id: Number.isSafeInteger(id) && id > 0 ? id : 7_000_000_001,
      is_bot: true,
      first_name: BOT_FIRST_NAME,
      username: 'partner_test_bot',
      can_join_groups: true,
      can_read_all_group_messages: false,
      supports_inline_queries: true,
    };
  }

  botUser(): Json {
    return {
      id: this.botInfo.id,
      is_bot: true,
      first_name: this.botInfo.first_name,
      username: this.botInfo.username,
    };
  }

  user(userId: number | undefined, languageCode: string | undefined): Json & { id: number } {
    const id = userId ?? DEFAULT_USER_ID;
    const known = this.users.get(id);
    if (known) {
      return {
        ...structuredClone(known),
        is_bot: false,
        language_code: languageCode ?? known.language_code ?? 'ru',
      };
    }
    return {
      id,
      is_bot: false,
      first_name: 'Test',
      last_name: `User${id}`,
      username: `test_user_${id}`,
      language_code: languageCode ?? 'ru',
    };
  }

  /** The chat a user writes in: their private chat, or a group made up on first use. */
  chatForUser(
    from: Json & { id: number },
    type: 'private' | 'group' | 'supergroup',
    chatId: number | undefined,
  ): Json {
    let chat: Json;
    if (type === 'private') {
      chat = {
        id: chatId ?? from.id,
        first_name: from.first_name,
        last_name: from.last_name,
        username: from.username,
        type,
      };
    } else {
      const id = chatId ?? (type === 'group' ? DEFAULT_GROUP_CHAT_ID : DEFAULT_SUPERGROUP_CHAT_ID);
      const known = this.chats.get(id);
      if (known && known.type === type) return structuredClone(known);
      chat = { id, title: `Test ${type}`, type };
      if (type === 'supergroup') chat.is_forum = false;
    }
    this.chats.set(chat.id as number, chat);
    return structuredClone(chat);
  }

  /** A chat by id, made up on first use (positive ids are private chats, as in Telegram). */
  chatById(chatId: number): Json {
    const known = this.chats.get(chatId);
    if (known) return structuredClone(known);
    const chat: Json =
      chatId > 0
        ? {
            id: chatId,
            first_name: 'Test',
            last_name: `User${chatId}`,
            username: `test_user_${chatId}`,
            type: 'private',
          }
        : { id: chatId, title: 'Test group', type: chatId < -1_000_000_000_000 ? 'supergroup' : 'group' };
    this.chats.set(chatId, chat);
    return structuredClone(chat);
  }

  /** Message ids count per chat and are shared by both sides of the chat, as in Telegram. */
  takeMessageId(chatId: number, wanted: number | undefined): number {
    const last = this.lastMessageId.get(chatId) ?? 0;
    const id = wanted ?? last + 1;
    this.lastMessageId.set(chatId, Math.max(last, id));
    return id;
  }

  /** Ephemeral message ids count per chat, apart from message ids (an ephemeral message's is 0). */
  takeEphemeralMessageId(chatId: number): number {
    const id = (this.lastEphemeralId.get(chatId) ?? 0) + 1;
    this.lastEphemeralId.set(chatId, id);
    return id;
  }

  /** Note a user as a member of a group (a user who writes in it is one). */
  addMember(chatId: number, userId: number): void {
    const members = this.members.get(chatId) ?? new Set<number>();
    members.add(userId);
    this.members.set(chatId, members);
  }

  isMember(chatId: number, userId: number): boolean {
    return this.members.get(chatId)?.has(userId) === true;
  }

  takeCallbackQueryId(): string {
    this.callbackCounter += 1;
    return `${this.botInfo.id}${String(this.callbackCounter).padStart(8, '0')}`;
  }

  takeInlineQueryId(): string {
    this.inlineCounter += 1;
    return `${this.botInfo.id}${String(this.inlineCounter).padStart(9, '0')}`;
  }

  /** The next file's number, which its file_id, file_unique_id and path are made from. */
  takeFileNumber(): number {
    this.fileCounter += 1;
    return this.fileCounter;
  }

  storeMessage(message: Json, parseMode: string | undefined): void {
    this.messages.set(messageKey(chatIdOf(message), Number(message.message_id)), {
      message: structuredClone(message),
      parseMode,
    });
  }

  /** Now, in the seconds of a message's `date` (the playground's: the sandbox's clock). */
  unixTime(): number {
    return Math.floor(this.messageClock() / 1000);
  }

  isFromBot(message: Json): boolean {
    return isRecord(message.from) && message.from.id === this.botInfo.id;
  }
}

/** Now in seconds, by the machine's clock (what no message carries: a webhook's last error). */
export function unixTime(): number {
  return Math.floor(Date.now() / 1000);
}

/** The key of an ephemeral message in `BotApiState.ephemeralMessages`. */
export function ephemeralKey(chatId: number, ephemeralMessageId: number): string {
  return `${chatId}:e${ephemeralMessageId}`;
}

/** The key of a message in `BotApiState.messages`: ids are unique only within a chat. */
export function messageKey(chatId: number, messageId: number): string {
  return `${chatId}:${messageId}`;
}

export function chatIdOf(message: Json): number {
  return isRecord(message.chat) ? Number(message.chat.id) : Number.NaN;
}
