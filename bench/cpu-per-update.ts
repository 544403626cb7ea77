/**
 * CPU per update: the real bot (every middleware, lowdb, sealed tokens) against a typical
 * telegraf bot (in-memory session, a Stage with a WizardScene, i18next translating the reply) —
 * the baseline — and, for scale, a bare telegraf bot with one /help command; all fed the same
 * `/help` messages through `handleUpdate`. `/help` needs no provider call, so the difference to
 * the baseline is what this bot adds: error boundary, per-chat queue, dedupe, the chat's stored
 * language and token (one store read), allow-list, the sealed session, the button router and the
 * command composers.
 */
import type { Telegraf } from 'telegraf';
import type { Update } from 'telegraf/types';
import type { BotContext } from '../src/bot/context.js';
import { loadTranslations } from '../src/bot/kit/i18n.js';
import {
  type BenchResult,
  chatIds,
  englishChat,
  type FakeTelegram,
  fixed,
  measure,
  median,
  startBareBot,
  startFullBot,
  startTypicalBot,
  UpdateFactory,
} from './support.js';

export interface CpuOptions {
  /** Updates per measured run. */
  updates: number;
  chats: number;
  rounds: number;
  warmupUpdates: number;
}

export const CPU_DEFAULTS: CpuOptions = { updates: 4_000, chats: 50, rounds: 9, warmupUpdates: 2_000 };
/** Target for the full stack. */
const TARGET_MS = 1;
/** Target for the full stack ÷ the typical telegraf bot, per round. */
const TARGET_RATIO = 2;
/** Target for the full stack ÷ a typical bot sending the same text as plain strings (issue 25). */
const TARGET_SAME_RATIO = 1.5;

