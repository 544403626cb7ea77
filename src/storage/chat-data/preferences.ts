/**
 * The chat's plain preferences: the language it speaks and the currency of its last order.
 * Neither is personal, so neither is sealed.
 */
import type { Locale } from '../chat-store.js';
import type { ChatDocAccess } from './doc-access.js';

/** Locale and last currency, per chat. */
export interface ChatPreferences {
  getLocale(chatId: number): Promise<Locale | undefined>;
  setLocale(chatId: number, locale: Locale): Promise<void>;
  getLastCurrencyId(chatId: number): Promise<number | undefined>;
  setLastCurrencyId(chatId: number, currencyId: number): Promise<void>;
}

/** The preferences part of `ChatData` over the shared document. */
export function createChatPreferences(access: ChatDocAccess): ChatPreferences {
  return {
    async getLocale(chatId) {
      const locale = (await access.read(chatId))?.locale;
      return locale === 'ru' || locale === 'en' ? locale : undefined;
    },

    async setLocale(chatId, locale) {
      await access.update(chatId, (doc) => ({ ...doc, locale }));
    },

    async getLastCurrencyId(chatId) {
      const id = (await access.read(chatId))?.lastCurrencyId;
      return Number.isSafeInteger(id) ? id : undefined;
    },

    async setLastCurrencyId(chatId, currencyId) {
      if (!Number.isSafeInteger(currencyId)) throw new TypeError('currency id must be an integer');
      await access.update(chatId, (doc) => ({ ...doc, lastCurrencyId: currencyId }));
    },
  };
}
