/*
 * What the chat is told of robots' work with its keys: the services (the robots' address updates
 * and ACME challenges) decide when to tell, the bot words and sends it (a port main hands over),
 * as the Mini App's edits are reported (`zone-editing.ts`).
 */
import type { HistoryEntry } from '../core/dns-history.js';
import type { RobotKey } from '../storage/robot-keys.js';
import type { ChangesOutcome } from './dns-apply.js';

/** One change a key made, told in the key's chat (a private chat, or its team group). */
export interface KeyUseReport {
  key: RobotKey;
  /** The zone's domain, ASCII. */
  domain: string;
  /** What was made at the provider, in order (and what failed). */
  outcome: ChangesOutcome;
  /** The history entry, for ↩ Undo; none when no history is kept. */
  entry: HistoryEntry | undefined;
  /** Changes of this key since its last message that were not told one by one (folded). */
  folded: number;
}

/** Why a key stopped working without being revoked: its account's token is gone or refused. */
export type KeyStopReason = 'disconnected' | 'refused';

/** Sends what the chat is told of its keys (the bot implements it). */
export interface KeyReportPort {
  reportKeyUse(report: KeyUseReport): Promise<void>;
  /** A key refused because of its account; told once per key until it works again. */
  reportKeyStopped(report: { key: RobotKey; reason: KeyStopReason }): Promise<void>;
}
