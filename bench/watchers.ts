/**
 * What the watchers behind /notify cost (issue 13 item 5), lowdb + in-process timers beside
 * Redis + BullMQ, in one run:
 * 1. provider calls and CPU per poll (the watchers' own transport against an instant stand-in in
 *    a child process, `watch-provider.ts`; Telegram replaced by a sender that only counts);
 * 2. attaching and scheduling many tokens (`watchData.attach`, `watchers.start()`), and what a
 *    BullMQ schedule keeps in Redis per token;
 * 3. how long a round of every token takes: at an unlimited budget (the scheduler and the event
 *    loop as the limit), computed for budgets of N calls/s, and the limiter's observed rate.
 *
 * Redis rows need `REDIS_URL` (default redis://127.0.0.1:6379): every key lives under a random
 * `pb-bench-<hex>:` prefix and only those keys are deleted afterwards.
 */
import { randomBytes } from 'node:crypto';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { type ApiFactory, createApiFactory, PartnerTransport } from '../src/api/index.js';
import { createLogger, type Logger } from '../src/logger.js';
import type { Keyring } from '../src/storage/crypto.js';
import { closeRedis, connectRedis } from '../src/storage/redis-connection.js';
import { createRedisWatchStore } from '../src/storage/redis-watch-store.js';
import { createWatchData, type WatchData } from '../src/storage/watch-data.js';
import { createLowdbWatchStore, type WatchStore } from '../src/storage/watch-store.js';
import { createBullmqScheduler } from '../src/watchers/bullmq-scheduler.js';
import {
  CALLS_PER_POLL,
  createInProcessScheduler,
  pollsPerSecond,
  type WatchScheduler,
} from '../src/watchers/scheduler.js';
import {
  createWatchers,
  type NotificationSender,
  type RunOutcome,
  type Watchers,
} from '../src/watchers/watchers.js';
import { type BenchResult, benchKeyring, fixed, measure, median, tempDir } from './support.js';
import { benchToken, type ProviderStandIn, startProviderStandIn } from './watch-provider.js';

export interface WatchersBenchOptions {
  /** Tokens polled (per storage) to count provider calls and CPU per poll. */
  pollTokens: number;
  /** Steady rounds of those polls (nothing new at the provider). */
  rounds: number;
  /** Tokens attached, scheduled and polled in one round (per storage). */
  scaleTokens: number;
  /** Tokens of the limiter and overload checks. */
  checkTokens: number;
  /** Length of a rate window, ms; whole seconds (the in-process scheduler ticks each second). */
  windowMs: number;
  /** Budgets (calls/s) whose limiter is checked by observing the rate. */
  checkBudgets: number[];
  /** Budgets (calls/s) whose round time is computed. */
  budgets: number[];
  /** Whether the overload check (more tokens than a budget's round can hold) runs. */
  overload: boolean;
  redisUrl: string;
}

export const WATCHERS_DEFAULTS: WatchersBenchOptions = {
  pollTokens: 1_000,
  rounds: 5,
  scaleTokens: 10_000,
  checkTokens: 200,
  windowMs: 4_000,
  checkBudgets: [20, 40],
  budgets: [20, 100, 400],
  overload: true,
  redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
};

export const WATCHERS_QUICK: WatchersBenchOptions = {
  ...WATCHERS_DEFAULTS,
  pollTokens: 50,
  rounds: 2,
  scaleTokens: 300,
  checkTokens: 50,
  windowMs: 2_000,
  checkBudgets: [40],
  overload: false,
};

/** `NOTIFY_CALLS_PER_S` and `NOTIFY_INTERVAL_S` defaults (src/config.ts). */
const DEFAULT_CALLS_PER_S = 20;
const INTERVAL_MS = 300_000;
/** Polls at once, as both schedulers default. */
const CONCURRENCY = 8;
/** Interval of the overload check: far shorter than a round of its tokens at its budget. */
const OVERLOAD_INTERVAL_MS = 4_000;
const OVERLOAD_CALLS_PER_S = 40;
/** Before a rate window: the in-process scheduler's first tick and a second's burst have passed. */
const WARM_MS = 1_500;
/** The observed rate must stay within this share of the budget (above it: impolite; below: lost). */
const RATE_TOLERANCE = 0.1;

interface Storage {
  kind: 'lowdb' | 'redis';
  /** Token group at the stand-in (`pb-<group>-<n>`). */
  group: string;
  watchData: WatchData;
  ids: string[];
  close(): Promise<void>;
  /** Bytes of one stored watch (file size, or Redis MEMORY USAGE), mean of a sample. */
  docBytes(): Promise<number>;
}

