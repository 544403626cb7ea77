import type { RobotChallenges } from '../services/robot-challenges.js';
import type { RobotKeys } from '../storage/robot-keys.js';
import type { KeyCheckPort } from './credentials.js';

/**
 * What the ACME protocols (httpreq, acme-dns) are built from: a part of the gateway's
 * dependencies (`index.ts` hands them all), named here so that neither module imports `index.ts`,
 * which imports them.
 */
export interface ChallengeProtocolDeps {
  keys: KeyCheckPort;
  challenges: RobotChallenges;
  robotKeys: Pick<RobotKeys, 'noteUse'>;
  trustedProxies: readonly string[];
  countUpdate(protocol: string, outcome: string): void;
}
