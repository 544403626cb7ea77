import type { Config } from '../config.js';
import { type BotServer, type HttpRoute, startBotServer } from '../http-server.js';
import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics.js';
import type { Readiness } from '../readiness.js';
import type { UpdateDispatch } from './updates.js';

/**
 * The bot's HTTP endpoint on PORT, in both modes: /healthz, /readyz, /metrics, the webhook in
 * webhook mode, and `routes` — where a new route is one line of `main`.
 */
export function serveHttp(deps: {
  config: Config;
  logger: Logger;
  dispatch: UpdateDispatch;
  metrics: Metrics;
  readiness: Readiness;
  routes: readonly HttpRoute[];
}): Promise<BotServer> {
  const { config } = deps;
  const { updates } = config;
  const started = Date.now();
  return startBotServer({
    port: config.PORT,
    host: config.HOST,
    webhook: updates.mode === 'webhook' ? { path: updates.path, secret: updates.secret } : undefined,
    logger: deps.logger,
    health: () => ({ mode: updates.mode, uptimeS: Math.round((Date.now() - started) / 1000) }),
    onUpdate: deps.dispatch.dispatch,
    metrics: () => deps.metrics.scrape(),
    metricsToken: config.METRICS_TOKEN,
    readiness: () => deps.readiness.reasons(),
    routes: deps.routes,
  });
}
