import type { ApiFactory } from '../../api/index.js';
import type { Logger } from '../../logger.js';
import type { ChatData } from '../../storage/chat-data.js';
import { CorruptChatDocError } from '../../storage/chat-doc.js';
import type { Locale } from '../../storage/chat-store.js';
import type { BotContext } from '../context.js';
import { NoTokenError } from '../errors.js';
import { pickLocale, type Translations } from '../kit/i18n.js';
import { UpdateTyping, withTyping } from './typing.js';

/**
 * Gives every update its language (the chat's choice, else Telegram's `language_code`, else the
 * default) and a lazy accessor for the chat's partner API client. The rest of the update runs in
 * `chatData.withChat`, so the language, the token and the session come from one store read.
 *
 * It is also where a chat record that cannot be read at all is met and set aside: the stored
 * language is the first thing every update reads of the chat, and this is the one place that has
 * both the language to explain it in and the whole update still ahead of it. (ChatData cannot talk
 * to the partner, and recovering silently inside each of its getters would hide the loss.)
 */
export function createChatContext(deps: {
  chatData: ChatData;
  translations: Translations;
  apiFor: ApiFactory;
  defaultLocale: Locale;
  logger: Logger;
}) {
  /** The stored language; a damaged record is set aside, the partner told, and none returned. */
  async function readStoredLocale(ctx: BotContext, chatId: number): Promise<Locale | undefined> {
    try {
      return await deps.chatData.getLocale(chatId);
    } catch (error) {
      // Without a chat (inline mode) there is no one to tell: the record waits for the private chat.
      if (!(error instanceof CorruptChatDocError) || ctx.chat === undefined) throw error;
    }
    const setAsideAs = await deps.chatData.setAside(chatId);
    // Nothing moved: someone replaced or removed the record meanwhile, so it reads again.
    if (setAsideAs === undefined) return deps.chatData.getLocale(chatId);
    deps.logger.warn({ chatId, setAsideAs }, 'damaged chat record set aside');
    await ctx.reply(ctx.t('errors:chatDataDamaged'));
    return undefined;
  }

  return async (ctx: BotContext, next: () => Promise<void>) => {
    // An update without a chat but with a user (inline mode: `@bot …` typed in any chat, the card
    // chosen there) belongs to the user's private chat, whose id is the user's: its language and
    // token answer it. Nothing is replied there, and its session is not touched (no chat, no key).
    const chatId = ctx.chat?.id ?? ctx.from?.id;
    // Ready before the record is read: whatever that read meets must be told in words.
    ctx.locale = pickLocale(ctx.from?.language_code, deps.defaultLocale);
    // Reads ctx.locale on every call, so a /lang switch speaks the new language at once.
    ctx.t = (key, options) => deps.translations.t(ctx.locale, key, options);
    // The first provider call of the update shows "typing…" (see UpdateTyping); without a chat
    // there is nowhere to show it.
    const typing = ctx.chat === undefined ? undefined : new UpdateTyping(() => ctx.sendChatAction('typing'));
    ctx.partnerApi = async (other) => {
      // The chat's own account: its answers speak of that account's data (headed where several).
      if (other === undefined) ctx.headAccount();
      const account = other ?? chatId;
      const token = account === undefined ? undefined : await deps.chatData.getToken(account);
      if (token === undefined) throw new NoTokenError();
      const api = deps.apiFor(token);
      return typing ? withTyping(api, typing) : api;
    };
    if (chatId === undefined) return next();
    // The rest of the update — the token, the session and its write-back — shares this one read.
    try {
      return await deps.chatData.withChat(chatId, async () => {
        const stored = await readStoredLocale(ctx, chatId);
        if (stored !== undefined) ctx.locale = stored;
        return next();
      });
    } finally {
      typing?.end();
    }
  };
}
