/**
 * Child program for the kill -9 during a switch story: a chat with two accounts, switched back
 * and forth (and account 2 renamed) through `ChatData` as fast as it goes, on lowdb or Redis.
 * Prints `<active> <round>` after each switch is acknowledged (the store resolved).
 *   switch-loop.ts <chat> <keys> lowdb <dataDir> | redis <url> <prefix>
 */
import { Redis } from 'ioredis';
import { createChatData } from '../../src/storage/chat-data.js';
import { parseEncryptionKeys } from '../../src/storage/crypto.js';
import { createLowdbStore } from '../../src/storage/lowdb-store.js';
import { createRedisStore } from '../../src/storage/redis-store.js';

const [chat, keys, backend, where, prefix] = process.argv.slice(2);
const SWITCH_CHAT = Number(chat);
if (!keys || !where)
  throw new Error('usage: switch-loop <chat> <keys> lowdb <dataDir> | redis <url> <prefix>');
const store =
  backend === 'redis'
    ? createRedisStore({ redis: new Redis(where), prefix: prefix ?? '' })
    : createLowdbStore({ dataDir: where });
const chatData = createChatData({ store, keyring: parseEncryptionKeys(keys) });
for (let round = 1; ; round++) {
  const n = 1 + (round % 2);
  await chatData.switchAccount(SWITCH_CHAT, n);
  if (round % 3 === 0) await chatData.renameAccount(SWITCH_CHAT, 2, `Студия ${round}`);
  process.stdout.write(`${n} ${round}\n`);
}
