import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Telegram } from 'telegraf';

/** A file a user sends (a zone file, a CSR, a customer card) is text, and small. */
const MAX_FILE_BYTES = 5 * 1024 * 1024;
const DOWNLOAD_DEADLINE_MS = 15_000;

export class FileReadError extends Error {
  override name = 'FileReadError';
}

/**
 * Reads a file a user sent, as text, in both ways a Bot API server hands it out: Telegram's (and
 * a normal local server's) relative `file_path`, downloaded from the file URL; or, from a server
 * started with `--local`, an absolute path on its disk — read from there, or from
 * `localFilesDir` when the server's `--dir` is mounted elsewhere for the bot (the path below the
 * bot token's folder is kept).
 */
export function createFileReader(options: { localFilesDir?: string | undefined } = {}) {
  return async (
    telegram: Pick<Telegram, 'getFile' | 'getFileLink' | 'token'>,
    fileId: string,
  ): Promise<string> => {
    const file = await telegram.getFile(fileId);
    if (file.file_size !== undefined && file.file_size > MAX_FILE_BYTES) {
      throw new FileReadError(`the file is over ${MAX_FILE_BYTES} bytes`);
    }
    const filePath = file.file_path ?? '';
    if (path.isAbsolute(filePath))
      return readFile(localPath(filePath, telegram.token, options.localFilesDir), 'utf8');
    const link = await telegram.getFileLink(file);
    const response = await fetch(link, { signal: AbortSignal.timeout(DOWNLOAD_DEADLINE_MS) });
    if (!response.ok) throw new FileReadError(`file download failed with HTTP ${response.status}`);
    return response.text();
  };
}

/** Where the bot sees a local server's file: as it is, or moved under `localFilesDir`. */
function localPath(serverPath: string, token: string, localFilesDir: string | undefined): string {
  if (localFilesDir === undefined) return serverPath;
  const marker = `${path.sep}${token}${path.sep}`;
  const at = serverPath.indexOf(marker);
  if (at < 0) throw new FileReadError('the local Bot API server keeps the file outside its bot folder');
  const root = path.resolve(localFilesDir);
  const resolved = path.resolve(root, serverPath.slice(at + 1));
  if (!resolved.startsWith(`${root}${path.sep}`))
    throw new FileReadError('the file path leaves TELEGRAM_LOCAL_FILES_DIR');
  return resolved;
}
