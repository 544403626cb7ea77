import type { Logger } from '../../logger.js';
import type { BotContext } from '../context.js';
import type { ActionTable, ArgsOf, CallbackCodec } from './callback-data.js';

/** Handles one decoded button press of action `A`; the callback query is already answered. */
export type CallbackHandler<T extends ActionTable, A extends keyof T> = (
  ctx: BotContext,
  ...args: ArgsOf<T, A>
) => Promise<void>;

/**
 * Routes button presses through the one callback-data codec. Every press is answered at once,
 * before any provider call, so the button stops spinning; a stale or foreign button is told it
 * expired and loses its keyboard.
 */
export class CallbackRouter<T extends ActionTable> {
  private readonly handlers = new Map<
    string,
    { run: (ctx: BotContext, args: readonly (string | number)[]) => Promise<void>; selfAnswer: boolean }
  >();

  constructor(
    private readonly logger: Logger,
    private readonly codec: CallbackCodec<T>,
  ) {}

  /**
   * Registers the handler of an action. With `selfAnswer` the handler answers the query itself
   * (to show a text such as "already submitted"), and must do so before any provider call.
   * Throws when the action already has a handler: two features claiming one button is a wiring
   * mistake, found at start rather than by the partner's tap.
   */
  on<A extends keyof T & string>(
    action: A,
    handler: CallbackHandler<T, A>,
    options: { selfAnswer?: boolean } = {},
  ): this {
    if (this.handlers.has(action)) throw new Error(`callback action "${action}" is registered twice`);
    this.handlers.set(action, {
      // The codec decoded these arguments against this very action's kinds.
      run: (ctx, args) => handler(ctx, ...(args as ArgsOf<T, A>)),
      selfAnswer: options.selfAnswer ?? false,
    });
    return this;
  }

  /** The actions of the table that no handler answers (createBot refuses to start with any). */
  unhandled(table: T): string[] {
    return Object.keys(table).filter((action) => !this.handlers.has(action));
  }

  middleware() {
    return async (ctx: BotContext, next: () => Promise<void>) => {
      const query = ctx.callbackQuery;
      if (query === undefined) return next();
      const decoded = this.codec.decode('data' in query ? query.data : undefined);
      const handler = decoded && this.handlers.get(decoded.action);
      if (!decoded || !handler) {
        await ctx.answerCbQuery(ctx.t('common:buttonExpired'));
        await ctx.editMessageReplyMarkup(undefined).catch((error: unknown) => {
          this.logger.debug({ err: String(error) }, 'could not remove an expired keyboard');
        });
        return;
      }
      if (!handler.selfAnswer) await ctx.answerCbQuery();
      await handler.run(ctx, decoded.args);
    };
  }
}
