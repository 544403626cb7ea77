import { createChatQueue } from '../../storage/chat-queue.js';
import type { BotContext } from '../context.js';

/**
 * Runs the updates of one chat one after another: Telegram delivers a button press and a
 * message of one user concurrently, and both read and write the same session. Different chats
 * still run in parallel. Updates without a chat (rare) fall back to the user id.
 */
export function createSequentializer() {
  const queue = createChatQueue();
  const middleware = (ctx: BotContext, next: () => Promise<void>) => {
    const key = ctx.chat?.id ?? ctx.from?.id;
    if (key === undefined) return next();
    return queue.run(key, next);
  };
  return { middleware, drain: () => queue.drain() };
}
