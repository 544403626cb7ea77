import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/** `prestart` (scripts/ensure-build.mjs) in a throwaway project whose build only counts its runs. */
const SCRIPT = join(process.cwd(), 'scripts', 'ensure-build.mjs');
const BUILD =
  "node -e \"const f=require('fs');f.mkdirSync('dist',{recursive:true});f.appendFileSync('builds','x');f.writeFileSync('dist/main.js','')\"";

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'partner-bot-prestart-'));
  await mkdir(join(root, 'src'));
  await mkdir(join(root, 'node_modules'));
  await writeFile(join(root, 'src', 'main.ts'), 'export {};\n');
  await writeFile(join(root, 'package.json'), JSON.stringify({ scripts: { build: BUILD } }));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function prestart() {
  return ensureBuild([], {});
}

/** The script as npm runs it for a script (`npm_lifecycle_event`), with its arguments. */
function ensureBuild(args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, [SCRIPT, ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const builds = async (): Promise<number> =>
  (await readFile(join(root, 'builds'), 'utf8').catch(() => '')).length;

describe('npm start on a fresh clone (prestart)', () => {
  it('builds first when dist/ is missing, saying so', async () => {
    const run = prestart();
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('npm start: dist/main.js is missing; building it first (npm run build)');
    expect(await builds()).toBe(1);
  }, 30_000);

  it('starts at once when dist/ is newer than every source, and rebuilds when a source changed', async () => {
    prestart();
    const again = prestart();
    expect(again.code).toBe(0);
    expect(again.stdout).toBe('');
    expect(await builds()).toBe(1);

    const later = new Date(Date.now() + 60_000);
    await utimes(join(root, 'src', 'main.ts'), later, later);
    const stale = prestart();
    expect(stale.stdout).toContain('dist/ is older than src/; building it first');
    expect(await builds()).toBe(2);
  }, 30_000);

  it('fails with one line when the build fails, and points at npm ci without node_modules', async () => {
    await writeFile(
      join(root, 'package.json'),
      JSON.stringify({ scripts: { build: 'node -e "process.exit(2)"' } }),
    );
    const failed = prestart();
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('npm start: the build failed (see above); fix it, then npm start again.');

    await rm(join(root, 'node_modules'), { recursive: true });
    const bare = prestart();
    expect(bare.code).toBe(1);
    expect(bare.stderr.trim()).toBe('npm start: dist/main.js is missing: run npm ci, then npm start.');
  }, 30_000);

  it('names the command being run and the file it needs (npm run admin)', async () => {
    const admin = () => ensureBuild(['dist/admin/main.js'], { npm_lifecycle_event: 'admin' });
    const run = admin();
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      'npm run admin: dist/admin/main.js is missing; building it first (npm run build)',
    );
    expect(run.stdout).not.toContain('npm start');
    expect(await builds()).toBe(1);

    await rm(join(root, 'node_modules'), { recursive: true });
    await rm(join(root, 'dist'), { recursive: true });
    const bare = admin();
    expect(bare.code).toBe(1);
    expect(bare.stderr.trim()).toBe(
      'npm run admin: dist/admin/main.js is missing: run npm ci, then npm run admin.',
    );
  }, 30_000);

  it('leaves a deployed dist/ without src/ alone', async () => {
    await rm(join(root, 'src'), { recursive: true });
    expect(prestart().code).toBe(1);
    await mkdir(join(root, 'dist'));
    await writeFile(join(root, 'dist', 'main.js'), '');
    const run = prestart();
    expect(run.code).toBe(0);
    expect(await builds()).toBe(0);
  }, 30_000);
});
