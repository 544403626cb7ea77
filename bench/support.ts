/**
 * What the benchmarks share: an instant stand-in for the Bot API, the real bot built as main.ts
 * builds it (lowdb in a temp dir, the real transport against the in-process sandbox), updates,
 * and small statistics helpers. Nothing here reaches the network beyond 127.0.0.1.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import i18next, { type Resource } from 'i18next';
import { type Context, Scenes, session, Telegraf, Telegram } from 'telegraf';
import type { Update, UserFromGetMe } from 'telegraf/types';
import { createApiFactory, PartnerTransport } from '../src/api/index.js';
import type { BotContext } from '../src/bot/context.js';
import { createBot } from '../src/bot/index.js';
import { loadTranslations } from '../src/bot/kit/i18n.js';
import { createLogger } from '../src/logger.js';
import { type Sandbox, startSandbox } from '../src/sandbox/server.js';
import { type ChatData, createChatData } from '../src/storage/chat-data.js';
import type { ChatStore, Locale } from '../src/storage/chat-store.js';
import { createKeyring, type Keyring } from '../src/storage/crypto.js';
import { createLowdbStore } from '../src/storage/lowdb-store.js';
import { createLowdbRobotKeyStore } from '../src/storage/robot-key-store.js';
import { createRobotKeys } from '../src/storage/robot-keys.js';

export const BOT_INFO: UserFromGetMe = {
  id: 7_000_000_042,
  is_bot: true,
  first_name: 'Partner Bot',
  username: 'partner_bench_bot',
  can_join_groups: true,
  can_read_all_group_messages: false,
  supports_inline_queries: false,
};

/** A bot token that only ever reaches the fake `callApi` below. */
export const BOT_TOKEN = `${BOT_INFO.id}:AAbench-local-only-never-sent-anywhere`;

/** One Bot API call a bot made (answered instantly by the fake). */
export interface BotCall {
  method: string;
  payload: Record<string, unknown>;
  /** When the bot made the call (`performance.now()`). */
  at: number;
}

/** The Bot API stand-in: every call is recorded and answered at once, without I/O. */
export interface FakeTelegram {
  readonly calls: BotCall[];
  /** Stop recording payloads (the CPU benchmark only counts calls). */
  record: boolean;
  count: number;
  restore(): void;
}

type CallApi = Telegram['callApi'];

/**
 * Replaces `Telegram.prototype.callApi` (telegraf builds a `Telegram` per update) with an
 * instant fake, as the bot tests' harness does. `restore()` puts telegraf's own back.
 */
export function installFakeTelegram(): FakeTelegram {
  const owned = Object.hasOwn(Telegram.prototype, 'callApi');
  const original = Telegram.prototype.callApi;
  let nextMessageId = 1;
  const fake: FakeTelegram = {
    calls: [],
    record: true,
    count: 0,
    restore() {
      if (owned) Telegram.prototype.callApi = original;
      else Reflect.deleteProperty(Telegram.prototype, 'callApi');
    },
  };
  async function callApi(method: string, payload: Record<string, unknown>): Promise<unknown> {
    fake.count++;
    if (fake.record) fake.calls.push({ method, payload, at: performance.now() });
    const chat = { id: payload.chat_id, type: 'private' };
    switch (method) {
      case 'sendMessage':
      case 'sendDocument':
        return { message_id: nextMessageId++, date: 0, chat, text: payload.text };
      case 'editMessageText':
        return { message_id: payload.message_id, date: 0, chat, text: payload.text };
      default:
        return true;
    }
  }
  Telegram.prototype.callApi = callApi as unknown as CallApi;
  return fake;
}

/** Texts of the messages sent among these calls. */
export function sentTexts(calls: readonly BotCall[]): string[] {
  return calls.filter((c) => c.method === 'sendMessage').map((c) => String(c.payload.text));
}

