import type { BotContext } from '../context.js';

/** How long Telegram may reuse the empty answer for that user: the allow-list may grow meanwhile. */
const INLINE_REFUSAL_CACHE_S = 60;

/**
 * The allow-list (`ALLOWED_USER_IDS`): anyone else gets a polite refusal before any provider
 * call or storage write; an inline query gets an empty answer (the picker shows nothing, and the
 * refusal is not cached for anyone else). Updates without a user (channel posts) are ignored.
 */
export function createAccessGuard(allowed: ReadonlySet<number> | undefined) {
  return async (ctx: BotContext, next: () => Promise<void>) => {
    const userId = ctx.from?.id;
    if (userId === undefined) return;
    if (allowed === undefined || allowed.has(userId)) return next();
    if (ctx.callbackQuery) {
      await ctx.answerCbQuery(ctx.t('errors:notAllowed'), { show_alert: true });
    } else if (ctx.message) {
      await ctx.reply(ctx.t('errors:notAllowed'));
    } else if (ctx.inlineQuery) {
      await ctx.answerInlineQuery([], { is_personal: true, cache_time: INLINE_REFUSAL_CACHE_S });
    }
  };
}
