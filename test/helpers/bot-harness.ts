import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { Telegram, TelegramError } from 'telegraf';
import type { Update } from 'telegraf/types';
import { type MockInstance, vi } from 'vitest';
import {
  createApiFactory,
  createPartnerApi,
  type PartnerApi,
  PartnerTransport,
} from '../../src/api/index.js';
import { LiveChecks, type LiveChecksOptions } from '../../src/bot/features/dns/live-check/live-check.js';
import { createNotificationSender } from '../../src/bot/features/notify/sender.js';
import { createBot } from '../../src/bot/index.js';
import type { ButtonStyle } from '../../src/bot/kit/bot-api-today.js';
import { loadTranslations } from '../../src/bot/kit/i18n.js';
import type { MiniAppLinks } from '../../src/bot/kit/mini-app-button.js';
import type { DnsProbe } from '../../src/core/dns-check.js';
import { gatewayRoutes } from '../../src/gateway/index.js';
import type { HttpRoute } from '../../src/http-server.js';
import { createLogger } from '../../src/logger.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { createDnsRecorder, type DnsRecorder } from '../../src/services/dns-journal.js';
import { createKeyChanges } from '../../src/services/key-changes.js';
import { createOrderPlacing, type OrderPlacing } from '../../src/services/order-placing.js';
import { createRobotChallenges, type RobotChallenges } from '../../src/services/robot-challenges.js';
import { createZoneEditing, type ZoneEditing } from '../../src/services/zone-editing.js';
import { type ChatData, createChatData } from '../../src/storage/chat-data.js';
import type { ChatStore, Locale } from '../../src/storage/chat-store.js';
import { createKeyring, type Keyring } from '../../src/storage/crypto.js';
import { createDnsHistory } from '../../src/storage/dns-history.js';
import { createLowdbDnsHistoryStore, type DnsHistoryStore } from '../../src/storage/dns-history-store.js';
import { createLowdbGatewayState, type GatewayState } from '../../src/storage/gateway-state.js';
import { createLowdbStore } from '../../src/storage/lowdb-store.js';
import { createRedisChatLock, createRedisDeduper } from '../../src/storage/redis-coordination.js';
import { createRedisDnsHistoryStore } from '../../src/storage/redis-dns-history-store.js';
import { createRedisRobotKeyStore } from '../../src/storage/redis-robot-key-store.js';
import { createRedisStore } from '../../src/storage/redis-store.js';
import { createRedisWatchStore } from '../../src/storage/redis-watch-store.js';
import { createLowdbRobotKeyStore, type RobotKeyStore } from '../../src/storage/robot-key-store.js';
import { createRobotKeys, type RobotKeys } from '../../src/storage/robot-keys.js';
import { createWatchData } from '../../src/storage/watch-data.js';
import { createLowdbWatchStore, type WatchStore } from '../../src/storage/watch-store.js';
import { createInProcessScheduler } from '../../src/watchers/scheduler.js';
import { createWatchers, type Watchers } from '../../src/watchers/watchers.js';
import { expectButtonRules } from './button-rules.js';
import { SECOND_TOKEN } from './fixtures.js';

/** One Bot API call the bot made, as telegraf passed it to `callApi`. */
export interface BotCall {
  method: string;
  payload: Record<string, unknown>;
  /** How many requests the sandbox had received when this call was made. */
  providerRequestsBefore: number;
  /** The message id Telegram gave a sent message (0 for an ephemeral one). */
  messageId?: number;
  /** The ephemeral message id Telegram gave a message sent to one member (Bot API 10.2). */
  ephemeralMessageId?: number;
}

export interface UserOptions {
  chatId?: number;
  userId?: number;
  languageCode?: string;
  chatType?: 'private' | 'group' | 'supergroup';
  /** The user's first name as Telegram gives it (default Анна). */
  firstName?: string;
  /** The message answers another user's message (`send` only). */
  replyTo?: { userId: number; firstName: string };
  /** The message answers the bot's message (as a group member answers its question). */
  replyToBot?: boolean;
  /** The forum topic the message (or the pressed button's message) is in. */
  threadId?: number;
  /** The update's id, as Telegram numbered it (two instances share one numbering). */
  updateId?: number;
  /**
   * `send`: the message is ephemeral (a command registered `is_ephemeral`: only the sender and
   * the bot see it; message_id 0). `press`: the button is on the bot's ephemeral message with
   * this id (message_id 0). A typed answer to an ephemeral question needs no option: Telegram may
   * give it without `reply_to_message`, as `send` without `replyToBot` does.
   */
  ephemeral?: boolean;
  ephemeralMessageId?: number;
}