interface Env {
  provider: ProviderStandIn;
  transport: PartnerTransport;
  apiFor: ApiFactory;
  sender: NotificationSender & { deliveries: number };
  logger: Logger;
  /** warn and error lines the watchers logged. */
  warnings: string[];
  keyring: Keyring;
  redis: Redis | undefined;
  redisUrl: string;
  prefix: string;
}

/** A scheduler that counts the polls it starts, and which watches they were for. */
interface CountedScheduler extends WatchScheduler {
  polls: number;
  polled: Map<string, number>;
}

function counted(inner: WatchScheduler): CountedScheduler {
  const scheduler: CountedScheduler = {
    polls: 0,
    polled: new Map(),
    ensure: (id, options) => inner.ensure(id, options),
    remove: (id) => inner.remove(id),
    start: (run) =>
      inner.start((id) => {
        scheduler.polls++;
        scheduler.polled.set(id, (scheduler.polled.get(id) ?? 0) + 1);
        return run(id);
      }),
    stop: () => inner.stop(),
    lagMs: () => inner.lagMs(),
  };
  return scheduler;
}

/** Never fires: part 1 polls by calling `runWatch` itself. */
const IDLE_SCHEDULER: WatchScheduler = {
  ensure: async () => undefined,
  remove: async () => undefined,
  start: async () => undefined,
  stop: async () => undefined,
  lagMs: async () => 0,
};

function watchersOf(
  env: Env,
  storage: Storage,
  scheduler: WatchScheduler,
  intervalMs = INTERVAL_MS,
): Watchers {
  return createWatchers({
    watchData: storage.watchData,
    // Settings are read only for a chat with something to tell; the chat store is not this cost.
    chatData: {
      getNotifySettings: async () => ({}),
      findAccountByToken: async (_chatId, token) => ({ n: 1, token, active: true }),
    },
    apiFor: env.apiFor,
    sender: env.sender,
    scheduler,
    logger: env.logger,
    intervalMs,
  });
}

/** Runs `task` over `items`, `concurrency` at a time. */
async function pool<T>(items: readonly T[], concurrency: number, task: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++];
      if (item !== undefined) await task(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

/** One poll of every watch, 8 at a time (the schedulers' concurrency); every one must be `polled`. */
async function pollAll(watchers: Watchers, ids: readonly string[]): Promise<void> {
  const outcomes = new Map<RunOutcome, number>();
  await pool(ids, CONCURRENCY, async (id) => {
    const outcome = await watchers.runWatch(id);
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
  });
  if (outcomes.get('polled') !== ids.length) {
    throw new Error(`polls did not all succeed: ${JSON.stringify(Object.fromEntries(outcomes))}`);
  }
}

/** Attaches `count` tokens of `group`, one chat each, 32 at a time; returns the watch ids. */
async function attachTokens(watchData: WatchData, group: string, count: number): Promise<string[]> {
  const ids: string[] = new Array(count);
  const indexes = Array.from({ length: count }, (_, i) => i);
  await pool(indexes, 32, async (i) => {
    ids[i] = (await watchData.attach(1_000_000_000 + i, benchToken(group, i))).id;
  });
  return ids;
}

async function lowdbStorage(env: Env, group: string): Promise<Storage> {
  const dir = await tempDir(`watchers-${group}`);
  const store: WatchStore = createLowdbWatchStore({ dataDir: dir });
  return {
    kind: 'lowdb',
    group,
    watchData: createWatchData({ store, keyring: env.keyring }),
    ids: [],
    async close() {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
    async docBytes() {
      const files = (await readdir(join(dir, 'watches'))).slice(0, 200);
      const sizes = await Promise.all(files.map(async (f) => (await stat(join(dir, 'watches', f))).size));
      return sizes.reduce((a, b) => a + b, 0) / Math.max(1, sizes.length);
    },
  };
}

function redisStorage(env: Env, redis: Redis, group: string): Storage {
  const prefix = `${env.prefix}${group}:`;
  const store = createRedisWatchStore({ redis, prefix });
  const storage: Storage = {
    kind: 'redis',
    group,
    watchData: createWatchData({ store, keyring: env.keyring }),
    ids: [],
    close: () => store.close(),
    async docBytes() {
      const keys = storage.ids.slice(0, 200).map((id) => `${prefix}watch:${id}`);
      return (await memoryOf(redis, keys)) / Math.max(1, keys.length);
    },
  };
  return storage;
}

/** Every key matching `pattern` (SCAN, never KEYS). */
async function keysMatching(redis: Redis, pattern: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1_000);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== '0');
  return keys;
}

/** Sum of MEMORY USAGE (exact: SAMPLES 0) of the keys. */
async function memoryOf(redis: Redis, keys: readonly string[]): Promise<number> {
  let total = 0;
  for (let i = 0; i < keys.length; i += 1_000) {
    const pipeline = redis.pipeline();
    for (const key of keys.slice(i, i + 1_000)) pipeline.memory('USAGE', key, 'SAMPLES', 0);
    for (const [error, bytes] of (await pipeline.exec()) ?? []) if (!error) total += Number(bytes ?? 0);
  }
  return total;
}

