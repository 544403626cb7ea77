import { describe, expect, it } from 'vitest';
import { createInProcessScheduler, jitterOf } from '../../src/watchers/scheduler.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the in-process schedule', () => {
  it('polls each watch once per interval, at its own phase, never twice at once', async () => {
    let now = 0;
    const runs: string[] = [];
    let running = 0;
    let overlap = false;
    const scheduler = createInProcessScheduler({ intervalMs: 1_000, now: () => now, tickMs: 5 });
    await scheduler.start(async (id) => {
      running += 1;
      if (running > 1) overlap = true;
      runs.push(id);
      await sleep(20);
      running -= 1;
    });
    await scheduler.ensure('a');
    for (let second = 0; second < 5; second++) {
      now += 1_000;
      await sleep(40);
    }
    await scheduler.stop();
    expect(runs).toEqual(['a', 'a', 'a', 'a', 'a']);
    expect(overlap).toBe(false);
  });

  it('`soon` polls at once; a removed watch is not polled again', async () => {
    const runs: string[] = [];
    // A clock that stands still: `soon` must poll without time passing, and the next slot of a
    // watch (its own phase, which on the machine's clock can fall within the test) never comes.
    const scheduler = createInProcessScheduler({ intervalMs: 60_000, now: () => 0, tickMs: 5 });
    await scheduler.start(async (id) => {
      runs.push(id);
    });
    await scheduler.ensure('b', { soon: true });
    await sleep(20);
    expect(runs).toEqual(['b']);
    await scheduler.remove('b');
    await scheduler.ensure('c');
    await sleep(20);
    await scheduler.stop();
    expect(runs).toEqual(['b']);
  });

  it('keeps to the provider budget: polls start no faster than pollsPerS', async () => {
    let now = 0;
    let started = 0;
    const scheduler = createInProcessScheduler({
      intervalMs: 1_000_000,
      pollsPerS: 2,
      now: () => now,
      tickMs: 5,
    });
    await scheduler.start(async () => {
      started += 1;
    });
    for (let i = 0; i < 20; i++) await scheduler.ensure(`w${i}`, { soon: true });
    await sleep(30);
    expect(started).toBe(2);
    now += 1_000;
    await sleep(30);
    expect(started).toBe(4);
    now += 3_000;
    await sleep(30);
    // A second's worth at most at once, however long it was idle.
    expect(started).toBe(6);
    await scheduler.stop();
  });

  it('is not held to its timer: without a budget, polls follow each other as soon as one ends', async () => {
    const runs: string[] = [];
    const scheduler = createInProcessScheduler({ intervalMs: 600_000, concurrency: 2, tickMs: 60_000 });
    await scheduler.start(async (id) => {
      runs.push(id);
    });
    for (let i = 0; i < 40; i++) await scheduler.ensure(`w${i}`, { soon: true });
    await sleep(100);
    await scheduler.stop();
    expect(runs).toHaveLength(40);
  });

  it('when a round does not fit the interval, every watch is polled before any is polled again', async () => {
    const runs: string[] = [];
    // 10 watches at 20 polls/s take 0.5 s; they come due every 0.2 s.
    const scheduler = createInProcessScheduler({ intervalMs: 200, pollsPerS: 20, tickMs: 50 });
    for (let i = 0; i < 10; i++) await scheduler.ensure(`w${i}`, { soon: true });
    await scheduler.start(async (id) => {
      runs.push(id);
    });
    await sleep(1_300);
    await scheduler.stop();
    expect(runs.length).toBeGreaterThanOrEqual(20);
    // A second's worth at once (the bucket starts full), then 20 a second.
    expect(runs.length).toBeLessThanOrEqual(20 + 1.3 * 20 + 1);
    for (let round = 0; round + 10 <= runs.length; round += 10) {
      expect(new Set(runs.slice(round, round + 10)).size).toBe(10);
    }
  });

  it('spreads watches over the interval by a stable phase', () => {
    const phases = new Set(
      Array.from({ length: 100 }, (_, i) => Math.floor(jitterOf(`id${i}`, 300_000) / 30_000)),
    );
    expect(phases.size).toBeGreaterThanOrEqual(8);
    expect(jitterOf('same', 300_000)).toBe(jitterOf('same', 300_000));
  });
});
