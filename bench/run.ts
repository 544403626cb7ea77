/**
 * `npm run bench`: runs every benchmark in this process, prints the tables and writes them to
 * `bench/results.md` with the machine's Node version and the date. `npm run bench -- --quick`
 * runs smaller sizes as a smoke test and leaves results.md alone (its figures are not comparable).
 *
 * Traffic goes only to 127.0.0.1 (the in-process sandbox, and the bot's own webhook endpoint);
 * the Bot API is an instant fake.
 */
import { writeFile } from 'node:fs/promises';
import { cpus, platform, release } from 'node:os';
import { fileURLToPath } from 'node:url';
import { benchCpuPerUpdate, CPU_DEFAULTS } from './cpu-per-update.js';
import { benchPartnerWaits, PROVIDER_DELAY_MS } from './partner-waits.js';
import { benchProviderCalls } from './provider-calls.js';
import { benchStorageScaling, STORAGE_DEFAULTS } from './storage-scaling.js';
import { type BenchResult, fixed, installFakeTelegram } from './support.js';
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

async function main(): Promise<void> {
  const quick = process.argv.includes('--quick');
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
    ];
    for (const [name, step] of steps) {
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
    'Written by `npm run bench` (`bench/run.ts`); see README.md § Benchmarks for what each measures.',
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
  } else {
    await writeFile(RESULTS_FILE, document);
    console.log(`Wrote ${RESULTS_FILE}`);
  }
  // A missed target is a finding, not a crash: the exit code says so for scripts.
  if (failed.length > 0) process.exitCode = 1;
}

await main();
