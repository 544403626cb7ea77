import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type FrameLocator, type Locator, type Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`); `.ci/run` installs it. Never a downloaded one. */
export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

/** The flags that keep a headless Chromium from dialling anything on a machine with no network. */
const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface RunningPlayground {
  url: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<number | null>;
}

/** Another way in than `node dist/playground/main.js`: a command (`npm run dev`) in a folder. */
export interface PlaygroundLaunch {
  command: string;
  args: string[];
  cwd: string;
  /** How long it may take to print the address (a build first takes longer), in ms. */
  timeoutMs: number;
}

/**
 * `node dist/playground/main.js` with no BOT_TOKEN, its own data dir and free ports, as `npm run
 * playground` starts it (or `launch`, in a process group of its own); resolves once it prints
 * the address to open.
 */
export async function startPlayground(
  env: Record<string, string> = {},
  launch?: PlaygroundLaunch,
): Promise<RunningPlayground> {
  const dataDir = mkdtempSync(join(tmpdir(), 'playground-'));
  const [command, args] = launch
    ? [launch.command, launch.args]
    : [process.execPath, [join(process.cwd(), 'dist', 'playground', 'main.js')]];
  const child = spawn(command, args, {
    cwd: launch?.cwd ?? process.cwd(),
    // Free ports: several playgrounds run at once in the tests.
    env: {
      PATH: process.env.PATH ?? '',
      DATA_DIR: dataDir,
      PLAYGROUND_PORT: '0',
      PLAYGROUND_APP_PORT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // npm runs the program as its child: a stop reaches both through the group.
    detached: launch !== undefined,
  });
  const chunks: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no address printed:\n${chunks.join('')}`)),
      launch?.timeoutMs ?? 20_000,
    );
    const onData = (chunk: Buffer) => {
      chunks.push(chunk.toString());
      const found = /open (http:\/\/127\.0\.0\.1:\d+\/) in a browser/.exec(chunks.join(''));
      if (found?.[1]) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => reject(new Error(`playground exited (${code}):\n${chunks.join('')}`)));
  });
  return {
    url,
    child,
    output: () => chunks.join(''),
    async stop() {
      if (launch && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
      else child.kill('SIGTERM');
      const code = await exited;
      rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 30_000 });
}

/** The page as a partner uses it: type and send, tap a button of the bot's last message. */
export function partnerOn(page: Page) {
  const log = page.getByRole('log');
  const input = page.getByRole('textbox', { name: 'Сообщение' });
  return {
    log,
    input,
    async send(text: string): Promise<void> {
      await input.fill(text);
      await input.press('Enter');
    },
    /** Waits until the log shows this text (in a message that arrives or is edited). */
    async sees(text: string | RegExp, timeout = 15_000): Promise<Locator> {
      const found = log.getByText(text).last();
      await found.waitFor({ timeout });
      return found;
    },
    /** Taps the inline button with this label on the newest message that has one. */
    async tap(label: string | RegExp): Promise<void> {
      await log.getByRole('button', { name: label }).last().click();
    },
  };
}

/** What the playground's `/api/state` tells a test (the fields the stories read). */
export interface PlaygroundState {
  sandbox: PlaygroundSandbox & { unpaid: { id: number; number: string }[] };
  botApi: { apiRoot: string; token: string };
}

/** The playground's state as its page reads it (`GET /api/state`). */
export async function playgroundState(playground: { url: string }): Promise<PlaygroundState> {
  return (await (await fetch(`${playground.url}api/state`)).json()) as PlaygroundState;
}

/** The sandbox as the playground's `/api/state` names it. */
export interface PlaygroundSandbox {
  url: string;
  token: string;
}

/**
 * The playground in its own process, Chromium, a page on it (a desktop's width, a phone's height),
 * and the partner's token connected by /token in their private chat, as a partner would.
 */
export async function openConnected(
  env: Record<string, string> = {},
  launch?: PlaygroundLaunch,
): Promise<{ playground: RunningPlayground; browser: Browser; page: Page; sandbox: PlaygroundSandbox }> {
  const playground = await startPlayground(env, launch);
  const browser = await launchChromium();
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
  await page.goto(playground.url);
  await page.locator('body[data-ready="true"]').waitFor();
  const { sandbox } = await playgroundState(playground);
  const partner = partnerOn(page);
  await partner.send('/token');
  await partner.sees('Отправьте токен API партнёра одним сообщением');
  await partner.send(sandbox.token);
  await partner.sees('Токен проверен и сохранён');
  return { playground, browser, page, sandbox };
}

/** The Mini App's panel on the playground's page, as Telegram's clients show it. */
export const appPanel = (page: Page): Locator => page.getByRole('dialog', { name: 'Partner Bot' });

/** The app inside the panel. */
export const appFrame = (page: Page): FrameLocator =>
  appPanel(page).frameLocator('iframe[title="Мини-приложение"]');

/** A request the playground's sandbox received, as its control endpoint lists it. */
export interface SandboxRequest {
  method: string;
  path: string;
  body: unknown;
}

/** Every request the sandbox received so far (`/__sandbox/requests`). */
export async function sandboxRequests(sandbox: PlaygroundSandbox): Promise<SandboxRequest[]> {
  const response = await fetch(`${sandbox.url}/__sandbox/requests`, {
    headers: { 'x-api-token': sandbox.token },
  });
  return ((await response.json()) as { requests: SandboxRequest[] }).requests;
}
