/**
 * Which backend the bot's stores run on, decided in one place: with a Redis connection every
 * store is on Redis (several processes share the state), without one every store is lowdb files
 * under `dataDir` (one process, see `data-dir-lock.ts`). One choice for all, so chats, watches,
 * the DNS history, the once-only keys and the gateway's state never end up on different backends.
 */
import type { Redis } from 'ioredis';
import type { ChatStore } from './chat-store.js';
import { createLowdbDnsHistoryStore, type DnsHistoryStore } from './dns-history-store.js';
import { createLowdbGatewayState, type GatewayState } from './gateway-state.js';
import { createLowdbStore } from './lowdb-store.js';
import { createLowdbOnceKeys, type OnceKeys } from './once-keys.js';
import { createRedisDnsHistoryStore } from './redis-dns-history-store.js';
import { createRedisGatewayState } from './redis-gateway-state.js';
import { createRedisOnceKeys } from './redis-once-keys.js';
import { createRedisRobotKeyStore } from './redis-robot-key-store.js';
import { createRedisStore } from './redis-store.js';
import { createRedisWatchStore } from './redis-watch-store.js';
import { createLowdbRobotKeyStore, type RobotKeyStore } from './robot-key-store.js';
import { createLowdbWatchStore, type WatchStore } from './watch-store.js';

/** Every store of the bot, on one backend; each is closed by the caller. */
export interface Stores {
  chats: ChatStore;
  watches: WatchStore;
  dnsHistory: DnsHistoryStore;
  /** The Mini App's Apply and order keys: claimed while they run, their outcomes kept. */
  onceKeys: OnceKeys;
  /** The robots' gateway's limits, claims, `nochg` cache and waiting ACME challenges. */
  gatewayState: GatewayState;
  /** Robots' keys (hashes and sealed names). */
  robotKeys: RobotKeyStore;
}

/** Options of `createStores`. */
export interface StoresOptions {
  /** A connection built and, at shutdown, quit by the caller; undefined for lowdb. */
  redis: Redis | undefined;
  /** `REDIS_PREFIX`: prepended to every Redis key. */
  prefix: string;
  /** `DATA_DIR`: where the lowdb files live. */
  dataDir: string;
}

/** Builds the stores on Redis when a connection is given, else on lowdb. */
export function createStores(options: StoresOptions): Stores {
  const { redis, prefix, dataDir } = options;
  if (redis !== undefined) {
    return {
      chats: createRedisStore({ redis, prefix }),
      watches: createRedisWatchStore({ redis, prefix }),
      dnsHistory: createRedisDnsHistoryStore({ redis, prefix }),
      onceKeys: createRedisOnceKeys({ redis, prefix }),
      gatewayState: createRedisGatewayState({ redis, prefix }),
      robotKeys: createRedisRobotKeyStore({ redis, prefix }),
    };
  }
  return {
    chats: createLowdbStore({ dataDir }),
    watches: createLowdbWatchStore({ dataDir }),
    dnsHistory: createLowdbDnsHistoryStore({ dataDir }),
    onceKeys: createLowdbOnceKeys({ dataDir }),
    gatewayState: createLowdbGatewayState({ dataDir }),
    robotKeys: createLowdbRobotKeyStore({ dataDir }),
  };
}
