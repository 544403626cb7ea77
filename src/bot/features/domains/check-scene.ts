import { Composer, Scenes } from 'telegraf';
import type { BotContext } from '../../context.js';
import { QUESTION_WORDS, sceneAnswers } from '../../kit/scene-answers.js';

export const CHECK_SCENE = 'check';

/** `/check` without names: the next text message is the list to check. */
export function createCheckScene(check: (ctx: BotContext, text: string) => Promise<void>) {
  const scene = new Scenes.BaseScene<BotContext>(CHECK_SCENE);
  const answers = new Composer<BotContext>();
  scene.enter((ctx) => ctx.reply(ctx.t('domains:checkAsk')));
  answers.on('text', async (ctx) => {
    await ctx.scene.leave();
    await check(ctx, ctx.message.text);
  });
  answers.on('message', (ctx) => ctx.reply(ctx.t('domains:checkAsText')));
  scene.use(sceneAnswers(answers, QUESTION_WORDS));
  return scene;
}
