/*
 * What the gateway's protocol modules are built from, apart from `index.ts` (which imports every
 * module): a module imports these types from here, so no module and the index import each other.
 */
import type { Logger } from '../logger.js';
import type { KeyChanges } from '../services/key-changes.js';
import type { RobotChallenges } from '../services/robot-challenges.js';
import type { GatewayState } from '../storage/gateway-state.js';
import type { RobotKeys } from '../storage/robot-keys.js';
import type { KeyCheckPort } from './credentials.js';

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
