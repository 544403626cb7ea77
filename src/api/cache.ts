import { createHash } from 'node:crypto';
import { createPartnerApi, type PartnerApi } from './client.js';
import type { PartnerTransport } from './http.js';

/** Reference data that changes rarely: cached per token for `ttlMs`. */
const CACHED_METHODS = [
  'listCurrencies',
  'listPriceLists',
  'getPriceListTariffs',
  'listServices',
  'listHostingTariffs',
  'listMailTariffs',
  'listSslTariffs',
  'listDomainZones',
] as const satisfies readonly (keyof PartnerApi)[];

export interface ApiFactoryOptions {
  /** How long reference data is reused. */
  ttlMs?: number;
  /**
   * How long the domain order index and a domain's name servers are reused (the index is dropped on
   * every order created, the name servers whenever the bot changes them).
   */
  domainIndexTtlMs?: number;
  /** How many tokens keep a cache at once; the least recently used is dropped. */
  maxTokens?: number;
  now?: () => number;
}

/** Gives the client for a token; reference calls of one token share a TTL cache. */
export interface ApiFactory {
  (token: string): PartnerApi;
  /**
   * A client that always asks the provider. Used to check a token being connected: a cached
   * answer could accept a token the partner has revoked since.
   */
  uncached(token: string): PartnerApi;
}

interface Entry {
  expires: number;
  value: Promise<unknown>;
}

/**
 * Builds the per-chat client factory over one shared transport. Caches are keyed by a hash of
 * the token, so the token itself is not kept as a map key.
 */
export function createApiFactory(transport: PartnerTransport, options: ApiFactoryOptions = {}): ApiFactory {
  const ttlMs = options.ttlMs ?? 10 * 60_000;
  const indexTtlMs = options.domainIndexTtlMs ?? 5 * 60_000;
  const maxTokens = options.maxTokens ?? 1_000;
  const now = options.now ?? Date.now;
  const caches = new Map<string, Map<string, Entry>>();

  const cacheFor = (token: string) => {
    const key = createHash('sha256').update(token).digest('base64url');
    let cache = caches.get(key);
    if (cache) {
      caches.delete(key);
    } else {
      cache = new Map();
      if (caches.size >= maxTokens) {
        const oldest = caches.keys().next().value;
        if (oldest !== undefined) caches.delete(oldest);
      }
    }
    caches.set(key, cache);
    return cache;
  };

  const cachedFor = (token: string): PartnerApi => {
    const api = createPartnerApi(transport, token);
    const cache = cacheFor(token);
    const cached: Partial<PartnerApi> = {};
    for (const method of CACHED_METHODS) {
      const original = api[method] as (...args: unknown[]) => Promise<unknown>;
      const wrapper = (...args: unknown[]) => {
        const key = `${method}:${JSON.stringify(args)}`;
        const hit = cache.get(key);
        if (hit && hit.expires > now()) return hit.value;
        const value = original(...args);
        cache.set(key, { expires: now() + ttlMs, value });
        // A failure is not remembered: the next call asks the provider again.
        value.catch(() => {
          if (cache.get(key)?.value === value) cache.delete(key);
        });
        return value;
      };
      Object.assign(cached, { [method]: wrapper });
    }
    /** A value kept for `indexTtlMs` under `key`; `fresh` asks again. A failure is not kept. */
    const kept = <T>(key: string, fresh: boolean | undefined, load: () => Promise<T>): Promise<T> => {
      const hit = cache.get(key);
      if (!fresh && hit && hit.expires > now()) return hit.value as Promise<T>;
      const value = load();
      cache.set(key, { expires: now() + indexTtlMs, value });
      value.catch(() => {
        if (cache.get(key)?.value === value) cache.delete(key);
      });
      return value;
    };
    // The domain order index: kept briefly, fetched again on request (a name not found may have
    // been ordered outside the bot a moment ago) and dropped whenever this token creates a domain order.
    const INDEX_KEY = 'domainOrderIndex';
    const domainOrderIndex: PartnerApi['domainOrderIndex'] = (query = {}) =>
      kept(INDEX_KEY, query.fresh, () => api.domainOrderIndex());
    const createDomainOrder: PartnerApi['createDomainOrder'] = (request) => {
      // Dropped whatever the outcome: after a timeout the order may exist all the same.
      const created = api.createDomainOrder(request);
      void created.finally(() => cache.delete(INDEX_KEY)).catch(() => undefined);
      return created;
    };
    // A domain's name servers: kept as long as the index (the live check after every change asks
    // for them), dropped for the order whenever this token changes them, whatever the outcome.
    const nsKey = (orderId: number) => `nameServers:${orderId}`;
    const listNameServers: PartnerApi['listNameServers'] = (orderId, query = {}) =>
      kept(nsKey(orderId), query.fresh, () => api.listNameServers(orderId));
    const dropping =
      <A extends [number, ...unknown[]], R>(change: (...args: A) => Promise<R>) =>
      (...args: A): Promise<R> => {
        const done = change(...args);
        void done.finally(() => cache.delete(nsKey(args[0]))).catch(() => undefined);
        return done;
      };
    return {
      ...api,
      ...cached,
      domainOrderIndex,
      createDomainOrder,
      listNameServers,
      deleteNameServers: dropping(api.deleteNameServers),
      setHostingNameServers: dropping(api.setHostingNameServers),
      setEditorNameServers: dropping(api.setEditorNameServers),
      setCustomNameServers: dropping(api.setCustomNameServers),
    };
  };
  return Object.assign(cachedFor, { uncached: (token: string) => createPartnerApi(transport, token) });
}
