/**
 * Runs operations on one chat one after another, while different chats proceed in parallel.
 * Every store uses it, through `createStoreQueue`: lowdb because its writer must not see
 * interleaved read-modify-writes, Redis because optimistic retries between tasks of one process
 * would only waste round trips. The bot's middleware uses it to take a chat's updates in order.
 */
import { StoreClosedError } from './chat-doc.js';

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

/**
 * The queue a store runs its operations on, closed with the store: once `close` is called, new
 * tasks are refused with `StoreClosedError` and the ones in flight are waited for. Every store
 * (chats, watches, DNS history; lowdb and Redis) is built on one, so none keeps its own flag.
 */
export interface StoreQueue<K extends number | string> {
  /** Runs `task` after the key's earlier tasks; rejects with `StoreClosedError` once closed. */
  run<T>(key: K, task: () => Promise<T>): Promise<T>;
  /** Throws `StoreClosedError` once closed: for checks that must come before anything else. */
  assertOpen(): void;
  /** Whether a task of this key is queued or running. */
  isBusy(key: K): boolean;
  /** Refuses new tasks, then resolves once every task queued so far has settled. */
  close(): Promise<void>;
}

/** Creates an open store queue (keyed by chat id, or by any other name). */
export function createStoreQueue<K extends number | string = number>(): StoreQueue<K> {
  const queue = createChatQueue<K>();
  let closed = false;

  return {
    run(key, task) {
      if (closed) return Promise.reject(new StoreClosedError());
      return queue.run(key, task);
    },
    assertOpen() {
      if (closed) throw new StoreClosedError();
    },
    isBusy: (key) => queue.isBusy(key),
    async close() {
      closed = true;
      await queue.drain();
    },
  };
}
