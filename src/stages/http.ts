import type { Config } from '../config.js';
import { type BotServer, type HttpRoute, startBotServer } from '../http-server.js';
import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics.js';
import type { Readiness } from '../readiness.js';
import type { UpdateDispatch } from './updates.js';

/**
 * The bot's HTTP endpoint on PORT, in both modes: /healthz, /readyz, /metrics, the webhook when
 * WEBHOOK_URL is set, and `routes` — where a new route is one line of `main`.
 */
export function serveHttp(deps: {
  config: Config;
  logger: Logger;
  mode: 'polling' | 'webhook';
  dispatch: UpdateDispatch;
  metrics: Metrics;
  readiness: Readiness;
  routes: readonly HttpRoute[];
}): Promise<BotServer> {
  const { config } = deps;
  const started = Date.now();
  return startBotServer({
    port: config.PORT,
    host: config.HOST,
    webhookPath: config.WEBHOOK_URL ? new URL(config.WEBHOOK_URL).pathname : undefined,
    secret: config.WEBHOOK_SECRET,
    logger: deps.logger,
    health: () => ({ mode: deps.mode, uptimeS: Math.round((Date.now() - started) / 1000) }),
    onUpdate: deps.dispatch.dispatch,
    metrics: () => deps.metrics.scrape(),
    metricsToken: config.METRICS_TOKEN,
    readiness: () => deps.readiness.reasons(),
    routes: deps.routes,
  });
}
