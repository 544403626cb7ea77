/**
 * The first minute of a newcomer, on the real processes: a fresh clone (the tracked files, no
 * dist/), `npm run dev` with no .env — the playground, which builds the Mini App first — the page,
 * `/token`, `/dns mysite.by`, and «🧩 Открыть редактор» opening the zone editor. Then a restart
 * serves the app at the same address without building again, so a button sent before still opens.
 * `npm ci` is stood in for by the worktree's node_modules, linked: the machine has no network.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/bot-process.js';
import {
  appFrame,
  hasChromium,
  openConnected,
  type PlaygroundLaunch,
  partnerOn,
  type RunningPlayground,
  startPlayground,
} from '../helpers/playground.js';

/** The worktree's files as a clone has them: tracked and new ones, nothing ignored (no dist/, data/). */
function cloneWorkTree(): string {
  const clone = mkdtempSync(join(tmpdir(), 'partner-bot-clone-'));
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    encoding: 'utf8',
  })
    .split('\0')
    // Files only: a node_modules that is itself a link is listed too (`node_modules/` ignores folders).
    .filter((file) => file !== '' && existsSync(file) && lstatSync(file).isFile());
  for (const file of files) {
    mkdirSync(dirname(join(clone, file)), { recursive: true });
    copyFileSync(file, join(clone, file));
  }
  symlinkSync(join(process.cwd(), 'node_modules'), join(clone, 'node_modules'), 'dir');
  return clone;
}

/** A port free on 127.0.0.1 now, to give the app for both runs. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe.skipIf(!hasChromium)('the first minute on a fresh clone: npm run dev, the page, the editor', () => {
  let clone: string;
  let launch: PlaygroundLaunch;
  let env: Record<string, string>;
  let browser: Browser | undefined;
  let running: RunningPlayground | undefined;

  beforeAll(async () => {
    clone = cloneWorkTree();
    launch = { command: 'npm', args: ['run', 'dev'], cwd: clone, timeoutMs: 90_000 };
    env = { HOME: process.env.HOME ?? tmpdir(), PLAYGROUND_APP_PORT: String(await freePort()) };
  });

  afterAll(async () => {
    await browser?.close();
    await running?.stop();
    if (clone) rmSync(clone, { recursive: true, force: true });
  });

  it('builds the Mini App, and «🧩 Открыть редактор» under /dns mysite.by opens the zone table', async () => {
    expect(existsSync(join(clone, 'dist'))).toBe(false);
    const opened = await openConnected(env, launch);
    ({ browser } = opened);
    running = opened.playground;
    expect(running.output()).toContain(
      'npm run dev: the Mini App (dist/app) is not built; building it first (npm run build:app)',
    );
    expect(running.output()).not.toContain('The Mini App is not built');
    expect(existsSync(join(clone, 'dist', 'app', 'index.html'))).toBe(true);

    const partner = partnerOn(opened.page);
    await partner.send('/dns mysite.by');
    await partner.log.getByRole('button', { name: '🧩 Открыть редактор' }).last().waitFor();
    await partner.tap('🧩 Открыть редактор');
    const app = appFrame(opened.page);
    await app.getByRole('heading', { name: 'DNS-зона mysite.by' }).waitFor({ timeout: 15_000 });
    const table = app.getByRole('table');
    expect((await table.getByRole('columnheader').allTextContents()).slice(0, 4)).toEqual([
      'Тип',
      'Хост',
      'Значение',
      'TTL, с',
    ]);
    await table.getByRole('row').filter({ hasText: '93.125.99.10' }).first().waitFor();
  }, 180_000);

  it('after a restart the app is at the same address, and nothing is built again', async () => {
    const appUrl = `http://127.0.0.1:${env.PLAYGROUND_APP_PORT}/app/`;
    expect((await fetch(appUrl)).status).toBe(200);
    await browser?.close();
    browser = undefined;
    await running?.stop();
    running = await startPlayground(env, launch);
    expect(running.output()).not.toContain('building it first');
    expect(running.output()).not.toContain('is taken');
    // The page's address is printed before the bot (and so the app's server) has started.
    let page = '';
    await eventually(async () => {
      const again = await fetch(appUrl).catch(() => undefined);
      page = again?.status === 200 ? await again.text() : '';
      return page !== '';
    }, 30_000);
    expect(page).toContain('<script type="module"');
  }, 120_000);
});
