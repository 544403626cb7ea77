import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLowdbStore } from '../../src/storage/lowdb-store.js';

describe('kill -9 during writes', () => {
  it('leaves every data file parseable, with every acknowledged write kept', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'partner-bot-kill-'));
    try {
      // node itself with tsx as a loader, so SIGKILL hits the process that writes, not a wrapper.
      const child = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/write-loop.ts', dir], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const acknowledged = new Map<number, number>();
      let lines = 0;
      let buffer = '';
      await new Promise<void>((resolve) => {
        child.stdout?.on('data', (chunk: Buffer) => {
          buffer += chunk.toString();
          const complete = buffer.split('\n');
          buffer = complete.pop() ?? '';
          for (const line of complete) {
            const [chat, n] = line.split(' ').map(Number);
            if (chat !== undefined && n !== undefined) acknowledged.set(chat, n);
            lines += 1;
          }
          // Kill in the middle of the stream, once writes are going fast.
          if (lines >= 2_000) resolve();
        });
      });
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));

      const files = (await readdir(dir, { recursive: true, withFileTypes: true })).filter(
        (f) => f.isFile() && f.name.endsWith('.json'),
      );
      expect(files.length).toBe(20);
      for (const file of files) JSON.parse(await readFile(join(file.parentPath, file.name), 'utf8'));

      const store = createLowdbStore({ dataDir: dir });
      for (const [chat, n] of acknowledged) {
        const doc = await store.read(chat);
        expect((doc?.session as { n: number } | undefined)?.n).toBeGreaterThanOrEqual(n);
      }
      await store.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