export const USER_ID = 424_242;

/** Live harnesses by bot token; one spy on `callApi` serves them all. */
const HARNESSES = new Map<string, BotHarness>();
let spy: MockInstance | undefined;
let harnessCount = 0;

export interface HarnessOptions {
  allowedUserIds?: number[];
  defaultLocale?: Locale;
  timeoutMs?: number;
  /** A sandbox shared with another harness (a second instance); left running by stop(). */
  sandbox?: Sandbox;
  /** The harness's own sandbox answers DNS too (on a port of its own), for the live checks. */
  dnsServer?: boolean;
  /** Chat data in Redis, with the cross-instance chat lock and dedupe, as STORAGE=redis runs. */
  redis?: { redis: Redis; prefix: string; reorderWindowMs?: number };
  /** The same keyring in both instances, as the same ENCRYPTION_KEYS would give. */
  keyring?: Keyring;
  /** Where this harness starts numbering update ids (instances must not collide). */
  firstUpdateId?: number;
  /**
   * The watchers behind /notify, wired as main.ts wires them, with a scheduler that never fires on
   * its own: a test polls with `pollWatches()`, at the harness's clock (`now`).
   */
  watchers?: boolean;
  /** The live check after DNS changes, editing through its own Telegram client (as main.ts wires it). */
  liveCheck?: Omit<LiveChecksOptions, 'telegram' | 'logger'>;
  /** `RICH_MESSAGES` (on unless told): tables and documents as rich messages, or as HTML. */
  richMessages?: boolean;
  /** `MINI_APP_URL` and `MINI_APP_SHORT_NAME` as main.ts hands them (absent: no app, no app buttons). */
  miniApp?: MiniAppLinks;
  /** `GATEWAY_URL`: where robots reach the bot, shown in a key's configs. */
  gatewayUrl?: string;
  /**
   * The robots' side as main.ts wires it: the challenges service (acme-dns registration from
   * /keys, late-bound as in main) and the gateway's routes over the bot's key reports, asking
   * `probe` whether a value is served (at most `waitMs`).
   */
  robotGateway?: { probe: DnsProbe; waitMs?: number };
}
const BOT_INFO = {
  id: 7_000_000_001,
  is_bot: true as const,
  first_name: 'Partner Bot',
  username: 'partner_test_bot',
  can_join_groups: true,
  can_read_all_group_messages: false,
  supports_inline_queries: false,
  can_connect_to_business: false,
  has_main_web_app: false,
};

/** A message's place in a forum topic, as Telegram marks it. */
const inThread = (options: UserOptions) =>
  options.threadId === undefined ? {} : { message_thread_id: options.threadId, is_topic_message: true };

/**
 * The whole bot (createBot with real storage in a temp dir, the real API client and the sandbox
 * as provider) fed updates through `handleUpdate`. Telegram is observed at
 * `Telegram.prototype.callApi`: every update gets its own Telegram object.
 */
export class BotHarness {
  readonly calls: BotCall[] = [];
  /** Bot API methods that should fail next, with a Telegram error. */
  readonly failures = new Map<string, { error_code: number; description: string }>();
  /** Bot API methods whose next call never answers (a process that died mid-call). */
  readonly hangs = new Set<string>();
  /**
   * How the Bot API server takes ephemeral messages (Bot API 10.2): `yes`; `refused`, as an older
   * self-hosted server refusing the unknown parameter; `ignored`, as one that drops it and sends
   * an ordinary message.
   */
  ephemeralSupport: 'yes' | 'refused' | 'ignored' = 'yes';
  private nextEphemeralId = 1;
  private nextUpdateId = 1;
  private nextMessageId = 1_000;
  /** How many of `calls` had their buttons checked (checkButtons). */
  private buttonsCheckedUpTo = 0;
  private readonly botToken = `${BOT_INFO.id}:AAtest-harness-${++harnessCount}-for-local-tests`;

  store!: ChatStore;
  chatData!: ChatData;
  watchStore: WatchStore | undefined;
  historyStore!: DnsHistoryStore;
  robotKeyStore!: RobotKeyStore;
  /** Robots' keys behind /keys, as main.ts opens them (a story verifies a secret with them). */
  robotKeys!: RobotKeys;
  /** The change history as the services record it (a story records a robot's change with it). */
  recorder!: DnsRecorder;
  /** The key reports the gateway's services would call (a story calls them directly). */
  keyReports!: ReturnType<typeof createBot>['keyReports'];
  /** With `robotGateway`: the challenges service and the gateway's routes (a story serves them). */
  robotGateway: { challenges: RobotChallenges; routes: HttpRoute[]; state: GatewayState } | undefined;
  watchers: Watchers | undefined;
  /** The live checks, with `{ liveCheck }` (a test waits for them with `idle()`). */
  liveChecks: LiveChecks | undefined;
  /** The watchers' clock; a test moves it (quiet hours, reminders). */
  now: Date | undefined;
  bot!: ReturnType<typeof createBot>['bot'];
  /** The Mini App's zone editing (services), reporting to this bot's chats. */
  zoneEditing!: ZoneEditing;
  orderPlacing!: OrderPlacing;
  /** Every line the bot's logger wrote. */
  readonly logLines: string[] = [];
  /** Files users "sent", served at the Bot API's file path. */
  private readonly files = new Map<string, string>();

