import type { Logger } from '../../../logger.js';
import { errorForLog } from '../../../logger.js';
import type { ChatData } from '../../../storage/chat-data.js';
import type { BotContext, WatchPort } from '../../context.js';

/**
 * Makes sure a chat with a stored token is watched, once per chat and process: tokens connected
 * before the watchers existed, or while NOTIFY_INTERVAL_S was 0, start being watched on the chat's
 * next update. The token comes from the update's one store read; a failure is logged, never shown.
 */
export function createWatchEnsurer(chatData: ChatData, watches: WatchPort, logger: Logger) {
  const ensured = new Set<number>();
  return async (ctx: BotContext, next: () => Promise<void>) => {
    const chatId = ctx.chat?.id;
    if (chatId !== undefined && !ensured.has(chatId)) {
      const token = await chatData.getToken(chatId);
      if (token !== undefined) {
        await watches.ensureWatched(chatId, token).then(
          () => ensured.add(chatId),
          (error: unknown) =>
            logger.warn({ chatId, err: errorForLog(error) }, 'could not start watching a token'),
        );
      }
    }
    return next();
  };
}
