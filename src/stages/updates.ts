import type { Telegraf } from 'telegraf';
import type { Update } from 'telegraf/types';
import type { BotContext } from '../bot/context.js';
import type { Config } from '../config.js';
import { errorForLog, type Logger } from '../logger.js';
import { type Metrics, updateType } from '../metrics.js';
import { type AllowedUpdate, type LongPolling, startLongPolling } from '../polling.js';
import type { Readiness } from '../readiness.js';

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

/** Hands updates to the bot without waiting for them, and keeps the ones still running. */
export interface UpdateDispatch {
  dispatch(update: Update): void;
  /** Updates being handled now: a stop waits for these. */
  readonly inflight: Set<Promise<unknown>>;
}

/**
 * Every update being handled, in both modes: neither the webhook answer nor the next poll waits
 * for a handler, and a stop waits for these.
 */
export function createUpdateDispatch(
  bot: Telegraf<BotContext>,
  metrics: Metrics,
  logger: Logger,
  inflight: Set<Promise<unknown>>,
): UpdateDispatch {
  return {
    inflight,
    dispatch(update) {
      const done = metrics.updateStarted(updateType(update));
      const handling = bot
        .handleUpdate(update)
        .catch((error: unknown) => {
          logger.error({ updateId: update.update_id, err: errorForLog(error) }, 'update failed');
        })
        .finally(done);
      inflight.add(handling);
      void handling.finally(() => inflight.delete(handling));
    },
  };
}

/**
 * Updates in: a webhook set with Telegram (the HTTP stage takes its posts), or our own long
 * polling (telegraf's waits for a whole batch). Resolves when polling ends (a stop), or at once
 * for a webhook.
 */
export async function receiveUpdates(deps: {
  config: Config;
  bot: Telegraf<BotContext>;
  dispatch: UpdateDispatch;
  readiness: Readiness;
  logger: Logger;
  /** Whether a stop has begun (then polling does not start). */
  stopping(): boolean;
  /** Hands the polling loop to the stop stage. */
  onPolling(polling: LongPolling): void;
}): Promise<void> {
  const { config, bot } = deps;
  if (config.updates.mode === 'webhook') {
    await bot.telegram.setWebhook(config.updates.url, {
      secret_token: config.updates.secret,
      allowed_updates: ALLOWED_UPDATES,
    });
    return;
  }
  if (deps.stopping()) return;
  const polling = startLongPolling({
    telegram: bot.telegram,
    allowedUpdates: ALLOWED_UPDATES,
    dispatch: deps.dispatch.dispatch,
    running: () => deps.dispatch.inflight.size,
    logger: deps.logger,
    onPolled: () => deps.readiness.polled(),
  });
  deps.onPolling(polling);
  await polling.finished;
}
