import { Composer, Scenes } from 'telegraf';
import { type ApiFactory, ApiHttpError } from '../../../api/index.js';
import type { Logger } from '../../../logger.js';
import { errorForLog } from '../../../logger.js';
import type { ChatData } from '../../../storage/chat-data.js';
import type { BotContext, WatchPort } from '../../context.js';
import { QUESTION_WORDS, sceneAnswers } from '../../kit/scene-answers.js';
import { rebindOwnerGroups } from '../team/binding.js';

export const TOKEN_SCENE = 'token';

/** Tokens are opaque to us; this only refuses what cannot be one (spaces, absurd lengths). */
const TOKEN_SHAPE = /^[\x21-\x7e]{8,512}$/;

/** What taking a token needs: where it is sealed, the provider to check it, a log without it. */
export interface TokenDeps {
  chatData: ChatData;
  apiFor: ApiFactory;
  logger: Logger;
  watches?: WatchPort | undefined;
}

type ChatContext = BotContext & { chat: NonNullable<BotContext['chat']> };

/** Deletes the user's message that carries (or may carry) a token; false when Telegram refused. */
async function deleteTokenMessage(ctx: ChatContext, logger: Logger): Promise<boolean> {
  return ctx.deleteMessage().then(
    () => true,
    (error: unknown) => {
      logger.warn({ chatId: ctx.chat.id, err: errorForLog(error) }, 'could not delete the token message');
      return false;
    },
  );
}

/** Keeps the chat in the token step (without asking again) so the next message is the new try. */
async function waitForAnotherToken(ctx: BotContext): Promise<void> {
  // Mid-form (`/token <token>` typed during an order) the form keeps the chat; the partner can
  // send /token again.
  if (ctx.scene.current === undefined) await ctx.scene.enter(TOKEN_SCENE, {}, true);
}

/** Ends the token step, and only it: a form the one-line `/token` was typed in goes on. */
async function leaveTokenStep(ctx: BotContext): Promise<void> {
  if (ctx.scene.current?.id === TOKEN_SCENE) await ctx.scene.leave();
}

/**
 * One token attempt in a private chat, however it came (the token step's answer, a caption,
 * `/token <token>`): deletes the message that carried it, checks it with the provider — never a
 * cache, or a revoked token could pass — and stores it sealed only when the provider accepts it.
 * A token that can be sent again keeps the chat waiting for it; anything else ends the step.
 */
export async function takeToken(ctx: ChatContext, text: string, deps: TokenDeps): Promise<void> {
  const token = text.trim();
  const deleted = await deleteTokenMessage(ctx, deps.logger);
  const reply = (key: string) =>
    ctx.reply(`${ctx.t(key)}\n${ctx.t(deleted ? 'onboarding:tokenDeleted' : 'onboarding:tokenNotDeleted')}`, {
      parse_mode: 'HTML',
    });
  if (!TOKEN_SHAPE.test(token)) {
    await waitForAnotherToken(ctx);
    await reply('onboarding:tokenMalformed');
    return;
  }
  try {
    await deps.apiFor.uncached(token).listCurrencies();
  } catch (error) {
    if (error instanceof ApiHttpError && error.isAuthError) {
      await waitForAnotherToken(ctx);
      await reply('onboarding:tokenRejected');
      return;
    }
    await leaveTokenStep(ctx);
    await reply('onboarding:tokenUncheckable');
    return;
  }
  const previous = await deps.chatData.getToken(ctx.chat.id);
  await deps.chatData.setToken(ctx.chat.id, token);
  if (previous !== undefined && previous !== token) await deps.watches?.disconnect(ctx.chat.id, previous);
  await deps.watches?.connect(ctx.chat.id, token);
  // The team groups the partner bound with the old token work with the new one from now on.
  const moved =
    previous !== undefined && previous !== token && ctx.chat.type === 'private'
      ? await rebindOwnerGroups(deps, ctx.chat.id, previous, token)
      : [];
  await leaveTokenStep(ctx);
  deps.logger.info({ chatId: ctx.chat.id, groups: moved.length }, 'partner token stored');
  await reply('onboarding:tokenSaved');
  if (moved.length > 0) await ctx.reply(ctx.t('onboarding:tokenGroupsMoved', { count: moved.length }));
}

/**
 * `/token <something>` in a group: whatever follows may be a live token the whole group has
 * seen, so it is deleted when the bot may, and the partner is told to revoke it either way.
 */
export async function refuseTokenInGroup(ctx: ChatContext, logger: Logger): Promise<void> {
  const deleted = await deleteTokenMessage(ctx, logger);
  await ctx.toMember.reply(
    ctx.t(deleted ? 'onboarding:tokenInGroupDeleted' : 'onboarding:tokenInGroupNotDeleted'),
  );
}

/** Waits for the partner API token in a private chat and hands each attempt to `takeToken`. */
export function createTokenScene(deps: TokenDeps) {
  const scene = new Scenes.BaseScene<BotContext>(TOKEN_SCENE);
  const answers = new Composer<BotContext>();

  scene.enter((ctx) => ctx.reply(ctx.t('onboarding:tokenAsk'), { parse_mode: 'HTML' }));

  answers.on('text', (ctx) => takeToken(ctx, ctx.message.text, deps));
  answers.on('message', async (ctx) => {
    const message = ctx.message;
    // Pasted under a file or photo, the token is as exposed as in a text message.
    if ('caption' in message && message.caption !== undefined) {
      await takeToken(ctx, message.caption, deps);
      return;
    }
    if ('document' in message) {
      // A file sent at this step most likely holds the token: it must not stay in the chat either.
      const deleted = await deleteTokenMessage(ctx, deps.logger);
      const deletion = ctx.t(deleted ? 'onboarding:tokenDeleted' : 'onboarding:tokenNotDeleted');
      await ctx.reply(`${ctx.t('onboarding:tokenAsText')}\n${deletion}`, { parse_mode: 'HTML' });
      return;
    }
    await ctx.reply(ctx.t('onboarding:tokenAsText'));
  });

  scene.use(sceneAnswers(answers, QUESTION_WORDS));
  return scene;
}
