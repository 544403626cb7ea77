import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BotApiServer, DEFAULT_TOKEN, startBotApiServer } from '../../src/playground/bot-api/index.js';
import { type CapturedProcess, eventually, MAIN_JS, spawnCaptured } from '../helpers/bot-process.js';

/**
 * `npm run dev` is `tsx src/dev.ts`; it runs here from a temp folder (so no developer's .env is
 * read), against the local Bot API double: nothing leaves 127.0.0.1.
 */
const TSX_CLI = join(process.cwd(), 'node_modules', 'tsx', 'dist', 'cli.mjs');
const DEV_TS = join(process.cwd(), 'src', 'dev.ts');
const WRONG_TOKEN = '7000000002:AAF-not-the-token-the-double-accepts';
const REFUSED = 'Telegram refused BOT_TOKEN (401 Unauthorized): check the token from @BotFather.';

let telegram: BotApiServer;
let workDir: string;

beforeAll(async () => {
  telegram = await startBotApiServer({ port: 0 });
  workDir = await mkdtemp(join(tmpdir(), 'partner-bot-dev-'));
});

afterAll(async () => {
  await telegram.close();
  await rm(workDir, { recursive: true, force: true });
});

type Run = CapturedProcess;

function run(args: string[], env: Record<string, string>): Run {
  return spawnCaptured(
    args,
    {
      TELEGRAM_API_ROOT: telegram.apiRoot,
      DATA_DIR: join(workDir, 'data'),
      SANDBOX_PORT: '0',
      SANDBOX_DNS_PORT: '0',
      PORT: '0',
      PLAYGROUND_APP_PORT: '0',
      ...env,
    },
    workDir,
  );
}

const pastedToken = (stdout: string): string | undefined => /paste: (\S+)/.exec(stdout)?.[1];

describe('npm run dev', () => {
  it('without BOT_TOKEN starts the playground: one address to open, the page in UTF-8, exit 0 on SIGTERM', async () => {
    const dev = run([TSX_CLI, DEV_TS], { PLAYGROUND_PORT: '0', DATA_DIR: join(workDir, 'playground-data') });
    await eventually(() => /open http:\/\/127\.0\.0\.1:\d+\/ in a browser/.test(dev.stdout()), 20_000);
    const url = /open (http:\/\/127\.0\.0\.1:\d+\/) in a browser/.exec(dev.stdout())?.[1] ?? '';
    const page = await fetch(url);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('role="log"');
    // The bot itself runs against the local Bot API server and has registered its menu.
    await eventually(async () => {
      const state = (await (await fetch(`${url}api/state`)).json()) as { commands: { ru: unknown[] } };
      return state.commands.ru.length > 0;
    });
    // Another site in the same browser cannot drive it: a foreign Host, or a form post, is refused.
    const foreign = await new Promise<number | undefined>((resolve) => {
      const req = request(`${url}api/state`, { headers: { host: 'evil.example:3000' } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.end();
    });
    expect(foreign).toBe(421);
    const form = await fetch(`${url}api/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'text=/start',
    });
    expect(form.status).toBe(415);
    expect(dev.stderr()).toBe('');
    dev.child.kill('SIGTERM');
    expect(await dev.exited).toBe(0);
  }, 40_000);

  it('prints the same one line as npm start when Telegram refuses BOT_TOKEN, no stack', async () => {
    const dev = run([TSX_CLI, DEV_TS], { BOT_TOKEN: WRONG_TOKEN });
    // A DATA_DIR of its own: started at the same moment on one folder, the second to lock it would
    // say the folder is in use instead of what Telegram said.
    const start = run([MAIN_JS], {
      BOT_TOKEN: WRONG_TOKEN,
      PARTNER_API_URL: 'http://127.0.0.1:9',
      DATA_DIR: join(workDir, 'start-data'),
    });
    expect(await dev.exited).toBe(1);
    expect(await start.exited).toBe(1);
    expect(dev.stderr().trim()).toBe(REFUSED);
    expect(start.stderr().trim()).toBe(REFUSED);
    expect(dev.stderr()).not.toContain(WRONG_TOKEN);
  }, 30_000);

  it('refuses the placeholder BOT_TOKEN of .env.example before dialing Telegram', async () => {
    const dev = run([TSX_CLI, DEV_TS], { BOT_TOKEN: '123456789:replace-with-your-bot-token-from-botfather' });
    expect(await dev.exited).toBe(1);
    expect(dev.stderr()).toContain('BOT_TOKEN is the example placeholder; set the token from @BotFather');
    // PARTNER_API_URL is the sandbox's under dev: only the token is asked for.
    expect(dev.stderr()).not.toContain('PARTNER_API_URL');
  }, 30_000);

  it('keeps the sandbox token and data across a restart, under DATA_DIR', async () => {
    const tokens: string[] = [];
    for (const round of [1, 2]) {
      const since = telegram.calls.length;
      const dev = run([TSX_CLI, DEV_TS], {
        BOT_TOKEN: DEFAULT_TOKEN,
        LOG_LEVEL: 'silent',
        DATA_DIR: join(workDir, 'kept'),
      });
      await telegram.waitForCall((c) => c.method === 'getUpdates' && c.params.timeout === 50, {
        since,
        timeoutMs: 20_000,
      });
      await eventually(() => pastedToken(dev.stdout()) !== undefined);
      tokens.push(pastedToken(dev.stdout()) ?? '');
      expect(dev.stdout()).toContain(round === 1 ? '(new; kept in' : '(kept in');
      expect(dev.stdout()).toContain(round === 1 ? 'Sandbox data: the seed' : 'Sandbox data restored from');
      dev.child.kill('SIGTERM');
      expect(await dev.exited).toBe(0);
    }
    expect(tokens[0]).toMatch(/^[\w-]{20,}$/);
    expect(tokens[1]).toBe(tokens[0]);
  }, 60_000);
});
