/**
 * The local Bot API server put together: the shared state, the method table behind the
 * dispatcher, the update transport (the long poll and the webhook delivery, told by the update
 * queue when there is work) and HTTP; and `BotApiServer`, what tests and the playground call on it
 * to act as Telegram's users and to watch the bot.
 */
import type { Buffer } from 'node:buffer';
import type { Server } from 'node:http';
import type { ChatEvent } from '../events.js';
import { readMyCommands, readMyDescription } from './bot-profile.js';
import { CallLog, type RecordedCall } from './calls.js';
import { defineChat, defineUser } from './chats.js';
import { Dispatcher, type MethodHandler } from './dispatch.js';
import type { TelegramErrorBody } from './failures.js';
import { queueUserDocument, readFileContent, type SendDocumentOptions } from './files.js';
import { createBotApiHttpServer, listenOnLoopback } from './http.js';
import {
  type ChooseInlineResultOptions,
  type InlineQueryOptions,
  queueChosenInlineResult,
  queueInlineQuery,
  readInlineMessage,
} from './inline.js';
import { type PressButtonOptions, queueButtonPress, queueSharedChat } from './keyboards.js';
import { LongPoll } from './long-poll.js';
import { readMenuButton } from './menu-button.js';
import {
  listEphemeralMessages,
  listVisibleMessages,
  queueUserText,
  type SendTextOptions,
} from './messages.js';
import { type PreparedChatKind, readPreparedMessage, sendPreparedMessage } from './prepared.js';
import {
  BotApiState,
  type BotInfo,
  type ChatProfile,
  type PreparedChatTypes,
  type UserProfile,
} from './state.js';
import { WebhookDelivery } from './webhook-delivery.js';
import type { Json } from './wire.js';

/** The local Bot API server as tests and the playground use it. */
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
  /**
   * Queue a callback_query update pressing a button with this data on a bot message (or on an
   * ephemeral message, by `ephemeralMessageId`). Throws `PressRefused` (nothing queued) for a press
   * a Telegram app would not make: a disabled button (given its label as `text`), or an ephemeral
   * message's button pressed by someone other than its receiver.
   */
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
   * Where the user may send a prepared inline message (savePreparedInlineMessage's allow_* flags);
   * throws `PreparedRefused` ('MESSAGE_EXPIRED') for an unknown, expired or another user's id.
   */
  preparedMessage(id: string, userId: number): PreparedChatTypes;
  /**
   * The user sends a prepared inline message (a Mini App's shareMessage) to a chat of `kind`: it is
   * posted there "via @bot" as a picked inline result is, and a chosen_inline_result (query '') is
   * queued. Throws `PreparedRefused` as `preparedMessage` does, or 'MESSAGE_SEND_FAILED' for a
   * chat of a type the bot did not allow.
   */
  sendPreparedMessage(
    id: string,
    opts: { userId: number; chatId: number; kind: PreparedChatKind },
  ): Record<string, unknown>;
  /** The menu button a private chat shows (setChatMenuButton: its own, else the default). */
  menuButton(chatId?: number): Record<string, unknown>;
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
  /** The ephemeral messages a chat holds now, by ephemeral_message_id (each seen by one member). */
  ephemeralMessages(chatId: number): Record<string, unknown>[];
  /** Commands set by setMyCommands for this language (and scope, default `{ type: 'default' }`). */
  myCommands(opts?: { languageCode?: string; scope?: Record<string, unknown> }): unknown[];
  /** Add or replace a method's implementation (methods are matched case-insensitively). */
  handle(method: string, handler: MethodHandler): void;
  /** Answer pending long polls, stop webhook delivery, close connections and the server. */
  close(): Promise<void>;
}

/** How `startBotApiServer` starts the server. */
export interface BotApiServerOptions {
  port?: number;
  token?: string;
  /**
   * Like `telegram-bot-api --local --dir <dir>`: files are kept under `<dir>/<token>/documents/`,
   * `getFile` answers their absolute path, and nothing is served over `/file/bot…` (the bot reads
   * the path from disk).
   */
  local?: { dir: string };
  /**
   * The server's clock in ms (default `Date.now`): a test moves it to see a reply to an ephemeral
   * message refused after 15 s.
   */
  now?: () => number;
  /**
   * What messages are dated by, in ms (default the machine's clock): the playground's sandbox
   * clock, so the chat's times move with it. The reply window stays on `now`.
   */
  messageClock?: () => number;
}

/** The token the server accepts unless given another (its bot id is the part before the colon). */
export const DEFAULT_TOKEN = '7000000001:AAF-double-token_for_local_tests_only';

class LocalBotApi implements BotApiServer {
  apiRoot = '';
  private readonly log = new CallLog();
  readonly calls: RecordedCall[] = this.log.calls;
  readonly botInfo: BotInfo;

  private readonly state: BotApiState;
  private readonly dispatcher: Dispatcher;
  private readonly longPoll: LongPoll;
  private readonly server: Server;
  private readonly closing = new AbortController();
  private closed: Promise<void> | undefined;

