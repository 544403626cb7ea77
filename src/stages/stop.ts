import type { Logger } from '../logger.js';
import type { LongPolling } from '../polling.js';
import type { Readiness } from '../readiness.js';
import type { BackgroundPart } from './background.js';

/**
 * A stop (SIGTERM from a deploy, SIGINT) lets running updates finish for STOP_GRACE_MS, then
 * interrupts their provider calls so each can still answer; the process exits by
 * STOP_DEADLINE_MS in any case, inside the 10 s most platforms allow before SIGKILL.
 */
const STOP_GRACE_MS = 6_000;
const STOP_DEADLINE_MS = 9_500;

/** What a stop closes, in the order it closes them. */
export interface StopDeps {
  logger: Logger;
  readiness: Readiness;
  /** The polling loop, once it runs. */
  polling(): LongPolling | undefined;
  server: { close(): Promise<void> };
  background: readonly BackgroundPart[];
  inflight: Set<Promise<unknown>>;
  /** Cuts the running updates' provider calls off, so each still tells its partner. */
  interruptUpdates(): void;
  /** Writes what the bot still holds (sessions) before the stores close. */
  drain(): Promise<void>;
  /** Closes what is left, in order (storage, the provider's transports). */
  close: readonly (() => Promise<void>)[];
}

/** The graceful stop, once: a second signal while stopping changes nothing. */
export function createStop(deps: StopDeps): { stop(reason: string): Promise<void>; stopping(): boolean } {
  let stopping = false;
  return {
    stopping: () => stopping,
    async stop(reason) {
      if (stopping) return;
      stopping = true;
      const { logger, inflight } = deps;
      deps.readiness.stopping();
      logger.info({ reason, running: inflight.size }, 'stopping');
      const deadline = setTimeout(() => {
        logger.error('graceful stop took too long; exiting');
        process.exit(1);
      }, STOP_DEADLINE_MS);
      deadline.unref();
      await deps.polling()?.stop();
      await deps.server.close();
      for (const part of deps.background) await part.stop();
      // Running updates get a grace period; then their provider calls are interrupted, so each
      // still tells its partner (the bot is restarting) instead of dying silently with the process.
      if (!(await settleWithin(inflight, STOP_GRACE_MS))) {
        logger.warn(
          { running: inflight.size },
          'updates still running at the stop deadline; interrupting them',
        );
        deps.interruptUpdates();
        await settleWithin(inflight, STOP_DEADLINE_MS);
      }
      await deps.drain();
      for (const close of deps.close) await close();
      logger.flush();
      clearTimeout(deadline);
    },
  };
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
