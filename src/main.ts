import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { Telegram, TelegramError } from 'telegraf';
import { createApiFactory, PartnerTransport } from './api/index.js';
import { loadTranslations } from './bot/i18n.js';
import { createBot, registerCommandMenus } from './bot/index.js';
import { errorForLog } from './bot/middlewares/errors.js';
import { installTelegramRetry } from './bot/telegram-retry.js';
import { ConfigError, loadConfig } from './config.js';
import { startBotServer } from './http-server.js';
import { createLogger } from './logger.js';
import { createChatData } from './storage/chat-data.js';
import type { ChatStore } from './storage/chat-store.js';
import { KeyConfigError, loadKeyring } from './storage/crypto.js';
import { DataDirLockedError, lockDataDir } from './storage/data-dir-lock.js';
import { createLowdbStore } from './storage/lowdb-store.js';
import { createRedisChatLock, createRedisDeduper } from './storage/redis-coordination.js';
import { createRedisStore } from './storage/redis-store.js';

/** How long a graceful stop may take before the process exits anyway. */
const STOP_DEADLINE_MS = 10_000;

/**
 * The composition root: config → logger → storage → partner API → bot → long polling (or a
 * webhook), and a graceful stop on SIGINT/SIGTERM.
 */
export async function main(env: Record<string, string | undefined> = process.env): Promise<void> {
  const config = loadConfig(env);
  const logger = createLogger({
    level: config.LOG_LEVEL,
    secrets: [config.BOT_TOKEN, ...(config.ENCRYPTION_KEYS ?? '').split(/[,:]/)],
  });

  const { keyring, generatedKeyFile } = await loadKeyring({
    encryptionKeys: config.ENCRYPTION_KEYS,
    dataDir: config.DATA_DIR,
  });
  if (generatedKeyFile) {
    logger.warn(
      { file: generatedKeyFile },
      'generated a new encryption key; back it up or set ENCRYPTION_KEYS',
    );
  }

  const redis = config.STORAGE === 'redis' && config.REDIS_URL ? new Redis(config.REDIS_URL) : undefined;
  // lowdb serves one process: a second one on the same DATA_DIR is refused, not corrupting it.
  const releaseDataDir = redis ? async () => undefined : await lockDataDir(config.DATA_DIR);
  const store: ChatStore = redis
    ? createRedisStore({ redis })
    : createLowdbStore({ dataDir: config.DATA_DIR });
  const chatData = createChatData({
    store,
    keyring,
    onUnreadable: (event) =>
      logger.warn(
        { chatId: event.chatId, field: event.field, err: event.error.message },
        'stored secret unreadable',
      ),
  });

  const transport = new PartnerTransport({
    baseUrl: config.PARTNER_API_URL,
    timeoutMs: config.PARTNER_API_TIMEOUT_MS,
    apiVersion: config.PARTNER_API_VERSION,
    onCall: (event) => logger.debug(event, 'partner api call'),
  });
  const translations = loadTranslations();
  const { bot, drain } = createBot({
    botToken: config.BOT_TOKEN,
    telegramApiRoot: config.TELEGRAM_API_ROOT,
    chatData,
    apiFor: createApiFactory(transport),
    translations,
    logger,
    defaultLocale: config.DEFAULT_LOCALE,
    allowedUserIds: config.ALLOWED_USER_IDS,
    ...(redis ? { chatLock: createRedisChatLock({ redis }), deduper: createRedisDeduper({ redis }) } : {}),
  });

  installTelegramRetry(Telegram.prototype as never, logger);
  const mode = config.WEBHOOK_URL ? 'webhook' : 'polling';
  const started = Date.now();
  // Updates handled after their webhook request was answered; a stop waits for them.
  const inflight = new Set<Promise<unknown>>();
  const server = await startBotServer({
    port: config.PORT,
    webhookPath: config.WEBHOOK_URL ? new URL(config.WEBHOOK_URL).pathname : undefined,
    secret: config.WEBHOOK_SECRET,
    logger,
    health: () => ({ mode, uptimeS: Math.round((Date.now() - started) / 1000) }),
    onUpdate: (update) => {
      const handling = bot.handleUpdate(update).catch((error: unknown) => {
        logger.error({ updateId: update.update_id, err: errorForLog(error) }, 'webhook update failed');
      });
      inflight.add(handling);
      void handling.finally(() => inflight.delete(handling));
    },
  });

  let stopping = false;
  const stop = async (reason: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ reason }, 'stopping');
    const deadline = setTimeout(() => {
      logger.error('graceful stop took too long; exiting');
      process.exit(1);
    }, STOP_DEADLINE_MS);
    deadline.unref();
    if (mode === 'polling') {
      try {
        // Stops polling (telegraf confirms the offset of handled updates), lets running updates end.
        bot.stop(reason);
      } catch {
        // Not running yet (stopped during start): nothing to stop.
      }
    }
    await server.close();
    await Promise.all(inflight);
    await drain();
    await store.close();
    await releaseDataDir();
    await transport.close();
    await redis?.quit();
    logger.flush();
    clearTimeout(deadline);
  };
  process.once('SIGINT', () => void stop('SIGINT').then(() => process.exit(0)));
  process.once('SIGTERM', () => void stop('SIGTERM').then(() => process.exit(0)));

  bot.botInfo = await bot.telegram.getMe();
  await registerCommandMenus(bot.telegram, translations, logger);
  logger.info({ username: bot.botInfo.username, mode, port: server.port }, 'bot started');
  if (config.WEBHOOK_URL) {
    await bot.telegram.setWebhook(config.WEBHOOK_URL, {
      ...(config.WEBHOOK_SECRET ? { secret_token: config.WEBHOOK_SECRET } : {}),
      allowed_updates: ALLOWED_UPDATES,
    });
    return;
  }
  await bot.launch({ allowedUpdates: ALLOWED_UPDATES });
}

/** The update kinds the bot handles; Telegram sends nothing else. */
const ALLOWED_UPDATES: ('message' | 'callback_query')[] = ['message', 'callback_query'];

/** The Bot API error code of a telegraf error (polling rethrows it as a plain error with `code`). */
function telegramErrorCode(error: unknown): number | undefined {
  if (error instanceof TelegramError) return error.code;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}

function loadDotEnv() {
  if (existsSync('.env')) process.loadEnvFile('.env');
}

/** Run as a program: a wrong configuration is one clear message and exit code 1, no stack. */
async function run() {
  try {
    loadDotEnv();
    await main();
  } catch (error) {
    if (
      error instanceof ConfigError ||
      error instanceof KeyConfigError ||
      error instanceof DataDirLockedError
    ) {
      console.error(error.message);
    } else if (telegramErrorCode(error) === 409) {
      console.error(
        'Telegram answered 409 Conflict: another process is polling with this bot token, or a webhook is ' +
          'set for it. Stop the other instance (or run only one mode) and start again.',
      );
    } else if (telegramErrorCode(error) === 401) {
      console.error('Telegram refused BOT_TOKEN (401 Unauthorized): check the token from @BotFather.');
    } else {
      // Never the raw error object: a library error may quote a Bot API URL with the token.
      const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      const token = process.env.BOT_TOKEN;
      console.error(`partner-bot failed: ${token ? text.split(token).join('[redacted]') : text}`);
    }
    process.exit(1);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) void run();
