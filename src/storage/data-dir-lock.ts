import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const LOCK_FILE_NAME = '.lock';

/** Thrown when another live process already uses the DATA_DIR (lowdb serves one process only). */
export class DataDirLockedError extends Error {
  readonly pid: number;

  constructor(dataDir: string, pid: number) {
    super(
      `DATA_DIR ${dataDir} is in use by another running process (pid ${pid}). ` +
        'lowdb storage serves one process; for several instances set STORAGE=redis and REDIS_URL.',
    );
    this.name = 'DataDirLockedError';
    this.pid = pid;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else — still alive.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the DATA_DIR for this process: a lock file with our pid, created exclusively. A lock left
 * by a process that is gone (killed with -9) is taken over. Returns the release function.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const file = join(dataDir, LOCK_FILE_NAME);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await writeFile(file, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      return async () => {
        const holder = Number((await readFile(file, 'utf8').catch(() => '')).trim());
        if (holder === process.pid) await rm(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number((await readFile(file, 'utf8').catch(() => '')).trim());
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) {
      throw new DataDirLockedError(dataDir, holder);
    }
    // Stale (its process is gone) or unreadable: remove it and try again.
    await rm(file, { force: true });
  }
  throw new Error(`could not take the lock file in ${dataDir}`);
}
