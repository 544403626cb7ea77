import { createChatQueue } from '../../storage/chat-queue.js';
import type { ChatLock } from '../../storage/redis-coordination.js';
import type { BotContext } from '../context.js';

/**
 * Runs the updates of one chat one after another: Telegram delivers a button press and a
 * message of one user concurrently, and both read and write the same session. Different chats
 * still run in parallel. Updates without a chat (inline mode) queue with the user's private chat,
 * whose id is the user's: they read that chat's record (language, token). With several
 * instances (STORAGE=redis) a shared lock extends the rule across processes.
 */
export function createSequentializer(shared?: ChatLock) {
  const queue = createChatQueue();
  const middleware = (ctx: BotContext, next: () => Promise<void>) => {
    const key = ctx.chat?.id ?? ctx.from?.id;
    if (key === undefined) return next();
    // In-process order first; the shared lock then keeps other instances out of this chat.
    return queue.run(key, shared ? () => shared.run(key, next, { updateId: ctx.update.update_id }) : next);
  };
  return { middleware, drain: () => queue.drain() };
}
