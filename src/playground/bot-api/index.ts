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
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChatEvent } from '../events.js';
import { readMyCommands, readMyDescription } from './bot-profile.js';
import { CallLog, type RecordedCall, respond } from './calls.js';
import { defineChat, defineUser } from './chats.js';
import { BotApiFailure, type TelegramErrorBody } from './failures.js';
import { queueUserDocument, readFileContent, type SendDocumentOptions, serveFile } from './files.js';
import {
  type ChooseInlineResultOptions,
  type InlineQueryOptions,
  queueChosenInlineResult,
  queueInlineQuery,
  readInlineMessage,
} from './inline.js';
import { type PressButtonOptions, queueButtonPress, queueSharedChat } from './keyboards.js';
import { listVisibleMessages, queueUserText, type SendTextOptions } from './messages.js';
import { BOT_API_METHODS } from './methods.js';
import { BotApiState, type BotInfo, type ChatProfile, type UserProfile, unixTime } from './state.js';
import type { Webhook } from './update-queue.js';
import { type Json, parseParams, readBody, toInteger, writeJson } from './wire.js';

export { fileParam, type RecordedCall } from './calls.js';
export { BotApiFailure, type TelegramErrorBody } from './failures.js';
export type { SendDocumentOptions } from './files.js';
export type { ChooseInlineResultOptions, InlineQueryOptions } from './inline.js';
export type { PressButtonOptions } from './keyboards.js';
export type { SendTextOptions } from './messages.js';
export {
  type BotInfo,
  type ChatProfile,
  DEFAULT_GROUP_CHAT_ID,
  DEFAULT_SUPERGROUP_CHAT_ID,
  DEFAULT_USER_ID,
  type UserProfile,
} from './state.js';
export { type ApiResponse, RecordedFile } from './wire.js';

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

interface PendingPoll {
  call: RecordedCall;
  res: ServerResponse;
  limit: number;
  timer: NodeJS.Timeout;
}

class LocalBotApi implements BotApiServer {
  apiRoot = '';
  private readonly log = new CallLog();
  readonly calls: RecordedCall[] = this.log.calls;
  readonly botInfo: BotInfo;

  private readonly state: BotApiState;
  private readonly server: Server;
  private pendingPoll: PendingPoll | undefined;
  private wakeScheduled = false;
  private delivering = false;
  private readonly failures = new Map<string, TelegramErrorBody[]>();
  private readonly handlers = new Map<string, { name: string; run: MethodHandler }>();
  private readonly closing = new AbortController();
  private closed: Promise<void> | undefined;

  constructor(
    readonly token: string,
    localDir: string | undefined = undefined,
  ) {
    this.state = new BotApiState(token, localDir);
    this.botInfo = this.state.botInfo;
    this.state.updates.transport = {
      wakePoll: () => this.scheduleWake(),
      endPoll: (description) => this.abortPendingPoll(description),
      deliver: () => void this.deliverToWebhook(),
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
    for (const [name, run] of Object.entries(BOT_API_METHODS)) {
      this.handlers.set(name.toLowerCase(), { name, run: (params) => run(this.state, params) });
    }
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
    const name = this.canonicalName(method);
    const list = this.failures.get(name) ?? [];
    for (let i = 0; i < times; i += 1) list.push(structuredClone(error));
    this.failures.set(name, list);
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

  myCommands(opts: { languageCode?: string; scope?: Json } = {}): unknown[] {
    return readMyCommands(this.state, opts);
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
      serveFile(
        this.state,
        res,
        decodeURIComponent(fileRoute[1] ?? ''),
        decodeURIComponent(fileRoute[2] ?? ''),
      );
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

  // ---- updates: long polling and webhook --------------------------------------------------------

  private getUpdates(call: RecordedCall, res: ServerResponse): void {
    const { params } = call;
    const updates = this.state.updates;
    if (updates.webhook) {
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
    if (Array.isArray(params.allowed_updates)) updates.allowedUpdates = params.allowed_updates.map(String);
    updates.forgetBefore(offset);
    const batch = updates.deliverable(limit);
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

  private scheduleWake(): void {
    if (this.wakeScheduled || !this.pendingPoll) return;
    this.wakeScheduled = true;
    // Wait a turn so updates pushed together arrive in one batch, as they would from Telegram.
    setImmediate(() => {
      this.wakeScheduled = false;
      const poll = this.pendingPoll;
      if (poll && this.state.updates.deliverable(poll.limit).length > 0) this.answerPendingPoll();
    });
  }

  private answerPendingPoll(): void {
    const poll = this.pendingPoll;
    if (!poll) return;
    this.pendingPoll = undefined;
    clearTimeout(poll.timer);
    respond(poll.res, poll.call, { ok: true, result: this.state.updates.deliverable(poll.limit) });
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
      const updates = this.state.updates;
      while (!this.closing.signal.aborted && updates.webhook) {
        const hook = updates.webhook;
        const target = loopbackTarget(hook.url);
        if (!target) {
          hook.lastErrorDate = unixTime();
          hook.lastErrorMessage = 'The local server delivers only to 127.0.0.1 or localhost';
          return;
        }
        const update = updates.deliverable(1)[0];
        if (!update) return;
        const delivered = await this.postUpdate(target, hook, update);
        if (delivered) {
          backoffMs = 100;
          updates.confirmDelivered(update);
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

  /** Telegram method names are case-insensitive; record them as documented. */
  private canonicalName(method: string): string {
    return this.handlers.get(method.toLowerCase())?.name ?? method;
  }
}

/** Starts the local Bot API server on 127.0.0.1 (port 0 unless given). */
export async function startBotApiServer(options: BotApiServerOptions = {}): Promise<BotApiServer> {
  const server = new LocalBotApi(options.token ?? DEFAULT_TOKEN, options.local?.dir);
  await server.listen(options.port ?? 0);
  return server;
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