/** The Redis server's CPU (user + system) so far, µs: server-wide, so other clients count too. */
async function redisCpuUs(redis: Redis | undefined): Promise<number> {
  if (redis === undefined) return Number.NaN;
  const info = await redis.info('cpu');
  const field = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? Number.NaN);
  return (field('used_cpu_user') + field('used_cpu_sys')) * 1e6;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Probe {
  polls: () => number;
  group: string;
}

/** Polls/s and provider calls/s of each probe over the same window (after `WARM_MS`). */
async function rates(env: Env, probes: readonly Probe[], windowMs: number) {
  await sleep(WARM_MS);
  const calls0 = (await env.provider.stats()).byGroup;
  const polls0 = probes.map((p) => p.polls());
  const t0 = performance.now();
  await sleep(windowMs);
  const polls1 = probes.map((p) => p.polls());
  const calls1 = (await env.provider.stats()).byGroup;
  const seconds = (performance.now() - t0) / 1000;
  return probes.map((p, i) => ({
    pollsPerS: ((polls1[i] ?? 0) - (polls0[i] ?? 0)) / seconds,
    callsPerS: ((calls1[p.group] ?? 0) - (calls0[p.group] ?? 0)) / seconds,
  }));
}

// ---- 1. Calls and CPU per poll ----

interface PollCost {
  storage: Storage;
  callsPerPoll: number;
  firstCpuUs: number;
  steadyCpuUs: number[];
  steadyPollsPerS: number[];
  providerCpuUs: number[];
  redisCpuUs: number[];
  eventCpuUs: number;
  eventDeliveries: number;
  steadyDeliveries: number;
  docBytes: number;
}

async function pollCosts(env: Env, storages: Storage[], options: WatchersBenchOptions): Promise<PollCost[]> {
  const costs: PollCost[] = [];
  for (const storage of storages) {
    storage.ids = await attachTokens(storage.watchData, storage.group, options.pollTokens);
    costs.push({
      storage,
      callsPerPoll: 0,
      firstCpuUs: 0,
      steadyCpuUs: [],
      steadyPollsPerS: [],
      providerCpuUs: [],
      redisCpuUs: [],
      eventCpuUs: 0,
      eventDeliveries: 0,
      steadyDeliveries: 0,
      docBytes: 0,
    });
  }
  const watchers = storages.map((s) => watchersOf(env, s, IDLE_SCHEDULER));
  // Warm-up (unmeasured, its own token group): the JIT of the whole poll path, on every storage.
  for (const [i, storage] of storages.entries()) {
    const warm = await attachTokens(storage.watchData, `w${i}`, Math.min(200, options.pollTokens));
    const w = watchersOf(env, storage, IDLE_SCHEDULER);
    for (let r = 0; r < 3; r++) await pollAll(w, warm);
  }
  let polls = costs.map(() => 0);
  const callsAt = async () => (await env.provider.stats()).byGroup;
  const calls0 = await callsAt();

  /** One poll of every token of storage `i`: CPU µs per poll, polls/s, provider and Redis CPU per poll. */
  const round = async (i: number) => {
    const cost = costs[i];
    const w = watchers[i];
    if (!cost || !w) throw new Error('no such storage');
    const before = await env.provider.stats();
    const redisBefore = await redisCpuUs(cost.storage.kind === 'redis' ? env.redis : undefined);
    const timing = await measure(() => pollAll(w, cost.storage.ids));
    const redisAfter = await redisCpuUs(cost.storage.kind === 'redis' ? env.redis : undefined);
    const after = await env.provider.stats();
    const n = cost.storage.ids.length;
    polls = polls.map((p, j) => (j === i ? p + n : p));
    return {
      cpuUs: (timing.cpuMs * 1000) / n,
      pollsPerS: n / (timing.wallMs / 1000),
      providerCpuUs: (after.cpuUs - before.cpuUs) / n,
      redisCpuUs: (redisAfter - redisBefore) / n,
    };
  };

  // The first poll of a token records what is there, silently.
  for (const [i, cost] of costs.entries()) cost.firstCpuUs = (await round(i)).cpuUs;
  for (let r = 0; r < options.rounds; r++) {
    // Storages in rotating order, so a burst of noise does not land on one of them every round.
    for (let k = 0; k < costs.length; k++) {
      const i = (k + r) % costs.length;
      const cost = costs[i];
      if (!cost) continue;
      const deliveries = env.sender.deliveries;
      const figures = await round(i);
      cost.steadyDeliveries += env.sender.deliveries - deliveries;
      cost.steadyCpuUs.push(figures.cpuUs);
      cost.steadyPollsPerS.push(figures.pollsPerS);
      cost.providerCpuUs.push(figures.providerCpuUs);
      cost.redisCpuUs.push(figures.redisCpuUs);
    }
  }
  // Every token gets one new payment: each poll finds one event and tells its chat.
  await env.provider.setEpoch(1);
  for (const [i, cost] of costs.entries()) {
    const deliveries = env.sender.deliveries;
    cost.eventCpuUs = (await round(i)).cpuUs;
    cost.eventDeliveries = env.sender.deliveries - deliveries;
  }
  const calls1 = await callsAt();
  for (const [i, cost] of costs.entries()) {
    const group = cost.storage.group;
    cost.callsPerPoll = ((calls1[group] ?? 0) - (calls0[group] ?? 0)) / (polls[i] ?? Number.NaN);
    cost.docBytes = await cost.storage.docBytes();
  }
  return costs;
}

