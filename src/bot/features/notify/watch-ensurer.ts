import type { Logger } from '../../../logger.js';
import { errorForLog } from '../../../logger.js';
import type { ChatData } from '../../../storage/chat-data.js';
import type { BotContext, WatchPort } from '../../context.js';

/**
 * Makes sure every account of a chat is watched, once per chat and process: tokens connected
 * before the watchers existed, or while NOTIFY_INTERVAL_S was 0, start being watched on the chat's
 * next update — each account's, not only the one the update acts on (a watch is per token; a chat
 * of two accounts is attached to two watches). A chat without accounts costs one look at the
 * document's account numbers (nothing opened); a chat with accounts opens them once per process.
 * An account added later is connected by the flow that adds it. A failure is logged, never shown,
 * and tried again on the chat's next update.
 */
export function createWatchEnsurer(chatData: ChatData, watches: WatchPort, logger: Logger) {
  const ensured = new Set<number>();
  return async (ctx: BotContext, next: () => Promise<void>) => {
    const chatId = ctx.chat?.id;
    if (chatId !== undefined && !ensured.has(chatId) && (await chatData.accountNumbers(chatId)).length > 0) {
      const accounts = await chatData.listAccounts(chatId);
      const outcomes = await Promise.allSettled(
        accounts.map((account) => watches.ensureWatched(chatId, account.token)),
      );
      const failed = outcomes.flatMap((outcome, index) =>
        outcome.status === 'rejected'
          ? [{ account: accounts[index]?.n, reason: outcome.reason as unknown }]
          : [],
      );
      for (const { account, reason } of failed) {
        logger.warn({ chatId, account, err: errorForLog(reason) }, 'could not start watching a token');
      }
      if (accounts.length > 0 && failed.length === 0) ensured.add(chatId);
    }
    return next();
  };
}
