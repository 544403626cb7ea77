/**
 * The Redis connection of STORAGE=redis, built to fail fast: the start checks that Redis answers
 * (and exits with one clear line if not), and once running, a command meets an outage with an
 * error within about `commandTimeoutMs` instead of waiting in a queue for Redis to come back.
 * The client keeps reconnecting in the background, so the bot recovers by itself.
 */
import { Redis, ReplyError } from 'ioredis';

/** Thrown at start when Redis does not answer PING in time; main prints its message and exits. */
export class RedisUnreachableError extends Error {
  constructor(url: string, reason: string) {
    super(`Redis at ${describeRedisUrl(url)} is not reachable: ${reason}`);
    this.name = 'RedisUnreachableError';
  }
}

/**
 * Thrown by the Redis store, chat lock and deduper when Redis is down, hangs or refuses to serve
 * (the ioredis error is its `cause`). The user is told to try again in a minute.
 */
export class StorageUnavailableError extends Error {
  constructor(reason: string, options?: ErrorOptions) {
    super(`Redis is unavailable: ${reason}`, options);
    this.name = 'StorageUnavailableError';
  }
}

/** The URL without user, password or database: safe for a log line or an error message. */
export function describeRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.hostname}:${parsed.port || '6379'}`;
  } catch {
    return 'the configured REDIS_URL';
  }
}

/**
 * Replies that mean "Redis cannot serve now" rather than "this command is wrong": loading a
 * dump, a failover, a long script, memory full, credentials changed under us.
 */
const UNAVAILABLE_REPLY = /^(LOADING|BUSY|MASTERDOWN|READONLY|TRYAGAIN|CLUSTERDOWN|NOAUTH|WRONGPASS|OOM)\b/;

/**
 * The error a storage caller should see. Redis's own answers (a script error, NOSCRIPT) pass
 * through; a lost connection, a timeout or an unavailable server become StorageUnavailableError.
 */
export function asStorageError(error: unknown): unknown {
  if (error instanceof StorageUnavailableError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof ReplyError && !UNAVAILABLE_REPLY.test(message)) return error;
  return new StorageUnavailableError(message, { cause: error });
}

/** Awaits one Redis command, turning an outage into StorageUnavailableError. */
async function storageCall<T>(command: Promise<T>): Promise<T> {
  try {
    return await command;
  } catch (error) {
    throw asStorageError(error);
  }
}

/**
 * The client as the storage modules get it: every command that meets an outage rejects with
 * StorageUnavailableError. Guarding the connection once covers the store, the chat lock, the
 * deduper and any command added later, where wrapping each call site would miss the next one.
 * (Pipelines and MULTI are not guarded; nothing uses them.)
 */
export function guardCommands(redis: Redis): Redis {
  return new Proxy(redis, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const result: unknown = value.apply(target, args);
        return result instanceof Promise ? storageCall(result) : result;
      };
    },
  });
}

/** Where the connection reports going down and coming back (the process logger fits). */
export interface ConnectionLog {
  warn(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
}

export interface RedisConnectionOptions {
  url: string;
  /** How long the start may wait for Redis to answer PING; default 3 s. */
  startTimeoutMs?: number;
  /** A command without an answer fails after this long; default 2 s. */
  commandTimeoutMs?: number;
  /** One line when the connection is lost, one when it is back (not one per retry). */
  log?: ConnectionLog;
}

/** The URL's password as written and decoded, to be blanked out of error texts. */
function passwordForms(url: string): string[] {
  const written = new URL(url).password;
  if (written === '') return [];
  try {
    return [written, decodeURIComponent(written)];
  } catch {
    return [written];
  }
}

/** Longest pause between two reconnection attempts. */
const MAX_RECONNECT_DELAY_MS = 2_000;

/**
 * Connects and checks that Redis answers, within `startTimeoutMs`; throws RedisUnreachableError
 * otherwise. Returns the client guarded by `guardCommands`; it reconnects by itself after an
 * outage, and the caller closes it at shutdown (`closeRedis`).
 */
export async function connectRedis(options: RedisConnectionOptions): Promise<Redis> {
  const { url, startTimeoutMs = 3_000, commandTimeoutMs = 2_000, log } = options;
  const redis = new Redis(url, {
    lazyConnect: true,
    // An outage fails commands at once instead of holding them (and the update) until Redis is back.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    // A command that failed must not run later behind the caller's back (a dedupe mark, a CAS).
    autoResendUnfulfilledCommands: false,
    commandTimeout: commandTimeoutMs,
    connectTimeout: startTimeoutMs,
    retryStrategy: (attempt) => Math.min(100 * attempt, MAX_RECONNECT_DELAY_MS),
  });
  const secrets = passwordForms(url);
  const redact = (text: string) => secrets.reduce((out, secret) => out.split(secret).join('***'), text);

  let lastError: string | undefined;
  // Without a listener ioredis prints every failed attempt to stderr.
  redis.on('error', (error: Error) => {
    lastError = redact(error.message);
  });

  try {
    await new Promise<void>((resolve, reject) => {
      const fail = (reason: string) => reject(new RedisUnreachableError(url, reason));
      const timer = setTimeout(
        () => fail(lastError ?? `no answer within ${startTimeoutMs / 1000} s`),
        startTimeoutMs,
      );
      const finish = (outcome: () => void) => {
        clearTimeout(timer);
        redis.off('end', ended);
        outcome();
      };
      // 'end': the client gave up for good and will not try again.
      const ended = () => finish(() => fail(lastError ?? 'connection closed'));
      redis.once('end', ended);
      redis.once('ready', () => {
        redis.ping().then(
          () => finish(resolve),
          (error: Error) => finish(() => fail(redact(error.message))),
        );
      });
      // Rejects on the first failed attempt; the retries within the deadline go on regardless.
      redis.connect().catch(() => undefined);
    });
  } catch (error) {
    redis.disconnect();
    throw error;
  }

  let up = true;
  // 'reconnecting', not 'close': a close of our own (QUIT at shutdown) is no outage.
  redis.on('reconnecting', () => {
    if (!up) return;
    up = false;
    log?.warn(
      { redis: describeRedisUrl(url), reason: lastError ?? 'connection closed' },
      'Redis connection lost',
    );
  });
  redis.on('ready', () => {
    lastError = undefined;
    if (up) return;
    up = true;
    log?.info({ redis: describeRedisUrl(url) }, 'Redis connection is back');
  });
  return guardCommands(redis);
}

/**
 * Quits politely when connected; during an outage QUIT cannot be sent, so it just disconnects.
 * Resolves once the socket is closed (at most a second later), so nothing reports the closing
 * as an outage after the caller moved on.
 */
export async function closeRedis(redis: Redis): Promise<void> {
  const hasSocket = redis.status === 'connecting' || redis.status === 'connect' || redis.status === 'ready';
  const closed = new Promise<void>((resolve) => {
    if (!hasSocket) return resolve();
    redis.once('end', () => resolve());
    setTimeout(resolve, 1_000).unref();
  });
  if (redis.status === 'ready') {
    // Lost between the check and the QUIT: nothing left to say goodbye to.
    await redis.quit().catch(() => redis.disconnect());
  } else {
    redis.disconnect();
  }
  await closed;
}
