import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { TelegramError } from 'telegraf';
import type { CallEvent } from './api/http.js';
import { registerCommandMenus, registerMenuButton } from './bot/index.js';
import { loadTranslations } from './bot/kit/i18n.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { gatewayRoutes } from './gateway/index.js';
import type { HttpRoute } from './http-server.js';
import { createLogger, errorForLog, type Logger } from './logger.js';
import { createMetrics } from './metrics.js';
import { miniAppRoutes } from './mini-app/index.js';
import { createMembershipCheck } from './mini-app/membership.js';
import type { LongPolling } from './polling.js';
import { createReadiness } from './readiness.js';
import { createDnsRecorder } from './services/dns-journal.js';
import { createKeyChanges } from './services/key-changes.js';
import { createOrderPlacing } from './services/order-placing.js';
import type { RegisterResult, RobotChallenges } from './services/robot-challenges.js';
import { createSavedCustomers } from './services/saved-customers.js';
import { createZoneEditing } from './services/zone-editing.js';
import {
  type BackgroundOptions,
  type BackgroundPart,
  createChallengePart,
  createLiveCheckPart,
  createWatcherPart,
} from './stages/background.js';
import { buildBot } from './stages/bot.js';
import { serveHttp } from './stages/http.js';
import { createProviderClients } from './stages/provider.js';
import { createStop } from './stages/stop.js';
import { openStorage } from './stages/storage.js';
import { createUpdateDispatch, receiveUpdates } from './stages/updates.js';
import { KeyConfigError } from './storage/crypto.js';
import { DataDirLockedError } from './storage/data-dir-lock.js';
import { RedisUnreachableError } from './storage/redis-connection.js';
import type { RobotKey } from './storage/robot-keys.js';

/**
 * The composition root, as named stages (each in `src/stages/`): config → storage → the partner
 * API → the background parts → the bot → HTTP → updates in (polling or webhook), and a graceful
 * stop on SIGINT/SIGTERM. A new HTTP route is one line of `routes`; a new background part one
 * line of `background`.
 *
 * `options` (from `npm run dev`): the watchers' clock (its sandbox's, so that moving the sandbox's
 * clock brings invoices and domains near expiry for the bot too), and where the live check asks
 * (its sandbox's DNS server for every name server).
 */
