/**
 * The live check's network part: asks one name server over DNS (node:dns's Resolver, which
 * speaks UDP and falls back to TCP on a truncated answer) on DNS_CHECK_PORT, and finds a name
 * server's address. What the answers mean is decided in core (dns-check.ts).
 */

import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import {
  comparableAnswer,
  type DnsProbe,
  type ProbeFailure,
  type ProbeResult,
  type RawAnswer,
} from '../core/dns-check.js';
import type { DnsType } from '../core/dns-records.js';

export interface DnsProbeOptions {
  /** The port name servers are asked on (DNS_CHECK_PORT: 53, or the sandbox's). */
  port: number;
  /** How long one question waits for its answer (per try). Default 2 s. */
  timeoutMs?: number;
  /** Tries per question (UDP is lossy). Default 2. */
  tries?: number;
  /**
   * Where name server names are resolved: `host:port` of resolvers; default the system's. `npm
   * run dev` gives its sandbox's DNS server, which knows the provider's name servers.
   */
  resolvers?: string[];
  /**
   * Every name server is asked at this address instead, whatever the list says: under `npm run
   * dev` the sandbox stands in for every server, so nothing beyond 127.0.0.1 is dialed.
   */
  everyServerAt?: string;
}

/** node:dns error codes, as the live check tells them. */
const FAILURES: Record<string, ProbeFailure> = {
  ETIMEOUT: 'timeout',
  ECANCELLED: 'timeout',
  EREFUSED: 'refused',
  ESERVFAIL: 'servfail',
  ECONNREFUSED: 'unreachable',
  EBADRESP: 'servfail',
  EFORMERR: 'servfail',
  ENOTIMP: 'refused',
};

/** `host:port`, with IPv6 in brackets as setServers wants. */
const serverAt = (address: string, port: number) =>
  isIP(address) === 6 ? `[${address}]:${port}` : `${address}:${port}`;

async function query(resolver: Resolver, name: string, type: DnsType): Promise<RawAnswer[]> {
  switch (type) {
    case 'A':
      return resolver.resolve4(name);
    case 'AAAA':
      return resolver.resolve6(name);
    case 'CNAME':
      return resolver.resolveCname(name);
    case 'NS':
      return resolver.resolveNs(name);
    case 'MX':
      return resolver.resolveMx(name);
    case 'TXT':
      return resolver.resolveTxt(name);
    case 'SRV':
      return resolver.resolveSrv(name);
  }
}

/** Runs `work` with a resolver that `signal` cancels. */
async function withResolver<T>(
  options: DnsProbeOptions,
  servers: string[] | undefined,
  signal: AbortSignal | undefined,
  work: (resolver: Resolver) => Promise<T>,
): Promise<T> {
  const resolver = new Resolver({ timeout: options.timeoutMs ?? 2_000, tries: options.tries ?? 2 });
  if (servers) resolver.setServers(servers);
  const cancel = () => resolver.cancel();
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    return await work(resolver);
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
}

export function createDnsProbe(options: DnsProbeOptions): DnsProbe {
  return {
    async addressesOf(server, signal) {
      if (options.everyServerAt) return [options.everyServerAt];
      if (server.ip && isIP(server.ip)) return [server.ip];
      try {
        return await withResolver(options, options.resolvers, signal, (resolver) =>
          resolver.resolve4(server.ns),
        );
      } catch {
        return [];
      }
    },

    async ask(address, name, type, signal): Promise<ProbeResult> {
      try {
        const raw = await withResolver(options, [serverAt(address, options.port)], signal, (resolver) =>
          query(resolver, name, type),
        );
        return { kind: 'answer', values: raw.map((r) => comparableAnswer(type, r)) };
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? '';
        // No such name, or no record of the type there: an answer, with nothing in it.
        if (code === 'ENOTFOUND' || code === 'ENODATA') return { kind: 'answer', values: [] };
        return { kind: 'failed', reason: FAILURES[code] ?? 'unreachable' };
      }
    },
  };
}
