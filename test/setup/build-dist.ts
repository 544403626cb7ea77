import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * Process tests run the built program (`node dist/main.js`), as production does, and the Mini
 * App's tests read and serve the built app (`dist/app`); this builds both once per test run, as
 * `npm run build` does, so they never exercise a stale `dist/`.
 */
export default function buildDist(): void {
  const bin = (...path: string[]) => join(process.cwd(), 'node_modules', ...path);
  execFileSync(process.execPath, [bin('typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], {
    stdio: 'inherit',
  });
  execFileSync(
    process.execPath,
    [bin('vite', 'bin', 'vite.js'), 'build', '--config', 'app/vite.config.ts', '--logLevel', 'warn'],
    { stdio: 'inherit' },
  );
}
