/*
 * Who is asking, for every protocol of the gateway: the key a robot names (HTTP Basic, or
 * acme-dns's two headers), checked against storage in constant time, the address the request
 * comes from (the socket's, or the last hop a trusted proxy added), the key's source networks,
 * and the limits that turn a misbehaving robot away (`abuse`) before anything is asked of the
 * provider. Nothing here ever logs or returns a secret.
 */
import type { IncomingMessage } from 'node:http';
import { fromKeyNetworks, type KeyKind, readAddress } from '../core/robot-keys.js';
import type { GatewayState } from '../storage/gateway-state.js';
import type { RobotKey, RobotKeys } from '../storage/robot-keys.js';

/** A key's id and secret as a robot sent them (unchecked). */
export interface RobotCredentials {
  id: string;
  secret: string;
}

/** `Authorization: Basic …` read; undefined when absent or malformed. */
export function basicCredentials(header: string | undefined): RobotCredentials | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header ?? '');
  if (!match) return undefined;
  const text = Buffer.from(match[1] ?? '', 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon < 0) return undefined;
  return { id: text.slice(0, colon), secret: text.slice(colon + 1) };
}

/**
 * The address a request comes from: the socket's peer, or — when that peer is one of the trusted
 * proxies — the last address of `X-Forwarded-For` that the proxy added. IPv4-mapped IPv6 is
 * read as IPv4. Undefined when it cannot be read.
 */
export function sourceAddress(req: IncomingMessage, trustedProxies: readonly string[]): string | undefined {
  const peer = req.socket.remoteAddress;
  if (peer === undefined) return undefined;
  const peerReading = readAddress(peer);
  if (!peerReading.ok) return undefined;
  if (trustedProxies.length === 0 || !fromKeyNetworks(trustedProxies, peerReading.address)) {
    return peerReading.address;
  }
  const forwarded = req.headers['x-forwarded-for'];
  const hops = (Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? ''))
    .split(',')
    .map((hop) => hop.trim())
    .filter((hop) => hop !== '');
  const last = hops.at(-1);
  const reading = last === undefined ? undefined : readAddress(last);
  return reading?.ok ? reading.address : peerReading.address;
}

/** Why a key was not let in. */
export type KeyRefusal =
  /** No such key, a wrong secret, a revoked key, or a key of the other kind. */
  | 'badauth'
  /** The request comes from outside the key's source networks. */
  | 'network'
  /** Too many failed attempts from this address, or too many requests with this key. */
  | 'abuse';

export type KeyCheck = { ok: true; key: RobotKey } | { ok: false; refusal: KeyRefusal };

/** The gateway's limits (per fixed window). */
export const GATEWAY_LIMITS = {
  /** Failed key checks from one source address before it gets `abuse`. */
  failuresPerSource: 20,
  failureWindowMs: 10 * 60_000,
  /** Requests with one key before it gets `abuse` (a router every minute is 10). */
  requestsPerKey: 60,
  requestWindowMs: 10 * 60_000,
  /**
   * dyndns2: `nochg` answers for one host of one key in a window before that host's requests get
   * `abuse` until the window ends (a router asking every minute makes 10; a loop, hundreds).
   */
  nochgPerHost: 15,
  nochgWindowMs: 10 * 60_000,
} as const;

export function createKeyCheck(deps: { robotKeys: Pick<RobotKeys, 'verify'>; state: GatewayState }) {
  const { robotKeys, state } = deps;
  return {
    /**
     * The key these credentials open, if it is of `kind`, asked from inside its networks and
     * within the limits. A source over its failure limit is refused before the key is checked.
     */
    async check(credentials: RobotCredentials | undefined, source: string, kind: KeyKind): Promise<KeyCheck> {
      // Failures are counted approximately (read, then written): a limit, not a ledger.
      const failures = `fail:${source}`;
      const failed = Number((await state.cached(failures)) ?? '0') || 0;
      if (failed >= GATEWAY_LIMITS.failuresPerSource) return { ok: false, refusal: 'abuse' };
      const key = credentials ? await robotKeys.verify(credentials.id, credentials.secret) : undefined;
      if (!key || key.kind !== kind) {
        await state.cache(failures, String(failed + 1), GATEWAY_LIMITS.failureWindowMs);
        return { ok: false, refusal: 'badauth' };
      }
      if (!fromKeyNetworks(key.networks, source)) return { ok: false, refusal: 'network' };
      if (
        (await state.hit(`key:${key.id}`, GATEWAY_LIMITS.requestWindowMs)) > GATEWAY_LIMITS.requestsPerKey
      ) {
        return { ok: false, refusal: 'abuse' };
      }
      return { ok: true, key };
    },
  };
}

export type KeyCheckPort = ReturnType<typeof createKeyCheck>;
