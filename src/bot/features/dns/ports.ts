import type { BotContext } from '../../context.js';
import type { DnsJournal } from './history/record.js';
import type { LiveCheckPort } from './live-check/live-check.js';

/**
 * What the DNS parts are handed besides the partner API (which comes with the update): the change
 * history behind `/dns <domain> history` and the Undo buttons, the live check after changes
 * (absent when the bot runs without one: not offered), and writing the session at once.
 */
export interface DnsPorts {
  readonly journal: DnsJournal;
  readonly liveChecks: LiveCheckPort | undefined;
  /** Writes the chat's session now, not at the end of the update: a change between its calls. */
  persistSession(ctx: BotContext): Promise<void>;
}
