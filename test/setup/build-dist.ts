import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * Process tests run the built program (`node dist/main.js`), as production does; this builds it
 * once per test run so they never exercise a stale `dist/`.
 */
export default function buildDist(): void {
  const tsc = join(process.cwd(), 'node_modules', 'typescript', 'bin', 'tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
}
