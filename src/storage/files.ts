/**
 * The few file-system steps the lowdb stores (chats, watches, DNS history) share: a missing file
 * is no error when reading or removing one, and a store's folders are made on its first write
 * only, once per process. The key file and the data dir lock test error codes with it too.
 */
import { mkdir, readdir, readFile, unlink } from 'node:fs/promises';

/** Whether `error` is a Node system error with this code (`ENOENT`, `EEXIST`, …). */
export function isErrnoCode(error: unknown, code: string): boolean {
  return error instanceof Error && 'code' in error && error.code === code;
}

/** The file's text, or undefined when there is no such file. */
export async function readFileIfPresent(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if (isErrnoCode(error, 'ENOENT')) return undefined;
    throw error;
  }
}

/** Removes the file; one that is already gone is fine. */
export async function unlinkIfPresent(file: string): Promise<void> {
  try {
    await unlink(file);
  } catch (error) {
    if (!isErrnoCode(error, 'ENOENT')) throw error;
  }
}

/**
 * A `mkdir -p` that asks the file system once per folder: a store calls it before every write,
 * and after the first the folder is known to be there (nothing in this process removes it).
 */
export function createDirectoryMaker(): (dir: string) => Promise<void> {
  const made = new Set<string>();
  return async (dir) => {
    if (made.has(dir)) return;
    await mkdir(dir, { recursive: true });
    made.add(dir);
  };
}

/** The names in a folder; none when the folder does not exist. */
export async function readdirIfPresent(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
