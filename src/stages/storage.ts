import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import type { Redis } from 'ioredis';
import type { Config } from '../config.js';
import { errorForLog, type Logger } from '../logger.js';
import { upgradeAllChats } from '../storage/account-upgrade.js';
import { type ChatData, createChatData } from '../storage/chat-data.js';
import type { ChatStore } from '../storage/chat-store.js';
import { type Keyring, loadKeyring } from '../storage/crypto.js';
import { lockDataDir } from '../storage/data-dir-lock.js';
import { createDnsHistory, type DnsHistory } from '../storage/dns-history.js';
import type { GatewayState } from '../storage/gateway-state.js';
import type { OnceKeys } from '../storage/once-keys.js';
import { closeRedis, connectRedis } from '../storage/redis-connection.js';
import { createRobotKeys, type RobotKeys } from '../storage/robot-keys.js';
import { createStores } from '../storage/stores.js';
import { createWatchData, type WatchData } from '../storage/watch-data.js';

/** The storage stage's result: every store the other stages read and write, sealed with one key ring. */
export interface OpenedStorage {
  keyring: Keyring;
  /** The shared connection on `STORAGE=redis`; undefined on lowdb. */
  redis: Redis | undefined;
  chatData: ChatData;
  watchData: WatchData;
  /** The DNS change history behind `/dns <domain> history` and the Undo buttons, per token. */
  dnsHistory: DnsHistory;
  /** What makes the Mini App's Apply and order submit once-only, shared by every instance. */
  onceKeys: OnceKeys;
  /** The robots' gateway's limits, claims, `nochg` cache and waiting ACME challenges. */
  gatewayState: GatewayState;
  /** Robots' keys, made in the chat and checked by the gateway. */
  robotKeys: RobotKeys;
  /** Chats with stored data (the metrics' gauge). */
  chatCount(): Promise<number>;
  /** Resolves when storage answers (readiness): Redis PING, or DATA_DIR writable. */
  check(): Promise<unknown>;
  /** Closes the stores, releases DATA_DIR and quits Redis: the last part of a stop. */
  close(): Promise<void>;
}

/** Storage: the key ring, Redis (checked at start) or the DATA_DIR lock, and the stores on either. */
export async function openStorage(config: Config, logger: Logger): Promise<OpenedStorage> {
  const { keyring, generatedKeyFile } = await loadKeyring({
    encryptionKeys: config.ENCRYPTION_KEYS,
    encryptionKeysFile: config.ENCRYPTION_KEYS_FILE,
    dataDir: config.DATA_DIR,
  });
  if (generatedKeyFile) {
    logger.warn(
      { file: generatedKeyFile },
      'generated a new encryption key inside DATA_DIR; move it out, so that a copy of the data does not carry its key: put the line of that file into ENCRYPTION_KEYS (or into a secret file named by ENCRYPTION_KEYS_FILE), restart, then delete the file (docs/operations.md#the-encryption-key)',
    );
  }

  // Checked at start: a Redis that does not answer is one clear line and exit 1, not a bot whose
  // every update hangs. Later outages fail commands fast and the client reconnects by itself.
  const redis =
    config.STORAGE === 'redis' && config.REDIS_URL
      ? await connectRedis({ url: config.REDIS_URL, log: logger })
      : undefined;
  // lowdb serves one process: a second one on the same DATA_DIR is refused, not corrupting it.
  const releaseDataDir = redis ? async () => undefined : await lockDataDir(config.DATA_DIR);
  const stores = createStores({ redis, prefix: config.REDIS_PREFIX, dataDir: config.DATA_DIR });
  await upgradeChats(stores.chats, keyring, logger);
  return {
    keyring,
    redis,
    chatData: createChatData({
      store: stores.chats,
      keyring,
      onUnreadable: (event) =>
        logger.warn(
          { chatId: event.chatId, field: event.field, err: event.error.message },
          'stored secret unreadable',
        ),
    }),
    watchData: createWatchData({
      store: stores.watches,
      keyring,
      onUnreadable: (event) =>
        logger.warn({ watchId: event.watchId, err: event.error.message }, 'stored watch unreadable'),
    }),
    dnsHistory: createDnsHistory({
      store: stores.dnsHistory,
      keyring,
      onUnreadable: (event) =>
        logger.warn({ entryId: event.entryId, err: event.error.message }, 'dns history author unreadable'),
    }),
    onceKeys: stores.onceKeys,
    gatewayState: stores.gatewayState,
    robotKeys: createRobotKeys({
      store: stores.robotKeys,
      keyring,
      onUnreadable: (event) =>
        logger.warn({ keyId: event.keyId, err: event.error.message }, 'robot key name unreadable'),
    }),
    chatCount: () => stores.chats.count(),
    check: () => (redis ? redis.ping() : access(config.DATA_DIR, constants.W_OK)),
    async close() {
      await stores.chats.close();
      await stores.watches.close();
      await stores.dnsHistory.close();
      await stores.onceKeys.close();
      await stores.gatewayState.close();
      await stores.robotKeys.close();
      await releaseDataDir();
      if (redis) await closeRedis(redis);
    },
  };
}

/**
 * A chat's single token becomes its account 1 (storage/account-upgrade.ts), before any update is
 * taken. A chat left as it was still reads as account 1, so a failure here is logged, not fatal:
 * the next start goes on from where this one stopped.
 */
async function upgradeChats(chats: ChatStore, keyring: Keyring, logger: Logger): Promise<void> {
  const started = Date.now();
  try {
    const counts = await upgradeAllChats(chats, keyring);
    logger.info({ ...counts, ms: Date.now() - started }, 'accounts upgrade: chats checked');
  } catch (error) {
    logger.warn(
      { err: errorForLog(error) },
      'accounts upgrade stopped; chats not yet upgraded read as before, the next start goes on',
    );
  }
}
