// A process that competes for a DATA_DIR lock, for the lock's process tests. It imports the BUILT
// module (dist/), as the bot does, so a race is between two real Node processes and nothing else.
//
//   node test/helpers/lock-holder.mjs <dataDir> <default|abstract-socket|lock-file> [release|keep]
//
// Prints "ready", then waits for a line on stdin, so that a test can start two of them at the
// same instant. Then prints "locked" or "refused <holder pid or ?>". When stdin ends it releases
// the lock ("release", the default) or leaves it held ("keep") and prints "done"; it never calls
// process.exit, so it ends only if the lock keeps nothing of the event loop alive.
import { DataDirLockedError, lockDataDir } from '../../dist/storage/data-dir-lock.js';

const [dataDir, method = 'default', atEnd = 'release'] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: lock-holder.mjs <dataDir> [method] [release|keep]');

let release;
process.stdin.setEncoding('utf8');
process.stdin.once('data', async () => {
  try {
    release = await lockDataDir(dataDir, method === 'default' ? {} : { method });
    process.stdout.write('locked\n');
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    process.stdout.write(`refused ${error.pid ?? '?'}\n`);
  }
});
process.stdin.once('end', async () => {
  if (release && atEnd === 'release') await release();
  process.stdout.write('done\n');
  process.stdin.destroy();
});
process.stdout.write('ready\n');