/** Builds text-message updates with increasing ids; a leading /command gets its entity. */
export class UpdateFactory {
  private nextUpdateId = 1;
  private nextMessageId = 1;

  text(chatId: number, text: string, languageCode: Locale = 'ru'): Update {
    const command = /^\/\w+(@\w+)?/.exec(text);
    return {
      update_id: this.nextUpdateId++,
      message: {
        message_id: this.nextMessageId++,
        date: Math.floor(Date.now() / 1000),
        from: { id: chatId, is_bot: false, first_name: 'Анна', language_code: languageCode },
        chat: { id: chatId, type: 'private', first_name: 'Анна' },
        text,
        ...(command ? { entities: [{ type: 'bot_command', offset: 0, length: command[0].length }] } : {}),
      },
    };
  }
}

/** Private chat ids that look like real Telegram user ids (spread over the lowdb shards). */
export function chatIds(count: number, seed = 1): number[] {
  const random = seededRandom(seed);
  const ids = new Set<number>();
  while (ids.size < count) ids.add(100_000_000 + Math.floor(random() * 6_000_000_000));
  return [...ids];
}

/** A small deterministic PRNG (mulberry32), so runs pick the same chats. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A fresh 32-byte keyring, as `ENCRYPTION_KEYS` would give. */
export function benchKeyring(): Keyring {
  return createKeyring([{ id: 'bench', key: randomBytes(32) }]);
}

export async function tempDir(label: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `partner-bot-bench-${label}-`));
}

/** The real bot (`createBot`) over real storage and the real transport to the sandbox. */
export interface FullBot {
  bot: Telegraf<BotContext>;
  sandbox: Sandbox;
  store: ChatStore;
  chatData: ChatData;
  /** Log lines the bot wrote at `info` and above. */
  logLines: string[];
  close(): Promise<void>;
}

/**
 * Builds the bot as main.ts does (same factory, default reference-cache TTL, `info` logging),
 * with `connectedChats` holding the sandbox token (sealed via `chatData.setToken`) and, for
 * every second chat, English chosen with /lang.
 */