// ---- 2 and 3. Many tokens: attach, start, memory, a round ----

interface ScaleFigures {
  attach: { wallMs: number; cpuMs: number; redisCpuMs: number };
  start: { wallMs: number; cpuMs: number; redisCpuMs: number };
  /** BullMQ's keys and bytes for the schedule, per token. */
  scheduleKeys?: number;
  scheduleBytes?: number;
  /** `ensure(id, { soon: true })` for every token (what `connect` adds to `attach`). */
  ensureSoon: { wallMs: number; cpuMs: number };
  /** The scheduler as wired, unlimited budget: polls/s. */
  schedulerPollsPerS: number;
  /** True when the whole round was measured; false when projected from a window. */
  roundMeasured: boolean;
  roundS: number;
  /** CPU per poll of a measured round. */
  roundCpuUsPerPoll: number;
  /** `runWatch` 8 at a time with no scheduler: a whole round. */
  direct?: { roundS: number; cpuUsPerPoll: number };
}

async function timedWithRedis(env: Env, task: () => Promise<void>) {
  const redisBefore = await redisCpuUs(env.redis);
  const timing = await measure(task);
  const redisAfter = await redisCpuUs(env.redis);
  return { ...timing, redisCpuMs: (redisAfter - redisBefore) / 1000 };
}

async function scaleLowdb(env: Env, options: WatchersBenchOptions): Promise<ScaleFigures> {
  const storage = await lowdbStorage(env, 'sl');
  try {
    const attach = await timedWithRedis(env, async () => {
      storage.ids = await attachTokens(storage.watchData, storage.group, options.scaleTokens);
    });
    const wired = watchersOf(
      env,
      storage,
      createInProcessScheduler({ intervalMs: INTERVAL_MS, pollsPerS: pollsPerSecond(DEFAULT_CALLS_PER_S) }),
    );
    const start = await timedWithRedis(env, () => wired.start());
    await wired.stop();

    // The event loop as the limit: one round of every token, 8 polls at a time, no scheduler.
    const directTiming = await measure(() => pollAll(wired, storage.ids));

    // The scheduler as wired but with no budget, every token due at once.
    const scheduler = counted(createInProcessScheduler({ intervalMs: INTERVAL_MS }));
    const watchers = watchersOf(env, storage, scheduler);
    const ensureSoon = await measure(async () => {
      for (const id of storage.ids) await scheduler.ensure(id, { soon: true });
    });
    await scheduler.start((id) => watchers.runWatch(id).then(() => undefined));
    const [rate] = await rates(
      env,
      [{ polls: () => scheduler.polls, group: storage.group }],
      options.windowMs,
    );
    await scheduler.stop();
    const pollsPerS = rate?.pollsPerS ?? Number.NaN;
    const n = storage.ids.length;
    return {
      attach,
      start,
      ensureSoon,
      schedulerPollsPerS: pollsPerS,
      roundMeasured: false,
      roundS: n / pollsPerS,
      roundCpuUsPerPoll: Number.NaN,
      direct: {
        roundS: directTiming.wallMs / 1000,
        cpuUsPerPoll: (directTiming.cpuMs * 1000) / n,
      },
    };
  } finally {
    await storage.close();
  }
}