  private constructor(
    readonly sandbox: Sandbox,
    readonly dataDir: string,
    private readonly keyring: Keyring,
    private readonly transport: PartnerTransport,
    private readonly watcherTransport: PartnerTransport,
    private readonly fileServer: Server,
    private readonly options: HarnessOptions,
  ) {}

  static async start(options: HarnessOptions = {}) {
    const sandbox =
      options.sandbox ??
      (await startSandbox({
        port: 0,
        // A second partner on the same sandbox, for stories with two accounts in one chat.
        partners: [{ token: SECOND_TOKEN }],
        ...(options.dnsServer ? { dns: { port: 0 } } : {}),
      }));
    const dataDir = await mkdtemp(join(tmpdir(), 'partner-bot-'));
    const transport = new PartnerTransport({
      baseUrl: sandbox.url,
      timeoutMs: options.timeoutMs ?? 3_000,
      retryDelayMs: 5,
    });
    const fileServer = createServer();
    await new Promise<void>((resolve) => fileServer.listen(0, '127.0.0.1', resolve));
    const keyring = options.keyring ?? createKeyring([{ id: 't1', key: randomBytes(32) }]);
    const watcherTransport = new PartnerTransport({ baseUrl: sandbox.url, timeoutMs: 3_000, maxRetries: 0 });
    const harness = new BotHarness(
      sandbox,
      dataDir,
      keyring,
      transport,
      watcherTransport,
      fileServer,
      options,
    );
    fileServer.on('request', (req, res) => {
      const id = decodeURIComponent(req.url?.split('/').at(-1) ?? '');
      const content = harness.files.get(id);
      res.writeHead(content === undefined ? 404 : 200).end(content ?? '');
    });
    harness.nextUpdateId = options.firstUpdateId ?? 1;
    harness.build();
    harness.observeTelegram();
    return harness;
  }

