/**
 * One process per DATA_DIR: lowdb rewrites whole files and keeps a copy in memory, so a second
 * process on the same directory would overwrite the first one's writes.
 *
 * On Linux the mutex is a listening Unix socket in the abstract namespace, named after the
 * directory's real path. Binding it is atomic (EADDRINUSE if any live process holds it) and the
 * kernel frees it when its process dies, kill -9 included: no lock file to go stale, no pid to be
 * reused. (Abstract names are per network namespace: containers that share a volume do not see
 * each other's lock — run those with STORAGE=redis.)
 *
 * Elsewhere the mutex is `DATA_DIR/.lock` itself, created with link(), which fails if the name
 * exists and publishes the file with its content already written, so no process ever sees an
 * empty lock. A lock whose pid is dead, or (where /proc tells) belongs to a process started after
 * the lock was written, is stale and broken under a second, short-lived lock of the same kind.
 *
 * Either way `DATA_DIR/.lock` names the holder pid for operators.
 */
import { createHash, randomBytes } from 'node:crypto';
import { link, mkdir, open, readFile, realpath, rename, rm } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import { isErrnoCode } from './files.js';

export const LOCK_FILE_NAME = '.lock';

/** How the lock is held: the kernel's socket namespace (Linux) or an exclusive lock file. */
export type LockMethod = 'abstract-socket' | 'lock-file';

export interface LockOptions {
  /** Default: `abstract-socket` on Linux, `lock-file` elsewhere; tests run both. */
  method?: LockMethod;
}

/** Thrown when another live process already uses the DATA_DIR (lowdb serves one process only). */
export class DataDirLockedError extends Error {
  /** The holder's pid, when it could be learned. */
  readonly pid: number | undefined;

  constructor(dataDir: string, pid: number | undefined) {
    super(
      `DATA_DIR ${dataDir} is in use by another running process${pid === undefined ? '' : ` (pid ${pid})`}. ` +
        'lowdb storage serves one process; for several instances set STORAGE=redis and REDIS_URL.',
    );
    this.name = 'DataDirLockedError';
    this.pid = pid;
  }
}

/** How long a refused process waits for the holder to say its pid before reading `.lock`. */
const ASK_HOLDER_MS = 1_000;

/**
 * Takes the DATA_DIR for this process, or throws `DataDirLockedError`. Returns the release
 * function. The lock never keeps the process alive and dies with it however it ends.
 */
export async function lockDataDir(dataDir: string, options: LockOptions = {}): Promise<() => Promise<void>> {
  const method = options.method ?? (process.platform === 'linux' ? 'abstract-socket' : 'lock-file');
  await mkdir(dataDir, { recursive: true });
  // Two spellings of one directory (a symlink, a relative path) must be one lock.
  const dir = await realpath(dataDir);
  return method === 'abstract-socket' ? lockWithSocket(dir, dataDir) : lockWithFile(dir, dataDir);
}

function once(release: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => {
    done ??= release();
    return done;
  };
}

