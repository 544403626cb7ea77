import { Telegram } from 'telegraf';
import type { createApiFactory } from '../api/index.js';
import type { LiveChecks } from '../bot/features/dns/live-check/live-check.js';
import type { AcmeDnsPort } from '../bot/features/keys/acme-dns.js';
import { createBot } from '../bot/index.js';
import type { Translations } from '../bot/kit/i18n.js';
import { installTelegramRetry, observeTelegramCalls } from '../bot/kit/telegram-retry.js';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics.js';
import { createRedisChatLock, createRedisDeduper } from '../storage/redis-coordination.js';
import type { Watchers } from '../watchers/watchers.js';
import type { OpenedStorage } from './storage.js';

/** How long a webhook update of a shared (Redis) deployment waits for an earlier one of its chat. */
const REORDER_WINDOW_MS = 150;

/** What the bot stage builds on: the stages before it. */
export interface BotStageDeps {
  config: Config;
  storage: OpenedStorage;
  apiFor: ReturnType<typeof createApiFactory>;
  translations: Translations;
  watchers: Watchers | undefined;
  liveChecks: LiveChecks;
  metrics: Metrics;
  logger: Logger;
  /** acme-dns registration from /keys (the challenges service, see main.ts). */
  acmeDns?: AcmeDnsPort;
}

/**
 * The bot over the stores and the provider: on Redis, each chat's updates queue across instances
 * and a re-delivered update is dropped by any of them. Every Telegram call (the bot's, the
 * sender's, the live check's) is counted and waits out Telegram's 429s.
 */
export function buildBot(deps: BotStageDeps): ReturnType<typeof createBot> {
  const { config, storage, logger } = deps;
  const { redis } = storage;
  const built = createBot({
    botToken: config.BOT_TOKEN,
    telegramApiRoot: config.TELEGRAM_API_ROOT,
    chatData: storage.chatData,
    apiFor: deps.apiFor,
    translations: deps.translations,
    watches: deps.watchers,
    dnsHistory: storage.dnsHistory,
    robotKeys: storage.robotKeys,
    gatewayUrl: config.GATEWAY_URL,
    acmeDns: deps.acmeDns,
    zoneChanged: (accountId, orderId) => storage.gatewayState.zoneChanged(accountId, orderId),
    liveChecks: deps.liveChecks,
    logger,
    defaultLocale: config.DEFAULT_LOCALE,
    allowedUserIds: config.ALLOWED_USER_IDS,
    localFilesDir: config.TELEGRAM_LOCAL_FILES_DIR,
    richMessages: config.RICH_MESSAGES,
    miniApp: config.MINI_APP_URL
      ? { url: config.MINI_APP_URL, shortName: config.MINI_APP_SHORT_NAME }
      : undefined,
    ...(redis
      ? {
          chatLock: createRedisChatLock({
            redis,
            prefix: config.REDIS_PREFIX,
            // Behind a load balancer two instances may get one chat's updates a moment apart.
            reorderWindowMs: config.updates.mode === 'webhook' ? REORDER_WINDOW_MS : 0,
            onLate: (chatId, updateId) =>
              logger.warn({ chatId, updateId }, 'update arrived after a later one of its chat'),
          }),
          deduper: createRedisDeduper({ redis, prefix: config.REDIS_PREFIX }),
        }
      : {}),
  });
  observeTelegramCalls(Telegram.prototype, (method, status) => deps.metrics.telegramCall(method, status));
  installTelegramRetry(Telegram.prototype, logger);
  return built;
}