  /** Builds the bot over the data directory and keyring (again, after a restart). */
  private build() {
    const redis = this.options.redis;
    this.store = redis ? createRedisStore(redis) : createLowdbStore({ dataDir: this.dataDir });
    this.chatData = createChatData({ store: this.store, keyring: this.keyring });
    const logger = createLogger({
      level: 'debug',
      destination: { write: (line: string) => this.logLines.push(line) },
    });
    const { port } = this.fileServer.address() as AddressInfo;
    const translations = loadTranslations();
    this.historyStore = redis
      ? createRedisDnsHistoryStore({ redis: redis.redis, prefix: redis.prefix })
      : createLowdbDnsHistoryStore({ dataDir: this.dataDir });
    if (this.options.watchers) {
      this.watchStore = redis
        ? createRedisWatchStore({ redis: redis.redis, prefix: redis.prefix })
        : createLowdbWatchStore({ dataDir: this.dataDir });
      this.watchers = createWatchers({
        watchData: createWatchData({ store: this.watchStore, keyring: this.keyring }),
        chatData: this.chatData,
        // As main.ts: the watchers' own transport, which never retries (one call per list per poll).
        apiFor: createApiFactory(this.watcherTransport),
        sender: createNotificationSender({
          telegram: new Telegram(this.botToken, { apiRoot: `http://127.0.0.1:${port}` }),
          chatData: this.chatData,
          apiFor: createApiFactory(this.transport),
          translations,
          defaultLocale: this.options.defaultLocale ?? 'ru',
          logger,
        }),
        scheduler: createInProcessScheduler({ intervalMs: 300_000 }),
        logger,
        intervalMs: 300_000,
        now: () => this.now ?? new Date(),
      });
    }
    if (this.options.liveCheck) {
      this.liveChecks = new LiveChecks({
        ...this.options.liveCheck,
        telegram: new Telegram(this.botToken, { apiRoot: `http://127.0.0.1:${port}` }),
        logger,
      });
    }
    const dnsHistory = createDnsHistory({ store: this.historyStore, keyring: this.keyring });
    this.robotKeyStore = redis
      ? createRedisRobotKeyStore({ redis: redis.redis, prefix: redis.prefix })
      : createLowdbRobotKeyStore({ dataDir: this.dataDir });
    this.robotKeys = createRobotKeys({ store: this.robotKeyStore, keyring: this.keyring });
    // As main.ts: the challenges service needs the bot's key reports, so the bot gets a port to it.
    let challenges: RobotChallenges | undefined;
    const acmeDns = this.options.robotGateway && {
      register: (key: Parameters<RobotChallenges['registerAcmeDns']>[0], secret: string) => {
        if (!challenges) throw new Error('the challenges service is not built yet');
        return challenges.registerAcmeDns(key, secret);
      },
    };
    const built = createBot({
      botToken: this.botToken,
      telegramApiRoot: `http://127.0.0.1:${port}`,
      chatData: this.chatData,
      apiFor: createApiFactory(this.transport),
      translations,
      logger,
      defaultLocale: this.options.defaultLocale ?? 'ru',
      watches: this.watchers,
      dnsHistory,
      liveChecks: this.liveChecks,
      allowedUserIds: this.options.allowedUserIds ? new Set(this.options.allowedUserIds) : undefined,
      richMessages: this.options.richMessages ?? true,
      miniApp: this.options.miniApp,
      robotKeys: this.robotKeys,
      gatewayUrl: this.options.gatewayUrl,
      acmeDns,
      ...(redis ? { chatLock: createRedisChatLock(redis), deduper: createRedisDeduper(redis) } : {}),
    });
    this.bot = built.bot;
    this.keyReports = built.keyReports;
    this.bot.botInfo = BOT_INFO;
    // The Mini App's editor as main wires it: the services over the same history, the chat's report.
    this.recorder = createDnsRecorder({ chatData: this.chatData, dnsHistory, logger });
    this.robotGateway = undefined;
    if (this.options.robotGateway) {
      const state = createLowdbGatewayState();
      const keyChanges = createKeyChanges({
        chatData: this.chatData,
        apiFor: createApiFactory(this.transport),
        recorder: this.recorder,
        reports: built.keyReports,
        state,
        logger,
      });
      challenges = createRobotChallenges({
        keyChanges,
        state,
        robotKeys: this.robotKeys,
        probe: this.options.robotGateway.probe,
        logger,
        waitMs: this.options.robotGateway.waitMs ?? 3_000,
        delayMs: () => 100,
      });
      const routes = gatewayRoutes({
        robotKeys: this.robotKeys,
        state,
        keyChanges,
        challenges,
        countUpdate: () => undefined,
        trustedProxies: [],
        logger,
      });
      this.robotGateway = { challenges, routes, state };
    }
    this.zoneEditing = createZoneEditing({
      recorder: this.recorder,
      reports: built.editsReports,
      logger,
    });
    // The Mini App's order form as main wires it: the chat's submit, the invoice link in the chat.
    this.orderPlacing = createOrderPlacing({
      chatData: this.chatData,
      watches: undefined,
      report: built.orderReports,
      logger,
    });
  }

  /** A new bot on the same stored data, as after a process restart. */
  async restart() {
    await this.store.close();
    await this.watchStore?.close();
    await this.historyStore.close();
    await this.robotKeyStore.close();
    await this.robotGateway?.state.close();
    this.build();
  }

  /** Runs one poll of every watch (as the schedule would) and returns the Bot API calls it caused. */
  async pollWatches(): Promise<BotCall[]> {
    const before = this.calls.length;
    if (!this.watchers || !this.watchStore) throw new Error('start the harness with { watchers: true }');
    for (const id of await this.watchStore.ids()) await this.watchers.runWatch(id);
    return this.calls.slice(before);
  }

  /** Feeds a message carrying a document; the bot downloads it through getFile. */
  async sendFile(content: string, fileName: string, options: UserOptions = {}): Promise<BotCall[]> {
    const { from, chat } = this.user(options);
    const fileId = `file${this.nextMessageId}`;
    this.files.set(fileId, content);
    const message = {
      message_id: this.nextMessageId++,
      date: Math.floor(Date.now() / 1000),
      from,
      chat,
      ...inThread(options),
      ...this.replyParts(options, chat),
      document: { file_id: fileId, file_unique_id: fileId, file_name: fileName, file_size: content.length },
    };
    // Loosely typed, as Telegram sends it: telegraf's Update types a reply's nesting strictly.
    return this.feed({ update_id: this.nextUpdateId++, message } as unknown as Update);
  }

