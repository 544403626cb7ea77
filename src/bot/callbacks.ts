import type { Logger } from '../logger.js';
import type { BotContext } from './context.js';
import { type ArgsOf, type CallbackAction, decodeCallback } from './keyboards/callback-data.js';

/** Handles one decoded button press; the callback query is already answered. */
export type CallbackHandler<A extends CallbackAction> = (
  ctx: BotContext,
  ...args: ArgsOf<A>
) => Promise<void>;

/**
 * Routes button presses through the one callback-data codec. Every press is answered at once,
 * before any provider call, so the button stops spinning; a stale or foreign button is told it
 * expired and loses its keyboard.
 */
export class CallbackRouter {
  private readonly handlers = new Map<CallbackAction, (ctx: BotContext, args: unknown[]) => Promise<void>>();

  constructor(private readonly logger: Logger) {}

  on<A extends CallbackAction>(action: A, handler: CallbackHandler<A>): this {
    this.handlers.set(action, (ctx, args) => handler(ctx, ...(args as ArgsOf<A>)));
    return this;
  }

  middleware() {
    return async (ctx: BotContext, next: () => Promise<void>) => {
      const query = ctx.callbackQuery;
      if (query === undefined) return next();
      const decoded = decodeCallback('data' in query ? query.data : undefined);
      const handler = decoded && this.handlers.get(decoded.action);
      if (!decoded || !handler) {
        await ctx.answerCbQuery(ctx.t('common:buttonExpired'));
        await ctx.editMessageReplyMarkup(undefined).catch((error: unknown) => {
          this.logger.debug({ err: String(error) }, 'could not remove an expired keyboard');
        });
        return;
      }
      await ctx.answerCbQuery();
      await handler(ctx, decoded.args as unknown[]);
    };
  }
}
