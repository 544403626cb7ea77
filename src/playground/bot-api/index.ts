/**
 * The local Bot API server: a stand-in for Telegram's Bot API that the playground and the tests
 * share, good enough for telegraf 4.16 to run against it
 * (`new Telegraf(token, { telegram: { apiRoot: server.apiRoot } })`) with long polling or a webhook.
 *
 * It listens on 127.0.0.1 only and never contacts anything but 127.0.0.1: webhook deliveries go to
 * loopback URLs only, and URLs given as documents are recorded, not fetched.
 *
 * What it copies from the real server (tdlib/telegram-bot-api), because bots trip over these:
 * - `getUpdates` confirms and forgets every update below `offset`; it answers at once when updates
 *   are queued or `timeout` is 0, else it waits up to `timeout` seconds and wakes when one is pushed.
 * - A new *waiting* `getUpdates` terminates the one already waiting, which gets 409
 *   "Conflict: terminated by other getUpdates request…" (the real server fails the older request;
 *   a `timeout: 0` call, like telegraf's offset sync on stop, answers without disturbing it).
 * - `allowed_updates` is server state: kept until a call sends it again; `[]` means every type but
 *   chat_member, message_reaction and message_reaction_count.
 * - While a webhook is set, `getUpdates` answers 409 and updates are POSTed to the webhook instead.
 * - HTTP status equals `error_code`; for 5xx the description is also the status text, because
 *   telegraf reads only `statusText` on 5xx.
 * - Errors real bots hit: "message is not modified", "message to edit not found", "message can't be
 *   edited", "message to delete not found", "query is too old…", BUTTON_DATA_INVALID (callback data
 *   over 64 bytes), "message is too long" (over 4096 characters), BOT_COMMAND_INVALID.
 *
 * What it simplifies: `parse_mode` and entities are not applied (texts are echoed as sent); chats
 * are created on first use; webhook deliveries are sequential (one connection).
 *
 * Using it with telegraf:
 * - `bot.launch()` resolves only when polling ends: don't await it; wait for
 *   `waitForCall(c => c.method === 'getUpdates' && c.params.timeout === 50)` instead (calling
 *   `bot.stop()` before launch reached polling throws "Bot is not running!").
 * - Stop the bot, await the launch promise, then `close()` the server. In the other order the bot's
 *   next poll meets a closed port, and telegraf sleeps 5 s before it notices the stop.
 * - In webhook mode telegraf answers answerCallbackQuery, sendChatAction, deleteMessage, … in the
 *   webhook's response body; those calls are recorded with `via: 'webhook-reply'`.
 */
import { Buffer } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ChatEvent, EventLog } from '../events.js';
import { applyParseMode, HtmlParseError } from '../telegram-html.js';
import { CallLog, type RecordedCall, respond } from './calls.js';
import { BotApiFailure, badRequest, NOT_MODIFIED, type TelegramErrorBody } from './failures.js';
import { CHAT_ACTIONS, inlineMarkup, validateReplyMarkup, validInlineResults } from './markup.js';
import {
  isRecord,
  type Json,
  parseParams,
  RecordedFile,
  readBody,
  recordOrUndefined,
  stringOrUndefined,
  toInteger,
  writeJson,
} from './wire.js';

export { fileParam, type RecordedCall } from './calls.js';
export { BotApiFailure, type TelegramErrorBody } from './failures.js';
export { type ApiResponse, RecordedFile } from './wire.js';

export interface BotInfo {
  id: number;
  is_bot: true;
  first_name: string;
  username: string;
  can_join_groups: boolean;
  can_read_all_group_messages: boolean;
  supports_inline_queries: boolean;
}

export interface SendTextOptions {
  chatId?: number;
  userId?: number;
  languageCode?: string;
  chatType?: 'private' | 'group' | 'supergroup';
  messageId?: number;
  /** The forum topic the message is written in. */
  threadId?: number;
  /** The message (in the same chat) this one replies to: its copy goes in `reply_to_message`. */
  replyToMessageId?: number;
}

export interface InlineQueryOptions {
  userId?: number;
  languageCode?: string;
  /** The type of the chat the user types `@bot …` in. */
  chatType?: 'sender' | 'private' | 'group' | 'supergroup';
}

export interface ChooseInlineResultOptions {
  userId?: number;
  /** The chat the chosen result is posted in (default: the user's private chat with the bot). */
  chatId?: number;
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
}

export interface PressButtonOptions {
  chatId?: number;
  userId?: number;
  /** The bot message carrying the button; default: the bot's latest message with an inline keyboard. */
  messageId?: number;
  languageCode?: string;
}

export interface SendDocumentOptions {
  chatId?: number;
  userId?: number;
  chatType?: 'private' | 'group' | 'supergroup';
  caption?: string;
  mimeType?: string;
}

/**
 * A custom method implementation: return the result (or a promise of it, to hold the answer back),
 * or throw (reject with) `BotApiFailure` for an error.
 */
export type MethodHandler = (params: Record<string, unknown>) => unknown;

