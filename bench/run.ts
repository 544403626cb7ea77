/**
 * `npm run bench`: runs every benchmark in this process, prints the tables and writes them to
 * `bench/results.md` with the machine's Node version and the date. `npm run bench -- --quick`
 * runs smaller sizes as a smoke test and leaves results.md alone (its figures are not comparable).
 * `--only <name>` (e.g. `--only watchers`) runs the benchmarks whose name contains it and replaces
 * only their sections of results.md, keeping the others as the last full run wrote them.
 *
 * Traffic goes only to 127.0.0.1 (the in-process sandbox, and the bot's own webhook endpoint);
 * the Bot API is an instant fake.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { cpus, platform, release } from 'node:os';
import { fileURLToPath } from 'node:url';
import { benchCpuPerUpdate, CPU_DEFAULTS } from './cpu-per-update.js';
import { benchPartnerWaits, PROVIDER_DELAY_MS } from './partner-waits.js';
import { benchProviderCalls } from './provider-calls.js';
import { benchStorageScaling, STORAGE_DEFAULTS } from './storage-scaling.js';
import { type BenchResult, fixed, installFakeTelegram } from './support.js';
import { benchWatchers, WATCHERS_DEFAULTS, WATCHERS_QUICK } from './watchers.js';
import { benchWebhookThroughput, WEBHOOK_DEFAULTS } from './webhook-throughput.js';

const RESULTS_FILE = fileURLToPath(new URL('./results.md', import.meta.url));

/** A Markdown table whose columns are padded, so it reads as well in a terminal. */
function table(header: readonly string[], rows: readonly string[][]): string {
  const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    `| ${widths.map((width, i) => (cells[i] ?? '').padEnd(width)).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

function section(result: BenchResult): string {
  return [
    `## ${result.title}`,
    '',
    result.method,
    '',
    table(result.header, result.rows),
    ...(result.notes.length > 0 ? ['', ...result.notes.map((note) => `- ${note}`)] : []),
  ].join('\n');
}

const TRAILER = /^(Every target met\.|Targets missed: (.*)\.)$/m;

/**
 * results.md with the sections of `results` replaced (or added before the closing line), the
 * others kept; the closing line's list of missed targets is brought up to date.
 */
function replaceSections(document: string, results: readonly BenchResult[], machine: string): string {
  let text = document;
  for (const result of results) {
    const fresh = `${section(result)}\n\nMeasured on its own (\`--only\`): ${machine}\n\n`;
    const start = text.indexOf(`## ${result.title}\n`);
    if (start >= 0) {
      const next = text.indexOf('\n## ', start + 1);
      const trailer = TRAILER.exec(text.slice(start));
      const ends = [next >= 0 ? next + 1 : -1, trailer ? start + trailer.index : -1].filter((i) => i > start);
      const end = ends.length > 0 ? Math.min(...ends) : text.length;
      text = text.slice(0, start) + fresh + text.slice(end);
    } else {
      const trailer = TRAILER.exec(text);
      const at = trailer ? trailer.index : text.length;
      text = text.slice(0, at) + fresh + text.slice(at);
    }
  }
  const trailer = TRAILER.exec(text);
  const missed = new Set((trailer?.[2] ?? '').split('; ').filter((title) => title !== ''));
  for (const result of results) {
    if (result.ok) missed.delete(result.title);
    else missed.add(result.title);
  }
  const closing = missed.size === 0 ? 'Every target met.' : `Targets missed: ${[...missed].join('; ')}.`;
  return trailer ? text.replace(TRAILER, closing) : `${text}${closing}\n`;
}

async function main(): Promise<void> {
  const quick = process.argv.includes('--quick');
  const onlyAt = process.argv.indexOf('--only');
  const only = onlyAt >= 0 ? process.argv[onlyAt + 1] : undefined;
  if (onlyAt >= 0 && !only) throw new Error('--only needs a benchmark name, e.g. --only watchers');
  const started = Date.now();
  const telegram = installFakeTelegram();
  const results: BenchResult[] = [];
  try {
    const steps: [string, () => Promise<BenchResult>][] = [
      [
        'CPU per update',
        () =>
          benchCpuPerUpdate(
            telegram,
            quick ? { updates: 200, chats: 10, rounds: 2, warmupUpdates: 100 } : CPU_DEFAULTS,
          ),
      ],
      [
        'storage scaling',
        () =>
          benchStorageScaling(
            quick ? { sizes: [10, 100, 1_000], operations: 50, rounds: 2 } : STORAGE_DEFAULTS,
          ),
      ],
      ['provider calls', () => benchProviderCalls(telegram)],
      ['partner waits', () => benchPartnerWaits(telegram, quick ? 10 : PROVIDER_DELAY_MS)],
      [
        'webhook throughput',
        () =>
          benchWebhookThroughput(
            telegram,
            quick
              ? { updates: 500, rounds: 1, warmupUpdates: 200, chats: 50, concurrency: 40 }
              : WEBHOOK_DEFAULTS,
          ),
      ],
      ['watchers', () => benchWatchers(quick ? WATCHERS_QUICK : WATCHERS_DEFAULTS)],
    ];
    const chosen = only === undefined ? steps : steps.filter(([name]) => name.includes(only));
    if (chosen.length === 0) throw new Error(`no benchmark named like ${only}`);
    for (const [name, step] of chosen) {
      const stepStart = Date.now();
      process.stderr.write(`bench: ${name}…`);
      const result = await step();
      process.stderr.write(` ${fixed((Date.now() - stepStart) / 1000, 1)} s\n`);
      results.push(result);
      console.log(`\n${section(result)}\n`);
    }
  } finally {
    telegram.restore();
  }

  const seconds = (Date.now() - started) / 1000;
  const cpu = cpus();
  const machine =
    `Node ${process.version}, ${platform()} ${release()}, ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}; ` +
    `run ${new Date().toISOString()}${quick ? ' (--quick: smoke sizes, not comparable)' : ''}; took ${fixed(seconds, 1)} s.`;
  const failed = results.filter((r) => !r.ok).map((r) => r.title);
  const document = [
    '# Benchmark results',
    '',
    'Written by `npm run bench` (`bench/run.ts`); see bench/README.md for what each measures.',
    '',
    machine,
    '',
    ...results.flatMap((result) => [section(result), '']),
    failed.length === 0 ? 'Every target met.' : `Targets missed: ${failed.join('; ')}.`,
    '',
  ].join('\n');
  console.log(machine);
  console.log(failed.length === 0 ? 'Every target met.' : `Targets missed: ${failed.join('; ')}.`);
  if (quick) {
    console.log(`--quick: ${RESULTS_FILE} left as it was`);
  } else if (only !== undefined) {
    await writeFile(RESULTS_FILE, replaceSections(await readFile(RESULTS_FILE, 'utf8'), results, machine));
    console.log(`Replaced ${results.map((r) => `"${r.title}"`).join(', ')} in ${RESULTS_FILE}`);
  } else {
    await writeFile(RESULTS_FILE, document);
    console.log(`Wrote ${RESULTS_FILE}`);
  }
  // A missed target is a finding, not a crash: the exit code says so for scripts.
  if (failed.length > 0) process.exitCode = 1;
}

await main();