  private observeTelegram() {
    HARNESSES.set(this.botToken, this);
    spy ??= vi.spyOn(Telegram.prototype, 'callApi').mockImplementation(async function (
      this: Telegram,
      method: string,
      payload: Record<string, unknown>,
    ) {
      // Each harness has its own bot token: route the call to the harness whose bot made it.
      const harness = HARNESSES.get(this.token);
      if (!harness) throw new Error('a Bot API call from a bot of a stopped harness');
      return harness.answer(method, payload);
    } as never);
  }

  private answer(method: string, payload: Record<string, unknown>): unknown {
    const call: BotCall = { method, payload, providerRequestsBefore: this.sandbox.requests.length };
    this.calls.push(call);
    if (this.hangs.delete(method)) return new Promise(() => undefined);
    const failure = this.failures.get(method);
    if (failure) {
      this.failures.delete(method);
      throw new TelegramError(failure, { method, payload });
    }
    const chat = { id: payload.chat_id, type: 'private' };
    const ephemeral = payload.ephemeral_message_parameters as { receiver_user_id: number } | undefined;
    if (ephemeral !== undefined && this.ephemeralSupport === 'refused') {
      const description = 'Bad Request: unknown parameter "ephemeral_message_parameters"';
      throw new TelegramError({ error_code: 400, description }, { method, payload });
    }
    switch (method) {
      case 'sendMessage':
      case 'sendRichMessage':
      case 'sendDocument':
        if (ephemeral !== undefined && this.ephemeralSupport === 'yes') {
          // Seen by one member only: no message id in the chat, an ephemeral one instead.
          call.messageId = 0;
          call.ephemeralMessageId = this.nextEphemeralId++;
          return {
            message_id: 0,
            ephemeral_message_id: call.ephemeralMessageId,
            receiver_user: { id: ephemeral.receiver_user_id, is_bot: false, first_name: '…' },
            date: 0,
            chat,
            text: payload.text,
          };
        }
        call.messageId = this.nextMessageId++;
        return { message_id: call.messageId, date: 0, chat, text: payload.text };
      case 'editMessageText':
        return { message_id: payload.message_id, date: 0, chat, text: payload.text };
      case 'getFile':
        return {
          file_id: payload.file_id,
          file_unique_id: payload.file_id,
          file_path: `documents/${String(payload.file_id)}`,
        };
      default:
        return true;
    }
  }

