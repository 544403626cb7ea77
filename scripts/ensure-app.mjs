/**
 * `predev` and `preplayground`: both run the bot from its sources (tsx), but the Mini App is only
 * ever built (Vite, into dist/app). On a fresh clone, or after a change to the app, it is built
 * first (`npm run build:app`, a few seconds), so that «🧩 Открыть редактор» opens a panel rather
 * than nothing; a fresh dist/app starts at once. A failed build is one line, and the bot starts
 * anyway: the chat works without the panel, and the panel's address says what to run.
 * Plain JavaScript: it runs before anything is compiled.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { lastModified } from './last-modified.mjs';

const root = process.cwd();
const event = process.env.npm_lifecycle_event ?? 'predev';
/** The command the partner typed: `predev` is `npm run dev`. */
const COMMAND = `npm run ${event.replace(/^pre/, '')}`;
/** The page Vite writes last; its time is the build's. */
const BUILT = path.join('dist', 'app', 'index.html');
/**
 * What the bundle is made of: the app, what it may import from core at run time (type imports
 * are erased), and the locked dependencies (Vite and the SDK it bundles).
 */
const INPUTS = ['app', path.join('src', 'core'), 'package-lock.json'];

function say(line) {
  process.stdout.write(`${COMMAND}: ${line}\n`);
}

// `npm run dev` with a token and no MINI_APP_URL serves no app: nothing to build for it.
if (event === 'predev') {
  if (existsSync('.env')) process.loadEnvFile('.env');
  if (process.env.BOT_TOKEN?.trim() && !process.env.MINI_APP_URL?.trim()) process.exit(0);
}

const built = existsSync(path.join(root, BUILT)) ? statSync(path.join(root, BUILT)).mtimeMs : 0;
const sources = Math.max(...INPUTS.map((input) => lastModified(path.join(root, input))));
if (built !== 0 && built >= sources) process.exit(0);

const why =
  built === 0 ? 'the Mini App (dist/app) is not built' : 'the Mini App (dist/app) is older than app/';
if (!existsSync(path.join(root, 'node_modules'))) {
  process.stderr.write(`${COMMAND}: ${why}: run npm ci, then ${COMMAND}.\n`);
  process.exit(1);
}
say(`${why}; building it first (npm run build:app)`);
// npm sets npm_execpath when it runs this script; the same npm runs the build.
const npm = process.env.npm_execpath;
const build = npm
  ? spawnSync(process.execPath, [npm, 'run', '--silent', 'build:app'], { cwd: root, stdio: 'inherit' })
  : spawnSync('npm', ['run', '--silent', 'build:app'], {
      cwd: root,
      stdio: 'inherit',
      shell: process.platform === 'win32',
    });
if (build.status !== 0) {
  process.stderr.write(
    `${COMMAND}: the Mini App's build failed (see above); the bot starts without it. Fix it, then npm run build:app.\n`,
  );
}
