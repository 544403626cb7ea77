/** The chat's `/notify` settings: which kinds it is told about, and its quiet hours. */
import { isPlainObject } from '../chat-doc.js';
import type { NotifySettings } from '../chat-store.js';
import type { ChatDocAccess } from './doc-access.js';

/** What `/notify` tells a chat. */
export interface ChatNotify {
  /** The chat's `/notify` settings (`{}`: every kind on, no quiet hours). */
  getNotifySettings(chatId: number): Promise<NotifySettings>;
  setNotifySettings(chatId: number, settings: NotifySettings): Promise<void>;
}

/** The notify part of `ChatData` over the shared document. */
export function createChatNotify(access: ChatDocAccess): ChatNotify {
  return {
    async getNotifySettings(chatId) {
      const settings = (await access.read(chatId))?.notify;
      return isPlainObject(settings) ? settings : {};
    },

    async setNotifySettings(chatId, settings) {
      // The defaults are stored as no settings at all, so an idle chat leaves no document behind.
      const empty = (settings.off ?? []).length === 0 && settings.quiet === undefined;
      await access.update(chatId, ({ notify: _old, ...rest }) =>
        empty ? rest : { ...rest, notify: settings },
      );
    },
  };
}