  constructor(
    readonly token: string,
    localDir: string | undefined,
    now: (() => number) | undefined,
    messageClock: (() => number) | undefined,
  ) {
    this.state = new BotApiState(token, localDir, now, messageClock);
    this.botInfo = this.state.botInfo;
    this.longPoll = new LongPoll(this.state.updates);
    this.dispatcher = new Dispatcher(this.state, this.log, this.longPoll);
    const delivery = new WebhookDelivery(this.state.updates, this.closing.signal, (method, params) =>
      this.dispatcher.dispatch(method, params, 'webhook-reply', undefined),
    );
    this.state.updates.transport = {
      wakePoll: () => this.longPoll.wake(),
      endPoll: (description) => this.longPoll.end(description),
      deliver: () => void delivery.deliver(),
    };
    this.server = createBotApiHttpServer(this.state, this.dispatcher);
  }

  async listen(port: number): Promise<void> {
    this.apiRoot = await listenOnLoopback(this.server, port);
  }

  pushUpdate(update: Json): Json {
    return this.state.updates.push(update);
  }

  sendText(text: string, opts: SendTextOptions = {}): Json {
    return queueUserText(this.state, text, opts);
  }

  pressButton(data: string, opts: PressButtonOptions = {}): Json {
    return queueButtonPress(this.state, data, opts);
  }

  sendDocument(content: string | Buffer, fileName: string, opts: SendDocumentOptions = {}): Json {
    return queueUserDocument(this.state, content, fileName, opts);
  }

  sendInlineQuery(query: string, opts: InlineQueryOptions = {}): string {
    return queueInlineQuery(this.state, query, opts);
  }

  chooseInlineResult(queryId: string, resultId: string, opts: ChooseInlineResultOptions = {}): Json {
    return queueChosenInlineResult(this.state, queryId, resultId, opts);
  }

  preparedMessage(id: string, userId: number): PreparedChatTypes {
    return readPreparedMessage(this.state, id, userId);
  }

  sendPreparedMessage(id: string, opts: { userId: number; chatId: number; kind: PreparedChatKind }): Json {
    return sendPreparedMessage(this.state, id, opts);
  }

  menuButton(chatId?: number): Json {
    return readMenuButton(this.state, chatId);
  }

  shareChat(requestId: number, sharedChatId: number, opts: { userId?: number; chatId?: number } = {}): Json {
    return queueSharedChat(this.state, requestId, sharedChatId, opts);
  }

  defineUser(user: UserProfile): void {
    defineUser(this.state, user);
  }

  defineChat(chat: ChatProfile): void {
    defineChat(this.state, chat);
  }

  eventsSince(seq: number): ChatEvent[] {
    return structuredClone(this.state.events.since(seq));
  }

  subscribe(listener: (event: ChatEvent) => void): () => void {
    return this.state.events.subscribe(listener);
  }

  fileContent(fileId: string): { content: Buffer; fileName: string; mimeType: string } | undefined {
    return readFileContent(this.state, fileId);
  }

  inlineMessage(inlineMessageId: string): Json | undefined {
    return readInlineMessage(this.state, inlineMessageId);
  }

  myDescription(opts: { languageCode?: string; short?: boolean } = {}): string {
    return readMyDescription(this.state, opts);
  }

  waitForCall(
    match: string | ((c: RecordedCall) => boolean),
    opts: { timeoutMs?: number; since?: number } = {},
  ): Promise<RecordedCall> {
    return this.log.waitForCall(match, opts);
  }

  failNext(method: string, error: TelegramErrorBody, times = 1): void {
    this.dispatcher.failNext(method, error, times);
  }

  confirmedUpdateIds(): number[] {
    return this.state.updates.confirmedIds();
  }

  pendingUpdates(): Json[] {
    return this.state.updates.pending();
  }

  visibleMessages(chatId: number): Json[] {
    return listVisibleMessages(this.state, chatId);
  }

  ephemeralMessages(chatId: number): Json[] {
    return listEphemeralMessages(this.state, chatId);
  }

  myCommands(opts: { languageCode?: string; scope?: Json } = {}): unknown[] {
    return readMyCommands(this.state, opts);
  }

  handle(method: string, handler: MethodHandler): void {
    this.dispatcher.handle(method, handler);
  }

  close(): Promise<void> {
    this.closed ??= this.shutDown();
    return this.closed;
  }

  private async shutDown(): Promise<void> {
    this.closing.abort();
    await this.longPoll.close();
    this.log.rejectWaiters();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      // telegraf keeps connections alive (Node's global agent); without this close() would wait for them.
      this.server.closeAllConnections();
    });
  }
}

/** Starts the local Bot API server on 127.0.0.1 (port 0 unless given). */
export async function startBotApiServer(options: BotApiServerOptions = {}): Promise<BotApiServer> {
  const server = new LocalBotApi(
    options.token ?? DEFAULT_TOKEN,
    options.local?.dir,
    options.now,
    options.messageClock,
  );
  await server.listen(options.port ?? 0);
  return server;
}
