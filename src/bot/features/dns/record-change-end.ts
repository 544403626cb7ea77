import type { Markup } from 'telegraf';
import type { InlineKeyboardMarkup } from 'telegraf/types';
import type { DnsRecordData } from '../../../core/dns-records.js';
import type { BotContext } from '../../context.js';
import { announce } from '../team/announce.js';
import { checkChangeLive, type LiveCheckPort } from './live-check/live-check.js';

/** What a record's add, delete or change ended with: the reply, and what the team and the live check hear. */
export interface RecordChangeEnd {
  orderId: number;
  /** The reply, HTML. */
  html: string;
  keyboard?: Markup.Markup<InlineKeyboardMarkup> | undefined;
  /** The team's announcement, and the record(s) it names (HTML). */
  announce: 'dnsAdded' | 'dnsDeleted' | 'dnsChanged';
  record: string;
  /** What the name servers should now answer with, and no longer. */
  change: { added?: readonly DnsRecordData[]; removed?: readonly DnsRecordData[] };
}

/**
 * How every change of records one by one ends (an add, a delete, a change by ✏️ or `set`): the
 * reply, then the bound team hears of it, then the live check, which edits that reply when the
 * name servers show the change — in this order, once per change.
 */
export async function endRecordChange(
  ctx: BotContext,
  liveChecks: LiveCheckPort | undefined,
  end: RecordChangeEnd,
): Promise<void> {
  const sent = await ctx.reply(end.html, { parse_mode: 'HTML', ...(end.keyboard ?? {}) });
  await announce(ctx, end.announce, { record: end.record, orderId: end.orderId });
  await checkChangeLive(
    liveChecks,
    ctx,
    sent,
    { html: end.html, keyboard: end.keyboard?.reply_markup },
    end.orderId,
    end.change,
  );
}
