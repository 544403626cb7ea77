import { constants, existsSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { Telegram, TelegramError } from 'telegraf';
import type { Update } from 'telegraf/types';
import type { CallEvent } from './api/http.js';
import { createApiFactory, PartnerTransport } from './api/index.js';
import { LiveChecks } from './bot/features/dns/live-check/live-check.js';
import { createNotificationSender } from './bot/features/notify/sender.js';
import { createBot, registerCommandMenus } from './bot/index.js';
import { loadTranslations } from './bot/kit/i18n.js';
import { installTelegramRetry, observeTelegramCalls } from './bot/kit/telegram-retry.js';
import { ConfigError, loadConfig } from './config.js';
import { createDnsProbe, type DnsProbeOptions } from './dns-check/probe.js';
import { startBotServer } from './http-server.js';
import { createLogger, errorForLog } from './logger.js';
import { createMetrics, updateType } from './metrics.js';
import { type AllowedUpdate, type LongPolling, startLongPolling } from './polling.js';
import { createReadiness } from './readiness.js';
import { createChatData } from './storage/chat-data.js';
import { KeyConfigError, loadKeyring } from './storage/crypto.js';
import { DataDirLockedError, lockDataDir } from './storage/data-dir-lock.js';
import { createDnsHistory } from './storage/dns-history.js';
import { closeRedis, connectRedis, RedisUnreachableError } from './storage/redis-connection.js';
import { createRedisChatLock, createRedisDeduper } from './storage/redis-coordination.js';
import { createStores } from './storage/stores.js';
import { createWatchData } from './storage/watch-data.js';
import { createBullmqScheduler } from './watchers/bullmq-scheduler.js';
import { createInProcessScheduler, pollsPerSecond } from './watchers/scheduler.js';
import { createWatchers, deliveryKind, type Watchers } from './watchers/watchers.js';

/**
 * A stop (SIGTERM from a deploy, SIGINT) lets running updates finish for STOP_GRACE_MS, then
 * interrupts their provider calls so each can still answer; the process exits by
 * STOP_DEADLINE_MS in any case, inside the 10 s most platforms allow before SIGKILL.
 */
const STOP_GRACE_MS = 6_000;
const STOP_DEADLINE_MS = 9_500;

/** How long a webhook update of a shared (Redis) deployment waits for an earlier one of its chat. */
const REORDER_WINDOW_MS = 150;

/**
 * The composition root: config → logger → storage → partner API → bot → long polling (or a
 * webhook), and a graceful stop on SIGINT/SIGTERM.
 */
export async function main(
  env: Record<string, string | undefined> = process.env,
  /**
   * `watchersNow`: the watchers' clock. `npm run dev` hands in its sandbox's, so that moving the
   * sandbox's clock brings invoices and domains near expiry for the bot too. `dnsCheck`: where the
   * live check asks (`npm run dev`: its sandbox's DNS server for every name server).
   */
  options: { watchersNow?: () => Date; dnsCheck?: Omit<DnsProbeOptions, 'port'> } = {},
): Promise<void> {
  const config = loadConfig(env);
  const logger = createLogger({
    level: config.LOG_LEVEL,
    secrets: [config.BOT_TOKEN, ...(config.ENCRYPTION_KEYS ?? '').split(/[,:]/)],
  });

  const { keyring, generatedKeyFile } = await loadKeyring({
    encryptionKeys: config.ENCRYPTION_KEYS,
    encryptionKeysFile: config.ENCRYPTION_KEYS_FILE,
    dataDir: config.DATA_DIR,
  });
  if (generatedKeyFile) {
    logger.warn(
      { file: generatedKeyFile },
      'generated a new encryption key inside DATA_DIR; move it out, so that a copy of the data does not carry its key: put the line of that file into ENCRYPTION_KEYS (or into a secret file named by ENCRYPTION_KEYS_FILE), restart, then delete the file (docs/operations.md#the-encryption-key)',
    );
  }

  // Checked at start: a Redis that does not answer is one clear line and exit 1, not a bot whose
  // every update hangs. Later outages fail commands fast and the client reconnects by itself.
  const redis =
    config.STORAGE === 'redis' && config.REDIS_URL
      ? await connectRedis({ url: config.REDIS_URL, log: logger })
      : undefined;
  // lowdb serves one process: a second one on the same DATA_DIR is refused, not corrupting it.
  const releaseDataDir = redis ? async () => undefined : await lockDataDir(config.DATA_DIR);
  const {
    chats: store,
    watches: watchStore,
    dnsHistory: historyStore,
  } = createStores({ redis, prefix: config.REDIS_PREFIX, dataDir: config.DATA_DIR });
  const chatData = createChatData({
    store,
    keyring,
    onUnreadable: (event) =>
      logger.warn(
        { chatId: event.chatId, field: event.field, err: event.error.message },
        'stored secret unreadable',
      ),
  });

  // The DNS change history behind `/dns <domain> history` and the Undo buttons, per token.
  const dnsHistory = createDnsHistory({
    store: historyStore,
    keyring,
    onUnreadable: (event) =>
      logger.warn({ entryId: event.entryId, err: event.error.message }, 'dns history author unreadable'),
  });

  // The sources are read only when /metrics is scraped, after every part below is up.
  const inflight = new Set<Promise<unknown>>();
  const metrics = createMetrics({
    updatesInFlight: () => inflight.size,
    watchLagMs: async () => (watchers ? watchers.lagMs() : 0),
    liveChecksRunning: () => liveChecks.running,
    chats: () => store.count(),
  });
  const onProviderCall = (event: CallEvent) => {
    metrics.providerCall(event);
    logger.debug(event, 'partner api call');
  };

  const transport = new PartnerTransport({
    baseUrl: config.PARTNER_API_URL,
    timeoutMs: config.PARTNER_API_TIMEOUT_MS,
    apiVersion: config.PARTNER_API_VERSION,
    onCall: onProviderCall,
  });
  const translations = loadTranslations();
  const apiFor = createApiFactory(transport);

  // The watchers behind /notify poll with a transport of their own: no retries (one call per list
  // per poll; a failure backs the token off instead), and their polls never queue behind a chat's.
  const watcherTransport =
    config.NOTIFY_INTERVAL_S > 0
      ? new PartnerTransport({
          baseUrl: config.PARTNER_API_URL,
          timeoutMs: config.PARTNER_API_TIMEOUT_MS,
          apiVersion: config.PARTNER_API_VERSION,
          maxRetries: 0,
          onCall: onProviderCall,
        })
      : undefined;
  const notificationSender = createNotificationSender({
    telegram: new Telegram(config.BOT_TOKEN, { apiRoot: config.TELEGRAM_API_ROOT }),
    chatData,
    apiFor,
    translations,
    defaultLocale: config.DEFAULT_LOCALE,
    logger,
  });
  const watchers: Watchers | undefined = watcherTransport
    ? createWatchers({
        watchData: createWatchData({
          store: watchStore,
          keyring,
          onUnreadable: (event) =>
            logger.warn({ watchId: event.watchId, err: event.error.message }, 'stored watch unreadable'),
        }),
        chatData,
        apiFor: createApiFactory(watcherTransport),
        // Its own Telegram client: the sender exists before the bot, which is handed the watchers.
        sender: {
          async deliver(chatId, token, delivery, at) {
            const outcome = await notificationSender.deliver(chatId, token, delivery, at);
            if (outcome === 'sent') metrics.notificationSent(deliveryKind(delivery));
            return outcome;
          },
        },
        onPoll: (outcome) => metrics.watchPoll(outcome),
        scheduler:
          redis && config.REDIS_URL
            ? createBullmqScheduler({
                redisUrl: config.REDIS_URL,
                prefix: `${config.REDIS_PREFIX}bull`,
                intervalMs: config.NOTIFY_INTERVAL_S * 1000,
                pollsPerS: pollsPerSecond(config.NOTIFY_CALLS_PER_S),
                lockMs: config.NOTIFY_JOB_LOCK_S * 1000,
                onError: (watchId, error) =>
                  logger.warn({ watchId, err: errorForLog(error) }, 'watch job failed'),
              })
            : createInProcessScheduler({
                intervalMs: config.NOTIFY_INTERVAL_S * 1000,
                pollsPerS: pollsPerSecond(config.NOTIFY_CALLS_PER_S),
                onError: (watchId, error) =>
                  logger.warn({ watchId, err: errorForLog(error) }, 'watch run failed'),
              }),
        logger,
        intervalMs: config.NOTIFY_INTERVAL_S * 1000,
        ...(options.watchersNow ? { now: options.watchersNow } : {}),
      })
    : undefined;

  // The live check edits its messages after the update that made the change has ended: a Telegram
  // client of its own, as the notification sender has.
  const liveChecks = new LiveChecks({
    probe: createDnsProbe({
      port: config.DNS_CHECK_PORT,
      ...(config.DNS_CHECK_RESOLVERS ? { resolvers: config.DNS_CHECK_RESOLVERS } : {}),
      ...options.dnsCheck,
    }),
    telegram: new Telegram(config.BOT_TOKEN, { apiRoot: config.TELEGRAM_API_ROOT }),
    logger,
  });

  const { bot, drain } = createBot({
    botToken: config.BOT_TOKEN,
    telegramApiRoot: config.TELEGRAM_API_ROOT,
    chatData,
    apiFor,
    translations,
    watches: watchers,
    dnsHistory,
    liveChecks,
    logger,
    defaultLocale: config.DEFAULT_LOCALE,
    allowedUserIds: config.ALLOWED_USER_IDS,
    localFilesDir: config.TELEGRAM_LOCAL_FILES_DIR,
    ...(redis
      ? {
          chatLock: createRedisChatLock({
            redis,
            prefix: config.REDIS_PREFIX,
            // Behind a load balancer two instances may get one chat's updates a moment apart.
            reorderWindowMs: config.WEBHOOK_URL ? REORDER_WINDOW_MS : 0,
            onLate: (chatId, updateId) =>
              logger.warn({ chatId, updateId }, 'update arrived after a later one of its chat'),
          }),
          deduper: createRedisDeduper({ redis, prefix: config.REDIS_PREFIX }),
        }
      : {}),
  });

  observeTelegramCalls(Telegram.prototype, (method, status) => metrics.telegramCall(method, status));
  installTelegramRetry(Telegram.prototype, logger);
  const mode = config.WEBHOOK_URL ? 'webhook' : 'polling';
  const started = Date.now();
  const readiness = createReadiness({
    mode,
    pollWindowMs: config.READINESS_POLL_WINDOW_S * 1000,
    checkStorage: () => (redis ? redis.ping() : access(config.DATA_DIR, constants.W_OK)),
    webhookInfo: () => bot.telegram.getWebhookInfo(),
    webhookUrl: config.WEBHOOK_URL,
  });
  // Every update being handled, in both modes: neither the webhook answer nor the next poll
  // waits for a handler, and a stop waits for these.
  const dispatch = (update: Update) => {
    const done = metrics.updateStarted(updateType(update));
    const handling = bot
      .handleUpdate(update)
      .catch((error: unknown) => {
        logger.error({ updateId: update.update_id, err: errorForLog(error) }, 'update failed');
      })
      .finally(done);
    inflight.add(handling);
    void handling.finally(() => inflight.delete(handling));
  };
  const server = await startBotServer({
    port: config.PORT,
    webhookPath: config.WEBHOOK_URL ? new URL(config.WEBHOOK_URL).pathname : undefined,
    secret: config.WEBHOOK_SECRET,
    logger,
    health: () => ({ mode, uptimeS: Math.round((Date.now() - started) / 1000) }),
    onUpdate: dispatch,
    metrics: () => metrics.scrape(),
    metricsToken: config.METRICS_TOKEN,
    readiness: () => readiness.reasons(),
  });
  let polling: LongPolling | undefined;

  let stopping = false;
  const stop = async (reason: string) => {
    if (stopping) return;
    stopping = true;
    readiness.stopping();
    logger.info({ reason, running: inflight.size }, 'stopping');
    const deadline = setTimeout(() => {
      logger.error('graceful stop took too long; exiting');
      process.exit(1);
    }, STOP_DEADLINE_MS);
    deadline.unref();
    await polling?.stop();
    await server.close();
    // Live checks only ask and edit: they are cancelled, not waited for.
    await liveChecks.stop();
    // A poll out on the provider is cut off (it writes nothing then); it is simply asked again later.
    watcherTransport?.interrupt();
    await watchers?.stop();
    // Running updates get a grace period; then their provider calls are interrupted, so each
    // still tells its partner (the bot is restarting) instead of dying silently with the process.
    if (!(await settleWithin(inflight, STOP_GRACE_MS))) {
      logger.warn(
        { running: inflight.size },
        'updates still running at the stop deadline; interrupting them',
      );
      transport.interrupt();
      await settleWithin(inflight, STOP_DEADLINE_MS);
    }
    await drain();
    await store.close();
    await watchStore.close();
    await historyStore.close();
    await releaseDataDir();
    await transport.close();
    await watcherTransport?.close();
    if (redis) await closeRedis(redis);
    logger.flush();
    clearTimeout(deadline);
  };
  process.once('SIGINT', () => void stop('SIGINT').then(() => process.exit(0)));
  process.once('SIGTERM', () => void stop('SIGTERM').then(() => process.exit(0)));

  bot.botInfo = await bot.telegram.getMe();
  readiness.started();
  await registerCommandMenus(bot.telegram, translations, logger);
  logger.info({ username: bot.botInfo.username, mode, port: server.port }, 'bot started');
  if (!stopping) await watchers?.start();
  if (config.WEBHOOK_URL) {
    await bot.telegram.setWebhook(config.WEBHOOK_URL, {
      ...(config.WEBHOOK_SECRET ? { secret_token: config.WEBHOOK_SECRET } : {}),
      allowed_updates: ALLOWED_UPDATES,
    });
    return;
  }
  if (stopping) return;
  polling = startLongPolling({
    telegram: bot.telegram,
    allowedUpdates: ALLOWED_UPDATES,
    dispatch,
    running: () => inflight.size,
    logger,
    onPolled: () => readiness.polled(),
  });
  await polling.finished;
}

/** Whether every promise in the (changing) set settled within `ms`. */
async function settleWithin(pending: Set<Promise<unknown>>, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (pending.size > 0) {
    const left = until - Date.now();
    if (left <= 0) return false;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), left);
    });
    const outcome = await Promise.race([Promise.all(pending), timedOut]);
    clearTimeout(timer);
    if (outcome === 'timeout') return false;
  }
  return true;
}

