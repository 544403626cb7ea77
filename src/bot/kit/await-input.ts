import { Composer, Scenes } from 'telegraf';
import type { BotContext } from '../context.js';
import { UserInputError } from '../errors.js';
import { describeError } from '../middlewares/errors.js';
import { QUESTION_WORDS, sceneAnswers } from './scene-answers.js';

export const AWAIT_INPUT_SCENE = 'await-input';

/** What the awaited text or file is for, with the ids it needs. */
export interface AwaitedInput {
  purpose: string;
  orderId: number;
}

/** The scene state read as an `AwaitedInput`, or `undefined` when it is not one. */
export function readAwaitedInput(state: object): AwaitedInput | undefined {
  if (!('purpose' in state && 'orderId' in state)) return undefined;
  const { purpose, orderId } = state;
  return typeof purpose === 'string' && typeof orderId === 'number' ? { purpose, orderId } : undefined;
}

/** Handles the awaited text (or a file's content) for one purpose; throws UserInputError to ask again. */
export type InputHandler = (ctx: BotContext, input: AwaitedInput, text: string) => Promise<void>;

/**
 * A one-question scene: "send the name servers", "send the zone file". The answer (text, or a
 * document's content) goes to the handler of the purpose; a wrong answer asks again.
 */
export function createAwaitInputScene(
  handlers: Record<string, InputHandler>,
  downloadFile: (ctx: BotContext, fileId: string) => Promise<string>,
) {
  const scene = new Scenes.BaseScene<BotContext>(AWAIT_INPUT_SCENE);
  const answers = new Composer<BotContext>();
  const handle = async (ctx: BotContext, read: () => Promise<string>) => {
    const input = readAwaitedInput(ctx.scene.state);
    const handler = input ? handlers[input.purpose] : undefined;
    if (!input || !handler) return ctx.scene.leave();
    try {
      const text = await read();
      await ctx.scene.leave();
      await handler(ctx, input, text);
    } catch (error) {
      if (!(error instanceof UserInputError)) throw error;
      // Still waiting: say what was wrong; the next message is another try.
      if (!ctx.scene.current) await ctx.scene.enter(AWAIT_INPUT_SCENE, input, true);
      await ctx.reply(describeError(error, ctx.t) ?? '', { parse_mode: 'HTML' });
    }
  };
  answers.on('text', (ctx) => handle(ctx, async () => ctx.message.text));
  answers.on('document', (ctx) =>
    handle(ctx, async () => {
      if ((ctx.message.document.file_size ?? 0) > 1024 * 1024) throw new UserInputError('dns:fileTooLarge');
      return downloadFile(ctx, ctx.message.document.file_id);
    }),
  );
  answers.on('message', (ctx) => ctx.reply(ctx.t('dns:textOrFile')));
  scene.use(sceneAnswers(answers, QUESTION_WORDS));
  return scene;
}