export async function startFullBot(connectedChats: readonly number[]): Promise<FullBot> {
  const sandbox = await startSandbox({ port: 0 });
  const dataDir = await tempDir('bot');
  const store = createLowdbStore({ dataDir });
  const chatData = createChatData({ store, keyring: benchKeyring() });
  const transport = new PartnerTransport({ baseUrl: sandbox.url, timeoutMs: 5_000 });
  const logLines: string[] = [];
  const logger = createLogger({
    level: 'info',
    destination: { write: (line: string) => logLines.push(line) },
  });
  const { bot, drain } = createBot({
    botToken: BOT_TOKEN,
    chatData,
    apiFor: createApiFactory(transport),
    translations: loadTranslations(),
    logger,
    defaultLocale: 'ru',
    robotKeys: createRobotKeys({ store: createLowdbRobotKeyStore(), keyring: benchKeyring() }),
  });
  bot.botInfo = BOT_INFO;
  for (const [index, chatId] of connectedChats.entries()) {
    await chatData.setToken(chatId, sandbox.token);
    // A third of the partners speak English (`englishChat`), as their updates say.
    if (englishChat(index)) await chatData.setLocale(chatId, 'en');
  }
  return {
    bot,
    sandbox,
    store,
    chatData,
    logLines,
    async close() {
      await drain();
      await store.close();
      await transport.close();
      await sandbox.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A bare telegraf bot: one /help command that replies, nothing else. */
export function startBareBot(): Telegraf {
  const bot = new Telegraf(BOT_TOKEN);
  bot.botInfo = BOT_INFO;
  bot.command('help', (ctx) => ctx.reply('x'));
  return bot;
}

/** The typical bot's context: telegraf's, with a session holding a wizard's bookkeeping. */
type TypicalContext = Scenes.WizardContext;

/** `locales/` at the project root. */
const LOCALES_DIR = fileURLToPath(new URL('../locales', import.meta.url));

/** The bot's locale files as i18next resources: `{ ru: { common: {…}, … }, en: … }`. */
function readLocaleResources(): Resource {
  const resources: Resource = {};
  for (const locale of ['ru', 'en']) {
    const namespaces: Record<string, Resource[string][string]> = {};
    for (const file of readdirSync(join(LOCALES_DIR, locale)).filter((f) => f.endsWith('.json'))) {
      namespaces[file.slice(0, -'.json'.length)] = JSON.parse(
        readFileSync(join(LOCALES_DIR, locale, file), 'utf8'),
      );
    }
    resources[locale] = namespaces;
  }
  return resources;
}

/**
 * A typical telegraf bot, the CPU baseline: `session()` with telegraf's in-memory store, a Stage
 * holding a two-step WizardScene, and i18next (its own instance over the bot's locale files)
 * translating the same `/help` text in the user's language, sent as HTML. No storage, no
 * encryption, no per-chat queue.
 */
/** Whether the chat at this index speaks English: a third of them. */
export const englishChat = (index: number): boolean => index % 3 === 0;

/**
 * The typical bot. `sameText`: its i18next holds the very `/help` text the full bot sends, per
 * language, as one plain string (no nested keys to resolve): the baseline then sends the same
 * words without any of the project's machinery. Without it, it holds the project's locale files
 * and resolves their nested keys on every reply.
 */
export function startTypicalBot(sameText?: Record<Locale, string>): Telegraf<TypicalContext> {
  const i18n = i18next.createInstance();
  const helpKey = sameText ? 'common:help' : 'onboarding:help';
  void i18n.init({
    resources: sameText
      ? { ru: { common: { help: sameText.ru } }, en: { common: { help: sameText.en } } }
      : readLocaleResources(),
    lng: 'ru',
    fallbackLng: 'ru',
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  const t = (ctx: Context, key: string, options: Record<string, unknown> = {}) =>
    i18n.t(key, { lng: ctx.from?.language_code === 'en' ? 'en' : 'ru', ...options });
  const wizard = new Scenes.WizardScene<TypicalContext>(
    'signup',
    async (ctx) => {
      await ctx.reply(t(ctx, 'common:notUnderstood'));
      return ctx.wizard.next();
    },
    async (ctx) => {
      await ctx.reply(t(ctx, 'common:notUnderstood'));
      return ctx.scene.leave();
    },
  );
  const bot = new Telegraf<TypicalContext>(BOT_TOKEN);
  bot.botInfo = BOT_INFO;
  bot.use(session());
  bot.use(new Scenes.Stage<TypicalContext>([wizard]).middleware());
  bot.command('signup', (ctx) => ctx.scene.enter('signup'));
  bot.help((ctx) => ctx.reply(t(ctx, helpKey), { parse_mode: 'HTML' }));
  return bot;
}

/** CPU time (user + system, all threads of the process) and wall time of `task`, in ms. */
export async function measure(task: () => Promise<void>): Promise<{ cpuMs: number; wallMs: number }> {
  const wallStart = process.hrtime.bigint();
  const cpuStart = process.cpuUsage();
  await task();
  const cpu = process.cpuUsage(cpuStart);
  const wallMs = Number(process.hrtime.bigint() - wallStart) / 1e6;
  return { cpuMs: (cpu.user + cpu.system) / 1000, wallMs };
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? Number.NaN) + (sorted[middle] ?? Number.NaN)) / 2;
}

export function fixed(value: number, digits: number): string {
  return Number.isFinite(value) ? value.toFixed(digits) : 'n/a';
}

/** One benchmark's outcome: a table for the console and for results.md, and notes under it. */
export interface BenchResult {
  title: string;
  /** What is measured and how, one paragraph. */
  method: string;
  header: string[];
  rows: string[][];
  notes: string[];
  /** Whether every figure met its target. */
  ok: boolean;
}
