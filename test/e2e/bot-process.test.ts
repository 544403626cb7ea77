import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BotApiServer,
  type RecordedCall,
  startBotApiServer,
} from '../../src/playground/bot-api/index.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { type BotProcess, eventually, MAIN_JS, startBotProcess } from '../helpers/bot-process.js';
import { isPostTo, seenText } from '../helpers/seen-text.js';

/*
 * The real bot process (src/main.ts under tsx) long-polling a local Bot API double, with the
 * sandbox as provider: a message in, the reply out, across a restart.
 */

const USER = 555_001;

let sandbox: Sandbox;
let telegram: BotApiServer;
let dataDir: string;

function startBot(extra: Record<string, string> = {}): BotProcess {
  return startBotProcess({
    BOT_TOKEN: telegram.token,
    TELEGRAM_API_ROOT: telegram.apiRoot,
    PARTNER_API_URL: sandbox.url,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'debug',
    PORT: '0',
    ...extra,
  });
}

/** Sends a text and waits for the bot's next message to that chat. */
async function say(text: string): Promise<RecordedCall> {
  const since = telegram.calls.length;
  telegram.sendText(text, { chatId: USER, userId: USER, languageCode: 'ru' });
  return telegram.waitForCall(isPostTo(USER), {
    since,
    timeoutMs: 15_000,
  });
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  telegram = await startBotApiServer({ port: 0 });
  dataDir = await mkdtemp(join(tmpdir(), 'partner-bot-e2e-'));
});

afterAll(async () => {
  await telegram.close();
  await sandbox.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('the bot process', () => {
  it('exits with one clear line per missing key, not a stack trace, when unconfigured', async () => {
    const child = spawn(process.execPath, [MAIN_JS], {
      cwd: process.cwd(),
      env: { PATH: process.env.PATH },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('BOT_TOKEN is required');
    expect(stderr).toContain('PARTNER_API_URL is required');
    expect(stderr).toContain('.env.example');
    expect(stderr).not.toMatch(/\n\s+at /);
  }, 30_000);

  it('answers /start, takes a token, gives an invoice link, and keeps the token across a restart', async () => {
    const [invoice] = await fetch(`${sandbox.url}/v1/billing/invoices?version=1.0`, {
      headers: { 'x-api-token': sandbox.token },
    })
      .then((r) => r.json() as Promise<{ invoices: { invoice_id: number }[] }>)
      .then((b) => b.invoices);
    if (!invoice) throw new Error('seed has no invoice');
    const url = await fetch(`${sandbox.url}/v1/billing/invoices/${invoice.invoice_id}/url?version=1.0`, {
      headers: { 'x-api-token': sandbox.token },
    })
      .then((r) => r.json() as Promise<{ url: string }>)
      .then((b) => b.url);

    let bot = startBot();
    expect(String((await say('/start')).params.text)).toContain('Здравствуйте');
    expect(telegram.myCommands({ languageCode: 'ru' }).length).toBeGreaterThan(10);
    expect(telegram.myCommands({ languageCode: 'en' }).length).toBeGreaterThan(10);

    expect(String((await say('/token')).params.text)).toContain('Отправьте токен');
    const saved = await say(sandbox.token);
    expect(String(saved.params.text)).toContain('Токен проверен и сохранён');
    expect(telegram.calls.some((c) => c.method === 'deleteMessage' && c.params.chat_id === USER)).toBe(true);

    const link = await say(`/invoice ${invoice.invoice_id}`);
    expect(String(link.params.text)).toContain(url);

    // A second process on the same DATA_DIR is refused while the first runs.
    const second = startBot();
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain('STORAGE=redis');

    const first = await bot.stop();
    expect(first.code).toBe(0);
    expect(first.ms).toBeLessThan(10_000);
    const firstOutput = bot.output();

    bot = startBot();
    const again = await say(`/invoice ${invoice.invoice_id}`);
    expect(String(again.params.text)).toContain(url);
    const stopped = await bot.stop();
    expect(stopped.code).toBe(0);

    // Neither token ever reached the process output or the data files.
    const logs = firstOutput + second.output() + bot.output();
    expect(logs).toContain('bot started');
    expect(logs).not.toContain(sandbox.token);
    expect(logs).not.toContain(telegram.token);
    const files = await readdir(dataDir, { recursive: true, withFileTypes: true });
    for (const file of files.filter((f) => f.isFile())) {
      expect(await readFile(join(file.parentPath, file.name), 'utf8')).not.toContain(sandbox.token);
    }
  }, 60_000);
});

describe('start-up conflicts', () => {
  it('reports a 409 (another poller) clearly and exits instead of flapping', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'partner-bot-409-'));
    try {
      telegram.failNext(
        'getUpdates',
        { error_code: 409, description: 'Conflict: terminated by other getUpdates request' },
        1,
      );
      const bot = startBotProcess({
        BOT_TOKEN: telegram.token,
        TELEGRAM_API_ROOT: telegram.apiRoot,
        PARTNER_API_URL: sandbox.url,
        DATA_DIR: dir,
        PORT: '0',
      });
      expect(await bot.exited).toBe(1);
      expect(bot.output()).toContain('409 Conflict: another process is polling');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

describe('graceful stop', () => {
  it('SIGTERM during a slow handler: the handler finishes, its reply is sent, exit within 10 s', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'partner-bot-stop-'));
    try {
      const bot = startBotProcess({
        BOT_TOKEN: telegram.token,
        TELEGRAM_API_ROOT: telegram.apiRoot,
        PARTNER_API_URL: sandbox.url,
        DATA_DIR: dir,
        PORT: '0',
      });
      await say('/token');
      await say(sandbox.token);
      sandbox.addFault({ path: '/v1/billing/invoices', fault: { kind: 'delay', ms: 2_000 } });
      const since = telegram.calls.length;
      const before = sandbox.requests.length;
      telegram.sendText('/invoices', { chatId: USER, userId: USER, languageCode: 'ru' });
      await eventually(() => sandbox.requests.slice(before).some((r) => r.path === '/v1/billing/invoices'));
      const { code, ms } = await bot.stop();
      expect(code).toBe(0);
      expect(ms).toBeLessThan(10_000);
      const replies = telegram.calls.slice(since).filter(isPostTo(USER));
      expect(replies.map(seenText).join('\n')).toContain('Счета');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 40_000);
});
