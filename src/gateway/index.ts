/*
 * The robots' face (docs/automation.md): the routes of dyndns2, lego's httpreq and acme-dns on
 * the bot's HTTP server, over the same services the chat and the Mini App run. Each protocol is
 * a module giving its routes from the same dependencies (`deps.ts`, imported from there so that
 * no module imports this index); keys are checked in `credentials.ts`.
 */
import type { HttpRoute } from '../http-server.js';
import { acmeDnsRoutes } from './acme-dns.js';
import { createKeyCheck } from './credentials.js';
import type { GatewayDeps, ProtocolDeps } from './deps.js';
import { dyndnsRoutes } from './dyndns.js';
import { httpreqRoutes } from './httpreq.js';

export type { GatewayDeps, ProtocolDeps } from './deps.js';

/** The protocols, one line each. */
const PROTOCOLS: ((deps: ProtocolDeps) => HttpRoute[])[] = [dyndnsRoutes, httpreqRoutes, acmeDnsRoutes];

export function gatewayRoutes(deps: GatewayDeps): HttpRoute[] {
  const keys = createKeyCheck({ robotKeys: deps.robotKeys, state: deps.state });
  return PROTOCOLS.flatMap((routes) => routes({ ...deps, keys }));
}
