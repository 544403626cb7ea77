import type { Composer, MiddlewareFn } from 'telegraf';
import type { BotContext } from '../context.js';

function commandOf(ctx: BotContext): string | undefined {
  const text = ctx.message && 'text' in ctx.message ? ctx.message.text : undefined;
  return text?.startsWith('/') ? text : undefined;
}

/**
 * A scene's middleware stack: commands never reach the scene's answer handlers. A command other
 * than /cancel leaves the scene first and then runs as usual (so `/help` mid-flow is never taken
 * for the answer); /cancel passes on untouched to the global handler, which leaves and says so.
 */
export function sceneAnswers(answers: Composer<BotContext>): MiddlewareFn<BotContext> {
  return async (ctx, next) => {
    const command = commandOf(ctx);
    if (command === undefined) return answers.middleware()(ctx, next);
    if (!/^\/cancel(@\w+)?(\s|$)/.test(command)) await ctx.scene.leave();
    return next();
  };
}
