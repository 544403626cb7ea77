/**
 * CPU per update: the real bot (every middleware, lowdb, sealed tokens) against a bare telegraf
 * bot with one /help command, both fed the same `/help` messages through `handleUpdate`.
 * `/help` needs no provider call, so the difference is the bot's own stack: error boundary,
 * per-chat queue, language lookup, allow-list, session read and write-back, scenes, button
 * router and the command composers.
 */
import type { Telegraf } from 'telegraf';
import type { Update } from 'telegraf/types';
import type { BotContext } from '../src/bot/context.js';
import {
  type BenchResult,
  chatIds,
  type FakeTelegram,
  fixed,
  measure,
  median,
  startBareBot,
  startFullBot,
  UpdateFactory,
} from './support.js';

export interface CpuOptions {
  /** Updates per measured run. */
  updates: number;
  chats: number;
  rounds: number;
  warmupUpdates: number;
}

export const CPU_DEFAULTS: CpuOptions = { updates: 2_000, chats: 50, rounds: 7, warmupUpdates: 1_000 };
/** Target for the full stack. */
const TARGET_MS = 1;

type AnyBot = Telegraf<BotContext> | Telegraf;

interface Run {
  cpuMs: number;
  wallMs: number;
}

export async function benchCpuPerUpdate(
  telegram: FakeTelegram,
  options: CpuOptions = CPU_DEFAULTS,
): Promise<BenchResult> {
  const chats = chatIds(options.chats, 7);
  const full = await startFullBot(chats);
  const bare = startBareBot();
  const updates = new UpdateFactory();
  // Messages come round-robin from the chats; each chat speaks its own language code.
  const batch = (count: number): Update[] =>
    Array.from({ length: count }, (_, i) =>
      updates.text(chats[i % chats.length] ?? 0, '/help', i % 3 === 0 ? 'en' : 'ru'),
    );

  telegram.record = false;
  const providerBefore = full.sandbox.requests.length;
  const run = async (bot: AnyBot, count: number): Promise<Run> => {
    const list = batch(count);
    const sentBefore = telegram.count;
    const result = await measure(async () => {
      for (const update of list) await bot.handleUpdate(update);
    });
    const replies = telegram.count - sentBefore;
    if (replies !== count)
      throw new Error(`expected ${count} replies, the bot made ${replies} Bot API calls`);
    return result;
  };

  try {
    // Warm-up: JIT, the i18n resources, the chats' first session write (a file each).
    await run(bare, options.warmupUpdates);
    await run(full.bot, options.warmupUpdates);

    const fullRuns: Run[] = [];
    const bareRuns: Run[] = [];
    for (let round = 0; round < options.rounds; round++) {
      // Alternate the order so neither side always runs right after the other's garbage.
      if (round % 2 === 0) {
        bareRuns.push(await run(bare, options.updates));
        fullRuns.push(await run(full.bot, options.updates));
      } else {
        fullRuns.push(await run(full.bot, options.updates));
        bareRuns.push(await run(bare, options.updates));
      }
    }
    const providerCalls = full.sandbox.requests.length - providerBefore;
    if (providerCalls !== 0) throw new Error(`/help made ${providerCalls} provider calls`);
    const problems = full.logLines.filter((line) => /"level":(40|50|60)/.test(line)).length;

    const perUpdate = (runs: Run[], key: keyof Run) => median(runs.map((r) => r[key] / options.updates));
    const fullCpu = perUpdate(fullRuns, 'cpuMs');
    const bareCpu = perUpdate(bareRuns, 'cpuMs');
    const overheads = fullRuns.map(
      (r, i) => (r.cpuMs - (bareRuns[i]?.cpuMs ?? Number.NaN)) / options.updates,
    );
    const overhead = median(overheads);
    const spread = (runs: Run[]) => {
      const values = runs.map((r) => r.cpuMs / options.updates);
      return `${fixed(Math.min(...values), 3)}–${fixed(Math.max(...values), 3)}`;
    };
    const ok = fullCpu <= TARGET_MS;

    return {
      title: 'CPU per update: full middleware stack vs bare telegraf',
      method:
        `${options.updates.toLocaleString('en')} \`/help\` messages from ${options.chats} chats (tokens stored ` +
        'sealed, every second chat in English) through `bot.handleUpdate`, one after another; ' +
        '`process.cpuUsage()` (user + system) around each run; Bot API calls answered by an instant ' +
        `fake; ${options.warmupUpdates.toLocaleString('en')} updates of warm-up per bot, then ` +
        `${options.rounds} alternating rounds, median.`,
      header: ['bot', 'CPU ms/update (median)', 'range over rounds', 'wall ms/update', 'target'],
      rows: [
        [
          'full stack (`createBot`)',
          fixed(fullCpu, 3),
          spread(fullRuns),
          fixed(perUpdate(fullRuns, 'wallMs'), 3),
          `≤ ${TARGET_MS} ms ${ok ? '✔' : '✘'}`,
        ],
        [
          'bare `new Telegraf`',
          fixed(bareCpu, 3),
          spread(bareRuns),
          fixed(perUpdate(bareRuns, 'wallMs'), 3),
          '',
        ],
        [
          'overhead (full − bare)',
          fixed(overhead, 3),
          `${fixed(Math.min(...overheads), 3)}–${fixed(Math.max(...overheads), 3)}`,
          '',
          '',
        ],
      ],
      notes: [
        `The full stack costs ×${fixed(fullCpu / bareCpu, 1)} the bare bot's CPU per update.`,
        `Provider calls during the measured runs: ${providerCalls}; warn/error log lines: ${problems}.`,
        "CPU includes libuv threads. Each chat's first update writes `session: { __scenes: {} }` to " +
          'its file (during the warm-up); later updates leave the unchanged session unwritten.',
      ],
      ok,
    };
  } finally {
    telegram.record = true;
    await full.close();
  }
}
