import { Markup } from 'telegraf';
import type { InlineKeyboardButton } from 'telegraf/types';
import type { HistoryChange, HistoryEntry, HistoryKind } from '../../../../core/dns-history.js';
import type { Logger } from '../../../../logger.js';
import { errorForLog } from '../../../../logger.js';
import type { ChatData } from '../../../../storage/chat-data.js';
import type { DnsHistory } from '../../../../storage/dns-history.js';
import type { BotContext } from '../../../context.js';
import { encodeCallback } from '../../../kit/callback-data.js';

/**
 * The DNS change history as one update sees it: bound to the chat's token (so a private chat and
 * a team group on one token share it) and to the update's author. Set on the context by
 * `createDnsHistoryAccess`; absent when the bot runs without a history.
 */
export interface DnsHistoryAccess {
  /**
   * Records one change the provider accepted. Never throws: a failure is logged and gives
   * undefined, so a change that was made is never reported as an error.
   */
  record(
    orderId: number,
    kind: HistoryKind,
    change: HistoryChange,
    undoes?: string,
  ): Promise<HistoryEntry | undefined>;
  /** The domain order's entries, newest first. */
  list(orderId: number): Promise<HistoryEntry[]>;
}

/** Gives every update with a chat its `ctx.dnsHistory`. */
export function createDnsHistoryAccess(deps: { chatData: ChatData; dnsHistory: DnsHistory; logger: Logger }) {
  const { chatData, dnsHistory, logger } = deps;
  return async (ctx: BotContext, next: () => Promise<void>) => {
    const chatId = ctx.chat?.id;
    if (chatId === undefined) return next();
    const token = async () => {
      const value = await chatData.getToken(chatId);
      if (value === undefined) throw new Error('no token stored for this chat');
      return value;
    };
    ctx.dnsHistory = {
      async record(orderId, kind, change, undoes) {
        try {
          // Nothing to undo in a change that changed nothing.
          if ('records' in change && change.records.length === 0) return undefined;
          const who = { chatId, userId: ctx.from?.id ?? 0, name: ctx.from?.first_name ?? '' };
          return await dnsHistory.record(await token(), orderId, { kind, who, change, undoes });
        } catch (error) {
          logger.warn({ chatId, orderId, kind, err: errorForLog(error) }, 'dns history not recorded');
          return undefined;
        }
      },
      async list(orderId) {
        return dnsHistory.list(await token(), orderId);
      },
    };
    return next();
  };
}

/**
 * Records a change where it succeeded (one call at each change point, like `announce`): the kind
 * and what changed. Returns the entry for an Undo button, or undefined (no history, or not recorded).
 */
export function recordDnsChange(
  ctx: BotContext,
  orderId: number,
  kind: HistoryKind,
  change: HistoryChange,
): Promise<HistoryEntry | undefined> {
  return ctx.dnsHistory?.record(orderId, kind, change) ?? Promise.resolve(undefined);
}

/** "↩ Undo" for a recorded change; none when it was not recorded. */
export function undoButtons(
  ctx: BotContext,
  orderId: number,
  entry: HistoryEntry | undefined,
): InlineKeyboardButton[] {
  return entry === undefined
    ? []
    : [Markup.button.callback(ctx.t('dnshistory:undoButton'), encodeCallback('dnsUndo', orderId, entry.id))];
}
