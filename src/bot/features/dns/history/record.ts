import { Markup } from 'telegraf';
import type { InlineKeyboardButton } from 'telegraf/types';
import type { HistoryChange, HistoryEntry, HistoryKind } from '../../../../core/dns-history.js';
import type { DnsRecorder } from '../../../../services/dns-journal.js';
import type { BotContext } from '../../../context.js';
import type { Translate } from '../../../kit/i18n.js';
import { encodeCallback } from '../../../registry.js';

/**
 * The DNS change history as the DNS feature uses it: bound to the chat's token (so a private chat
 * and a team group on one token share it) and to the update's author. Handed to the DNS parts as
 * a dependency (`DnsPorts`); without a history store it records nothing and lists nothing.
 */
export interface DnsJournal {
  /**
   * Records one change the provider accepted, the one call at each change point (like
   * `announce`). Never throws: a failure is logged and gives undefined, so a change that was made
   * is never reported as an error. Returns the entry for an Undo button.
   */
  record(
    ctx: BotContext,
    orderId: number,
    kind: HistoryKind,
    change: HistoryChange,
    undoes?: string,
  ): Promise<HistoryEntry | undefined>;
  /** The domain order's entries, newest first. */
  list(ctx: BotContext, orderId: number): Promise<HistoryEntry[]>;
}

/** The journal over the services' recorder, the update's chat and author filled in. */
export function createDnsJournal(recorder: DnsRecorder): DnsJournal {
  return {
    async record(ctx, orderId, kind, change, undoes) {
      const chatId = ctx.chat?.id;
      if (chatId === undefined) return undefined;
      const who = { chatId, userId: ctx.from?.id ?? 0, name: ctx.from?.first_name ?? '' };
      return recorder.record(who, orderId, kind, change, undoes);
    },
    async list(ctx, orderId) {
      const chatId = ctx.chat?.id;
      return chatId === undefined ? [] : recorder.list(chatId, orderId);
    },
  };
}

/** "↩ Undo" for a recorded change; none when it was not recorded. */
export function undoButtons(
  t: Translate,
  orderId: number,
  entry: HistoryEntry | undefined,
): InlineKeyboardButton[] {
  return entry === undefined
    ? []
    : [Markup.button.callback(t('dnshistory:undoButton'), encodeCallback('dnsUndo', orderId, entry.id))];
}
