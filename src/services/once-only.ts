/*
 * Running a request's work once per key, whichever instance it reaches: the key is claimed in
 * storage (`OnceKeys`) while the work runs, kept alive meanwhile, and the outcome stored when the
 * work says to keep it. A repeat that finds the key claimed waits a while for the outcome (or
 * for the claim to go: then it claims and runs itself, as a refused request may be sent again),
 * and is told the work is still running when the wait is over.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { OnceKeys } from '../storage/once-keys.js';

/** What the work gives back: its value, and whether a repeat of the key is answered with it. */
export interface OnceWork<T> {
  value: T;
  /** Kept: a repeat gets `stored(value)` back. Not kept: a repeat runs the work again. */
  keep: boolean;
}

export type OnceResult<T> =
  | { kind: 'ran'; value: T }
  /** Done before (here or on another instance): the stored outcome, revived. */
  | { kind: 'again'; value: T }
  /** Another request with the key is still running after the wait. */
  | { kind: 'busy' };

export interface OnceOptions<T> {
  /** How long a claim lives unless kept alive (a claimer that died lets it lapse). */
  claimMs?: number;
  /** How long a kept outcome answers repeats. */
  keepMs?: number;
  /** How long a repeat waits for a running request's outcome before it is told `busy`. */
  waitMs?: number;
  /** The outcome as stored (JSON), and back. */
  store?: (value: T) => unknown;
  revive?: (stored: unknown) => T;
}

/** Runs `work` once per `key` across every instance sharing `keys`. */
export async function runOnce<T>(
  keys: OnceKeys,
  key: string,
  work: () => Promise<OnceWork<T>>,
  options: OnceOptions<T> = {},
): Promise<OnceResult<T>> {
  const { claimMs = 30_000, keepMs = 15 * 60_000, waitMs = 10_000 } = options;
  const until = Date.now() + waitMs;
  let pause = 25;
  for (;;) {
    const claim = await keys.claim(key, claimMs);
    if (claim.state === 'done')
      return { kind: 'again', value: options.revive ? options.revive(claim.outcome) : (claim.outcome as T) };
    if (claim.state === 'claimed') {
      const { token } = claim;
      const keepAlive = setInterval(() => {
        void keys.extend(key, token, claimMs).catch(() => undefined);
      }, claimMs / 3);
      try {
        const done = await work();
        if (done.keep)
          await keys.settle(key, token, options.store ? options.store(done.value) : done.value, keepMs);
        else await keys.release(key, token);
        return { kind: 'ran', value: done.value };
      } catch (error) {
        await keys.release(key, token).catch(() => undefined);
        throw error;
      } finally {
        clearInterval(keepAlive);
      }
    }
    if (Date.now() >= until) return { kind: 'busy' };
    await sleep(Math.min(pause, Math.max(1, until - Date.now())));
    pause = Math.min(pause * 2, 200);
  }
}
