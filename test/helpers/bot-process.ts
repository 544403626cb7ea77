import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { type BotApiServer, startBotApiServer } from '../../src/playground/bot-api/index.js';
import { createChatData } from '../../src/storage/chat-data.js';
import type { Locale } from '../../src/storage/chat-store.js';
import { parseEncryptionKeys } from '../../src/storage/crypto.js';
import { createLowdbStore } from '../../src/storage/lowdb-store.js';

/** The built program; `test/setup/build-dist.ts` builds it before the tests run. */
export const MAIN_JS = join(process.cwd(), 'dist', 'main.js');

/** The real bot program (`node dist/main.js`) as a child process. */
export interface BotProcess {
  child: ChildProcess;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** SIGTERM, then the exit code and how long the stop took. */
  stop(): Promise<{ code: number | null; ms: number }>;
}

/** Starts the bot with exactly this environment (plus PATH); nothing else leaks in. */
export function startBotProcess(env: Record<string, string>): BotProcess {
  const child = spawn(process.execPath, [MAIN_JS], {
    cwd: process.cwd(),
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    exited,
    output: () => chunks.join(''),
    async stop() {
      const started = Date.now();
      child.kill('SIGTERM');
      const code = await exited;
      return { code, ms: Date.now() - started };
    },
  };
}

/** A node program run as a child process, its output kept. */
export interface CapturedProcess {
  child: ChildProcess;
  exited: Promise<number | null>;
  stdout(): string;
  stderr(): string;
}

/** Runs `node <args>` with exactly this environment (plus PATH) in `cwd`, keeping what it prints. */
export function spawnCaptured(
  args: string[],
  env: Record<string, string>,
  cwd = process.cwd(),
): CapturedProcess {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, stdout: () => stdout, stderr: () => stderr };
}

/** A port on 127.0.0.1 that was free a moment ago. */
export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Polls until `check` passes or the time is up. */
export async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('condition not met in time');
}

/** A text message from a user in their private chat, as Telegram numbers and sends it. */
export function privateTextUpdate(updateId: number, chatId: number, text: string, languageCode = 'ru') {
  return {
    update_id: updateId,
    message: {
      message_id: updateId,
      date: Math.floor(Date.now() / 1000),
      chat: { id: chatId, type: 'private', first_name: 'P' },
      from: { id: chatId, is_bot: false, first_name: 'P', language_code: languageCode },
      text,
      ...(text.startsWith('/')
        ? { entities: [{ type: 'bot_command', offset: 0, length: text.split(' ')[0]?.length ?? 0 }] }
        : {}),
    },
  };
}

/**
 * Stores the partner token (sealed with these `ENCRYPTION_KEYS`) and a language for each chat in
 * DATA_DIR before the bot starts, as if each had connected it: for stories about what comes after.
 */
export async function seedConnectedChats(options: {
  dataDir: string;
  encryptionKeys: string;
  token: string;
  chats: readonly number[];
  locale?: Locale;
}): Promise<void> {
  const store = createLowdbStore({ dataDir: options.dataDir });
  const chatData = createChatData({ store, keyring: parseEncryptionKeys(options.encryptionKeys) });
  for (const chat of options.chats) {
    await chatData.setToken(chat, options.token);
    await chatData.setLocale(chat, options.locale ?? 'en');
  }
  await store.close();
}

/**
 * The built bot (`node dist/main.js`) polling a local Bot API server against a provider at
 * `providerUrl`, with `env` on top; `story` runs once the bot polls, and both are stopped after it
 * (the bot first, so its next poll does not meet a closed port).
 */
/**
 * The built bot long-polling the local Bot API server, over the provider at `providerUrl`
 * (watchers off, an HTTP port of the system's choosing; `env` adds or overrides), once it polls.
 */
export async function startPollingBot(
  telegram: BotApiServer,
  providerUrl: string,
  env: Record<string, string>,
): Promise<BotProcess> {
  const since = telegram.calls.length;
  const bot = startBotProcess({
    BOT_TOKEN: telegram.token,
    TELEGRAM_API_ROOT: telegram.apiRoot,
    PARTNER_API_URL: providerUrl,
    PORT: '0',
    NOTIFY_INTERVAL_S: '0',
    ...env,
  });
  await telegram.waitForCall((c) => c.method === 'getUpdates' && c.params.timeout === 50, {
    since,
    timeoutMs: 20_000,
  });
  return bot;
}

export async function withBotOnLocalApi(
  options: { providerUrl: string; dataDir: string; env?: Record<string, string>; local?: { dir: string } },
  story: (telegram: BotApiServer) => Promise<void>,
): Promise<void> {
  const telegram = await startBotApiServer(options.local ? { local: options.local } : {});
  const bot = await startPollingBot(telegram, options.providerUrl, {
    DATA_DIR: options.dataDir,
    ...options.env,
  });
  try {
    await story(telegram);
  } finally {
    await bot.stop();
    await telegram.close();
  }
}