  /** A new invoice for an order, as a renewal would make (the sandbox's control call). */
  async newInvoice(
    orderId: number,
  ): Promise<{ invoice_id: number; invoice_number: string; invoice_url: string }> {
    const response = await fetch(`${this.sandbox.url}/__sandbox/invoices`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ order_id: orderId }),
    });
    if (!response.ok) throw new Error(`POST /__sandbox/invoices answered ${response.status}`);
    return (await response.json()) as { invoice_id: number; invoice_number: string; invoice_url: string };
  }

  /** A client of the sandbox for looking up fixtures (not through the bot). */
  api(): PartnerApi {
    return createPartnerApi(this.transport, this.sandbox.token);
  }

  /** Paths of the files in a folder of the data directory (e.g. `watches`). */
  async dataFilesUnder(folder: string): Promise<string[]> {
    const names = await readdir(join(this.dataDir, folder)).catch(() => []);
    return names.map((name) => join(this.dataDir, folder, name));
  }

  /** Paths of the files under the data directory (any depth) whose text contains `text`. */
  async dataFilesContaining(text: string): Promise<string[]> {
    const entries = await readdir(this.dataDir, { recursive: true, withFileTypes: true }).catch(() => []);
    const found: string[] = [];
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const file = join(entry.parentPath, entry.name);
      const content = await readFile(file, 'utf8').catch(() => '');
      if (content.includes(text)) found.push(file);
    }
    return found;
  }

  /**
   * Fails the test file when the partner token reached a group's message (anything the bot sent
   * to a chat with a negative id), a log line or a data file in clear text, whatever the tests did
   * (error paths included).
   */
  private async assertNoTokenLeaked() {
    for (const partner of this.sandbox.partners) await this.assertTokenNotLeaked(partner.token);
  }

  private async assertTokenNotLeaked(token: string) {
    const leakedInGroup = this.calls.some(
      (c) =>
        typeof c.payload.chat_id === 'number' &&
        c.payload.chat_id < 0 &&
        JSON.stringify(c.payload).includes(token),
    );
    const leakedInLog = this.logLines.some((line) => line.includes(token));
    const leakedInData = (await this.dataFilesContaining(token)).length > 0;
    if (leakedInGroup || leakedInLog || leakedInData) {
      const where = leakedInGroup ? 'a group message' : leakedInLog ? 'the log' : 'a data file';
      throw new Error(`the partner token leaked into ${where}`);
    }
  }

  /** Fails the test file when a message showed an i18n placeholder unfilled (`{{orderId}}`). */
  private assertNoRawPlaceholder() {
    const raw = this.calls.find((c) => /\{\{\w+\}\}/.test(String(c.payload.text ?? c.payload.caption ?? '')));
    if (raw)
      throw new Error(`a ${raw.method} showed a raw placeholder: ${String(raw.payload.text).slice(0, 200)}`);
  }

  /**
   * Fails when a button drawn since the last check does not say what it does (button-rules.ts):
   * a delete without red, a Confirm without green, a disabled button with callback data or in a
   * private chat. use-bot.ts runs it after every story; stop() checks what is left.
   */
  checkButtons() {
    const unchecked = this.calls.slice(this.buttonsCheckedUpTo);
    this.buttonsCheckedUpTo = this.calls.length;
    expectButtonRules(unchecked);
  }

  async stop() {
    const buttonRules = (() => {
      try {
        this.checkButtons();
        return undefined;
      } catch (error) {
        return error;
      }
    })();
    const placeholder = (() => {
      try {
        this.assertNoRawPlaceholder();
        return undefined;
      } catch (error) {
        return error;
      }
    })();
    const leak = await this.assertNoTokenLeaked().then(
      () => undefined,
      (error: unknown) => error,
    );
    await this.liveChecks?.stop();
    HARNESSES.delete(this.botToken);
    if (HARNESSES.size === 0) {
      spy?.mockRestore();
      spy = undefined;
    }
    await this.store.close();
    await this.watchStore?.close();
    await this.historyStore.close();
    await this.robotKeyStore.close();
    await this.robotGateway?.state.close();
    await this.transport.close();
    await this.watcherTransport.close();
    if (!this.options.sandbox) await this.sandbox.close();
    await new Promise((resolve) => this.fileServer.close(resolve));
    await rm(this.dataDir, { recursive: true, force: true });
    if (leak) throw leak;
    if (placeholder) throw placeholder;
    if (buttonRules) throw buttonRules;
  }

  private user(options: UserOptions) {
    const userId = options.userId ?? USER_ID;
    const chatType = options.chatType ?? 'private';
    return {
      from: {
        id: userId,
        is_bot: false,
        first_name: options.firstName ?? 'Анна',
        language_code: options.languageCode ?? 'ru',
      },
      chat:
        chatType === 'private'
          ? { id: options.chatId ?? userId, type: 'private' as const, first_name: 'Анна' }
          : { id: options.chatId ?? -100_500, type: chatType, title: 'Студия' },
    };
  }

  /** `reply_to_message` for a reply to another member's message or to the bot's last one. */
  private replyParts(options: UserOptions, chat: ReturnType<BotHarness['user']>['chat']) {
    const from = options.replyTo
      ? { id: options.replyTo.userId, is_bot: false, first_name: options.replyTo.firstName }
      : options.replyToBot
        ? BOT_INFO
        : undefined;
    if (from === undefined) return {};
    return { reply_to_message: { message_id: this.nextMessageId - 2, date: 0, chat, from, text: '…' } };
  }

  /** Feeds a text message (a leading /command gets its entity) and returns the calls it caused. */
  async send(text: string, options: UserOptions = {}): Promise<BotCall[]> {
    const { from, chat } = this.user(options);
    const command = /^\/\w+(@\w+)?/.exec(text);
    const id = this.nextMessageId++;
    const message = {
      ...(options.ephemeral
        ? { message_id: 0, ephemeral_message_id: id, receiver_user: BOT_INFO }
        : { message_id: id }),
      date: Math.floor(Date.now() / 1000),
      from,
      chat,
      text,
      ...inThread(options),
      ...this.replyParts(options, chat),
      ...(command
        ? { entities: [{ type: 'bot_command' as const, offset: 0, length: command[0].length }] }
        : {}),
    };
    return this.feed({ update_id: options.updateId ?? this.nextUpdateId++, message } as Update);
  }

  /** Presses a button with this callback data on a bot message. */
  async press(data: string, options: UserOptions & { messageId?: number } = {}): Promise<BotCall[]> {
    const { from, chat } = this.user(options);
    const callback_query = {
      id: String(this.nextUpdateId),
      from,
      chat_instance: '1',
      data,
      // A real date: Telegram marks a message the bot can no longer see with date 0 (inaccessible).
      message: {
        ...(options.ephemeralMessageId === undefined
          ? { message_id: options.messageId ?? 1 }
          : { message_id: 0, ephemeral_message_id: options.ephemeralMessageId, receiver_user: from }),
        date: Math.floor(Date.now() / 1000),
        chat,
        text: '…',
        ...inThread(options),
      },
    };
    return this.feed({ update_id: this.nextUpdateId++, callback_query } as Update);
  }

  /**
   * Types `@bot <query>` in some chat (an inline query: a user, no chat) and returns the calls it
   * caused; the answer is the `answerInlineQuery` among them (see `inlineAnswer`).
   */
  async inlineQuery(query: string, options: UserOptions = {}): Promise<BotCall[]> {
    const { from } = this.user(options);
    const inline_query = {
      id: `iq${this.nextUpdateId}`,
      from,
      query,
      offset: '',
      chat_type: 'group' as const,
    };
    return this.feed({ update_id: options.updateId ?? this.nextUpdateId++, inline_query } as Update);
  }

  /** The user picked the result `resultId` of an inline query (Telegram posted it; no chat). */
  async chosenInlineResult(resultId: string, query: string, options: UserOptions = {}): Promise<BotCall[]> {
    const { from } = this.user(options);
    const chosen_inline_result = { result_id: resultId, from, query, inline_message_id: `im${resultId}` };
    return this.feed({ update_id: options.updateId ?? this.nextUpdateId++, chosen_inline_result } as Update);
  }

  async feed(update: Update): Promise<BotCall[]> {
    const before = this.calls.length;
    await this.bot.handleUpdate(update);
    return this.calls.slice(before);
  }

  /** Connects the sandbox token through the real /token flow. */
  async connect(options: UserOptions = {}) {
    await this.send('/token', options);
    await this.send(this.sandbox.token, options);
  }

  /**
   * The second partner's token on the same sandbox (its world: SECOND_PARTNER in
   * src/sandbox/seed.ts); undefined when the test passed a sandbox without one.
   */
  get secondToken(): string | undefined {
    return this.sandbox.partners[1]?.token;
  }

  /** Sends the second partner's token through the real /token flow (a second account). */
  async connectSecond(options: UserOptions = {}) {
    const token = this.secondToken;
    if (token === undefined) throw new Error('this sandbox has no second partner');
    await this.send('/token', options);
    await this.send(token, options);
  }

  /** A client of the sandbox as the second partner (not through the bot). */
  secondApi(): PartnerApi {
    const token = this.secondToken;
    if (token === undefined) throw new Error('this sandbox has no second partner');
    return createPartnerApi(this.transport, token);
  }
}

