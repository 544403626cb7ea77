import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DataDirLockedError,
  LOCK_FILE_NAME,
  type LockMethod,
  lockDataDir,
} from '../../src/storage/data-dir-lock.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'partner-bot-lock-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The pid on the first line of DATA_DIR/.lock, as an operator reads it. */
async function lockFilePid(): Promise<number> {
  return Number((await readFile(join(dir, LOCK_FILE_NAME), 'utf8')).split('\n')[0]);
}

/** A pid that belonged to a process a moment ago and now belongs to none. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  if (child.pid === undefined) throw new Error('no pid');
  return child.pid;
}

/** Another process holding the lock on `dir`: test/helpers/lock-holder.mjs over the built module. */
async function holdInChild(method: LockMethod): Promise<ChildProcess> {
  const holder = join(process.cwd(), 'test', 'helpers', 'lock-holder.mjs');
  const child = spawn(process.execPath, [holder, dir, method], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  let started = false;
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('ready\n') && !started) {
        started = true;
        child.stdin?.write('go\n');
      }
      if (out.includes('locked\n')) resolve();
      if (out.includes('refused')) reject(new Error(out));
    });
    child.once('exit', () => reject(new Error(`holder exited: ${out}`)));
  });
  return child;
}

const methods: LockMethod[] = ['abstract-socket', 'lock-file'];

describe.each(methods)('DATA_DIR lock (%s)', (method) => {
  const lock = () => lockDataDir(dir, { method });

  it('refuses a second lock in the same process, and is free again after release', async () => {
    const release = await lock();
    const error = await lock().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataDirLockedError);
    expect((error as DataDirLockedError).pid).toBe(process.pid);
    await release();
    const again = await lock();
    await again();
  });

  it('writes the holder pid into DATA_DIR/.lock for operators, and removes it on release', async () => {
    const release = await lock();
    expect(await lockFilePid()).toBe(process.pid);
    await release();
    await expect(readFile(join(dir, LOCK_FILE_NAME), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('refuses while another process holds it, naming that pid and STORAGE=redis', async () => {
    const child = await holdInChild(method);
    try {
      const error = await lock().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DataDirLockedError);
      expect((error as DataDirLockedError).pid).toBe(child.pid);
      expect((error as Error).message).toContain(`pid ${child.pid}`);
      expect((error as Error).message).toContain('STORAGE=redis');
    } finally {
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    // Killed with -9, it released nothing itself: the lock is free anyway.
    const release = await lock();
    await release();
  });

  it.each([
    ['a dead pid', async () => `${await deadPid()}\n`],
    ['nothing (an empty file)', async () => ''],
    ['garbage', async () => 'not a pid\n'],
    ['an unrelated live process (the pid was reused)', async () => `${process.ppid}\n`],
    ['pid 1', async () => '1\n'],
  ])('is not kept from the lock by a .lock naming %s', async (_name, content) => {
    await writeFile(join(dir, LOCK_FILE_NAME), await content());
    const release = await lock();
    expect(await lockFilePid()).toBe(process.pid);
    await release();
  });

  it('is the same lock under another path to the same directory (a symlink)', async () => {
    await symlink(dir, join(dir, 'alias'));
    const release = await lock();
    const error = await lockDataDir(join(dir, 'alias'), { method }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataDirLockedError);
    await release();
  });
});

it.runIf(process.platform === 'linux')('uses the abstract socket on Linux by default', async () => {
  const release = await lockDataDir(dir);
  const error = await lockDataDir(dir, { method: 'abstract-socket' }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(DataDirLockedError);
  await release();
});
