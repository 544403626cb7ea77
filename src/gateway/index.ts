/*
 * The robots' face (docs/automation.md): the routes of dyndns2, lego's httpreq and acme-dns on
 * the bot's HTTP server, over the same services the chat and the Mini App run. Each protocol is
 * a module giving its routes from the same dependencies; keys are checked in `credentials.ts`.
 */
import type { HttpRoute } from '../http-server.js';
import type { Logger } from '../logger.js';
import type { KeyChanges } from '../services/key-changes.js';
import type { RobotChallenges } from '../services/robot-challenges.js';
import type { GatewayState } from '../storage/gateway-state.js';
import type { RobotKeys } from '../storage/robot-keys.js';
import { acmeDnsRoutes } from './acme-dns.js';
import { createKeyCheck, type KeyCheckPort } from './credentials.js';
import { httpreqRoutes } from './httpreq.js';

/** What every protocol of the gateway is built from. */
export interface GatewayDeps {
  robotKeys: RobotKeys;
  state: GatewayState;
  /** The key's account, history entry and report (services/key-changes.ts). */
  keyChanges: KeyChanges;
  /** ACME DNS-01 values (services/robot-challenges.ts): httpreq and acme-dns. */
  challenges: RobotChallenges;
  /** Counts one robot request by protocol and outcome (`/metrics`). */
  countUpdate(protocol: string, outcome: string): void;
  /** CIDR networks of proxies whose `X-Forwarded-For` is believed (GATEWAY_TRUSTED_PROXIES). */
  trustedProxies: readonly string[];
  logger: Logger;
}

/** What a protocol module gets: the dependencies and the one key check. */
export interface ProtocolDeps extends GatewayDeps {
  keys: KeyCheckPort;
}

/** The protocols, one line each. */
const PROTOCOLS: ((deps: ProtocolDeps) => HttpRoute[])[] = [httpreqRoutes, acmeDnsRoutes];

export function gatewayRoutes(deps: GatewayDeps): HttpRoute[] {
  const keys = createKeyCheck({ robotKeys: deps.robotKeys, state: deps.state });
  return PROTOCOLS.flatMap((routes) => routes({ ...deps, keys }));
}