/**
 * The update kinds the bot handles; Telegram sends nothing else. The inline ones arrive only once
 * BotFather's /setinline (and /setinlinefeedback for chosen results) is on for the bot.
 */
const ALLOWED_UPDATES: AllowedUpdate[] = [
  'message',
  'callback_query',
  'inline_query',
  'chosen_inline_result',
];

/** The Bot API error code of a telegraf error (polling rethrows it as a plain error with `code`). */
function telegramErrorCode(error: unknown): number | undefined {
  if (error instanceof TelegramError) return error.code;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}

function loadDotEnv() {
  if (existsSync('.env')) process.loadEnvFile('.env');
}

/**
 * The one line a failed start prints: the message of a known start error (wrong configuration, key,
 * data dir, Redis, Telegram refusing the token or polling elsewhere), else the error's name and
 * message with the bot token redacted. Shared by `npm start` and `npm run dev`.
 */
export function describeStartError(error: unknown, botToken: string | undefined): string {
  if (
    error instanceof ConfigError ||
    error instanceof KeyConfigError ||
    error instanceof DataDirLockedError ||
    error instanceof RedisUnreachableError
  ) {
    return error.message;
  }
  if (telegramErrorCode(error) === 409) {
    return (
      'Telegram answered 409 Conflict: another process is polling with this bot token, or a webhook is ' +
      'set for it. Stop the other instance (or run only one mode) and start again.'
    );
  }
  if (telegramErrorCode(error) === 401) {
    return 'Telegram refused BOT_TOKEN (401 Unauthorized): check the token from @BotFather.';
  }
  // Never the raw error object: a library error may quote a Bot API URL with the token.
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return `partner-bot failed: ${botToken ? text.split(botToken).join('[redacted]') : text}`;
}

/** Run as a program: a wrong configuration is one clear message and exit code 1, no stack. */
async function run() {
  try {
    loadDotEnv();
    await main();
  } catch (error) {
    console.error(describeStartError(error, process.env.BOT_TOKEN));
    process.exit(1);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) void run();
