import { Composer, Scenes } from 'telegraf';
import { type ApiFactory, ApiHttpError, type DomainOrder } from '../../../api/index.js';
import { escapeHtml } from '../../../core/format.js';
import type { Logger } from '../../../logger.js';
import { errorForLog } from '../../../logger.js';
import { MAX_ACCOUNTS } from '../../../storage/chat-data/accounts.js';
import type { ChatData } from '../../../storage/chat-data.js';
import type { BotContext, WatchPort } from '../../context.js';
import { QUESTION_WORDS, sceneAnswers } from '../../kit/scene-answers.js';
import { accountLabel } from '../../middlewares/account.js';
import { placeToken } from '../accounts/connect.js';

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
 * cache, or a revoked token could pass — and stores it sealed only when the provider accepts it:
 * as the chat's first account, a new one, or the active one's new token (accounts/connect.ts).
 * A token that can be sent again keeps the chat waiting for it; anything else ends the step.
 */
export async function takeToken(ctx: ChatContext, text: string, deps: TokenDeps): Promise<void> {
  const token = text.trim();
  const deleted = await deleteTokenMessage(ctx, deps.logger);
  const say = (text: string) =>
    ctx.reply(`${text}\n${ctx.t(deleted ? 'onboarding:tokenDeleted' : 'onboarding:tokenNotDeleted')}`, {
      parse_mode: 'HTML',
    });
  const reply = (key: string) => say(ctx.t(key));
  if (!TOKEN_SHAPE.test(token)) {
    await waitForAnotherToken(ctx);
    await reply('onboarding:tokenMalformed');
    return;
  }
  // The check lists the domain orders: what names the partner of a new account comes with it.
  let domainOrders: DomainOrder[];
  try {
    domainOrders = await deps.apiFor.uncached(token).listDomainOrders();
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
  const placed = await placeToken(deps, ctx.chat.id, token, domainOrders);
  await leaveTokenStep(ctx);
  if (placed.kind === 'full') {
    await say(ctx.t('accounts:full', { max: MAX_ACCOUNTS }));
    return;
  }
  const label = escapeHtml(accountLabel(ctx.t, placed.account));
  deps.logger.info(
    { chatId: ctx.chat.id, account: placed.account.n, placed: placed.kind },
    'partner token stored',
  );
  const said = {
    first: ctx.t('onboarding:tokenSaved'),
    known: ctx.t(placed.account.active ? 'accounts:tokenKnownActive' : 'accounts:tokenKnown', { label }),
    replaced: ctx.t('accounts:tokenReplaced', { label }),
    revived: ctx.t('accounts:tokenRevived', { label }),
    added: ctx.t('accounts:added', { label }),
  }[placed.kind];
  await say(said);
  if ((placed.kind === 'replaced' || placed.kind === 'revived') && placed.movedGroups > 0)
    await ctx.reply(ctx.t('onboarding:tokenGroupsMoved', { count: placed.movedGroups }));
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

  // From /accounts' «➕ Добавить аккаунт» the question says the token is of another account.
  scene.enter((ctx) =>
    ctx.reply(ctx.t('adding' in ctx.scene.state ? 'accounts:tokenAsk' : 'onboarding:tokenAsk'), {
      parse_mode: 'HTML',
    }),
  );

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