type RichPiece = string | RichPiece[] | { text?: RichPiece; type?: string };
interface RichBlockSeen {
  type: string;
  text?: RichPiece;
  summary?: RichPiece;
  blocks?: RichBlockSeen[];
  cells?: { text?: RichPiece }[][];
}

/** Rich text as a reader sees it: the words, without their formatting. */
export function richPlain(text: RichPiece | undefined): string {
  if (text === undefined) return '';
  if (typeof text === 'string') return text;
  if (Array.isArray(text)) return text.map(richPlain).join('');
  return richPlain(text.text);
}

/**
 * A rich message as plain lines, the way a phone shows it: the heading, each table row as its cells
 * joined by « | » (the header row first), paragraphs, a details block's summary then its content.
 */
export function richLines(blocks: RichBlockSeen[]): string[] {
  return blocks.flatMap((block) => {
    switch (block.type) {
      case 'table':
        return (block.cells ?? []).map((row) => row.map((cell) => richPlain(cell.text)).join(' | '));
      case 'details':
        return [richPlain(block.summary), ...richLines(block.blocks ?? [])];
      default:
        return [richPlain(block.text)];
    }
  });
}

/** A call's rich message as text (`richLines` joined), or undefined when it is not rich. */
export function richText(call: BotCall): string | undefined {
  const rich = call.payload.rich_message as { blocks?: RichBlockSeen[] } | undefined;
  return rich?.blocks === undefined ? undefined : richLines(rich.blocks).join('\n');
}

/**
 * The table of the last rich message among the calls, as plain cells: the header row first.
 * Fails the test when the last screen has no table.
 */
export function lastTable(calls: BotCall[]): string[][] {
  const rich = calls.filter((c) => c.payload.rich_message !== undefined).at(-1);
  const blocks = (rich?.payload.rich_message as { blocks?: RichBlockSeen[] } | undefined)?.blocks ?? [];
  const table = blocks.find((b) => b.type === 'table');
  if (!table) throw new Error(`no rich table; calls: ${calls.map((c) => c.method).join(', ')}`);
  return (table.cells ?? []).map((row) => row.map((cell) => richPlain(cell.text)));
}

/** A details block of a rich message as a reader opens it: its summary and its lines (`richLines`). */
export interface RichSection {
  title: string;
  lines: string[];
  open: boolean;
}

