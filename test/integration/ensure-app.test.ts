import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/**
 * `predev` / `preplayground` (scripts/ensure-app.mjs) in a throwaway project whose `build:app`
 * only counts its runs and writes dist/app/index.html, as Vite does last.
 */
const SCRIPT = join(process.cwd(), 'scripts', 'ensure-app.mjs');
const BUILD_APP =
  "node -e \"const f=require('fs');f.mkdirSync('dist/app',{recursive:true});f.appendFileSync('builds','x');f.writeFileSync('dist/app/index.html','')\"";

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'partner-bot-predev-'));
  await mkdir(join(root, 'app', 'src'), { recursive: true });
  await mkdir(join(root, 'src', 'core'), { recursive: true });
  await mkdir(join(root, 'node_modules'));
  await writeFile(join(root, 'app', 'src', 'main.ts'), 'export {};\n');
  await writeFile(join(root, 'src', 'core', 'dns-records.ts'), 'export {};\n');
  await writeFile(join(root, 'package.json'), JSON.stringify({ scripts: { 'build:app': BUILD_APP } }));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** The script as npm runs it before `npm run <event>`. */
function ensureApp(event: 'predev' | 'preplayground', env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [SCRIPT], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', npm_lifecycle_event: event, ...env },
    encoding: 'utf8',
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const builds = async (): Promise<number> =>
  (await readFile(join(root, 'builds'), 'utf8').catch(() => '')).length;

/** Marks a file changed `seconds` from now (a build run now is then older than it). */
const touch = async (seconds: number, ...file: string[]) => {
  const later = new Date(Date.now() + seconds * 1000);
  await utimes(join(root, ...file), later, later);
};

describe('npm run dev and npm run playground build the Mini App first', () => {
  it('builds dist/app when it is missing, saying so in one line', async () => {
    const run = ensureApp('predev');
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(
      'npm run dev: the Mini App (dist/app) is not built; building it first (npm run build:app)',
    );
    expect(await builds()).toBe(1);
    const playground = ensureApp('preplayground');
    expect(playground.stdout).toBe('');
    expect(await builds()).toBe(1);
  }, 30_000);

  it('rebuilds after a change to the app or to core, and only then', async () => {
    ensureApp('preplayground');
    await touch(60, 'app', 'src', 'main.ts');
    const stale = ensureApp('preplayground');
    expect(stale.stdout.trim()).toBe(
      'npm run playground: the Mini App (dist/app) is older than app/; building it first (npm run build:app)',
    );
    expect(await builds()).toBe(2);
    // As if that build had run after the change.
    await touch(120, 'dist', 'app', 'index.html');
    expect(ensureApp('preplayground').stdout).toBe('');
    await touch(180, 'src', 'core', 'dns-records.ts');
    ensureApp('predev');
    expect(await builds()).toBe(3);
  }, 30_000);

  it('builds nothing for a bot in Telegram that serves no app (a token, no MINI_APP_URL)', async () => {
    const token = { BOT_TOKEN: '123:abc' };
    expect(ensureApp('predev', token).stdout).toBe('');
    expect(await builds()).toBe(0);
    ensureApp('predev', { ...token, MINI_APP_URL: 'http://127.0.0.1:8080/app/' });
    expect(await builds()).toBe(1);
    // The playground runs its own bot, token or not.
    await rm(join(root, 'dist'), { recursive: true });
    ensureApp('preplayground', token);
    expect(await builds()).toBe(2);
  }, 30_000);

  it('lets the bot start when the build fails, and points at npm ci without node_modules', async () => {
    await writeFile(
      join(root, 'package.json'),
      JSON.stringify({ scripts: { 'build:app': 'node -e "process.exit(2)"' } }),
    );
    const failed = ensureApp('predev');
    expect(failed.code).toBe(0);
    expect(failed.stderr).toContain(
      "npm run dev: the Mini App's build failed (see above); the bot starts without it. Fix it, then npm run build:app.",
    );
    await rm(join(root, 'node_modules'), { recursive: true });
    const bare = ensureApp('predev');
    expect(bare.code).toBe(1);
    expect(bare.stderr.trim()).toBe(
      'npm run dev: the Mini App (dist/app) is not built: run npm ci, then npm run dev.',
    );
  }, 30_000);
});