async function scaleRedis(env: Env, redis: Redis, options: WatchersBenchOptions): Promise<ScaleFigures> {
  const storage = redisStorage(env, redis, 'sr');
  const bullPrefix = `${env.prefix}bull`;
  try {
    const attach = await timedWithRedis(env, async () => {
      storage.ids = await attachTokens(storage.watchData, storage.group, options.scaleTokens);
    });
    const wired = watchersOf(
      env,
      storage,
      createBullmqScheduler({
        redisUrl: env.redisUrl,
        prefix: bullPrefix,
        intervalMs: INTERVAL_MS,
        pollsPerS: pollsPerSecond(DEFAULT_CALLS_PER_S),
      }),
    );
    let start: Awaited<ReturnType<typeof timedWithRedis>>;
    let scheduleKeys: string[];
    try {
      start = await timedWithRedis(env, () => wired.start());
      scheduleKeys = await keysMatching(redis, `${bullPrefix}:*`);
    } finally {
      await wired.stop();
    }
    const scheduleBytes = await memoryOf(redis, scheduleKeys);

    // The same queue with no limiter: every token due at once; the round runs to its end.
    const scheduler = counted(
      createBullmqScheduler({ redisUrl: env.redisUrl, prefix: bullPrefix, intervalMs: INTERVAL_MS }),
    );
    const watchers = watchersOf(env, storage, scheduler);
    let ensureSoon: { wallMs: number; cpuMs: number };
    let round: { wallMs: number; cpuMs: number };
    try {
      ensureSoon = await measure(() => pool(storage.ids, 50, (id) => scheduler.ensure(id, { soon: true })));
      const deadline = Date.now() + 150_000;
      round = await measure(async () => {
        await scheduler.start((id) => watchers.runWatch(id).then(() => undefined));
        while (scheduler.polled.size < storage.ids.length && Date.now() < deadline) await sleep(10);
      });
    } finally {
      await scheduler.stop();
    }
    const n = storage.ids.length;
    const complete = scheduler.polled.size >= n;
    return {
      attach,
      start,
      scheduleKeys: scheduleKeys.length / n,
      scheduleBytes: scheduleBytes / n,
      ensureSoon,
      schedulerPollsPerS: scheduler.polls / (round.wallMs / 1000),
      roundMeasured: complete,
      roundS: complete ? round.wallMs / 1000 : n / (scheduler.polls / (round.wallMs / 1000)),
      roundCpuUsPerPoll: (round.cpuMs * 1000) / Math.max(1, scheduler.polls),
    };
  } finally {
    await storage.close();
  }
}

// ---- 3. The limiter, observed ----

interface Observed {
  pollsPerS: number;
  callsPerS: number;
}

/** Both schedulers at one budget, side by side in the same window, every token due. */
async function limiterCheck(
  env: Env,
  storages: { lowdb: Storage; redis: Storage | undefined },
  callsPerS: number,
  options: WatchersBenchOptions,
): Promise<{ lowdb: Observed; redis: Observed | undefined }> {
  const pollsPerS = pollsPerSecond(callsPerS);
  const local = counted(createInProcessScheduler({ intervalMs: INTERVAL_MS, pollsPerS }));
  const shared =
    storages.redis === undefined
      ? undefined
      : counted(
          createBullmqScheduler({
            redisUrl: env.redisUrl,
            prefix: `${env.prefix}limit${callsPerS}`,
            intervalMs: INTERVAL_MS,
            pollsPerS,
          }),
        );
  const pairs: [CountedScheduler, Storage][] = [[local, storages.lowdb]];
  if (shared && storages.redis) pairs.push([shared, storages.redis]);
  try {
    for (const [scheduler, storage] of pairs) {
      const watchers = watchersOf(env, storage, scheduler);
      const ids = storage.ids.slice(0, options.checkTokens);
      await pool(ids, 50, (id) => scheduler.ensure(id, { soon: true }));
      await scheduler.start((id) => watchers.runWatch(id).then(() => undefined));
    }
    const observed = await rates(
      env,
      pairs.map(([scheduler, storage]) => ({ polls: () => scheduler.polls, group: storage.group })),
      options.windowMs,
    );
    const missing = { pollsPerS: Number.NaN, callsPerS: Number.NaN };
    return { lowdb: observed[0] ?? missing, redis: shared ? (observed[1] ?? missing) : undefined };
  } finally {
    for (const [scheduler] of pairs) await scheduler.stop();
  }
}

interface Fairness {
  polls: number;
  distinct: number;
}

/**
 * More tokens than a round at the budget can hold within the interval (as after an operator
 * added tokens without raising the budget): are the polls spread over every token?
 */
