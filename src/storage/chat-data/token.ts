/** The chat's partner API token, sealed for the chat. */
import type { ChatDoc } from '../chat-store.js';
import { type ChatDocAccess, type Opened, toError } from './doc-access.js';

/** The partner API token of a chat. */
export interface ChatTokens {
  /** The partner API token in clear text; undefined when none is stored or it no longer opens. */
  getToken(chatId: number): Promise<string | undefined>;
  setToken(chatId: number, token: string): Promise<void>;
  clearToken(chatId: number): Promise<void>;
}

/** The token part of `ChatData` over the shared document. */
export function createChatTokens(access: ChatDocAccess): ChatTokens {
  function openToken(chatId: number, doc: ChatDoc): Opened<string | undefined> {
    if (doc.token === undefined) return { ok: true, value: undefined };
    try {
      return { ok: true, value: access.open(doc.token, chatId) };
    } catch (error) {
      return { ok: false, error: toError(error) };
    }
  }

  return {
    async getToken(chatId) {
      const doc = await access.read(chatId);
      if (doc === undefined) return undefined;
      const opened = openToken(chatId, doc);
      if (opened.ok) return opened.value;
      access.report(chatId, 'token', opened.error);
      return undefined;
    },

    async setToken(chatId, token) {
      // Sealed outside `update`: a retried change must not seal again with a new IV for nothing.
      const sealed = access.seal(token, chatId);
      await access.update(chatId, (doc) => ({ ...doc, token: sealed }));
    },

    async clearToken(chatId) {
      await access.update(chatId, ({ token: _dropped, ...rest }) => rest);
    },
  };
}
