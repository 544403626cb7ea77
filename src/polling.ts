import { setTimeout as sleep } from 'node:timers/promises';
import { type Telegram, TelegramError } from 'telegraf';
import type { Update } from 'telegraf/types';
import type { Logger } from './logger.js';

/** Update kinds the bot asks Telegram for. */
export type AllowedUpdate = 'message' | 'callback_query' | 'inline_query' | 'chosen_inline_result';

export interface LongPollingOptions {
  telegram: Telegram;
  allowedUpdates: AllowedUpdate[];
  /**
   * Starts handling one update and returns at once (it must not throw). Updates are handed over
   * in update-id order; keeping one chat's updates in that order is the dispatcher's job.
   */
  dispatch(update: Update): void;
  /** How many dispatched updates are still running. */
  running(): number;
  logger: Logger;
  /** Long-poll timeout in seconds (Telegram holds an empty `getUpdates` this long). */
  timeoutS?: number;
  /** Above this many running updates, no new batch is fetched until some finish. */
  maxRunning?: number;
  /** Called when Telegram answered: at the start (deleteWebhook), then after every `getUpdates`. */
  onPolled?: () => void;
}

export interface LongPolling {
  /** Settles when polling ends: resolves after `stop()`, rejects on 401/409 or another fatal error. */
  finished: Promise<void>;
  /** Ends the current long poll and confirms the offset of every update already fetched. */
  stop(): Promise<void>;
}

/** Backoff of a failed `getUpdates` (network, 5xx) when Telegram names no `retry_after`. */
const RETRY_DELAYS_MS = [500, 1_000, 2_000, 5_000, 10_000, 30_000];

/**
 * Long polling that never waits for a handler. telegraf's own loop (`bot.launch`) fetches the next
 * batch only after every update of the current one is handled, so one chat's slow provider call
 * holds up every other chat. Here each fetched update is dispatched and the next `getUpdates` is
 * sent at once: a chat is held up only by its own earlier updates (the per-chat queue keeps their
 * order), and the offset of a fetched update is confirmed by the next poll, as with a webhook's
 * 200. A graceful stop waits for running updates (main.ts); a crash loses the ones in flight,
 * exactly as in webhook mode.
 */
export function startLongPolling(options: LongPollingOptions): LongPolling {
  const { telegram, logger, timeoutS = 50, maxRunning = 1_000 } = options;
  const abort = new AbortController();
  let offset = 0;
  let stopped = false;

  async function fetchBatch(): Promise<Update[]> {
    const updates = await telegram.callApi(
      'getUpdates',
      { timeout: timeoutS, offset, allowed_updates: options.allowedUpdates },
      // telegraf types the signal as the `abort-controller` polyfill's; node-fetch takes Node's own.
      { signal: abort.signal } as unknown as Parameters<Telegram['callApi']>[2],
    );
    return updates;
  }

  async function loop(): Promise<void> {
    // A webhook left set would make getUpdates fail with 409; telegraf's launch does the same.
    await telegram.deleteWebhook();
    options.onPolled?.();
    let failures = 0;
    while (!stopped) {
      if (options.running() >= maxRunning) {
        // Backpressure: a flood must not pile up unbounded in memory behind a slow provider.
        await sleep(20);
        continue;
      }
      let updates: Update[];
      try {
        updates = await fetchBatch();
        failures = 0;
        options.onPolled?.();
      } catch (error) {
        if (stopped || abort.signal.aborted) return;
        if (error instanceof TelegramError && (error.code === 401 || error.code === 409)) throw error;
        const retryAfterS = error instanceof TelegramError ? error.parameters?.retry_after : undefined;
        const delay =
          retryAfterS !== undefined
            ? retryAfterS * 1000
            : (RETRY_DELAYS_MS[Math.min(failures, RETRY_DELAYS_MS.length - 1)] ?? 30_000);
        failures += 1;
        logger.warn(
          { err: describePollError(error), retryInMs: delay, failures },
          'getUpdates failed; retrying',
        );
        await sleep(delay, undefined, { signal: abort.signal }).catch(() => undefined);
        continue;
      }
      for (const update of updates) {
        offset = Math.max(offset, update.update_id + 1);
        options.dispatch(update);
      }
    }
  }

  const finished = loop();
  return {
    finished,
    async stop() {
      if (stopped) return;
      stopped = true;
      abort.abort();
      await finished.catch(() => undefined);
      if (offset === 0) return;
      // Confirms the last batch, so a restart does not receive it again.
      await telegram
        .callApi('getUpdates', { offset, limit: 1, timeout: 0 })
        .catch((error: unknown) =>
          logger.warn({ err: describePollError(error) }, 'could not confirm the update offset'),
        );
    },
  };
}

/** Safe fields of a polling error: never the request URL, which carries the bot token. */
function describePollError(error: unknown): Record<string, unknown> {
  if (error instanceof TelegramError) return { code: error.code, description: error.description };
  if (error instanceof Error) return { name: error.name, code: (error as { code?: unknown }).code };
  return { value: typeof error };
}