export async function main(
  env: Record<string, string | undefined> = process.env,
  options: BackgroundOptions = {},
): Promise<void> {
  const config = loadConfig(env);
  const logger = createAppLogger(config);
  const storage = await openStorage(config, logger);

  // The sources are read only when /metrics is scraped, after every part below is up.
  const inflight = new Set<Promise<unknown>>();
  const metrics = createMetrics({
    updatesInFlight: () => inflight.size,
    watchLagMs: async () => (watcher.watchers ? watcher.watchers.lagMs() : 0),
    liveChecksRunning: () => liveCheck.liveChecks.running,
    chats: () => storage.chatCount(),
  });
  const provider = createProviderClients(config, (event: CallEvent) => {
    metrics.providerCall(event);
    logger.debug(event, 'partner api call');
  });
  const translations = loadTranslations();
  const shared = { config, storage, translations, apiFor: provider.apiFor, logger, metrics };
  const watcher = createWatcherPart(
    { ...shared, watcherApiFor: provider.watcherApiFor, interruptPolls: provider.interruptWatchers },
    options,
  );
  const liveCheck = createLiveCheckPart(config, logger, options);
  // Work beside the updates, one line each: started after getMe, stopped first at a stop.
  const background: BackgroundPart[] = [liveCheck.part, watcher.part];

  // /keys registers acme-dns accounts with the challenges service, which is built below: it needs
  // keyChanges, which needs the bot's keyReports. The bot gets a port that calls the service once
  // it exists; it always does before the first update, as updates are received last.
  let challenges: RobotChallenges | undefined;
  const acmeDns = {
    register: (key: RobotKey, secret: string): Promise<RegisterResult> =>
      challenges
        ? challenges.registerAcmeDns(key, secret)
        : Promise.resolve({ ok: false, refusal: 'provider' }),
  };
  const { bot, drain, editsReports, orderReports, keyReports, invoiceCards } = buildBot({
    ...shared,
    watchers: watcher.watchers,
    liveChecks: liveCheck.liveChecks,
    metrics,
    acmeDns,
  });
  const readiness = createReadiness({
    updates: config.updates,
    pollWindowMs: config.READINESS_POLL_WINDOW_S * 1000,
    checkStorage: () => storage.check(),
    webhookInfo: () => bot.telegram.getWebhookInfo(),
  });
  const dispatch = createUpdateDispatch(bot, metrics, logger, inflight);
  // One history for every face: each recorded change drops the gateway's cached addresses of its zone.
  const recorder = createDnsRecorder({
    chatData: storage.chatData,
    dnsHistory: storage.dnsHistory,
    logger,
    zoneChanged: (accountId, orderId) => storage.gatewayState.zoneChanged(accountId, orderId),
  });
  // A robot's change with a key: its account, history entry and the report in its chat.
  const keyChanges = createKeyChanges({
    chatData: storage.chatData,
    apiFor: provider.apiFor,
    recorder,
    reports: keyReports,
    state: storage.gatewayState,
    logger,
  });
  // ACME values that no cleanup removed are swept an hour after they were presented.
  const challenge = createChallengePart({ config, keyChanges, storage, logger }, options);
  background.push(challenge.part);
  challenges = challenge.challenges;
  // HTTP routes beside /healthz, /readyz, /metrics and the webhook, one line each.
  const routes: HttpRoute[] = [
    ...miniAppRoutes({
      config,
      chatData: storage.chatData,
      apiFor: provider.apiFor,
      // What the chat runs too: the zone editor's Apply, recorded in the history, reported in the chat.
      services: {
        zoneEditing: createZoneEditing({
          recorder,
          reports: editsReports,
          logger,
          // Claimed and kept in storage: a retry reaching another instance joins the first Apply.
          onceKeys: storage.onceKeys,
        }),
        // The order form's Confirm: the chat's exactly-once submit, the invoice link in the chat.
        orderPlacing: createOrderPlacing({
          chatData: storage.chatData,
          watches: watcher.watchers,
          report: orderReports,
          logger,
          onceKeys: storage.onceKeys,
        }),
        // The chat's saved customers (/requisites), read and written by the app's customer screen.
        customers: createSavedCustomers(storage.chatData),
        // «Счета»'s Share: the inline card, prepared by the bot for the user to send.
        invoiceCards,
        // «Последние изменения DNS» of the home: the history every face records.
        dnsHistory: recorder,
      },
      translate: translations.t,
      logger,
      // Invoices' and domains' days by the watchers' clock (npm run dev: its sandbox's).
      ...(options.watchersNow === undefined ? {} : { clock: options.watchersNow }),
      isGroupMember: createMembershipCheck((chatId, userId) => bot.telegram.getChatMember(chatId, userId), {
        onError: (error) => logger.warn({ err: errorForLog(error) }, 'mini app: getChatMember failed'),
      }),
    }),
    // The robots' face (/nic/update, /present, /update): keys made in the chat, the same services.
    ...gatewayRoutes({
      robotKeys: storage.robotKeys,
      state: storage.gatewayState,
      keyChanges,
      challenges: challenge.challenges,
      countUpdate: (protocol, outcome) => metrics.gatewayUpdate(protocol, outcome),
      trustedProxies: config.GATEWAY_TRUSTED_PROXIES,
      logger,
    }),
  ];
  const server = await serveHttp({ config, logger, dispatch, metrics, readiness, routes });

  let polling: LongPolling | undefined;
  const { stop, stopping } = createStop({
    logger,
    readiness,
    polling: () => polling,
    server,
    background,
    inflight,
    interruptUpdates: provider.interruptChats,
    drain,
    close: [storage.close, provider.close],
  });
  process.once('SIGINT', () => void stop('SIGINT').then(() => process.exit(0)));
  process.once('SIGTERM', () => void stop('SIGTERM').then(() => process.exit(0)));

  bot.botInfo = await bot.telegram.getMe();
  readiness.started();
  await registerCommandMenus(bot.telegram, translations, logger);
  await registerMenuButton(
    bot.telegram,
    config.MINI_APP_URL,
    translations.t(config.DEFAULT_LOCALE, 'common:menuButton'),
    logger,
  );
  logger.info(
    { username: bot.botInfo.username, mode: config.updates.mode, port: server.port },
    'bot started',
  );
  for (const part of background) if (!stopping()) await part.start?.();
  await receiveUpdates({
    config,
    bot,
    dispatch,
    readiness,
    logger,
    stopping,
    onPolling: (started) => {
      polling = started;
    },
  });
}

/** The logger, told every secret it must never print: the bot token and the encryption keys. */
function createAppLogger(config: Config): Logger {
  return createLogger({
    level: config.LOG_LEVEL,
    secrets: [config.BOT_TOKEN, ...(config.ENCRYPTION_KEYS ?? '').split(/[,:]/)],
  });
}

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
