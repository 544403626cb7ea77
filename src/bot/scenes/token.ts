import { Composer, Scenes } from 'telegraf';
import { type ApiFactory, ApiHttpError } from '../../api/index.js';
import type { Logger } from '../../logger.js';
import type { ChatData } from '../../storage/chat-data.js';
import type { BotContext } from '../context.js';
import { errorForLog } from '../middlewares/errors.js';
import { sceneAnswers } from './guards.js';

export const TOKEN_SCENE = 'token';

/** Tokens are opaque to us; this only refuses what cannot be one (spaces, absurd lengths). */
const TOKEN_SHAPE = /^[\x21-\x7e]{8,512}$/;

/**
 * Waits for the partner API token in a private chat: deletes the message that carried it,
 * checks it with a cheap read call, and stores it sealed only when the provider accepts it.
 */
export function createTokenScene(deps: { chatData: ChatData; apiFor: ApiFactory; logger: Logger }) {
  const scene = new Scenes.BaseScene<BotContext>(TOKEN_SCENE);
  const answers = new Composer<BotContext>();

  scene.enter((ctx) => ctx.reply(ctx.t('onboarding:tokenAsk'), { parse_mode: 'HTML' }));

  answers.on('text', async (ctx) => {
    const token = ctx.message.text.trim();
    const deleted = await ctx.deleteMessage().then(
      () => true,
      (error: unknown) => {
        deps.logger.warn(
          { chatId: ctx.chat.id, err: errorForLog(error) },
          'could not delete the token message',
        );
        return false;
      },
    );
    const deletion = ctx.t(deleted ? 'onboarding:tokenDeleted' : 'onboarding:tokenNotDeleted');
    if (!TOKEN_SHAPE.test(token)) {
      await ctx.reply(`${ctx.t('onboarding:tokenMalformed')}\n${deletion}`, { parse_mode: 'HTML' });
      return;
    }
    try {
      await deps.apiFor(token).listCurrencies();
    } catch (error) {
      if (error instanceof ApiHttpError && error.isAuthError) {
        await ctx.reply(`${ctx.t('onboarding:tokenRejected')}\n${deletion}`, { parse_mode: 'HTML' });
        return;
      }
      await ctx.scene.leave();
      await ctx.reply(`${ctx.t('onboarding:tokenUncheckable')}\n${deletion}`, { parse_mode: 'HTML' });
      return;
    }
    await deps.chatData.setToken(ctx.chat.id, token);
    await ctx.scene.leave();
    deps.logger.info({ chatId: ctx.chat.id }, 'partner token stored');
    await ctx.reply(`${ctx.t('onboarding:tokenSaved')}\n${deletion}`, { parse_mode: 'HTML' });
  });
  answers.on('message', (ctx) => ctx.reply(ctx.t('onboarding:tokenAsText')));

  scene.use(sceneAnswers(answers));
  return scene;
}
