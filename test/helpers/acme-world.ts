/*
 * The gateway's ACME protocols in process, for their stories: the gateway world
 * (`gateway-world.ts`) with the sandbox's DNS server as every name server of the domain, and a
 * certificate key's fixture.
 */
import type { Redis } from 'ioredis';
import type { Sandbox } from '../../src/sandbox/server.js';
import type { KeyStopReason, KeyUseReport } from '../../src/services/key-reports.js';
import { type GatewayWorld, startGatewayWorld } from './gateway-world.js';

/** The gateway world as the ACME stories read it: what the chat was told, by its two lists. */
export interface AcmeWorld extends GatewayWorld {
  uses: KeyUseReport[];
  stops: { keyId: string; reason: KeyStopReason }[];
}

export async function startAcmeWorld(
  sandbox: Sandbox,
  options: { waitMs?: number; redis?: { client: Redis; prefix: string } } = {},
): Promise<AcmeWorld> {
  const world = await startGatewayWorld({
    providerUrl: sandbox.url,
    dnsPort: sandbox.dns?.port ?? 0,
    providerRetries: true,
    ...options,
  });
  return { ...world, uses: world.reports.uses, stops: world.reports.stops };
}
