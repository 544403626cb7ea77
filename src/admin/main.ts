/**
 * `npm run admin -- <command>`: the operator's tool over the bot's storage — the same store code
 * as the bot, configured by the same keys (STORAGE, DATA_DIR, REDIS_URL, REDIS_PREFIX,
 * ENCRYPTION_KEYS or ENCRYPTION_KEYS_FILE). Exit codes: 0 done, 1 failed, 2 wrong usage.
 */
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { Redis } from 'ioredis';
import { upgradeAllChats } from '../storage/account-upgrade.js';
import { KeyConfigError, loadKeyring } from '../storage/crypto.js';
import { DataDirLockedError, lockDataDir } from '../storage/data-dir-lock.js';
import { closeRedis, connectRedis, RedisUnreachableError } from '../storage/redis-connection.js';
import { createStores, type Stores } from '../storage/stores.js';
import { AdminError, backup, type Counts, migrate, restore, rotateKeys, stats } from './commands.js';
import { RECORD_KINDS, type RecordKind } from './records.js';

export const USAGE = `Usage: npm run admin -- <command>

  migrate --to redis|lowdb   copy everything (chats, sessions, tokens, profiles, teams, notification
                             settings and marks, watches, DNS history, robots' keys) from the
                             configured STORAGE to the other one, still sealed; a second run
                             changes nothing
  rotate-keys                re-seal everything with the first key of ENCRYPTION_KEYS, and say what
                             still needs an older key (nothing, when done: then the old key can go)
  backup <file>              a copy of the configured store, sealed as it is, never a key
  restore <file> [--force]   into the configured store; refuses one that holds anything unless --force
  upgrade                    turn each chat's single token (and its notification settings) into
                             its account 1, as the bot does at start; a second run changes nothing
  stats                      chats, partner accounts, groups, watches, DNS history entries,
                             robots' keys

Run it while no bot uses a lowdb DATA_DIR (it holds the same lock as the bot). It reads the same
configuration as the bot (.env included): STORAGE, DATA_DIR, REDIS_URL, REDIS_PREFIX,
ENCRYPTION_KEYS or ENCRYPTION_KEYS_FILE.`;

class UsageError extends Error {
  override name = 'UsageError';
}

type Backend = 'lowdb' | 'redis';

interface Opened {
  stores: Stores;
  close(): Promise<void>;
}

function redisSettings(env: Record<string, string | undefined>): { url: string; prefix: string } {
  const url = env.REDIS_URL?.trim();
  if (!url) throw new UsageError('REDIS_URL is required for a Redis store');
  return { url, prefix: env.REDIS_PREFIX?.trim() || 'partner-bot:' };
}

/** Opens one backend's stores; lowdb under the DATA_DIR lock, so no bot writes meanwhile. */
async function openBackend(backend: Backend, env: Record<string, string | undefined>): Promise<Opened> {
  const dataDir = env.DATA_DIR?.trim() || './data';
  const prefix = env.REDIS_PREFIX?.trim() || 'partner-bot:';
  if (backend === 'lowdb') {
    const release = await lockDataDir(dataDir);
    const stores = createStores({ redis: undefined, prefix, dataDir });
    return { stores, close: async () => closeAll(stores).finally(release) };
  }
  const settings = redisSettings(env);
  const redis: Redis = await connectRedis({
    url: settings.url,
    log: { warn: () => undefined, info: () => undefined },
  });
  const stores = createStores({ redis, prefix: settings.prefix, dataDir });
  return {
    stores,
    close: async () => {
      await closeAll(stores);
      await closeRedis(redis);
    },
  };
}

async function closeAll(stores: Stores): Promise<void> {
  await stores.chats.close();
  await stores.watches.close();
  await stores.dnsHistory.close();
  await stores.onceKeys.close();
  await stores.gatewayState.close();
  await stores.robotKeys.close();
}

function configured(env: Record<string, string | undefined>): Backend {
  const storage = env.STORAGE?.trim() || 'lowdb';
  if (storage !== 'lowdb' && storage !== 'redis') throw new UsageError('STORAGE must be lowdb or redis');
  return storage;
}

function describeCounts(counts: Counts): string {
  const names: Record<RecordKind, string> = {
    chat: 'chats',
    watch: 'watches',
    history: 'DNS histories',
    robotKey: "robots' keys",
  };
  return RECORD_KINDS.map((kind) => {
    const c = counts[kind];
    return `  ${names[kind]}: ${c.read} read, ${c.written} written, ${c.unchanged} already there`;
  }).join('\n');
}

