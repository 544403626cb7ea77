import type { ApiFactory } from '../../api/index.js';
import type { ChatData } from '../../storage/chat-data.js';
import type { Locale } from '../../storage/chat-store.js';
import { type BotContext, NoTokenError } from '../context.js';
import { pickLocale, type Translations } from '../i18n.js';

/**
 * Gives every update its language (the chat's choice, else Telegram's `language_code`, else the
 * default) and a lazy accessor for the chat's partner API client.
 */
export function createChatContext(deps: {
  chatData: ChatData;
  translations: Translations;
  apiFor: ApiFactory;
  defaultLocale: Locale;
}) {
  return async (ctx: BotContext, next: () => Promise<void>) => {
    const chatId = ctx.chat?.id;
    const stored = chatId === undefined ? undefined : await deps.chatData.getLocale(chatId);
    ctx.locale = stored ?? pickLocale(ctx.from?.language_code, deps.defaultLocale);
    // Reads ctx.locale on every call, so a /lang switch speaks the new language at once.
    ctx.t = (key, options) => deps.translations.t(ctx.locale, key, options);
    ctx.partnerApi = async () => {
      const token = chatId === undefined ? undefined : await deps.chatData.getToken(chatId);
      if (token === undefined) throw new NoTokenError();
      return deps.apiFor(token);
    };
    return next();
  };
}
