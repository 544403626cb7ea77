import { Telegram } from 'telegraf';
import type { createApiFactory } from '../api/index.js';
import { LiveChecks } from '../bot/features/dns/live-check/live-check.js';
import { createNotificationSender } from '../bot/features/notify/sender.js';
import type { Translations } from '../bot/kit/i18n.js';
import type { Config } from '../config.js';
import { createDnsProbe, type DnsProbeOptions } from '../dns-check/probe.js';
import { errorForLog, type Logger } from '../logger.js';
import type { Metrics } from '../metrics.js';
import type { KeyChanges } from '../services/key-changes.js';
import { createRobotChallenges, type RobotChallenges } from '../services/robot-challenges.js';
import { createBullmqScheduler } from '../watchers/bullmq-scheduler.js';
import { createInProcessScheduler, pollsPerSecond } from '../watchers/scheduler.js';
import { createWatchers, deliveryKind, type Watchers } from '../watchers/watchers.js';
import type { OpenedStorage } from './storage.js';

/**
 * Work beside the updates: started once the bot knows who it is (and not at all when a stop came
 * first), stopped before the running updates are waited for. `main` lists them in one place.
 */
export interface BackgroundPart {
  start?(): Promise<void>;
  stop(): Promise<void>;
}

/** What `npm run dev` changes in the background parts (see `main`'s options). */
export interface BackgroundOptions {
  /** The watchers' clock: the dev sandbox's, so that moving it brings expiries near for the bot too. */
  watchersNow?: () => Date;
  /** Where the live check asks (`npm run dev`: its sandbox's DNS server for every name server). */
  dnsCheck?: Omit<DnsProbeOptions, 'port'>;
}

interface BackgroundDeps {
  config: Config;
  storage: OpenedStorage;
  translations: Translations;
  apiFor: ReturnType<typeof createApiFactory>;
  logger: Logger;
  metrics: Metrics;
}

/**
 * The watchers behind /notify, when they are on. They deliver through the notification sender,
 * which has its own Telegram client: it exists before the bot, which is handed the watchers.
 */
export function createWatcherPart(
  deps: BackgroundDeps & {
    watcherApiFor: ReturnType<typeof createApiFactory> | undefined;
    interruptPolls(): void;
  },
  options: BackgroundOptions,
): { watchers: Watchers | undefined; part: BackgroundPart } {
  const { config, storage, logger, metrics } = deps;
  if (deps.watcherApiFor === undefined) return { watchers: undefined, part: { stop: async () => undefined } };
  const notificationSender = createNotificationSender({
    telegram: new Telegram(config.BOT_TOKEN, { apiRoot: config.TELEGRAM_API_ROOT }),
    chatData: storage.chatData,
    apiFor: deps.apiFor,
    translations: deps.translations,
    defaultLocale: config.DEFAULT_LOCALE,
    logger,
  });
  const intervalMs = config.NOTIFY_INTERVAL_S * 1000;
  const pollsPerS = pollsPerSecond(config.NOTIFY_CALLS_PER_S);
  const watchers = createWatchers({
    watchData: storage.watchData,
    chatData: storage.chatData,
    apiFor: deps.watcherApiFor,
    sender: {
      async deliver(chatId, token, delivery, at) {
        const outcome = await notificationSender.deliver(chatId, token, delivery, at);
        if (outcome === 'sent') metrics.notificationSent(deliveryKind(delivery));
        return outcome;
      },
    },
    onPoll: (outcome) => metrics.watchPoll(outcome),
    scheduler:
      storage.redis && config.REDIS_URL
        ? createBullmqScheduler({
            redisUrl: config.REDIS_URL,
            prefix: `${config.REDIS_PREFIX}bull`,
            intervalMs,
            pollsPerS,
            lockMs: config.NOTIFY_JOB_LOCK_S * 1000,
            onError: (watchId, error) =>
              logger.warn({ watchId, err: errorForLog(error) }, 'watch job failed'),
          })
        : createInProcessScheduler({
            intervalMs,
            pollsPerS,
            onError: (watchId, error) =>
              logger.warn({ watchId, err: errorForLog(error) }, 'watch run failed'),
          }),
    logger,
    intervalMs,
    ...(options.watchersNow ? { now: options.watchersNow } : {}),
  });
  return {
    watchers,
    part: {
      start: () => watchers.start(),
      async stop() {
        // A poll out on the provider is cut off (it writes nothing then); it is asked again later.
        deps.interruptPolls();
        await watchers.stop();
      },
    },
  };
}

/**
 * The live check edits its messages after the update that made the change has ended: a Telegram
 * client of its own, as the notification sender has. Checks only ask and edit: a stop cancels
 * them, it does not wait for them.
 */
export function createLiveCheckPart(
  config: Config,
  logger: Logger,
  options: BackgroundOptions,
): { liveChecks: LiveChecks; part: BackgroundPart } {
  const liveChecks = new LiveChecks({
    probe: createDnsProbe({
      port: config.DNS_CHECK_PORT,
      ...(config.DNS_CHECK_RESOLVERS ? { resolvers: config.DNS_CHECK_RESOLVERS } : {}),
      ...options.dnsCheck,
    }),
    telegram: new Telegram(config.BOT_TOKEN, { apiRoot: config.TELEGRAM_API_ROOT }),
    logger,
  });
  return { liveChecks, part: { stop: () => liveChecks.stop() } };
}

/**
 * The ACME challenges of robots' keys (httpreq, acme-dns): the service the gateway's routes run,
 * asking the name servers where the live check asks, and its sweep every minute, which deletes
 * the values no cleanup removed within the hour. Every instance sweeps; a value is claimed before
 * its delete (GatewayState.claim, one Redis `SET NX` on Redis), so only one instance deletes it.
 */
export function createChallengePart(
  deps: {
    config: Config;
    keyChanges: KeyChanges;
    storage: Pick<OpenedStorage, 'gatewayState' | 'robotKeys'>;
    logger: Logger;
  },
  options: BackgroundOptions & {
    sweepEveryMs?: number;
    /** How long `present`/`update` wait for the name servers (default 25 s, under lego's 30 s). */
    waitMs?: number;
  } = {},
): { challenges: RobotChallenges; part: BackgroundPart } {
  const { config, logger } = deps;
  const challenges = createRobotChallenges({
    keyChanges: deps.keyChanges,
    state: deps.storage.gatewayState,
    robotKeys: deps.storage.robotKeys,
    probe: createDnsProbe({
      port: config.DNS_CHECK_PORT,
      ...(config.DNS_CHECK_RESOLVERS ? { resolvers: config.DNS_CHECK_RESOLVERS } : {}),
      ...options.dnsCheck,
    }),
    logger,
    ...(options.waitMs === undefined ? {} : { waitMs: options.waitMs }),
  });
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let busy = false;
  const sweep = () => {
    // A sweep still deleting (a slow provider) is not joined by another.
    if (busy) return;
    busy = true;
    running = challenges
      .sweep()
      .then((deleted) => {
        if (deleted > 0) logger.info({ deleted }, 'acme challenges swept');
      })
      .catch((error: unknown) => logger.warn({ err: errorForLog(error) }, 'acme challenge sweep failed'))
      .finally(() => {
        busy = false;
      });
  };
  return {
    challenges,
    part: {
      async start() {
        timer = setInterval(sweep, options.sweepEveryMs ?? 60_000);
        timer.unref();
      },
      async stop() {
        clearInterval(timer);
        await running;
      },
    },
  };
}