/** Runs one command; returns what to print. */
export async function runAdmin(args: string[], env: Record<string, string | undefined>): Promise<string> {
  const [command, ...rest] = args;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') return USAGE;
  const from = configured(env);

  if (command === 'migrate') {
    const to = rest[0] === '--to' ? rest[1] : rest[0]?.replace(/^--to=/, '');
    if (to !== 'lowdb' && to !== 'redis') throw new UsageError('migrate needs --to redis or --to lowdb');
    if (to === from) throw new UsageError(`STORAGE is ${from} already: migrate --to the other one`);
    const source = await openBackend(from, env);
    try {
      const target = await openBackend(to, env);
      try {
        const { counts, keyIds } = await migrate(source.stores, target.stores);
        const again = Object.values(counts).every((c) => c.written === 0);
        return [
          `Copied from ${from} to ${to}, still sealed:`,
          describeCounts(counts),
          again
            ? 'Nothing changed: the target held all of it already.'
            : 'Run it again to check: it changes nothing.',
          keyIds.length > 0
            ? `The data needs key id(s) ${keyIds.join(', ')}: give the bot on ${to} the same ENCRYPTION_KEYS.`
            : '',
          `Then start the bot with STORAGE=${to}.`,
        ]
          .filter((line) => line !== '')
          .join('\n');
      } finally {
        await target.close();
      }
    } finally {
      await source.close();
    }
  }

  const opened = await openBackend(from, env);
  try {
    switch (command) {
      case 'rotate-keys': {
        const { keyring } = await loadKeyring({
          encryptionKeys: env.ENCRYPTION_KEYS,
          encryptionKeysFile: env.ENCRYPTION_KEYS_FILE,
          dataDir: env.DATA_DIR?.trim() || './data',
        });
        const result = await rotateKeys(opened.stores, keyring);
        return [
          `Re-sealed with key "${keyring.currentKeyId}":`,
          describeCounts(result.resealed),
          result.stillOld === 0
            ? `Nothing needs another key now: keys other than "${keyring.currentKeyId}" can be removed from ENCRYPTION_KEYS.`
            : `${result.stillOld} records still need an older key (${result.keyIds.join(', ')}).`,
        ].join('\n');
      }
      case 'upgrade': {
        const { keyring } = await loadKeyring({
          encryptionKeys: env.ENCRYPTION_KEYS,
          encryptionKeysFile: env.ENCRYPTION_KEYS_FILE,
          dataDir: env.DATA_DIR?.trim() || './data',
        });
        const c = await upgradeAllChats(opened.stores.chats, keyring);
        return [
          `Chats on ${from} upgraded to accounts:`,
          `  chats: ${c.chats} read, ${c.upgraded} upgraded, ${c.unchanged} already upgraded`,
          c.unreadable > 0
            ? `${c.unreadable} chats keep their old token as it is: it does not open with ENCRYPTION_KEYS (add the key it needs and run again).`
            : '',
          c.damaged > 0 ? `${c.damaged} chats have a damaged record (the bot sets it aside).` : '',
          c.upgraded === 0
            ? 'Nothing changed: every chat was upgraded already.'
            : 'Run it again to check: it changes nothing.',
        ]
          .filter((line) => line !== '')
          .join('\n');
      }
      case 'backup': {
        const file = rest[0];
        if (!file) throw new UsageError('backup needs a file: npm run admin -- backup <file>');
        const { counts, keyIds } = await backup(opened.stores, file);
        return [
          `Backed up to ${file} (sealed as stored; no key is in it):`,
          describeCounts(counts),
          keyIds.length > 0 ? `Restoring it needs key id(s): ${keyIds.join(', ')}.` : '',
        ]
          .filter((line) => line !== '')
          .join('\n');
      }
      case 'restore': {
        const file = rest.find((arg) => !arg.startsWith('--'));
        if (!file) throw new UsageError('restore needs a file: npm run admin -- restore <file> [--force]');
        const { counts, keyIds } = await restore(opened.stores, file, { force: rest.includes('--force') });
        return [
          `Restored ${file} into ${from}:`,
          describeCounts(counts),
          keyIds.length > 0 ? `The data needs key id(s) ${keyIds.join(', ')} in ENCRYPTION_KEYS.` : '',
        ]
          .filter((line) => line !== '')
          .join('\n');
      }
      case 'stats': {
        const s = await stats(opened.stores);
        return [
          `Storage: ${from}`,
          `  chats: ${s.chats}`,
          `  partner accounts: ${s.partnerAccounts} (chats with several: ${s.severalAccounts})`,
          `  groups: ${s.groups}`,
          `  watches: ${s.watches}`,
          `  DNS history entries: ${s.historyEntries}`,
          `  robots' keys: ${s.robotKeys}`,
        ].join('\n');
      }
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } finally {
    await opened.close();
  }
}

/** The exit code and the one message a failure prints. */
export function describeAdminError(error: unknown): { code: 1 | 2; message: string } {
  if (error instanceof UsageError) return { code: 2, message: `${error.message}\n\n${USAGE}` };
  if (
    error instanceof AdminError ||
    error instanceof DataDirLockedError ||
    error instanceof RedisUnreachableError ||
    error instanceof KeyConfigError
  ) {
    return { code: 1, message: error.message };
  }
  return {
    code: 1,
    message: `admin failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (existsSync('.env')) process.loadEnvFile('.env');
  runAdmin(process.argv.slice(2), process.env).then(
    (output) => {
      process.stdout.write(`${output}\n`);
    },
    (error: unknown) => {
      const { code, message } = describeAdminError(error);
      process.stderr.write(`${message}\n`);
      process.exitCode = code;
    },
  );
}
