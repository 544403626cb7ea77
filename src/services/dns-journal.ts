/*
 * Recording DNS changes in the history, by whoever made them (a chat's update, the Mini App): the
 * history is kept per token, so a private chat, its team group and the app on one token share it.
 */
import type { HistoryAuthor, HistoryChange, HistoryEntry, HistoryKind } from '../core/dns-history.js';
import type { Logger } from '../logger.js';
import { errorForLog } from '../logger.js';
import type { ChatData } from '../storage/chat-data.js';
import type { DnsHistory } from '../storage/dns-history.js';
import { watchIdOf } from '../storage/watch-store.js';

/** The history as both faces write and read it; without a history store it keeps nothing. */
export interface DnsRecorder {
  /**
   * Records one change the provider accepted. Never throws: a failure is logged and gives
   * undefined, so a change that was made is never reported as an error. Returns the entry (for
   * an Undo button); none for a change that changed nothing.
   */
  record(
    who: HistoryAuthor,
    orderId: number,
    kind: HistoryKind,
    change: HistoryChange,
    undoes?: string,
  ): Promise<HistoryEntry | undefined>;
  /** The domain order's entries as the chat's account in use (or `account`) sees them, newest first. */
  list(chatId: number, orderId: number, account?: number): Promise<HistoryEntry[]>;
}

export function createDnsRecorder(deps: {
  chatData: Pick<ChatData, 'getToken' | 'getAccount'>;
  dnsHistory: DnsHistory | undefined;
  logger: Logger;
  /**
   * Told of every change of a zone, whoever made it (the chat, the app, a robot's key): what the
   * gateway's cached addresses of that zone depend on.
   */
  zoneChanged?: ((accountId: string, orderId: number) => Promise<void>) | undefined;
}): DnsRecorder {
  const { chatData, dnsHistory, logger, zoneChanged } = deps;
  /** The token of the chat's account in use, or of the one `account` names. */
  const tokenOf = async (chatId: number, account?: number) => {
    const value =
      account === undefined
        ? await chatData.getToken(chatId)
        : (await chatData.getAccount(chatId, account))?.token;
    if (value === undefined) throw new Error('no token stored for this chat');
    return value;
  };
  return {
    async record(who, orderId, kind, change, undoes) {
      if (zoneChanged) {
        await tokenOf(who.chatId, who.account)
          .then((token) => zoneChanged(watchIdOf(token), orderId))
          .catch((error: unknown) =>
            logger.warn({ chatId: who.chatId, orderId, err: errorForLog(error) }, 'zone change not told'),
          );
      }
      if (dnsHistory === undefined) return undefined;
      // Nothing to undo in a change that changed nothing.
      if ('records' in change && change.records.length === 0) return undefined;
      try {
        return await dnsHistory.record(await tokenOf(who.chatId, who.account), orderId, {
          kind,
          who,
          change,
          undoes,
        });
      } catch (error) {
        logger.warn(
          { chatId: who.chatId, orderId, kind, err: errorForLog(error) },
          'dns history not recorded',
        );
        return undefined;
      }
    },
    async list(chatId, orderId, account) {
      if (dnsHistory === undefined) return [];
      return dnsHistory.list(await tokenOf(chatId, account), orderId);
    },
  };
}