export interface BotApiServer {
  /** e.g. http://127.0.0.1:41234 — pass as `telegram.apiRoot`. */
  apiRoot: string;
  /** The only bot token accepted; any other answers 401 Unauthorized. */
  token: string;
  botInfo: BotInfo;
  /** Every call made with the right token, in arrival order. */
  calls: RecordedCall[];
  /** Queue an update for getUpdates (assigns update_id unless given); returns it. */
  pushUpdate(update: Record<string, unknown>): Record<string, unknown>;
  /** Build and queue a text message (a leading /command gets a bot_command entity). */
  sendText(text: string, opts?: SendTextOptions): Record<string, unknown>;
  /** Queue a callback_query update pressing a button with this data on a bot message. */
  pressButton(data: string, opts?: PressButtonOptions): Record<string, unknown>;
  /** Queue an inline_query (the user typed `@bot query`); returns its id for chooseInlineResult. */
  sendInlineQuery(query: string, opts?: InlineQueryOptions): string;
  /**
   * The user picks a result of an answered inline query: it is posted in the chat "via @bot" (with
   * an inline_message_id when it has a keyboard) and a chosen_inline_result is queued.
   */
  chooseInlineResult(
    queryId: string,
    resultId: string,
    opts?: ChooseInlineResultOptions,
  ): Record<string, unknown>;
  /**
   * The user picks a chat in the picker a `request_chat` button opened: a message with
   * `chat_shared` is queued in the chat of the button.
   */
  shareChat(
    requestId: number,
    sharedChatId: number,
    opts?: { userId?: number; chatId?: number },
  ): Record<string, unknown>;
  /** Name a user (the default is "Test User<id>", language ru). */
  defineUser(user: UserProfile): void;
  /** Name a group (the default is "Test group"). */
  defineChat(chat: ChatProfile): void;
  /** The client's view of the events so far (after `seq`), and new ones as they happen. */
  eventsSince(seq: number): ChatEvent[];
  subscribe(listener: (event: ChatEvent) => void): () => void;
  /** A file the server holds (sent by the user or the bot), for a client to download. */
  fileContent(fileId: string): { content: Buffer; fileName: string; mimeType: string } | undefined;
  /** A message posted through inline mode, as it shows now (after edits by inline_message_id). */
  inlineMessage(inlineMessageId: string): Record<string, unknown> | undefined;
  /** What setMyDescription / setMyShortDescription set for this language ('' when none). */
  myDescription(opts?: { languageCode?: string; short?: boolean }): string;
  /** Queue a message carrying a document, registered as a downloadable file. */
  sendDocument(
    content: string | Buffer,
    fileName: string,
    opts?: SendDocumentOptions,
  ): Record<string, unknown>;
  /**
   * Resolve with the first call (already made or future) at `index >= since` that matches;
   * reject after `timeoutMs` (default 5000) listing the calls seen.
   */
  waitForCall(
    match: string | ((c: RecordedCall) => boolean),
    opts?: { timeoutMs?: number; since?: number },
  ): Promise<RecordedCall>;
  /** Make the next `times` (default 1) calls of `method` fail with this Telegram error. */
  failNext(method: string, error: TelegramErrorBody, times?: number): void;
  /** Update ids confirmed by a later getUpdates offset (or by a 2xx webhook answer), in order. */
  confirmedUpdateIds(): number[];
  /** Updates queued and not yet confirmed. */
  pendingUpdates(): Record<string, unknown>[];
  /** The messages a chat shows now (user's and bot's, after edits and deletions), by message_id. */
  visibleMessages(chatId: number): Record<string, unknown>[];
  /** Commands set by setMyCommands for this language (and scope, default `{ type: 'default' }`). */
  myCommands(opts?: { languageCode?: string; scope?: Record<string, unknown> }): unknown[];
  /** Add or replace a method's implementation (methods are matched case-insensitively). */
  handle(method: string, handler: MethodHandler): void;
  /** Answer pending long polls, stop webhook delivery, close connections and the server. */
  close(): Promise<void>;
}

export interface BotApiServerOptions {
  port?: number;
  token?: string;
  /**
   * Like `telegram-bot-api --local --dir <dir>`: files are kept under `<dir>/<token>/documents/`,
   * `getFile` answers their absolute path, and nothing is served over `/file/bot…` (the bot reads
   * the path from disk).
   */
  local?: { dir: string };
}

export const DEFAULT_TOKEN = '7000000001:AAF-double-token_for_local_tests_only';
export const DEFAULT_USER_ID = 100_001;
export const DEFAULT_GROUP_CHAT_ID = -4_000_000_001;
export const DEFAULT_SUPERGROUP_CHAT_ID = -1_001_000_000_001;

/** Update types Telegram leaves out when allowed_updates is empty or never set. */
const OPT_IN_UPDATE_TYPES = new Set(['chat_member', 'message_reaction', 'message_reaction_count']);

const MIME_TYPES: Record<string, string> = {
  '.txt': 'text/plain',
  '.zone': 'text/plain',
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
};

interface StoredMessage {
  message: Json;
  /** parse_mode the text was sent with; part of "is it modified?" since it changes what shows. */
  parseMode: string | undefined;
}

interface StoredFile {
  file_id: string;
  file_unique_id: string;
  file_path: string;
  fileName: string;
  content: Buffer;
}

interface InlineQuery {
  userId: number;
  query: string;
  /** The results answerInlineQuery gave; undefined until it is answered. */
  results: Json[] | undefined;
}

interface PendingPoll {
  call: RecordedCall;
  res: ServerResponse;
  limit: number;
  timer: NodeJS.Timeout;
}

interface Webhook {
  url: string;
  secretToken: string | undefined;
  maxConnections: number;
  ipAddress: string | undefined;
  lastErrorDate: number | undefined;
  lastErrorMessage: string | undefined;
}

class LocalBotApi implements BotApiServer {
  apiRoot = '';
  private readonly log = new CallLog();
  readonly calls: RecordedCall[] = this.log.calls;
  readonly botInfo: BotInfo;

  private readonly server: Server;
  private readonly queue: Json[] = [];
  private readonly confirmed: number[] = [];
  private nextUpdateId = 600_000_001;
  private allowedUpdates: string[] = [];
  private pendingPoll: PendingPoll | undefined;
  private wakeScheduled = false;
  private webhook: Webhook | undefined;
  private delivering = false;
  private readonly failures = new Map<string, TelegramErrorBody[]>();
  private readonly handlers = new Map<string, { name: string; run: MethodHandler }>();
  private readonly chats = new Map<number, Json>();
  private readonly lastMessageId = new Map<number, number>();
  private readonly messages = new Map<string, StoredMessage>();
  private readonly files = new Map<string, StoredFile>();
  private fileCounter = 0;
  private readonly callbackQueries = new Map<string, { answered: boolean; chatId: number }>();
  private readonly events = new EventLog();
  private readonly users = new Map<number, UserProfile>();
  private readonly inlineQueries = new Map<string, InlineQuery>();
  private inlineCounter = 0;
  /** inline_message_id → the key of the message it names. */
  private readonly inlineMessages = new Map<string, string>();
  private readonly descriptions = new Map<string, string>();
  /** Forum topics opened with createForumTopic, by chat. */
  private readonly topics = new Map<number, Set<number>>();
  private callbackCounter = 0;
  private readonly commands = new Map<string, unknown[]>();
  private readonly closing = new AbortController();
  private closed: Promise<void> | undefined;

  constructor(
    readonly token: string,
    private readonly localDir: string | undefined = undefined,
  ) {
    const id = Number.parseInt(token.split(':')[0] ?? '', 10);
    this.botInfo = {
      id: Number.isSafeInteger(id) && id > 0 ? id : 7_000_000_001,
      is_bot: true,
      first_name: 'Partner Test Bot',
      username: 'partner_test_bot',
      can_join_groups: true,
      can_read_all_group_messages: false,
      supports_inline_queries: true,
    };
    this.server = createServer((req, res) => {
      this.onRequest(req, res).catch((error: unknown) => {
        if (!res.headersSent) {
          writeJson(res, {
            ok: false,
            error_code: 500,
            description: `Internal Server Error: ${String(error)}`,
          });
        } else {
          res.destroy();
        }
      });
    });
    this.installMethods();
  }

