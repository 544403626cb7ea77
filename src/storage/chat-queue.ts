/**
 * Runs operations on one chat one after another, while different chats proceed in parallel.
 * Both stores use it: lowdb because its writer must not see interleaved read-modify-writes,
 * Redis because optimistic retries between tasks of one process would only waste round trips.
 */

/** Per-chat serial execution with a way to wait for everything in flight. */
export interface ChatQueue<K extends number | string = number> {
  /** Runs `task` after every earlier task of the same chat has settled. */
  run<T>(chatId: K, task: () => Promise<T>): Promise<T>;
  /** Resolves once every task queued so far has settled. */
  drain(): Promise<void>;
  /** Whether a task of this chat is queued or running. */
  isBusy(chatId: K): boolean;
}

/** Creates an empty queue (keyed by chat id, or by any other name); idle keys leave no trace. */
export function createChatQueue<K extends number | string = number>(): ChatQueue<K> {
  const tails = new Map<K, Promise<void>>();

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
