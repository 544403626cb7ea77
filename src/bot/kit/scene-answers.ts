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

/** What a scene says about itself around a command typed while it is open. */
export interface SceneCommandWords {
  /** After `/help` is answered: says what is still open (the form, the question) and how to leave it. */
  stillOpen?: (ctx: BotContext) => Promise<unknown>;
  /** When another command leaves the scene: what was closed, before the command runs. */
  left?: (ctx: BotContext) => string | undefined;
}

/**
 * A scene's middleware stack, one rule for every form and question. `/cancel` passes on to the
 * global handler, which leaves and says so. `/help` is answered and the scene stays open (its
 * `stillOpen` words follow the help). `/token <token>` is taken at once (its message must not stay
 * in the chat) and the scene stays. Any other command leaves the scene, as telegraf's scenes do,
 * says what was closed (`left`) and runs as usual; it is never taken for an answer.
 */
export function sceneAnswers(
  answers: Composer<BotContext>,
  words: SceneCommandWords = {},
): MiddlewareFn<BotContext> {
  return async (ctx, next) => {
    const command = commandOf(ctx);
    if (command === undefined) return answers.middleware()(ctx, next);
    if (/^\/cancel(@\w+)?(\s|$)/.test(command)) return next();
    if (/^\/token(@\w+)?\s+\S/.test(command)) return next();
    if (/^\/help(@\w+)?(\s|$)/.test(command)) {
      await next();
      await words.stillOpen?.(ctx);
      return;
    }
    const left = words.left?.(ctx);
    await ctx.scene.leave();
    // In a group: to the member whose form or question it was.
    if (left) await ctx.toMember.reply(left, { parse_mode: 'HTML' });
    return next();
  };
}

/** The words of a one-question scene (a zone file, a token, a domain to check). */
export const QUESTION_WORDS: SceneCommandWords = {
  stillOpen: (ctx) => ctx.reply(ctx.t('common:questionStillOpen')),
  left: (ctx) => ctx.t('common:questionLeft'),
};
