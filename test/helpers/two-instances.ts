import { Redis } from 'ioredis';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { createKeyring } from '../../src/storage/crypto.js';
import { BotHarness } from './bot-harness.js';

/** Deletes the keys under `prefix` (SCAN, never KEYS on a shared server, never a flush). */
export async function deleteKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** Two whole bots on one Redis and one sandbox, as two instances of STORAGE=redis run. */
export interface TwoInstances {
  sandbox: Sandbox;
  a: BotHarness;
  b: BotHarness;
  /** Stops both, the sandbox and the connections, and deletes the keys under the prefix. */
  stop(): Promise<void>;
}

export async function startTwoInstances(options: {
  url: string;
  prefix: string;
  watchers?: boolean;
}): Promise<TwoInstances> {
  const sandbox = await startSandbox({ port: 0 });
  const connections = [new Redis(options.url), new Redis(options.url)] as const;
  // The same ENCRYPTION_KEYS in both, as a deployment gives them.
  const keyring = createKeyring([{ id: 'shared', key: Buffer.alloc(32, 3) }]);
  const start = (redis: Redis, firstUpdateId: number) =>
    BotHarness.start({
      sandbox,
      keyring,
      redis: { redis, prefix: options.prefix },
      watchers: options.watchers ?? false,
      firstUpdateId,
    });
  const a = await start(connections[0], 1);
  const b = await start(connections[1], 5_000_000);
  return {
    sandbox,
    a,
    b,
    async stop() {
      await a.stop();
      await b.stop();
      await sandbox.close();
      for (const c of connections) c.disconnect();
      await deleteKeys(options.url, options.prefix);
    },
  };
}