/**
 * The details blocks (sections) of the last rich message among the calls, in order, each with its
 * summary and content as plain lines. Fails the test when there is no rich message.
 */
export function lastSections(calls: BotCall[]): RichSection[] {
  const rich = calls.filter((c) => c.payload.rich_message !== undefined).at(-1);
  if (!rich) throw new Error(`no rich message; calls: ${calls.map((c) => c.method).join(', ')}`);
  const blocks =
    (rich.payload.rich_message as { blocks?: (RichBlockSeen & { is_open?: boolean })[] }).blocks ?? [];
  return blocks
    .filter((b) => b.type === 'details')
    .map((b) => ({
      title: richPlain(b.summary),
      lines: richLines(b.blocks ?? []),
      open: b.is_open === true,
    }));
}

/**
 * Texts of the messages sent (and edited, ephemeral ones too) among these calls; a rich message's as `richText` gives
 * it (plain words: a story reads a table by its cells, not by HTML tags).
 */
export function texts(calls: BotCall[]): string[] {
  return calls
    .filter((c) =>
      ['sendMessage', 'sendRichMessage', 'editMessageText', 'editEphemeralMessageText'].includes(c.method),
    )
    .map((c) => richText(c) ?? String(c.payload.text));
}

/** The member a call's message was sent to alone (Bot API 10.2 ephemeral), or undefined. */
export function receiverOf(call: BotCall): number | undefined {
  const parameters = call.payload.ephemeral_message_parameters as { receiver_user_id?: number } | undefined;
  return parameters?.receiver_user_id;
}

/** Texts of the messages among these calls that `userId` alone was sent (ephemeral to them). */
export function textsFor(calls: BotCall[], userId: number): string[] {
  return texts(calls.filter((c) => receiverOf(c) === userId || c.payload.receiver_user_id === userId));
}

/** Texts of the messages among these calls that the whole chat sees (not ephemeral). */
export function publicTexts(calls: BotCall[]): string[] {
  return texts(calls.filter((c) => receiverOf(c) === undefined && c.payload.receiver_user_id === undefined));
}

/** The calls among these that sent a message (`send…`), ephemeral or not. */
export function sent(calls: BotCall[]): BotCall[] {
  return calls.filter((c) => c.method.startsWith('send') && c.method !== 'sendChatAction');
}

/** The last message text among the calls; fails the test when there is none. */
export function lastText(calls: BotCall[]): string {
  const all = texts(calls);
  const last = all.at(-1);
  if (last === undefined) throw new Error(`no message sent; calls: ${calls.map((c) => c.method).join(', ')}`);
  return last;
}

interface Button {
  text: string;
  /** How Telegram draws it (Bot API 9.4); none: the app's own colour. */
  style?: ButtonStyle;
  callback_data?: string;
  url?: string;
  switch_inline_query?: string;
  switch_inline_query_chosen_chat?: { query?: string };
  copy_text?: { text: string };
  web_app?: { url: string };
}

/** Inline buttons of the calls' messages, flattened. */
export function buttons(calls: BotCall[]): Button[] {
  return calls.flatMap((c) => {
    const markup = c.payload.reply_markup as { inline_keyboard?: Button[][] } | undefined;
    return markup?.inline_keyboard?.flat() ?? [];
  });
}

/** The callback data of the first button whose label contains `label`. */
export function buttonData(calls: BotCall[], label: string | RegExp): string {
  const button = buttons(calls).find((b) =>
    typeof label === 'string' ? b.text.includes(label) : label.test(b.text),
  );
  if (!button?.callback_data) {
    throw new Error(
      `no button ${String(label)}; have: ${buttons(calls)
        .map((b) => b.text)
        .join(' | ')}`,
    );
  }
  return button.callback_data;
}

/** One result of an inline answer, as the bot sent it (an article with its card). */
export interface InlineResult {
  type: string;
  id: string;
  title: string;
  description?: string;
  input_message_content: { message_text: string; parse_mode?: string };
  reply_markup?: { inline_keyboard: Button[][] };
}

/** What the bot answered an inline query with; fails the test when it did not answer. */
export function inlineAnswer(calls: BotCall[]): {
  results: InlineResult[];
  is_personal?: boolean;
  cache_time?: number;
  button?: { text: string; start_parameter?: string };
} {
  const answers = calls.filter((c) => c.method === 'answerInlineQuery');
  if (answers.length !== 1) {
    throw new Error(`expected one answerInlineQuery; calls: ${calls.map((c) => c.method).join(', ')}`);
  }
  return answers[0]?.payload as ReturnType<typeof inlineAnswer>;
}
