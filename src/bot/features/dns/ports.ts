import type { DnsJournal } from './history/record.js';
import type { LiveCheckPort } from './live-check/live-check.js';

/**
 * What the DNS parts are handed besides the partner API (which comes with the update): the change
 * history behind `/dns <domain> history` and the Undo buttons, and the live check after changes
 * (absent when the bot runs without one: not offered).
 */
export interface DnsPorts {
  readonly journal: DnsJournal;
  readonly liveChecks: LiveCheckPort | undefined;
}