async function overloadCheck(
  env: Env,
  storages: { lowdb: Storage; redis: Storage | undefined },
  options: WatchersBenchOptions,
): Promise<{ lowdb: Fairness; redis: Fairness | undefined }> {
  const pollsPerS = pollsPerSecond(OVERLOAD_CALLS_PER_S);
  const local = counted(createInProcessScheduler({ intervalMs: OVERLOAD_INTERVAL_MS, pollsPerS }));
  const shared =
    storages.redis === undefined
      ? undefined
      : counted(
          createBullmqScheduler({
            redisUrl: env.redisUrl,
            prefix: `${env.prefix}overload`,
            intervalMs: OVERLOAD_INTERVAL_MS,
            pollsPerS,
          }),
        );
  const pairs: [CountedScheduler, Storage][] = [[local, storages.lowdb]];
  if (shared && storages.redis) pairs.push([shared, storages.redis]);
  try {
    for (const [scheduler, storage] of pairs) {
      const watchers = watchersOf(env, storage, scheduler, OVERLOAD_INTERVAL_MS);
      // As `start()` after a restart: each token at its own phase of the interval.
      await pool(storage.ids.slice(0, options.checkTokens), 50, (id) => scheduler.ensure(id));
      await scheduler.start((id) => watchers.runWatch(id).then(() => undefined));
    }
    await sleep(2 * OVERLOAD_INTERVAL_MS);
  } finally {
    for (const [scheduler] of pairs) await scheduler.stop();
  }
  const of = (s: CountedScheduler) => ({ polls: s.polls, distinct: s.polled.size });
  return { lowdb: of(local), redis: shared ? of(shared) : undefined };
}

// ---- The table ----

const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en') : 'n/a');
const range = (values: readonly number[], digits: number) =>
  `${fixed(median(values), digits)} (${fixed(Math.min(...values), digits)}–${fixed(Math.max(...values), digits)})`;

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return 'n/a';
  if (seconds < 100) return `${fixed(seconds, 1)} s`;
  return `${int(seconds)} s (${fixed(seconds / 60, 1)} min)`;
}

/** Within the tolerance of the budget (above: impolite to the provider; below: polls lost). */
function holds(observed: number, budget: number): boolean {
  return Math.abs(observed - budget) <= budget * RATE_TOLERANCE;
}

export async function benchWatchers(options: WatchersBenchOptions = WATCHERS_DEFAULTS): Promise<BenchResult> {
  const provider = await startProviderStandIn();
  const transport = new PartnerTransport({ baseUrl: provider.url, timeoutMs: 5_000, maxRetries: 0 });
  const warnings: string[] = [];
  let deliveries = 0;
  const notes: string[] = [];
  let redis: Redis | undefined;
  try {
    redis = await connectRedis({ url: options.redisUrl, startTimeoutMs: 2_000, commandTimeoutMs: 10_000 });
  } catch (error) {
    notes.push(
      `Redis rows skipped: ${error instanceof Error ? error.message : String(error)} (set REDIS_URL).`,
    );
  }
  const env: Env = {
    provider,
    transport,
    // As main.ts: the watchers' own transport, never retrying.
    apiFor: createApiFactory(transport),
    sender: {
      get deliveries() {
        return deliveries;
      },
      deliver: async () => {
        deliveries++;
        return 'sent';
      },
    },
    logger: createLogger({
      level: 'info',
      destination: {
        write: (line: string) => {
          if (/"level":(40|50|60)/.test(line)) warnings.push(line);
        },
      },
    }),
    warnings,
    keyring: benchKeyring(),
    redis,
    redisUrl: options.redisUrl,
    prefix: `pb-bench-${randomBytes(4).toString('hex')}:`,
  };
  const storages: Storage[] = [];
  try {
    const lowdb = await lowdbStorage(env, 'pl');
    storages.push(lowdb);
    const shared = redis ? redisStorage(env, redis, 'pr') : undefined;
    if (shared) storages.push(shared);

    const costs = await pollCosts(env, storages, options);
    const scaleL = await scaleLowdb(env, options);
    const scaleR = redis ? await scaleRedis(env, redis, options) : undefined;
    const checks: { callsPerS: number; lowdb: Observed; redis: Observed | undefined }[] = [];
    for (const callsPerS of options.checkBudgets) {
      checks.push({ callsPerS, ...(await limiterCheck(env, { lowdb, redis: shared }, callsPerS, options)) });
    }
    const overload = options.overload
      ? await overloadCheck(env, { lowdb, redis: shared }, options)
      : undefined;

    return report(options, costs, scaleL, scaleR, checks, overload, notes, warnings.length);
  } finally {
    for (const storage of storages) await storage.close();
    if (redis) {
      // Only this run's keys: the watch documents and every BullMQ queue under the prefix.
      const keys = await keysMatching(redis, `${env.prefix}*`);
      for (let i = 0; i < keys.length; i += 500) await redis.unlink(...keys.slice(i, i + 500));
      await closeRedis(redis);
    }
    await transport.close();
    await provider.close();
  }
}