  async listen(port: number): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    const address = this.server.address() as AddressInfo;
    this.apiRoot = `http://127.0.0.1:${address.port}`;
  }

  // ---- the test-facing API -------------------------------------------------------------------

  pushUpdate(update: Json): Json {
    const given = update.update_id;
    let stored: Json;
    if (typeof given === 'number') {
      this.nextUpdateId = Math.max(this.nextUpdateId, given + 1);
      stored = update;
    } else {
      stored = { update_id: this.nextUpdateId++, ...update };
    }
    this.queue.push(stored);
    this.scheduleWake();
    void this.deliverToWebhook();
    return stored;
  }

  sendText(text: string, opts: SendTextOptions = {}): Json {
    const from = this.user(opts.userId, opts.languageCode);
    const chat = this.chatForUser(from, opts.chatType ?? 'private', opts.chatId);
    const message: Json = {
      message_id: this.takeMessageId(chat.id as number, opts.messageId),
      from,
      chat,
      date: unixTime(),
      text,
    };
    if (opts.threadId !== undefined) {
      message.message_thread_id = opts.threadId;
      message.is_topic_message = true;
    }
    const command = /^\/[A-Za-z0-9_]{1,32}(@[A-Za-z0-9_]{3,32})?/.exec(text);
    if (command) message.entities = [{ offset: 0, length: command[0].length, type: 'bot_command' }];
    const repliedTo =
      opts.replyToMessageId === undefined
        ? undefined
        : this.messages.get(messageKey(chat.id as number, opts.replyToMessageId));
    if (repliedTo) message.reply_to_message = structuredClone(repliedTo.message);
    this.storeMessage(message, undefined);
    this.events.emit({ type: 'message', chatId: chat.id as number, message });
    return this.pushUpdate({ message: structuredClone(message) });
  }

  pressButton(data: string, opts: PressButtonOptions = {}): Json {
    const from = this.user(opts.userId, opts.languageCode);
    const chatId = opts.chatId ?? from.id;
    const stored =
      opts.messageId !== undefined
        ? this.messages.get(messageKey(chatId, opts.messageId))
        : this.latestKeyboard(chatId);
    let message: Json;
    if (stored) {
      message = structuredClone(stored.message);
    } else {
      // The test presses a button on a message the server never saw: make one up so edits work.
      message = {
        message_id: this.takeMessageId(chatId, opts.messageId),
        from: this.botUser(),
        chat: this.chatById(chatId),
        date: unixTime(),
        text: '…',
        reply_markup: { inline_keyboard: [[{ text: data, callback_data: data }]] },
      };
      this.storeMessage(message, undefined);
      message = structuredClone(message);
    }
    this.callbackCounter += 1;
    const id = `${this.botInfo.id}${String(this.callbackCounter).padStart(8, '0')}`;
    this.callbackQueries.set(id, { answered: false, chatId });
    return this.pushUpdate({
      callback_query: {
        id,
        from,
        message,
        chat_instance: `${-Math.abs(chatId) * 7 - 13}`,
        data,
      },
    });
  }

  sendDocument(content: string | Buffer, fileName: string, opts: SendDocumentOptions = {}): Json {
    const from = this.user(opts.userId, undefined);
    const chat = this.chatForUser(from, opts.chatType ?? 'private', opts.chatId);
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    const file = this.registerFile(bytes, fileName);
    const message: Json = {
      message_id: this.takeMessageId(chat.id as number, undefined),
      from,
      chat,
      date: unixTime(),
      document: {
        file_name: fileName,
        mime_type: opts.mimeType ?? guessMimeType(fileName),
        file_id: file.file_id,
        file_unique_id: file.file_unique_id,
        file_size: bytes.length,
      },
    };
    if (opts.caption !== undefined) message.caption = opts.caption;
    this.storeMessage(message, undefined);
    this.events.emit({ type: 'message', chatId: chat.id as number, message });
    return this.pushUpdate({ message: structuredClone(message) });
  }

  sendInlineQuery(query: string, opts: InlineQueryOptions = {}): string {
    const from = this.user(opts.userId, opts.languageCode);
    this.inlineCounter += 1;
    const id = `${this.botInfo.id}${String(this.inlineCounter).padStart(9, '0')}`;
    this.inlineQueries.set(id, { userId: from.id, query, results: undefined });
    this.pushUpdate({
      inline_query: { id, from, query, offset: '', chat_type: opts.chatType ?? 'sender' },
    });
    return id;
  }

  chooseInlineResult(queryId: string, resultId: string, opts: ChooseInlineResultOptions = {}): Json {
    const query = this.inlineQueries.get(queryId);
    const result = query?.results?.find((r) => r.id === resultId);
    if (!query || !result) throw new Error(`No result "${resultId}" answered for inline query ${queryId}`);
    const from = this.user(opts.userId ?? query.userId, undefined);
    const chatId = opts.chatId ?? from.id;
    const content = recordOrUndefined(result.input_message_content) ?? {};
    const message: Json = {
      message_id: this.takeMessageId(chatId, undefined),
      from,
      chat: chatId === from.id ? this.chatForUser(from, 'private', chatId) : this.chatById(chatId),
      date: unixTime(),
      via_bot: this.botUser(),
      ...applyParseMode(String(content.message_text ?? ''), content.parse_mode, content.entities),
    };
    const markup = inlineMarkup(result.reply_markup);
    if (markup) message.reply_markup = markup;
    this.storeMessage(message, undefined);
    this.events.emit({ type: 'message', chatId, message });
    const chosen: Json = { result_id: resultId, from, query: query.query };
    if (markup) {
      const inlineMessageId = `AgAAA${randomBytes(18).toString('base64url')}`;
      this.inlineMessages.set(inlineMessageId, messageKey(chatId, Number(message.message_id)));
      chosen.inline_message_id = inlineMessageId;
    }
    return this.pushUpdate({ chosen_inline_result: chosen });
  }

  shareChat(requestId: number, sharedChatId: number, opts: { userId?: number; chatId?: number } = {}): Json {
    const from = this.user(opts.userId, undefined);
    const chat = this.chatForUser(from, 'private', opts.chatId);
    const message: Json = {
      message_id: this.takeMessageId(chat.id as number, undefined),
      from,
      chat,
      date: unixTime(),
      chat_shared: { request_id: requestId, chat_id: sharedChatId },
    };
    this.storeMessage(message, undefined);
    this.events.emit({ type: 'message', chatId: chat.id as number, message });
    return this.pushUpdate({ message: structuredClone(message) });
  }

  defineUser(user: UserProfile): void {
    this.users.set(user.id, structuredClone(user));
  }

  defineChat(chat: ChatProfile): void {
    this.chats.set(chat.id, {
      ...structuredClone(chat),
      ...(chat.type === 'supergroup' ? { is_forum: chat.is_forum ?? false } : {}),
    });
  }

  eventsSince(seq: number): ChatEvent[] {
    return structuredClone(this.events.since(seq));
  }

  subscribe(listener: (event: ChatEvent) => void): () => void {
    return this.events.subscribe(listener);
  }

  fileContent(fileId: string): { content: Buffer; fileName: string; mimeType: string } | undefined {
    const file = this.files.get(fileId);
    if (!file) return undefined;
    return { content: file.content, fileName: file.fileName, mimeType: guessMimeType(file.fileName) };
  }

  inlineMessage(inlineMessageId: string): Json | undefined {
    const key = this.inlineMessages.get(inlineMessageId);
    const stored = key === undefined ? undefined : this.messages.get(key);
    return stored ? structuredClone(stored.message) : undefined;
  }

  myDescription(opts: { languageCode?: string; short?: boolean } = {}): string {
    return this.descriptions.get(descriptionKey(opts.short === true, opts.languageCode)) ?? '';
  }

  waitForCall(
    match: string | ((c: RecordedCall) => boolean),
    opts: { timeoutMs?: number; since?: number } = {},
  ): Promise<RecordedCall> {
    return this.log.waitForCall(match, opts);
  }

  failNext(method: string, error: TelegramErrorBody, times = 1): void {
    const name = this.canonicalName(method);
    const list = this.failures.get(name) ?? [];
    for (let i = 0; i < times; i += 1) list.push(structuredClone(error));
    this.failures.set(name, list);
  }

  confirmedUpdateIds(): number[] {
    return [...this.confirmed];
  }

  pendingUpdates(): Json[] {
    return structuredClone(this.queue);
  }

  visibleMessages(chatId: number): Json[] {
    return [...this.messages.values()]
      .filter((m) => chatIdOf(m.message) === chatId)
      .map((m) => structuredClone(m.message))
      .sort((a, b) => Number(a.message_id) - Number(b.message_id));
  }

  myCommands(opts: { languageCode?: string; scope?: Json } = {}): unknown[] {
    return structuredClone(this.commands.get(commandsKey(opts.scope, opts.languageCode)) ?? []);
  }

  handle(method: string, handler: MethodHandler): void {
    this.handlers.set(method.toLowerCase(), { name: this.canonicalName(method), run: handler });
  }

  close(): Promise<void> {
    this.closed ??= this.shutDown();
    return this.closed;
  }

  private async shutDown(): Promise<void> {
    this.closing.abort();
    const poll = this.pendingPoll;
    if (poll) {
      // As if the poll's timeout ran out: the bot sees an empty batch, not a network error.
      this.pendingPoll = undefined;
      clearTimeout(poll.timer);
      respond(poll.res, poll.call, { ok: true, result: [] });
      // Let the answer leave before the connection is cut.
      if (!poll.res.writableFinished) {
        await Promise.race([new Promise((resolve) => poll.res.once('finish', resolve)), sleep(200)]);
      }
    }
    this.log.rejectWaiters();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      // telegraf keeps connections alive (Node's global agent); without this close() would wait for them.
      this.server.closeAllConnections();
    });
  }

  // ---- HTTP ----------------------------------------------------------------------------------

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const fileRoute = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname);
    if (fileRoute && (req.method === 'GET' || req.method === 'HEAD')) {
      this.serveFile(res, decodeURIComponent(fileRoute[1] ?? ''), decodeURIComponent(fileRoute[2] ?? ''));
      return;
    }
    const apiRoute = /^\/bot([^/]+)\/([A-Za-z0-9_]+)\/?$/.exec(url.pathname);
    if (!apiRoute) {
      writeJson(res, { ok: false, error_code: 404, description: 'Not Found' });
      return;
    }
    if (decodeURIComponent(apiRoute[1] ?? '') !== this.token) {
      // Drain the body so the client sees the answer rather than a reset connection.
      await readBody(req);
      writeJson(res, { ok: false, error_code: 401, description: 'Unauthorized' });
      return;
    }
    const body = await readBody(req);
    let params: Json;
    try {
      params = await parseParams(req.headers['content-type'], body, url.searchParams);
    } catch (error) {
      writeJson(res, { ok: false, error_code: 400, description: `Bad Request: ${String(error)}` });
      return;
    }
    this.dispatch(apiRoute[2] ?? '', params, 'request', res);
  }

  private dispatch(
    rawMethod: string,
    params: Json,
    via: RecordedCall['via'],
    res: ServerResponse | undefined,
  ): void {
    const method = this.canonicalName(rawMethod);
    if (
      via === 'request' &&
      typeof params.method === 'string' &&
      params.method.toLowerCase() === method.toLowerCase()
    ) {
      delete params.method;
    }
    const call = this.log.record(method, params, via);

    // An injected failure is for the bot to see, so it is not spent on webhook replies it can't see.
    const injected = via === 'request' ? this.failures.get(method)?.shift() : undefined;
    if (injected) {
      respond(res, call, { ok: false, ...injected });
      return;
    }
    if (method === 'getUpdates' && res) {
      this.getUpdates(call, res);
      return;
    }
    const handler = this.handlers.get(method.toLowerCase());
    if (!handler) {
      respond(res, call, { ok: false, error_code: 404, description: 'Not Found: method not found' });
      return;
    }
    const fail = (error: unknown) => {
      if (!(error instanceof BotApiFailure)) throw error;
      respond(res, call, { ok: false, ...error.body });
    };
    try {
      const result = handler.run(params);
      if (result instanceof Promise) {
        result.then(
          (value: unknown) => respond(res, call, { ok: true, result: value }),
          (error: unknown) =>
            respond(
              res,
              call,
              error instanceof BotApiFailure
                ? { ok: false, ...error.body }
                : { ok: false, error_code: 500, description: `Internal Server Error: ${String(error)}` },
            ),
        );
        return;
      }
      respond(res, call, { ok: true, result });
    } catch (error) {
      fail(error);
    }
  }

  private serveFile(res: ServerResponse, token: string, filePath: string): void {
    if (this.localDir !== undefined) {
      writeJson(res, { ok: false, error_code: 404, description: 'Not Found' });
      return;
    }
    if (token !== this.token) {
      writeJson(res, { ok: false, error_code: 401, description: 'Unauthorized' });
      return;
    }
    const file = [...this.files.values()].find((f) => f.file_path === filePath);
    if (!file) {
      writeJson(res, { ok: false, error_code: 404, description: 'Not Found' });
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': file.content.length });
    res.end(file.content);
  }

  // ---- updates: long polling and webhook --------------------------------------------------------

  private getUpdates(call: RecordedCall, res: ServerResponse): void {
    const { params } = call;
    if (this.webhook) {
      respond(res, call, {
        ok: false,
        error_code: 409,
        description:
          "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
      });
      return;
    }
    const offset = toInteger(params.offset) ?? 0;
    const limit = Math.min(Math.max(toInteger(params.limit) ?? 100, 1), 100);
    const timeout = Math.max(toInteger(params.timeout) ?? 0, 0);
    if (Array.isArray(params.allowed_updates)) this.allowedUpdates = params.allowed_updates.map(String);
    this.forgetBefore(offset);
    const batch = this.deliverable(limit);
    if (batch.length > 0 || timeout === 0) {
      respond(res, call, { ok: true, result: batch });
      return;
    }
    this.abortPendingPoll(
      'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
    );
    const timer = setTimeout(() => this.answerPendingPoll(), timeout * 1000);
    timer.unref();
    const poll: PendingPoll = { call, res, limit, timer };
    this.pendingPoll = poll;
    res.on('close', () => {
      // The client gave up (telegraf aborts its poll on bot.stop()).
      if (this.pendingPoll === poll) {
        clearTimeout(poll.timer);
        this.pendingPoll = undefined;
      }
    });
  }

  private forgetBefore(offset: number): void {
    if (offset < 0) {
      // A negative offset keeps the last -offset updates and forgets the rest.
      const keep = Math.min(-offset, this.queue.length);
      this.confirm(this.queue.length - keep);
      return;
    }
    let count = 0;
    while (count < this.queue.length && Number(this.queue[count]?.update_id) < offset) count += 1;
    this.confirm(count);
  }

  private confirm(count: number): void {
    for (const update of this.queue.splice(0, count)) this.confirmed.push(Number(update.update_id));
  }

  /** Up to `limit` queued updates of allowed types; updates of other types are dropped for good. */
  private deliverable(limit: number): Json[] {
    for (let i = this.queue.length - 1; i >= 0; i -= 1) {
      const update = this.queue[i];
      if (update && !this.isAllowed(update)) this.queue.splice(i, 1);
    }
    return structuredClone(this.queue.slice(0, limit));
  }

  private isAllowed(update: Json): boolean {
    const type = Object.keys(update).find((key) => key !== 'update_id');
    if (type === undefined) return false;
    const allowed = this.allowedUpdates;
    return allowed.length === 0 ? !OPT_IN_UPDATE_TYPES.has(type) : allowed.includes(type);
  }

  private scheduleWake(): void {
    if (this.wakeScheduled || !this.pendingPoll) return;
    this.wakeScheduled = true;
    // Wait a turn so updates pushed together arrive in one batch, as they would from Telegram.
    setImmediate(() => {
      this.wakeScheduled = false;
      const poll = this.pendingPoll;
      if (poll && this.deliverable(poll.limit).length > 0) this.answerPendingPoll();
    });
  }

  private answerPendingPoll(): void {
    const poll = this.pendingPoll;
    if (!poll) return;
    this.pendingPoll = undefined;
    clearTimeout(poll.timer);
    respond(poll.res, poll.call, { ok: true, result: this.deliverable(poll.limit) });
  }

  private abortPendingPoll(description: string): void {
    const poll = this.pendingPoll;
    if (!poll) return;
    this.pendingPoll = undefined;
    clearTimeout(poll.timer);
    respond(poll.res, poll.call, { ok: false, error_code: 409, description });
  }

  /**
   * POST queued updates to the webhook one at a time, like Telegram with max_connections 1.
   * Only loopback targets are contacted, over plain HTTP even when the URL says https (telegraf
   * always registers https://, and a local test has no certificate); for any other host the
   * updates stay queued and getWebhookInfo reports why.
   */
  private async deliverToWebhook(): Promise<void> {
    if (this.delivering) return;
    this.delivering = true;
    let backoffMs = 100;
    try {
      while (!this.closing.signal.aborted && this.webhook) {
        const hook = this.webhook;
        const target = loopbackTarget(hook.url);
        if (!target) {
          hook.lastErrorDate = unixTime();
          hook.lastErrorMessage = 'The local server delivers only to 127.0.0.1 or localhost';
          return;
        }
        const update = this.deliverable(1)[0];
        if (!update) return;
        const delivered = await this.postUpdate(target, hook, update);
        if (delivered) {
          backoffMs = 100;
          const at = this.queue.findIndex((u) => u.update_id === update.update_id);
          if (at >= 0) {
            this.queue.splice(at, 1);
            this.confirmed.push(Number(update.update_id));
          }
        } else {
          await sleep(backoffMs, undefined, { signal: this.closing.signal }).catch(() => undefined);
          backoffMs = Math.min(backoffMs * 2, 2000);
        }
      }
    } finally {
      this.delivering = false;
    }
  }

  private async postUpdate(target: string, hook: Webhook, update: Json): Promise<boolean> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (hook.secretToken !== undefined) headers['x-telegram-bot-api-secret-token'] = hook.secretToken;
    try {
      const res = await fetch(target, {
        method: 'POST',
        headers,
        body: JSON.stringify(update),
        signal: AbortSignal.any([this.closing.signal, AbortSignal.timeout(30_000)]),
      });
      const body = Buffer.from(await res.arrayBuffer());
      if (!res.ok) {
        hook.lastErrorDate = unixTime();
        hook.lastErrorMessage = `Wrong response from the webhook: ${res.status} ${res.statusText}`;
        return false;
      }
      // telegraf may answer with a method call in the response body ("webhook reply").
      const contentType = res.headers.get('content-type') ?? undefined;
      if (body.length > 0 && contentType !== undefined) {
        const reply = await parseParams(contentType, body, new URLSearchParams()).catch(() => undefined);
        if (reply && typeof reply.method === 'string') {
          const { method, ...params } = reply;
          this.dispatch(method, params, 'webhook-reply', undefined);
        }
      }
      return true;
    } catch (error) {
      hook.lastErrorDate = unixTime();
      hook.lastErrorMessage = `Connection failed: ${String(error)}`;
      return false;
    }
  }

  // ---- methods -------------------------------------------------------------------------------

  private installMethods(): void {
    const methods: Record<string, MethodHandler> = {
      getMe: () => structuredClone(this.botInfo),
      logOut: () => true,
      close: () => true,
      setWebhook: (p) => this.setWebhook(p),
      deleteWebhook: (p) => {
        this.webhook = undefined;
        if (p.drop_pending_updates === true) this.queue.splice(0);
        return true;
      },
      getWebhookInfo: () => this.webhookInfo(),
      setMyCommands: (p) => {
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
        }
        this.commands.set(
          commandsKey(recordOrUndefined(p.scope), stringOrUndefined(p.language_code)),
          commands,
        );
        this.events.emit({ type: 'profile', what: 'commands' });
        return true;
      },
      getMyCommands: (p) =>
        structuredClone(
          this.commands.get(commandsKey(recordOrUndefined(p.scope), stringOrUndefined(p.language_code))) ??
            [],
        ),
      deleteMyCommands: (p) => {
        this.commands.delete(commandsKey(recordOrUndefined(p.scope), stringOrUndefined(p.language_code)));
        return true;
      },
      sendMessage: (p) => {
        const chatId = this.requireChat(p);
        const shown = this.formatted(typeof p.text === 'string' ? p.text : '', p, 'entities');
        if (shown.text.trim() === '') throw badRequest('message text is empty');
        if (shown.text.length > 4096) throw badRequest('message is too long');
        return this.sendBotMessage(chatId, shown, p);
      },
      sendDocument: (p) => {
        const chatId = this.requireChat(p);
        const file = this.documentFile(p.document);
        const fields: Json = {
          document: {
            file_name: file.fileName,
            mime_type: file.mimeType,
            file_id: file.stored.file_id,
            file_unique_id: file.stored.file_unique_id,
            file_size: file.stored.content.length,
          },
        };
        if (typeof p.caption === 'string' && p.caption !== '') {
          const caption = this.formatted(p.caption, p, 'caption_entities');
          if (caption.text.length > 1024) throw badRequest('message caption is too long');
          fields.caption = caption.text;
          if (caption.entities !== undefined) fields.caption_entities = caption.entities;
        }
        return this.sendBotMessage(chatId, fields, p);
      },
      sendChatAction: (p) => {
        const chatId = this.requireChat(p);
        if (typeof p.action !== 'string' || p.action === '')
          throw badRequest('parameter "action" is required');
        if (!CHAT_ACTIONS.has(p.action)) throw badRequest('wrong parameter action in request');
        const threadId = this.threadOf(chatId, p);
        this.events.emit({
          type: 'action',
          chatId,
          action: p.action,
          ...(threadId !== undefined ? { threadId } : {}),
        });
        return true;
      },
      editMessageText: (p) => {
        const stored = this.editTarget(p);
        const shown = this.formatted(typeof p.text === 'string' ? p.text : '', p, 'entities');
        if (shown.text.trim() === '') throw badRequest('message text is empty');
        if (shown.text.length > 4096) throw badRequest('MESSAGE_TOO_LONG');
        if (typeof stored.message.text !== 'string')
          throw badRequest('there is no text in the message to edit');
        // Editing the text without reply_markup removes the inline keyboard, as in Telegram.
        const markup = inlineMarkup(p.reply_markup);
        if (
          stored.message.text === shown.text &&
          sameJson(stored.message.entities, shown.entities) &&
          sameJson(stored.message.reply_markup, markup)
        ) {
          throw badRequest(NOT_MODIFIED);
        }
        stored.message.text = shown.text;
        stored.parseMode = stringOrUndefined(p.parse_mode);
        setOrDelete(stored.message, 'entities', shown.entities);
        setOrDelete(stored.message, 'reply_markup', markup);
        stored.message.edit_date = unixTime();
        this.emitEdited(stored);
        return p.inline_message_id !== undefined ? true : structuredClone(stored.message);
      },
      editMessageReplyMarkup: (p) => {
        const stored = this.editTarget(p);
        const markup = inlineMarkup(p.reply_markup);
        if (sameJson(stored.message.reply_markup, markup)) throw badRequest(NOT_MODIFIED);
        setOrDelete(stored.message, 'reply_markup', markup);
        stored.message.edit_date = unixTime();
        this.emitEdited(stored);
        return p.inline_message_id !== undefined ? true : structuredClone(stored.message);
      },
      deleteMessage: (p) => {
        const chatId = this.requireChat(p);
        const messageId = toInteger(p.message_id);
        const key = messageKey(chatId, messageId ?? 0);
        const stored = this.messages.get(key);
        if (!stored) throw badRequest('message to delete not found');
        const privateChat = isRecord(stored.message.chat) && stored.message.chat.type === 'private';
        if (!privateChat && !this.isFromBot(stored.message)) throw badRequest("message can't be deleted");
        this.messages.delete(key);
        this.events.emit({ type: 'deleted', chatId, messageId: messageId ?? 0 });
        return true;
      },
      answerCallbackQuery: (p) => {
        const id =
          typeof p.callback_query_id === 'string' ? p.callback_query_id : String(p.callback_query_id);
        const query = this.callbackQueries.get(id);
        if (!query || query.answered) {
          throw badRequest('query is too old and response timeout expired or query ID is invalid');
        }
        const text = stringOrUndefined(p.text) ?? '';
        if (text.length > 200) throw badRequest('MESSAGE_TOO_LONG');
        query.answered = true;
        if (text !== '') {
          const url = stringOrUndefined(p.url);
          this.events.emit({
            type: 'toast',
            chatId: query.chatId,
            text,
            showAlert: p.show_alert === true,
            ...(url !== undefined ? { url } : {}),
          });
        }
        return true;
      },
      answerInlineQuery: (p) => {
        const id = typeof p.inline_query_id === 'string' ? p.inline_query_id : String(p.inline_query_id);
        const query = this.inlineQueries.get(id);
        if (!query || query.results !== undefined) {
          throw badRequest('query is too old and response timeout expired or query ID is invalid');
        }
        const results = validInlineResults(p.results);
        query.results = results;
        const button = recordOrUndefined(p.button);
        this.events.emit({
          type: 'inline-results',
          queryId: id,
          userId: query.userId,
          results,
          ...(button ? { button } : {}),
        });
        return true;
      },
      createForumTopic: (p) => {
        const chatId = this.requireChat(p);
        if (this.chats.get(chatId)?.is_forum !== true) throw badRequest('the chat is not a forum');
        const name = stringOrUndefined(p.name) ?? '';
        if (name.length < 1 || name.length > 128) throw badRequest('TOPIC_TITLE_EMPTY');
        const topics = this.topics.get(chatId) ?? new Set<number>();
        const threadId = this.takeMessageId(chatId, undefined);
        topics.add(threadId);
        this.topics.set(chatId, topics);
        return { message_thread_id: threadId, name, icon_color: 7322096 };
      },
      setMyDescription: (p) => this.setDescription(p, false),
      setMyShortDescription: (p) => this.setDescription(p, true),
      getMyDescription: (p) => ({
        description: this.descriptions.get(descriptionKey(false, stringOrUndefined(p.language_code))) ?? '',
      }),
      getMyShortDescription: (p) => ({
        short_description:
          this.descriptions.get(descriptionKey(true, stringOrUndefined(p.language_code))) ?? '',
      }),
      getFile: (p) => {
        const file = typeof p.file_id === 'string' ? this.files.get(p.file_id) : undefined;
        if (!file) throw badRequest('invalid file_id');
        return {
          file_id: file.file_id,
          file_unique_id: file.file_unique_id,
          file_size: file.content.length,
          file_path: file.file_path,
        };
      },
    };
    for (const [name, run] of Object.entries(methods)) this.handlers.set(name.toLowerCase(), { name, run });
    this.handlers.set('getupdates', { name: 'getUpdates', run: () => [] });
  }

  private setDescription(p: Json, short: boolean): true {
    const field = short ? 'short_description' : 'description';
    const text = stringOrUndefined(p[field]) ?? '';
    if (text.length > (short ? 120 : 512)) throw badRequest(`${short ? 'SHORT_' : ''}DESCRIPTION_TOO_LONG`);
    const key = descriptionKey(short, stringOrUndefined(p.language_code));
    if (text === '') this.descriptions.delete(key);
    else this.descriptions.set(key, text);
    this.events.emit({ type: 'profile', what: short ? 'short_description' : 'description' });
    return true;
  }

  /** Telegram method names are case-insensitive; record them as documented. */
  private canonicalName(method: string): string {
    return this.handlers.get(method.toLowerCase())?.name ?? method;
  }

  private setWebhook(p: Json): true {
    const url = typeof p.url === 'string' ? p.url : '';
    const secretToken = stringOrUndefined(p.secret_token);
    if (secretToken !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(secretToken)) {
      throw badRequest('secret token contains unallowed characters');
    }
    if (p.drop_pending_updates === true) this.queue.splice(0);
    if (Array.isArray(p.allowed_updates)) this.allowedUpdates = p.allowed_updates.map(String);
    if (url === '') {
      this.webhook = undefined;
      return true;
    }
    if (!/^https?:\/\//i.test(url))
      throw badRequest('bad webhook: An HTTPS URL must be provided for webhook');
    this.abortPendingPoll('Conflict: terminated by setWebhook request');
    this.webhook = {
      url,
      secretToken,
      maxConnections: toInteger(p.max_connections) ?? 40,
      ipAddress: stringOrUndefined(p.ip_address),
      lastErrorDate: undefined,
      lastErrorMessage: undefined,
    };
    void this.deliverToWebhook();
    return true;
  }

  private webhookInfo(): Json {
    const hook = this.webhook;
    const info: Json = {
      url: hook?.url ?? '',
      has_custom_certificate: false,
      pending_update_count: this.queue.length,
    };
    if (!hook) return info;
    info.max_connections = hook.maxConnections;
    if (hook.ipAddress !== undefined) info.ip_address = hook.ipAddress;
    if (hook.lastErrorDate !== undefined) info.last_error_date = hook.lastErrorDate;
    if (hook.lastErrorMessage !== undefined) info.last_error_message = hook.lastErrorMessage;
    if (this.allowedUpdates.length > 0) info.allowed_updates = [...this.allowedUpdates];
    return info;
  }

  private sendBotMessage(chatId: number, fields: Json, p: Json): Json {
    const threadId = this.threadOf(chatId, p);
    const markup = inlineMarkup(p.reply_markup);
    if (!markup) validateReplyMarkup(p.reply_markup);
    const message: Json = {
      message_id: this.takeMessageId(chatId, undefined),
      from: this.botUser(),
      chat: this.chatById(chatId),
      date: unixTime(),
      ...(threadId !== undefined ? { message_thread_id: threadId, is_topic_message: true } : {}),
      ...fields,
    };
    if (markup) message.reply_markup = markup;
    this.storeMessage(message, stringOrUndefined(p.parse_mode));
    this.events.emit({ type: 'message', chatId, message });
    const reply = recordOrUndefined(p.reply_markup);
    if (reply && Array.isArray(reply.keyboard)) {
      this.events.emit({ type: 'reply-keyboard', chatId, keyboard: structuredClone(reply.keyboard) });
    } else if (reply?.remove_keyboard === true) {
      this.events.emit({ type: 'reply-keyboard', chatId });
    } else if (reply?.force_reply === true) {
      // A client opens a reply to it (for the users it aims at, when selective).
      this.events.emit({ type: 'force-reply', chatId, messageId: message.message_id as number });
    }
    return structuredClone(message);
  }

  /** The forum topic a call writes in; a topic a forum does not have is refused, as by Telegram. */
  private threadOf(chatId: number, p: Json): number | undefined {
    const threadId = toInteger(p.message_thread_id);
    if (threadId === undefined) return undefined;
    const chat = this.chats.get(chatId);
    const topics = this.topics.get(chatId);
    if (chat?.is_forum === true && threadId !== 1 && !topics?.has(threadId)) {
      throw badRequest('message thread not found');
    }
    return threadId;
  }

  /** The text a call sends, parsed as Telegram parses it (refusing what Telegram cannot parse). */
  private formatted(text: string, p: Json, entitiesField: string): { text: string; entities?: unknown } {
    try {
      return applyParseMode(text, p.parse_mode, p[entitiesField]);
    } catch (error) {
      if (error instanceof HtmlParseError) throw badRequest(`can't parse entities: ${error.message}`);
      throw error;
    }
  }

  /** The message an edit names: by chat and id, or by the inline_message_id of an inline result. */
  private editTarget(p: Json): StoredMessage {
    if (p.inline_message_id === undefined) return this.editableMessage(p);
    const key =
      typeof p.inline_message_id === 'string' ? this.inlineMessages.get(p.inline_message_id) : undefined;
    const stored = key === undefined ? undefined : this.messages.get(key);
    if (!stored) throw badRequest('MESSAGE_ID_INVALID');
    return stored;
  }

  private emitEdited(stored: StoredMessage): void {
    this.events.emit({ type: 'edited', chatId: chatIdOf(stored.message), message: stored.message });
  }

  private editableMessage(p: Json): StoredMessage {
    const chatId = this.requireChat(p);
    const stored = this.messages.get(messageKey(chatId, toInteger(p.message_id) ?? 0));
    if (!stored) throw badRequest('message to edit not found');
    if (!this.isFromBot(stored.message)) throw badRequest("message can't be edited");
    return stored;
  }

  private documentFile(document: unknown): { stored: StoredFile; fileName: string; mimeType: string } {
    if (document instanceof RecordedFile) {
      const stored = this.registerFile(document.content, document.filename);
      const mimeType =
        document.contentType === 'application/octet-stream'
          ? guessMimeType(document.filename)
          : document.contentType;
      return { stored, fileName: document.filename, mimeType };
    }
    if (typeof document === 'string') {
      const known = this.files.get(document);
      if (known) {
        const fileName = known.file_path.split('/').pop() ?? 'file';
        return { stored: known, fileName, mimeType: guessMimeType(fileName) };
      }
      if (/^https?:\/\//i.test(document)) {
        // Telegram would download the URL; the local server only records it.
        const fileName = new URL(document).pathname.split('/').pop() || 'file';
        return {
          stored: this.registerFile(Buffer.alloc(0), fileName),
          fileName,
          mimeType: guessMimeType(fileName),
        };
      }
    }
    throw badRequest('wrong file identifier/HTTP URL specified');
  }

  private requireChat(p: Json): number {
    const raw = p.chat_id;
    if (raw === undefined || raw === '') throw badRequest('chat_id is empty');
    const chatId = toInteger(raw);
    if (chatId === undefined) throw badRequest('chat not found');
    return chatId;
  }

  // ---- state helpers -------------------------------------------------------------------------

  private registerFile(content: Buffer, fileName: string): StoredFile {
    this.fileCounter += 1;
    const n = this.fileCounter;
    const dot = fileName.lastIndexOf('.');
    const extension = dot > 0 ? fileName.slice(dot).replace(/[^A-Za-z0-9.]/g, '') : '';
    const relative = `documents/file_${n}${extension}`;
    let filePath = relative;
    if (this.localDir !== undefined) {
      // telegram-bot-api --local keeps each bot's files under a folder named by its token.
      filePath = path.resolve(this.localDir, this.token, relative);
      mkdirSync(path.dirname(filePath), { recursive: true });
      writeFileSync(filePath, content);
    }
    const file: StoredFile = {
      file_id: `BQACAgIAAxkBAAI${n.toString(36).padStart(4, '0')}${randomBytes(12).toString('base64url')}`,
      file_unique_id: `AgAD${n.toString(36).padStart(4, '0')}`,
      file_path: filePath,
      fileName,
      content,
    };
    this.files.set(file.file_id, file);
    return file;
  }

  private botUser(): Json {
    return {
      id: this.botInfo.id,
      is_bot: true,
      first_name: this.botInfo.first_name,
      username: this.botInfo.username,
    };
  }

  private user(userId: number | undefined, languageCode: string | undefined): Json & { id: number } {
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

  private chatForUser(
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

  private chatById(chatId: number): Json {
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
  private takeMessageId(chatId: number, wanted: number | undefined): number {
    const last = this.lastMessageId.get(chatId) ?? 0;
    const id = wanted ?? last + 1;
    this.lastMessageId.set(chatId, Math.max(last, id));
    return id;
  }

  private storeMessage(message: Json, parseMode: string | undefined): void {
    this.messages.set(messageKey(chatIdOf(message), Number(message.message_id)), {
      message: structuredClone(message),
      parseMode,
    });
  }

  private latestKeyboard(chatId: number): StoredMessage | undefined {
    let best: StoredMessage | undefined;
    let fallback: StoredMessage | undefined;
    for (const stored of this.messages.values()) {
      if (chatIdOf(stored.message) !== chatId || !this.isFromBot(stored.message)) continue;
      const id = Number(stored.message.message_id);
      if (!fallback || id > Number(fallback.message.message_id)) fallback = stored;
      if (stored.message.reply_markup !== undefined && (!best || id > Number(best.message.message_id)))
        best = stored;
    }
    return best ?? fallback;
  }

  private isFromBot(message: Json): boolean {
    return isRecord(message.from) && message.from.id === this.botInfo.id;
  }
}

/** Starts the local Bot API server on 127.0.0.1 (port 0 unless given). */
export async function startBotApiServer(options: BotApiServerOptions = {}): Promise<BotApiServer> {
  const server = new LocalBotApi(options.token ?? DEFAULT_TOKEN, options.local?.dir);
  await server.listen(options.port ?? 0);
  return server;
}

function unixTime(): number {
  return Math.floor(Date.now() / 1000);
}

function messageKey(chatId: number, messageId: number): string {
  return `${chatId}:${messageId}`;
}

function chatIdOf(message: Json): number {
  return isRecord(message.chat) ? Number(message.chat.id) : Number.NaN;
}

function commandsKey(scope: Json | undefined, languageCode: string | undefined): string {
  return `${JSON.stringify(scope ?? { type: 'default' })}|${languageCode ?? ''}`;
}

function descriptionKey(short: boolean, languageCode: string | undefined): string {
  return `${short ? 'short' : 'long'}|${languageCode ?? ''}`;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function setOrDelete(target: Json, key: string, value: unknown): void {
  if (value === undefined) delete target[key];
  else target[key] = value;
}

function loopbackTarget(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.hostname !== '127.0.0.1' && parsed.hostname !== 'localhost') return undefined;
  parsed.protocol = 'http:';
  parsed.hostname = '127.0.0.1';
  return parsed.toString();
}

function guessMimeType(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return (dot >= 0 ? MIME_TYPES[fileName.slice(dot).toLowerCase()] : undefined) ?? 'application/octet-stream';
}
