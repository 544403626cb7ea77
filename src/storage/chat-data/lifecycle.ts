/**
 * The chat as a whole: forgetting it, moving an unreadable record aside, and holding its
 * document for a task (`withChat`). These are the parts that touch the open scope itself.
 */
import type { ChatDocAccess } from './doc-access.js';

/** Whole-chat operations. */
export interface ChatLifecycle {
  /** Forgets everything about the chat: locale, token, profiles, session. */
  wipe(chatId: number): Promise<void>;
  /**
   * Moves a record that cannot be read at all aside for the operator (see `ChatStore.setAside`);
   * returns where it went, or `undefined` when nothing was moved.
   */
  setAside(chatId: number): Promise<string | undefined>;
  /**
   * Runs `task` with the chat's document read at most once: every getter and the session store
   * called for this chat while `task` runs share one `ChatStore.read`, and each write through
   * this ChatData (still a `ChatStore.update`) refreshes that shared copy. The bot wraps each
   * update in it, so locale, token and session come from one read. Only for work that holds the
   * chat (the per-chat queue, and across instances the chat lock): a write that bypasses this
   * ChatData meanwhile would not be seen until the task ends.
   */
  withChat<T>(chatId: number, task: () => Promise<T>): Promise<T>;
}

/** The whole-chat part of `ChatData` over the shared document. */
export function createChatLifecycle(access: ChatDocAccess): ChatLifecycle {
  return {
    async wipe(chatId) {
      access.forget(chatId);
      await access.store.remove(chatId);
      // Removed is known to be empty: the scope needs no read to say so.
      const scope = access.scope(chatId);
      if (scope !== undefined) scope.doc = Promise.resolve(undefined);
    },

    async setAside(chatId) {
      const setAsideAs = await access.store.setAside(chatId);
      access.forget(chatId);
      return setAsideAs;
    },

    withChat(chatId, task) {
      return access.withScope(chatId, task);
    },
  };
}