function report(
  options: WatchersBenchOptions,
  costs: PollCost[],
  scaleL: ScaleFigures,
  scaleR: ScaleFigures | undefined,
  checks: { callsPerS: number; lowdb: Observed; redis: Observed | undefined }[],
  overload: { lowdb: Fairness; redis: Fairness | undefined } | undefined,
  notes: string[],
  warnings: number,
): BenchResult {
  const [costL, costR] = costs;
  const skipped = 'skipped';
  let ok = true;
  const mark = (met: boolean) => {
    ok &&= met;
    return met ? '✔' : '✘';
  };
  const S = options.scaleTokens;
  const P = options.pollTokens;
  const rows: string[][] = [];
  const row = (label: string, l: string, r: string | undefined, target = '') =>
    rows.push([label, l, r ?? skipped, target]);

  // 1. Per poll.
  const calls = (c: PollCost | undefined) =>
    c === undefined ? undefined : `${fixed(c.callsPerPoll, 2)} ${mark(c.callsPerPoll === CALLS_PER_POLL)}`;
  row(
    `provider calls per poll (${int(P)} tokens × ${options.rounds + 2} rounds)`,
    calls(costL) ?? '',
    calls(costR),
    `= ${CALLS_PER_POLL}`,
  );
  const cpu = (c: PollCost | undefined) => (c === undefined ? undefined : range(c.steadyCpuUs, 0));
  row('CPU µs per poll, nothing new (median, range of rounds)', cpu(costL) ?? '', cpu(costR));
  const first = (c: PollCost | undefined) => (c === undefined ? undefined : fixed(c.firstCpuUs, 0));
  row('CPU µs per poll, first poll of a token (records silently)', first(costL) ?? '', first(costR));
  const event = (c: PollCost | undefined) =>
    c === undefined ? undefined : `${fixed(c.eventCpuUs, 0)} (${int(c.eventDeliveries)} deliveries)`;
  row('CPU µs per poll, one new payment each (event + delivery)', event(costL) ?? '', event(costR));
  const provider = (c: PollCost | undefined) =>
    c === undefined ? undefined : fixed(median(c.providerCpuUs), 0);
  row('stand-in provider CPU µs per poll (its own process)', provider(costL) ?? '', provider(costR));
  row('Redis server CPU µs per poll', '—', costR ? fixed(median(costR.redisCpuUs), 0) : undefined);
  const rate = (c: PollCost | undefined) => (c === undefined ? undefined : int(median(c.steadyPollsPerS)));
  row('polls/s, 8 at a time, no scheduler (nothing new)', rate(costL) ?? '', rate(costR));
  const bytes = (c: PollCost | undefined) => (c === undefined ? undefined : int(c.docBytes));
  row('bytes per stored watch after polls (file / MEMORY USAGE)', bytes(costL) ?? '', bytes(costR));

  // 2. Many tokens.
  const perToken = (t: { wallMs: number; cpuMs: number }) =>
    `${fixed(t.wallMs / 1000, 1)} s; CPU ${fixed((t.cpuMs * 1000) / S, 0)} µs/token`;
  row(`attach ${int(S)} tokens (32 at a time)`, perToken(scaleL.attach), scaleR && perToken(scaleR.attach));
  row(
    `\`start()\`: ensure ${int(S)} schedules (timers / upsertJobScheduler)`,
    perToken(scaleL.start),
    scaleR && perToken(scaleR.start),
  );
  row(
    'Redis server CPU for attach / start, µs per token',
    '—',
    scaleR &&
      `${fixed((scaleR.attach.redisCpuMs * 1000) / S, 0)} / ${fixed((scaleR.start.redisCpuMs * 1000) / S, 0)}`,
  );
  row(
    'schedule kept per token',
    'one Map entry (in memory)',
    scaleR &&
      `${fixed(scaleR.scheduleKeys ?? Number.NaN, 2)} keys, ${int(scaleR.scheduleBytes ?? Number.NaN)} bytes`,
  );
  row(
    `\`ensure(id, { soon: true })\` × ${int(S)} (what connect adds)`,
    perToken(scaleL.ensureSoon),
    scaleR && perToken(scaleR.ensureSoon),
  );

  // 3. A round.
  row(
    'polls/s through the scheduler, unlimited budget, all due',
    `${fixed(scaleL.schedulerPollsPerS, 1)} (window of ${fixed(options.windowMs / 1000, 0)} s)`,
    scaleR && `${fixed(scaleR.schedulerPollsPerS, 1)} (whole round)`,
  );
  const roundOf = (s: ScaleFigures) =>
    s.roundMeasured
      ? `${duration(s.roundS)} measured; CPU ${fixed(s.roundCpuUsPerPoll, 0)} µs/poll`
      : `${duration(s.roundS)} projected from the rate`;
  row(`one round of ${int(S)} tokens, unlimited budget`, roundOf(scaleL), scaleR && roundOf(scaleR));
  row(
    `one round of ${int(S)} tokens, \`runWatch\` 8 at a time, no scheduler`,
    scaleL.direct
      ? `${duration(scaleL.direct.roundS)}; CPU ${fixed(scaleL.direct.cpuUsPerPoll, 0)} µs/poll`
      : '',
    '(BullMQ row above is already this)',
  );
  for (const budget of options.budgets) {
    const bound = (S * CALLS_PER_POLL) / budget;
    // The slower of the budget and what the scheduler managed unlimited.
    const local = S / Math.min(pollsPerSecond(budget), scaleL.schedulerPollsPerS);
    const shared = scaleR && S / Math.min(Math.floor(pollsPerSecond(budget)), scaleR.schedulerPollsPerS);
    row(
      `one round of ${int(S)} at N = ${budget} calls/s: ${int(S)} × 4 / ${budget} = ${duration(bound)}`,
      `${duration(local)} ${mark(local <= bound * 1.05)}`,
      shared === undefined ? undefined : `${duration(shared)} ${mark(shared <= bound * 1.05)}`,
      '= budget-bound',
    );
  }
  for (const check of options.checkBudgets.length > 0 ? checks : []) {
    const show = (o: Observed) =>
      `${fixed(o.callsPerS, 1)} calls/s ${mark(holds(o.callsPerS, check.callsPerS))}`;
    row(
      `observed at N = ${check.callsPerS}, ${int(options.checkTokens)} tokens due, ${fixed(options.windowMs / 1000, 0)} s`,
      show(check.lowdb),
      check.redis && show(check.redis),
      `${check.callsPerS} ±${RATE_TOLERANCE * 100}%`,
    );
  }
  if (overload) {
    const show = (f: Fairness) =>
      `${f.distinct} of ${f.polls} polls ${mark(f.distinct >= 0.9 * Math.min(f.polls, options.checkTokens))}`;
    row(
      `overload: ${int(options.checkTokens)} tokens, interval ${OVERLOAD_INTERVAL_MS / 1000} s, N = ${OVERLOAD_CALLS_PER_S}, ${(2 * OVERLOAD_INTERVAL_MS) / 1000} s: distinct tokens polled`,
      show(overload.lowdb),
      overload.redis && show(overload.redis),
      '≈ polls (spread)',
    );
  }

  notes.push(
    `Budget: NOTIFY_CALLS_PER_S = ${DEFAULT_CALLS_PER_S} by default. The provider publishes no rate limit and a partner typically has one token; ${DEFAULT_CALLS_PER_S} calls/s is polite for a shared provider and still fits ${int((DEFAULT_CALLS_PER_S / CALLS_PER_POLL) * (INTERVAL_MS / 1000))} tokens in one 5-minute round (${DEFAULT_CALLS_PER_S} ÷ 4 × 300 s). An operator with more tokens raises NOTIFY_CALLS_PER_S or NOTIFY_INTERVAL_S.`,
    'CPU is the bot process only (user + system, libuv threads included); the stand-in provider runs in a child process and Redis in its own, each shown apart. Redis CPU is the server-wide INFO delta, so another client of that Redis at the same moment would count.',
    `Warn/error log lines from the watchers: ${warnings}.`,
  );
  if (scaleL.schedulerPollsPerS < 1.5 * CONCURRENCY) {
    notes.push(
      `The in-process scheduler ran ${fixed(scaleL.schedulerPollsPerS, 1)} polls/s with no budget: it starts polls only on its 1-s tick, at most \`concurrency\` (${CONCURRENCY}) per tick, and a finished poll does not start the next (src/watchers/scheduler.ts \`tick\`). So it never exceeds ${CONCURRENCY * CALLS_PER_POLL} calls/s whatever NOTIFY_CALLS_PER_S says, and each tick takes the due watches in insertion order: when a round does not fit the interval, the first watches come due again and are polled again before the rest are polled once (the overload row).`,
    );
  }
  return {
    title: "Watchers' cost (lowdb + in-process timers vs Redis + BullMQ)",
    method:
      'The real watchers (`createWatchers`, the real `PartnerTransport` without retries, sealed watch documents) against an instant provider stand-in in a child process on 127.0.0.1 (any token, a few invoices, payments, orders and domain orders each); Telegram is a sender that counts deliveries. ' +
      `Per poll: ${int(P)} tokens per storage, polled with \`runWatch\` 8 at a time: a first round, ${options.rounds} steady rounds (the storages in rotating order) and one where every token has a new payment; \`process.cpuUsage()\` around each round ÷ polls. ` +
      `Scale: ${int(S)} tokens attached and scheduled per storage (interval 300 s, budget ${DEFAULT_CALLS_PER_S} calls/s as main.ts wires it), then every token due at once with no budget. ` +
      `Limiter: ${int(options.checkTokens)} tokens due, both schedulers side by side in the same window after ${WARM_MS / 1000} s of warm-up.`,
    header: ['measure', 'lowdb + in-process timers', 'Redis + BullMQ', 'target'],
    rows,
    notes,
    ok,
  };
}
