/**
 * A local Bot API server (`telegram-bot-api --local`) hands out files as absolute paths on its
 * disk, which telegraf turns into a `file:` link the bot cannot fetch. On the real process, against
 * the local Bot API server in local mode: a zone file uploaded for import is read from the path —
 * as it is, and through TELEGRAM_LOCAL_FILES_DIR when the server's folder is mounted elsewhere.
 */
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedCall } from '../../src/playground/bot-api/index.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { withBotOnLocalApi } from '../helpers/bot-process.js';
import { isPostTo, seenText } from '../helpers/seen-text.js';

const USER = 558_001;
let sandbox: Sandbox;
let work: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  work = await mkdtemp(join(tmpdir(), 'partner-bot-local-api-'));
});

afterAll(async () => {
  await sandbox.close();
  await rm(work, { recursive: true, force: true });
});

async function importZone(serverDir: string, env: Record<string, string>): Promise<string> {
  let text = '';
  await withBotOnLocalApi(
    { providerUrl: sandbox.url, dataDir: join(work, `data-${Date.now()}`), env, local: { dir: serverDir } },
    async (telegram) => {
      const say = async (message: string): Promise<RecordedCall> => {
        const since = telegram.calls.length;
        telegram.sendText(message, { chatId: USER, userId: USER });
        return telegram.waitForCall(isPostTo(USER), { since });
      };
      await say(`/token ${sandbox.token}`);
      const list = await say('/dns mysite.by');
      const rows = (
        list.params.reply_markup as { inline_keyboard: { text: string; callback_data?: string }[][] }
      ).inline_keyboard;
      const importButton = rows.flat().find((b) => b.text.includes('Импорт'));
      let since = telegram.calls.length;
      telegram.pressButton(importButton?.callback_data ?? '', { chatId: USER, userId: USER });
      await telegram.waitForCall(isPostTo(USER), { since });
      since = telegram.calls.length;
      telegram.sendDocument('$ORIGIN mysite.by.\nlocal-api 3600 IN A 192.0.2.61\n', 'mysite.by.zone', {
        chatId: USER,
        userId: USER,
      });
      const preview = await telegram.waitForCall(
        (c) => isPostTo(USER)(c) && seenText(c).includes('192.0.2.61'),
        { since, timeoutMs: env.TELEGRAM_LOCAL_FILES_DIR?.includes('empty') ? 4_000 : 10_000 },
      );
      text = seenText(preview);
    },
  );
  return text;
}

describe('a local Bot API server (--local)', () => {
  it('getFile answers an absolute path and the bot reads the uploaded zone file from it', async () => {
    const text = await importZone(join(work, 'server-a'), {});
    expect(text).toContain('local-api');
  }, 60_000);

  it('reads through TELEGRAM_LOCAL_FILES_DIR when the server’s folder is mounted elsewhere', async () => {
    const serverDir = join(work, 'server-b');
    await mkdir(serverDir, { recursive: true });
    // The bot sees the server's folder under another name, as a volume mounted elsewhere.
    const mounted = join(work, 'mounted-b');
    await symlink(serverDir, mounted);
    const text = await importZone(join(work, 'server-b'), { TELEGRAM_LOCAL_FILES_DIR: mounted });
    expect(text).toContain('local-api');
    // And it is the mapped folder the bot reads: pointed at an empty one, there is no file to read.
    const empty = join(work, 'empty-c');
    await mkdir(empty, { recursive: true });
    await expect(importZone(join(work, 'server-c'), { TELEGRAM_LOCAL_FILES_DIR: empty })).rejects.toThrow(
      /Timed out/,
    );
  }, 60_000);
});
