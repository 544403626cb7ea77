/**
 * What an operator sees inside the bot: the Prometheus metrics of one process, served on
 * `GET /metrics`. One registry per process (not prom-client's global one), every family here, and
 * labels kept low-cardinality: an update type, an API operation, a Bot API method, a status, an
 * outcome, a notification kind — never a chat, a user, a token or a domain.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { CallEvent } from './api/http.js';

/** Seconds; an update or a provider call beyond 30 s is a problem whatever its exact length. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** The chat count is read from storage at most this often (a key scan on Redis). */
const CHATS_REFRESH_MS = 60_000;

export interface MetricsSources {
  /** Updates being handled now. */
  updatesInFlight(): number;
  /** How far the oldest due watcher poll is behind its schedule, in ms (0 when none is late). */
  watchLagMs(): Promise<number>;
  /** DNS live checks running now. */
  liveChecksRunning(): number;
  /** Chats with stored data (cached for a minute here). */
  chats(): Promise<number>;
}

export interface Metrics {
  readonly registry: Registry;
  /** An update handled, by its type; `done` ends its duration and in-flight count. */
  updateStarted(type: string): () => void;
  providerCall(event: CallEvent): void;
  telegramCall(method: string, status: string): void;
  watchPoll(outcome: string): void;
  notificationSent(kind: string): void;
  /** One robot's update answered by the gateway, by protocol and outcome (a dyndns2 answer word…). */
  gatewayUpdate(protocol: string, outcome: string): void;
  /** The text format Prometheus scrapes. */
  scrape(): Promise<{ contentType: string; body: string }>;
}

export function createMetrics(sources: MetricsSources, now: () => number = Date.now): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // prom-client names these gauges `_total`, which promtool's lint refuses for a non-counter; the
  // same counts stay available per type in nodejs_active_handles / _requests / _resources.
  for (const name of [
    'nodejs_active_handles_total',
    'nodejs_active_requests_total',
    'nodejs_active_resources_total',
  ]) {
    registry.removeSingleMetric(name);
  }

  const updates = new Counter({
    name: 'partner_bot_updates_total',
    help: 'Telegram updates handled, by update type.',
    labelNames: ['type'],
    registers: [registry],
  });
  const updateDuration = new Histogram({
    name: 'partner_bot_update_duration_seconds',
    help: 'Time from an update reaching the bot to its handler ending.',
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  new Gauge({
    name: 'partner_bot_updates_in_flight',
    help: 'Updates being handled now.',
    registers: [registry],
    collect() {
      this.set(sources.updatesInFlight());
    },
  });
  const providerRequests = new Counter({
    name: 'partner_bot_provider_requests_total',
    help: 'Partner API requests (each attempt), by operation and HTTP status ("network" when none came).',
    labelNames: ['operation', 'status'],
    registers: [registry],
  });
  const providerDuration = new Histogram({
    name: 'partner_bot_provider_request_duration_seconds',
    help: 'Partner API request time (each attempt), by operation.',
    labelNames: ['operation'],
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const telegramRequests = new Counter({
    name: 'partner_bot_telegram_requests_total',
    help: 'Bot API requests, by method and outcome ("ok", the error code such as 429, or "network").',
    labelNames: ['method', 'status'],
    registers: [registry],
  });
  const watchPolls = new Counter({
    name: 'partner_bot_watch_polls_total',
    help: 'Watcher polls of a partner token, by outcome (polled, backoff, failed, rejected, gone, raced).',
    labelNames: ['outcome'],
    registers: [registry],
  });
  new Gauge({
    name: 'partner_bot_watch_lag_seconds',
    help: 'How far the oldest due watcher poll is behind its schedule.',
    registers: [registry],
    async collect() {
      this.set((await sources.watchLagMs()) / 1000);
    },
  });
  const notificationsSent = new Counter({
    name: 'partner_bot_notifications_sent_total',
    help: 'Notifications delivered to a chat, by kind (an event kind, digest, tokenRejected).',
    labelNames: ['kind'],
    registers: [registry],
  });
  const gatewayUpdates = new Counter({
    name: 'partner_bot_gateway_updates_total',
    help: "Robots' updates answered by the gateway (one per dyndns2 host), by protocol and outcome.",
    labelNames: ['protocol', 'outcome'],
    registers: [registry],
  });
  new Gauge({
    name: 'partner_bot_live_checks_running',
    help: 'DNS live checks asking name servers now.',
    registers: [registry],
    collect() {
      this.set(sources.liveChecksRunning());
    },
  });
  let chatsCache: { value: number; at: number } | undefined;
  new Gauge({
    name: 'partner_bot_chats',
    help: 'Chats with stored data (read from storage at most once a minute).',
    registers: [registry],
    async collect() {
      if (chatsCache === undefined || now() - chatsCache.at >= CHATS_REFRESH_MS) {
        chatsCache = { value: await sources.chats(), at: now() };
      }
      this.set(chatsCache.value);
    },
  });

  return {
    registry,
    updateStarted(type) {
      updates.inc({ type });
      return updateDuration.startTimer();
    },
    providerCall(event) {
      const status = event.status === undefined ? 'network' : String(event.status);
      providerRequests.inc({ operation: event.operation, status });
      providerDuration.observe({ operation: event.operation }, event.durationMs / 1000);
    },
    telegramCall(method, status) {
      telegramRequests.inc({ method, status });
    },
    watchPoll(outcome) {
      watchPolls.inc({ outcome });
    },
    notificationSent(kind) {
      notificationsSent.inc({ kind });
    },
    gatewayUpdate(protocol, outcome) {
      gatewayUpdates.inc({ protocol, outcome });
    },
    async scrape() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

/** The type of a Telegram update: its one field besides `update_id`. */
export function updateType(update: object): string {
  for (const key of Object.keys(update)) if (key !== 'update_id') return key;
  return 'unknown';
}
