/**
 * When a build input last changed, for the scripts that build before a command runs
 * (ensure-build.mjs for dist/, ensure-app.mjs for dist/app). Plain JavaScript, no dependencies.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** The newest modification time among `entry` and everything below it (0 when absent). */
export function lastModified(entry) {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const name of readdirSync(entry)) latest = Math.max(latest, lastModified(path.join(entry, name)));
  return latest;
}
