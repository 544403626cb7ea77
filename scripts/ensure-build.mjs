/**
 * `prestart` (and `npm run admin`): they run a file of `dist/`, so on a fresh clone (no `dist/`) or
 * after a change to `src/` it builds first (`npm run build`) instead of failing with a
 * MODULE_NOT_FOUND stack trace. A fresh `dist/` starts at once; a failed build is one clear line and
 * exit code 1. Every line names the command being run and the file it needs:
 * `node scripts/ensure-build.mjs [dist/<file>.js]` (default `dist/main.js`).
 * Plain JavaScript: it must run before anything is compiled and without devDependencies.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { lastModified } from './last-modified.mjs';

const root = process.cwd();
/** The built file the command runs. */
const MAIN = process.argv[2] ?? path.join('dist', 'main.js');
/**
 * The command the partner typed, as npm names it: `prestart` is `npm start`, any other script
 * `npm run <script>`; run by hand, `npm start` (what the script is there for).
 */
const event = process.env.npm_lifecycle_event;
const COMMAND =
  event === undefined || event === 'prestart' || event === 'start' ? 'npm start' : `npm run ${event}`;
/** What the build reads: a change to any of these makes `dist/` stale. */
const INPUTS = ['src', 'app', 'tsconfig.json', 'tsconfig.build.json'];

function fail(line) {
  process.stderr.write(`${COMMAND}: ${line}\n`);
  process.exit(1);
}

const built = existsSync(path.join(root, MAIN)) ? statSync(path.join(root, MAIN)).mtimeMs : 0;
const hasSources = existsSync(path.join(root, 'src'));
if (!hasSources) {
  // A deployed image with dist/ only: nothing to build from.
  if (built === 0) fail(`${MAIN} is missing and there is no src/ to build it from.`);
  process.exit(0);
}
const sources = Math.max(...INPUTS.map((input) => lastModified(path.join(root, input))));
if (built !== 0 && built >= sources) process.exit(0);

if (!existsSync(path.join(root, 'node_modules'))) {
  fail(`${built === 0 ? `${MAIN} is missing` : 'dist/ is older than src/'}: run npm ci, then ${COMMAND}.`);
}
process.stdout.write(
  `${COMMAND}: ${built === 0 ? `${MAIN} is missing` : 'dist/ is older than src/'}; building it first (npm run build)\n`,
);
// npm sets npm_execpath when it runs this script; the same npm runs the build.
const npm = process.env.npm_execpath;
const build = npm
  ? spawnSync(process.execPath, [npm, 'run', 'build'], { cwd: root, stdio: 'inherit' })
  : spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
if (build.status !== 0) fail(`the build failed (see above); fix it, then ${COMMAND} again.`);
