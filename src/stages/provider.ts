import type { CallEvent } from '../api/http.js';
import { createApiFactory, PartnerTransport } from '../api/index.js';
import type { Config } from '../config.js';

/** The partner API stage's result: the chats' client factory over one transport. */
export interface ProviderClients {
  /** The partner API client of a token, for the bot's updates (retries idempotent calls). */
  apiFor: ReturnType<typeof createApiFactory>;
  /** The watchers' own clients, when the watchers are on (`NOTIFY_INTERVAL_S` > 0). */
  watcherApiFor: ReturnType<typeof createApiFactory> | undefined;
  /** Cuts off the chats' provider calls still running (each then still tells its partner). */
  interruptChats(): void;
  /** Cuts off the watchers' polls (they write nothing then and are simply asked again later). */
  interruptWatchers(): void;
  close(): Promise<void>;
}

/**
 * Two transports to the provider: the chats', and the watchers' own — no retries (one call per list
 * per poll; a failure backs the token off instead), so their polls never queue behind a chat's.
 */
export function createProviderClients(config: Config, onCall: (event: CallEvent) => void): ProviderClients {
  const options = {
    baseUrl: config.PARTNER_API_URL,
    timeoutMs: config.PARTNER_API_TIMEOUT_MS,
    apiVersion: config.PARTNER_API_VERSION,
    onCall,
  };
  const transport = new PartnerTransport(options);
  const watcherTransport =
    config.NOTIFY_INTERVAL_S > 0 ? new PartnerTransport({ ...options, maxRetries: 0 }) : undefined;
  return {
    apiFor: createApiFactory(transport),
    watcherApiFor: watcherTransport ? createApiFactory(watcherTransport) : undefined,
    interruptChats: () => transport.interrupt(),
    interruptWatchers: () => watcherTransport?.interrupt(),
    async close() {
      await transport.close();
      await watcherTransport?.close();
    },
  };
}
