import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, LOCK_FILE_NAME, lockDataDir } from '../../src/storage/data-dir-lock.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'partner-bot-lock-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('DATA_DIR lock', () => {
  it('refuses a second holder while the first lives, naming STORAGE=redis, and frees on release', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      await writeFile(join(dir, LOCK_FILE_NAME), `${child.pid}\n`);
      const error = await lockDataDir(dir).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DataDirLockedError);
      expect(String((error as Error).message)).toContain('STORAGE=redis');
    } finally {
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    // Its holder was killed with -9: the stale lock is taken over.
    const release = await lockDataDir(dir);
    expect((await readFile(join(dir, LOCK_FILE_NAME), 'utf8')).trim()).toBe(String(process.pid));
    await release();
    const again = await lockDataDir(dir);
    await again();
  });
});
