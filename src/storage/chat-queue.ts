/**
 * Runs operations on one chat one after another, while different chats proceed in parallel.
 * Both stores use it: lowdb because its writer must not see interleaved read-modify-writes,
 * Redis because optimistic retries between tasks of one process would only waste round trips.
 */

/** Per-chat serial execution with a way to wait for everything in flight. */
export interface ChatQueue {
  /** Runs `task` after every earlier task of the same chat has settled. */
  run<T>(chatId: number, task: () => Promise<T>): Promise<T>;
  /** Resolves once every task queued so far has settled. */
  drain(): Promise<void>;
  /** Whether a task of this chat is queued or running. */
  isBusy(chatId: number): boolean;
}

/** Creates an empty queue; idle chats leave no trace in it. */
export function createChatQueue(): ChatQueue {
  const tails = new Map<number, Promise<void>>();

  return {
    run(chatId, task) {
      const previous = tails.get(chatId) ?? Promise.resolve();
      const result = previous.then(task);
      const tail = result.then(
        () => undefined,
        () => undefined,
      );
      tails.set(chatId, tail);
      void tail.then(() => {
        // Only the last task of a chat removes the entry, so the map holds busy chats only.
        if (tails.get(chatId) === tail) tails.delete(chatId);
      });
      return result;
    },
    async drain() {
      while (tails.size > 0) await Promise.all(tails.values());
    },
    isBusy(chatId) {
      return tails.has(chatId);
    },
  };
}