function parsePid(text: string | undefined): number | undefined {
  const pid = Number((text ?? '').split('\n')[0]?.trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** Writes `content` to a fresh temp file beside `file`, on disk before anyone can see it. */
async function writeTemp(file: string, content: string): Promise<string> {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const handle = await open(temp, 'wx', 0o600);
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return temp;
}

/** Removes `file` if it still names this process (a later holder may have replaced it). */
async function removeIfOurs(file: string): Promise<void> {
  if (parsePid(await readFile(file, 'utf8').catch(() => undefined)) === process.pid)
    await rm(file, { force: true });
}

async function lockWithSocket(dir: string, dataDir: string): Promise<() => Promise<void>> {
  const name = `\0partner-bot-lock-${createHash('sha256').update(dir).digest('hex')}`;
  const file = join(dir, LOCK_FILE_NAME);
  // A process that lost the bind connects and is told who holds the lock.
  const server = createServer((socket) => {
    socket.on('error', () => undefined);
    socket.unref();
    socket.end(`${process.pid}\n`);
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      // exclusive: a cluster worker must bind for itself, not share the primary's handle.
      server.listen({ path: name, exclusive: true }, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    if (!isErrnoCode(error, 'EADDRINUSE')) throw error;
    const pid = (await askHolder(name)) ?? parsePid(await readFile(file, 'utf8').catch(() => undefined));
    throw new DataDirLockedError(dataDir, pid);
  }
  server.unref();
  const release = once(async () => {
    // The file first: once the socket is closed, the next holder may already have written its own.
    await removeIfOurs(file);
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  try {
    const temp = await writeTemp(file, `${process.pid}\n`);
    await rename(temp, file);
  } catch (error) {
    await release();
    throw error;
  }
  return release;
}

/** The pid the holder of an abstract lock socket reports, or undefined if it does not answer. */
function askHolder(name: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    let answer = '';
    const socket = connect({ path: name });
    const timer = setTimeout(() => socket.destroy(), ASK_HOLDER_MS);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(parsePid(answer));
    });
  });
}

/** Lock files this process holds: its own pid in one of them is no stale lock. */
const heldFiles = new Set<string>();

/** Process start time in clock ticks since boot (/proc), which tells a reused pid apart. */
async function startTicks(pid: number | 'self'): Promise<string | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  // Field 22; the command name (field 2) may hold spaces and parentheses, so count after the last ')'.
  return stat?.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else — still alive.
    return isErrnoCode(error, 'EPERM');
  }
}

/** The content of a lock file this process writes: its pid, and its start time where known. */
async function lockContent(): Promise<string> {
  const started = await startTicks('self');
  return started === undefined ? `${process.pid}\n` : `${process.pid}\nstarted ${started}\n`;
}

/** Whether a lock file's content names a live holder of `file`. */
async function isHeld(file: string, content: string): Promise<boolean> {
  const pid = parsePid(content);
  if (pid === undefined) return false;
  if (pid === process.pid) return heldFiles.has(file);
  if (!isAlive(pid)) return false;
  const ours = await startTicks('self');
  // No /proc: a live pid is all there is to go by.
  if (ours === undefined) return true;
  // A holder writes its start time; a lock without one, or with another, names a reused pid.
  const recorded = /^started (\d+)$/m.exec(content)?.[1];
  return recorded !== undefined && recorded === (await startTicks(pid));
}

/** Creates `file` holding this process's lock content, if no such file exists. */
async function linkLockFile(file: string): Promise<boolean> {
  const temp = await writeTemp(file, await lockContent());
  try {
    await link(temp, file);
    return true;
  } catch (error) {
    if (isErrnoCode(error, 'EEXIST')) return false;
    throw error;
  } finally {
    await rm(temp, { force: true });
  }
}

/**
 * Removes `file` if it still holds `stale`. Two processes may judge the same lock stale at once;
 * without the breaker, the slower one could remove the lock the faster one has just created.
 */
async function breakStaleLock(file: string, stale: string): Promise<void> {
  const breaker = `${file}.break`;
  if (!(await linkLockFile(breaker))) {
    // Someone is breaking it right now, or died doing so (then its breaker is stale in turn).
    const content = await readFile(breaker, 'utf8').catch(() => undefined);
    if (content !== undefined && !(await isHeld(breaker, content))) await rm(breaker, { force: true });
    await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
    return;
  }
  heldFiles.add(breaker);
  try {
    if ((await readFile(file, 'utf8').catch(() => undefined)) === stale) await rm(file, { force: true });
  } finally {
    heldFiles.delete(breaker);
    await rm(breaker, { force: true });
  }
}

async function lockWithFile(dir: string, dataDir: string): Promise<() => Promise<void>> {
  const file = join(dir, LOCK_FILE_NAME);
  for (let attempt = 0; attempt < 20; attempt++) {
    if (await linkLockFile(file)) {
      heldFiles.add(file);
      return once(async () => {
        await removeIfOurs(file);
        heldFiles.delete(file);
      });
    }
    const content = await readFile(file, 'utf8').catch(() => undefined);
    // Gone between link() and the read: its holder just released it.
    if (content === undefined) continue;
    if (await isHeld(file, content)) throw new DataDirLockedError(dataDir, parsePid(content));
    await breakStaleLock(file, content);
  }
  throw new Error(`could not take the lock file ${file}`);
}
