import type { Markup } from 'telegraf';
import type { InlineKeyboardMarkup } from 'telegraf/types';
import type { DnsRecordData } from '../../../core/dns-records.js';
import type { BotContext } from '../../context.js';
import { renderAnnouncement } from '../team/announce.js';
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
  /** Lines of the reply besides what the announcement says too (HTML): kept under it in a team. */
  notes?: readonly string[];
  /** What the name servers should now answer with, and no longer. */
  change: { added?: readonly DnsRecordData[]; removed?: readonly DnsRecordData[] };
}

/**
 * How every change of records one by one ends (an add, a delete, a change by ✏️ or `set`): one
 * reply, then the live check, which edits that reply when the name servers show the change. In a
 * bound team group the reply is the announcement itself (who changed what, with the reply's
 * buttons and notes): the group sees the change once, not as «Запись изменена» and then again as
 * «📣 Ольга (техник) изменил(а)…».
 */
export async function endRecordChange(
  ctx: BotContext,
  liveChecks: LiveCheckPort | undefined,
  end: RecordChangeEnd,
): Promise<void> {
  const told = await renderAnnouncement(ctx, end.announce, { record: end.record, orderId: end.orderId });
  const html = told === undefined ? end.html : [told, ...(end.notes ?? [])].join('\n');
  const sent = await ctx.reply(html, {
    parse_mode: 'HTML',
    link_preview_options: { is_disabled: true },
    ...(end.keyboard ?? {}),
  });
  await checkChangeLive(
    liveChecks,
    ctx,
    sent,
    { html, keyboard: end.keyboard?.reply_markup },
    end.orderId,
    end.change,
  );
}
