import type { Composer, MiddlewareFn } from 'telegraf';
import type { BotContext } from '../context.js';

function commandOf(ctx: BotContext): string | undefined {
  const text = ctx.message && 'text' in ctx.message ? ctx.message.text : undefined;
  return text?.startsWith('/') ? text : undefined;
}

/** Whether a message is a command; scenes never take one for an answer. */
export function isCommand(ctx: BotContext): boolean {
  return commandOf(ctx) !== undefined;
}

/**
 * A scene's middleware stack. /cancel always passes on to the global handler, which leaves and
 * says so; so does `/token <token>`, whose message must not stay in the chat. Any other command either leaves the scene and runs as usual (`leave`: short scenes
 * such as the token step, so `/help` is never taken for a token) or reaches the scene's answers,
 * which refuse it and ask again (`stay`: long forms, where a stray command must not lose them).
 */
export function sceneAnswers(
  answers: Composer<BotContext>,
  onCommand: 'leave' | 'stay' = 'leave',
): MiddlewareFn<BotContext> {
  return async (ctx, next) => {
    const command = commandOf(ctx);
    if (command === undefined) return answers.middleware()(ctx, next);
    if (/^\/cancel(@\w+)?(\s|$)/.test(command)) return next();
    // A token pasted on the command line must be deleted and taken at once, even mid-form; the
    // form stays (the one-line /token enters no scene).
    if (/^\/token(@\w+)?\s+\S/.test(command)) return next();
    if (onCommand === 'stay') return answers.middleware()(ctx, next);
    await ctx.scene.leave();
    return next();
  };
}