type AnyBot = Telegraf<BotContext> | Telegraf | ReturnType<typeof startTypicalBot>;

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
  const typical = startTypicalBot();
  // The same words the full bot sends, held as plain strings: the baseline without the project's
  // machinery (the issue-25 workload; the ratio against it is the headline).
  const translations = loadTranslations();
  const same = startTypicalBot({
    ru: translations.t('ru', 'onboarding:help'),
    en: translations.t('en', 'onboarding:help'),
  });
  const updates = new UpdateFactory();
  // Messages come round-robin from the chats; a third of the chats speak English, stored and sent.
  const batch = (count: number): Update[] =>
    Array.from({ length: count }, (_, i) => {
      const index = i % chats.length;
      return updates.text(chats[index] ?? 0, '/help', englishChat(index) ? 'en' : 'ru');
    });

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
    await run(typical, options.warmupUpdates);
    await run(same, options.warmupUpdates);
    await run(full.bot, options.warmupUpdates);

    const fullRuns: Run[] = [];
    const typicalRuns: Run[] = [];
    const sameRuns: Run[] = [];
    const bareRuns: Run[] = [];
    const sides: [AnyBot, Run[]][] = [
      [bare, bareRuns],
      [typical, typicalRuns],
      [same, sameRuns],
      [full.bot, fullRuns],
    ];
    for (let round = 0; round < options.rounds; round++) {
      // Rotate the order so no side always runs right after another's garbage.
      for (let i = 0; i < sides.length; i++) {
        const side = sides[(round + i) % sides.length];
        if (side !== undefined) side[1].push(await run(side[0], options.updates));
      }
    }
    const providerCalls = full.sandbox.requests.length - providerBefore;
    if (providerCalls !== 0) throw new Error(`/help made ${providerCalls} provider calls`);
    const problems = full.logLines.filter((line) => /"level":(40|50|60)/.test(line)).length;

    const perUpdate = (runs: Run[], key: keyof Run) => median(runs.map((r) => r[key] / options.updates));
    const fullCpu = perUpdate(fullRuns, 'cpuMs');
    const bareCpu = perUpdate(bareRuns, 'cpuMs');
    const typicalCpu = perUpdate(typicalRuns, 'cpuMs');
    const overheads = fullRuns.map(
      (r, i) => (r.cpuMs - (typicalRuns[i]?.cpuMs ?? Number.NaN)) / options.updates,
    );
    const overhead = median(overheads);
    // Per round, so both sides of a ratio met the same machine weather.
    const ratios = fullRuns.map((r, i) => r.cpuMs / (typicalRuns[i]?.cpuMs ?? Number.NaN));
    const ratio = median(ratios);
    const sameRatios = fullRuns.map((r, i) => r.cpuMs / (sameRuns[i]?.cpuMs ?? Number.NaN));
    const sameRatio = median(sameRatios);
    const sameCpu = perUpdate(sameRuns, 'cpuMs');
    const spread = (runs: Run[]) => {
      const values = runs.map((r) => r.cpuMs / options.updates);
      return `${fixed(Math.min(...values), 3)}–${fixed(Math.max(...values), 3)}`;
    };
    const cpuOk = fullCpu <= TARGET_MS;
    const ratioOk = ratio <= TARGET_RATIO;
    const sameOk = sameRatio <= TARGET_SAME_RATIO;
    const ok = cpuOk && ratioOk && sameOk;

    return {
      title: 'CPU per update: full middleware stack vs a typical telegraf bot',
      method:
        `${options.updates.toLocaleString('en')} \`/help\` messages from ${options.chats} chats (tokens stored ` +
        'sealed, a third of the chats in English, stored and sent) through `bot.handleUpdate`, one after another; ' +
        '`process.cpuUsage()` (user + system) around each run; Bot API calls answered by an instant ' +
        `fake; ${options.warmupUpdates.toLocaleString('en')} updates of warm-up per bot, then ` +
        `${options.rounds} rounds (the four bots in rotating order), median. The baseline is a typical ` +
        'telegraf bot: `session()` with its in-memory store, a Stage with a two-step WizardScene, ' +
        "i18next translating the reply in the user's language.",
      header: ['bot', 'CPU ms/update (median)', 'range over rounds', 'wall ms/update', 'target'],
      rows: [
        [
          'full stack (`createBot`)',
          fixed(fullCpu, 3),
          spread(fullRuns),
          fixed(perUpdate(fullRuns, 'wallMs'), 3),
          `≤ ${TARGET_MS} ms ${cpuOk ? '✔' : '✘'}`,
        ],
        [
          'typical telegraf bot (baseline)',
          fixed(typicalCpu, 3),
          spread(typicalRuns),
          fixed(perUpdate(typicalRuns, 'wallMs'), 3),
          '',
        ],
        [
          'typical telegraf bot, the same text as plain strings',
          fixed(sameCpu, 3),
          spread(sameRuns),
          fixed(perUpdate(sameRuns, 'wallMs'), 3),
          '',
        ],
        [
          'bare `new Telegraf`',
          fixed(bareCpu, 3),
          spread(bareRuns),
          fixed(perUpdate(bareRuns, 'wallMs'), 3),
          '',
        ],
        [
          'overhead (full − baseline)',
          fixed(overhead, 3),
          `${fixed(Math.min(...overheads), 3)}–${fixed(Math.max(...overheads), 3)}`,
          '',
          '',
        ],
        [
          'ratio full ÷ baseline (per round)',
          `×${fixed(ratio, 2)}`,
          `×${fixed(Math.min(...ratios), 2)}–×${fixed(Math.max(...ratios), 2)}`,
          '',
          `≤ ${TARGET_RATIO}× ${ratioOk ? '✔' : '✘'}`,
        ],
        [
          'ratio full ÷ typical bot with the same text (per round)',
          `×${fixed(sameRatio, 2)}`,
          `×${fixed(Math.min(...sameRatios), 2)}–×${fixed(Math.max(...sameRatios), 2)}`,
          '',
          `≤ ${TARGET_SAME_RATIO}× ${sameOk ? '✔' : '✘'}`,
        ],
      ],
      notes: [
        `Against a typical bot sending the same /help text from plain strings: ×${fixed(sameRatio, 2)}.`,
        `The full stack costs ×${fixed(ratio, 2)} the typical bot's CPU per update (median of per-round ` +
          `ratios) and ×${fixed(fullCpu / bareCpu, 1)} the bare bot's.`,
        `Provider calls during the measured runs: ${providerCalls}; warn/error log lines: ${problems}.`,
        'CPU includes libuv threads. Each full-stack update reads its chat once (language, token and ' +
          'session together); the empty session `{ __scenes: {} }` is stored as none and, written back ' +
          'unchanged, costs no store call.',
      ],
      ok,
    };
  } finally {
    telegram.record = true;
    await full.close();
  }
}
