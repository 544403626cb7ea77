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
  /** How far the oldest due poll is behind its schedule, in ms (0 when none is late). */
  lagMs(): Promise<number>;
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
  /** When each watch is due next; the heap orders the same pairs (stale pairs are skipped). */
  const due = new Map<string, number>();
  const queue = new DueHeap();
  const running = new Map<string, Promise<void>>();
  // A token bucket: polls start no faster than the budget, a second's worth at most at once.
  const rate = options.pollsPerS ?? Number.POSITIVE_INFINITY;
  const capacity = Math.max(1, rate);
  let allowance = capacity;
  let refilledAt = now();
  let run: ((id: string) => Promise<void>) | undefined;
  let timer: NodeJS.Timeout | undefined;
  let wake: NodeJS.Timeout | undefined;

  const nextSlot = (id: string, after: number) => {
    // The watch's own phase within the interval: its polls keep their spread.
    const phase = jitterOf(id, intervalMs);
    const slot = Math.floor((after - phase) / intervalMs) * intervalMs + phase;
    return slot > after ? slot : slot + intervalMs;
  };

  const setDue = (id: string, when: number) => {
    due.set(id, when);
    queue.push(id, when);
  };

  /**
   * Starts what is due, the longest overdue first, as far as the concurrency and the budget allow.
   * Runs on a timer, when a poll ends, and when the budget refills: polls follow each other at the
   * budget's pace, and when a round does not fit the interval every watch is still polled in turn.
   */
  const tick = () => {
    if (run === undefined) return;
    const at = now();
    // (Without a budget the bucket stays full: Infinity × 0 ms would be NaN.)
    if (Number.isFinite(rate)) allowance = Math.min(capacity, allowance + ((at - refilledAt) / 1000) * rate);
    refilledAt = at;
    while (running.size < concurrency && allowance >= 1) {
      const next = queue.peek();
      if (next === undefined || next.when > at) break;
      queue.pop();
      if (due.get(next.id) !== next.when) continue;
      // Due again while still running (a poll longer than the interval): its next slot instead.
      if (running.has(next.id)) {
        setDue(next.id, nextSlot(next.id, at));
        continue;
      }
      allowance -= 1;
      setDue(next.id, nextSlot(next.id, at));
      start(next.id);
    }
    const waiting = queue.peek();
    if (wake === undefined && allowance < 1 && waiting !== undefined && waiting.when <= at) {
      wake = setTimeout(
        () => {
          wake = undefined;
          tick();
        },
        Math.ceil(((1 - allowance) / rate) * 1000),
      );
      wake.unref();
    }
  };

  const start = (id: string) => {
    const runner = run;
    if (runner === undefined) return;
    const poll = runner(id)
      .catch((error: unknown) => options.onError?.(id, error))
      .finally(() => {
        running.delete(id);
        setImmediate(tick);
      });
    running.set(id, poll);
  };

  return {
    async ensure(id, { soon = false } = {}) {
      if (soon) setDue(id, now());
      else if (!due.has(id)) setDue(id, nextSlot(id, now()));
      if (soon) tick();
    },
    async remove(id) {
      due.delete(id);
    },
    async lagMs() {
      const at = now();
      let oldest = at;
      for (const [id, when] of due) if (when < oldest && !running.has(id)) oldest = when;
      return at - oldest;
    },
    async start(runner) {
      run = runner;
      timer = setInterval(tick, tickMs);
      timer.unref();
      tick();
    },
    async stop() {
      if (timer) clearInterval(timer);
      if (wake) clearTimeout(wake);
      run = undefined;
      await Promise.all(running.values());
    },
  };
}

interface Slot {
  readonly id: string;
  readonly when: number;
}

/** A binary min-heap of (id, when) pairs, earliest first. */
class DueHeap {
  private readonly items: Slot[] = [];

  peek(): Slot | undefined {
    return this.items[0];
  }

  push(id: string, when: number): void {
    this.items.push({ id, when });
    let i = this.items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.when(parent) <= this.when(i)) return;
      this.swap(parent, i);
      i = parent;
    }
  }

  pop(): void {
    const last = this.items.pop();
    if (last === undefined || this.items.length === 0) return;
    this.items[0] = last;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      let smallest = i;
      if (this.when(left) < this.when(smallest)) smallest = left;
      if (this.when(left + 1) < this.when(smallest)) smallest = left + 1;
      if (smallest === i) return;
      this.swap(smallest, i);
      i = smallest;
    }
  }

  private when(i: number): number {
    return this.items[i]?.when ?? Number.POSITIVE_INFINITY;
  }

  private swap(i: number, j: number): void {
    const a = this.items[i];
    const b = this.items[j];
    if (a === undefined || b === undefined) return;
    this.items[i] = b;
    this.items[j] = a;
  }
}
