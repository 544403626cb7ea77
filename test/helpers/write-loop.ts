/**
 * Child program for the kill -9 test: writes chat documents through the lowdb store as fast as
 * it can and prints `<chat> <n>` after each write is acknowledged (the store resolved).
 */
import { createLowdbStore } from '../../src/storage/lowdb-store.js';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: write-loop <dataDir>');
const store = createLowdbStore({ dataDir });
for (let n = 1; ; n++) {
  const chat = 1 + (n % 20);
  await store.update(chat, (doc) => ({ ...doc, session: { n, note: 'x'.repeat(200) } }));
  process.stdout.write(`${chat} ${n}\n`);
}
