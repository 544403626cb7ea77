import type { BotContext } from '../context.js';

/**
 * The allow-list (`ALLOWED_USER_IDS`): anyone else gets a polite refusal before any provider
 * call or storage write. Updates without a user (channel posts) are ignored.
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
    }
  };
}
