/**
 * When each token is polled. One interface, two implementations: in-process timers for lowdb
 * (one instance), and BullMQ job schedulers for Redis (`bullmq-scheduler.ts`: several instances,
 * each token's poll taken by one of them at a time, a dead instance's job taken over).
 */
import { createHash } from 'node:crypto';

export interface WatchScheduler {
  /** Polls the watch every interval from now on (idempotent); `soon`: also once right away. */
  ensure(id: string, options?: { soon?: boolean }): Promise<void>;
  /** No more polls of the watch. */
  remove(id: string): Promise<void>;
  /** Starts running due polls through `run` (one at a time per watch). */
  start(run: (id: string) => Promise<void>): Promise<void>;
  /** Stops taking polls and waits for the running ones. */
  stop(): Promise<void>;
}

/** A stable offset in [0, intervalMs) per watch, so tokens connected together poll apart. */
export function jitterOf(id: string, intervalMs: number): number {
  return createHash('sha256').update(id).digest().readUInt32BE(0) % Math.max(1, intervalMs);
}

/** Provider calls one poll makes: the four lists. */
export const CALLS_PER_POLL = 4;

/** Polls a second that keep the watchers within `callsPerS` provider calls a second. */
export function pollsPerSecond(callsPerS: number): number {
  return callsPerS / CALLS_PER_POLL;
}

export interface InProcessSchedulerOptions {
  intervalMs: number;
  /** At most this many polls start per second (the provider budget / 4); default unlimited. */
  pollsPerS?: number;
  /** Polls running at once (each waits on the provider most of its time). Default 8. */
  concurrency?: number;
  now?: () => number;
  /** How often due polls are looked for; default a second (or the interval, when shorter). */
  tickMs?: number;
  onError?: (id: string, error: unknown) => void;
}

/** Timers in this process: enough for lowdb, which serves one instance. */
export function createInProcessScheduler(options: InProcessSchedulerOptions): WatchScheduler {
  const { intervalMs, concurrency = 8, now = Date.now } = options;
  const tickMs = options.tickMs ?? Math.min(1_000, intervalMs);
  const due = new Map<string, number>();
  const running = new Map<string, Promise<void>>();
  // A token bucket: polls start no faster than the budget, a second's worth at most at once.
  const rate = options.pollsPerS ?? Number.POSITIVE_INFINITY;
  const capacity = Math.max(1, rate);
  let allowance = capacity;
  let refilledAt = now();
  let run: ((id: string) => Promise<void>) | undefined;
  let timer: NodeJS.Timeout | undefined;

  const nextSlot = (id: string, after: number) => {
    // The watch's own phase within the interval: its polls keep their spread.
    const phase = jitterOf(id, intervalMs);
    const slot = Math.floor((after - phase) / intervalMs) * intervalMs + phase;
    return slot > after ? slot : slot + intervalMs;
  };

  const tick = () => {
    if (run === undefined) return;
    const at = now();
    allowance = Math.min(capacity, allowance + ((at - refilledAt) / 1000) * rate);
    refilledAt = at;
    for (const [id, when] of due) {
      if (running.size >= concurrency || allowance < 1) break;
      if (when > at || running.has(id)) continue;
      allowance -= 1;
      due.set(id, nextSlot(id, at));
      const poll = run(id)
        .catch((error: unknown) => options.onError?.(id, error))
        .finally(() => running.delete(id));
      running.set(id, poll);
    }
  };

  return {
    async ensure(id, { soon = false } = {}) {
      if (soon) due.set(id, now());
      else if (!due.has(id)) due.set(id, nextSlot(id, now()));
      if (soon) tick();
    },
    async remove(id) {
      due.delete(id);
    },
    async start(runner) {
      run = runner;
      timer = setInterval(tick, tickMs);
      timer.unref();
      tick();
    },
    async stop() {
      if (timer) clearInterval(timer);
      run = undefined;
      await Promise.all(running.values());
    },
  };
}
