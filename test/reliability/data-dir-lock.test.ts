/*
 * The DATA_DIR lock between real processes: two started at the same instant, a holder killed with
 * -9, and a holder that ends without releasing. Each competitor is `test/helpers/lock-holder.mjs`
 * over the built module (the globalSetup builds dist/ once per run).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_FILE_NAME } from '../../src/storage/data-dir-lock.js';

const HOLDER = join(process.cwd(), 'test', 'helpers', 'lock-holder.mjs');
const ROUNDS = 40;

/** A lock-holder process with its stdout read line by line. */
interface Holder {
  child: ChildProcess;
  /** Resolves with the next line that starts with one of the prefixes. */
  line(...prefixes: string[]): Promise<string>;
  exited: Promise<number | null>;
}

function startHolder(dir: string, method: string, atEnd: 'release' | 'keep' = 'release'): Holder {
  const child = spawn(process.execPath, [HOLDER, dir, method, atEnd], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: string[] = [];
  const waiters: (() => void)[] = [];
  let buffer = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const complete = buffer.split('\n');
    buffer = complete.pop() ?? '';
    lines.push(...complete);
    for (const wake of waiters.splice(0)) wake();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    exited,
    async line(...prefixes) {
      for (;;) {
        const index = lines.findIndex((l) => prefixes.some((p) => l.startsWith(p)));
        if (index >= 0) return lines.splice(index, 1)[0] ?? '';
        if (child.exitCode !== null) throw new Error(`holder exited (${child.exitCode}) before ${prefixes}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          child.once('exit', () => resolve());
        });
      }
    },
  };
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'partner-bot-lock-race-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe.each(['default', 'lock-file'])('DATA_DIR lock between processes (%s)', (method) => {
  it(`lets exactly one of two processes started at the same instant win, ${ROUNDS} rounds in a row`, async () => {
    const outcomes: string[] = [];
    let lastPid: number | undefined;
    for (let round = 0; round < ROUNDS; round++) {
      const pair = [startHolder(dir, method), startHolder(dir, method)] as const;
      await Promise.all(pair.map((h) => h.line('ready')));
      // Every other round both also meet the lock of a holder killed with -9 (its process is gone).
      if (round % 2 === 1 && lastPid !== undefined) {
        await writeFile(join(dir, LOCK_FILE_NAME), `${lastPid}\nstarted 1\n`);
      }
      // Both are parked on stdin: one write each releases them within microseconds.
      for (const h of pair) h.child.stdin?.write('go\n');
      const results = await Promise.all(pair.map((h) => h.line('locked', 'refused')));
      for (const h of pair) h.child.stdin?.end();
      await Promise.all(pair.map((h) => h.exited));
      outcomes.push(results.join(' / '));
      lastPid = pair[0].child.pid;

      const winners = pair.filter((_, i) => results[i] === 'locked');
      const loser = results.find((r) => r.startsWith('refused'));
      expect(winners.length, `round ${round}: ${results.join(' / ')}`).toBe(1);
      // The loser names the winner, so an operator sees which process to stop.
      expect(loser).toBe(`refused ${winners[0]?.child.pid}`);
    }
    expect(outcomes).toHaveLength(ROUNDS);
  }, 60_000);

  it('is taken at once after its holder is killed with -9', async () => {
    const holder = startHolder(dir, method);
    await holder.line('ready');
    holder.child.stdin?.write('go\n');
    expect(await holder.line('locked', 'refused')).toBe('locked');
    holder.child.kill('SIGKILL');
    await holder.exited;

    const started = Date.now();
    const next = startHolder(dir, method);
    await next.line('ready');
    next.child.stdin?.write('go\n');
    expect(await next.line('locked', 'refused')).toBe('locked');
    expect(Date.now() - started).toBeLessThan(2_000);
    next.child.stdin?.end();
    expect(await next.exited).toBe(0);
  });

  it('keeps nothing of the event loop alive, held or released', async () => {
    for (const atEnd of ['keep', 'release'] as const) {
      const holder = startHolder(dir, method, atEnd);
      await holder.line('ready');
      holder.child.stdin?.write('go\n');
      expect(await holder.line('locked', 'refused')).toBe('locked');
      holder.child.stdin?.end();
      await holder.line('done');
      // The holder never calls process.exit: it ends only if the lock lets the loop empty.
      const exit = await Promise.race([
        holder.exited,
        new Promise((resolve) => setTimeout(() => resolve('still running'), 3_000)),
      ]);
      if (exit === 'still running') holder.child.kill('SIGKILL');
      expect(exit).toBe(0);
    }
  });
});
