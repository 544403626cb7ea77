/*
 * Whether a domain's name servers serve a value yet: the live check's rules (core/dns-check.ts)
 * over its network part (DnsProbe), without the chat's message. A robot's ACME `present` is
 * answered only once every name server of the domain answers the new TXT value, so the CA that
 * asks next finds it; the wait is bounded, since the robot's HTTP client gives up in the end.
 */
import type { PartnerApi } from '../api/index.js';
import {
  type DnsProbe,
  type Expectation,
  judge,
  type ProbeResult,
  retryDelay,
  summarizeRound,
} from '../core/dns-check.js';

/** Waiting between rounds; tests give one that does not really wait. */
export interface ServedClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realServedClock: ServedClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export interface ServedCheck {
  probe: DnsProbe;
  clock?: ServedClock;
  /** Pauses between rounds (default the live check's: 2 s, 4 s, 8 s…), capped by what is left. */
  delayMs?: (attempt: number) => number;
}

/**
 * Asks every name server of the order's domain until each serves what `expectation` says, or
 * `limitMs` has passed: true when all served it. No name servers, or none with an address, is
 * false (nothing can be said to serve it).
 */
export async function waitUntilServed(
  check: ServedCheck,
  api: Pick<PartnerApi, 'listNameServers'>,
  orderId: number,
  expectation: Expectation,
  limitMs: number,
): Promise<boolean> {
  const clock = check.clock ?? realServedClock;
  const delayOf = check.delayMs ?? retryDelay;
  const started = clock.now();
  const servers = await api.listNameServers(orderId).catch(() => []);
  if (servers.length === 0) return false;
  const addresses = new Map<string, string[]>();
  for (let attempt = 0; ; attempt++) {
    const rounds = await Promise.all(
      servers.map(async (server) => {
        let found = addresses.get(server.ns);
        if (!found || found.length === 0) {
          found = await check.probe.addressesOf(server);
          addresses.set(server.ns, found);
        }
        let result: ProbeResult = { kind: 'failed', reason: 'noAddress' };
        for (const address of found) {
          result = await check.probe.ask(address, expectation.name, expectation.type);
          if (result.kind === 'answer') break;
        }
        return { server: server.ns, sighting: judge(expectation, result) };
      }),
    );
    if (summarizeRound(rounds).done) return true;
    const left = limitMs - (clock.now() - started);
    if (left <= 0) return false;
    await clock.sleep(Math.min(delayOf(attempt), left));
  }
}
