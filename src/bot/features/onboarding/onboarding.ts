import { Composer, Markup } from 'telegraf';
import type { Locale } from '../../../storage/chat-store.js';
import type { RobotKeys } from '../../../storage/robot-keys.js';
import type { BotContext } from '../../context.js';
import { commandWords } from '../../kit/arguments.js';
import { styled } from '../../kit/bot-api-today.js';
import { LOCALES, type Translations } from '../../kit/i18n.js';
import { CallbackSet, encodeCallback, type Feature } from '../../registry.js';
import { askRemoval } from '../accounts/accounts.js';
import { CONNECT_START_PARAMETER } from '../inline/inline.js';
import { tellGroupsUnbound, unbindGroup, unbindOwnerGroups } from '../team/binding.js';
import { parseTeamStart } from '../team/orders.js';
import {
  createTokenScene,
  refuseTokenInGroup,
  TOKEN_SCENE,
  type TokenDeps,
  takeToken,
} from './token-scene.js';

/** /start, /help, /token (and its scene), /logout, /lang, /cancel. */
export function createOnboardingFeature(
  deps: TokenDeps & {
    /** Counted in /logout's question when it removes one of several accounts; revoked when it forgets all. */
    robotKeys: RobotKeys;
    translations: Translations;
    defaultLocale: Locale;
    /** Closes every feature's open previews (`Feature.closeOpen`); whether one was open. */
    closeOpen: (ctx: BotContext) => boolean;
  },
): Feature {
  const composer = new Composer<BotContext>();
  const callbacks = new CallbackSet();
  const hasToken = async (ctx: BotContext) =>
    ctx.chat !== undefined && (await deps.chatData.getToken(ctx.chat.id)) !== undefined;

  composer.start(async (ctx, next) => {
    // A team group's hand-over (team-orders.ts) is the ordering feature's.
    if (parseTeamStart(ctx.payload) !== undefined) return next();
    const connected = await hasToken(ctx);
    // `/start connect` comes from the inline picker's button: without a token the welcome says how
    // to connect one; with one, the provider refused it there, so it says how to replace it.
    const key = !connected
      ? 'onboarding:welcome'
      : ctx.payload === CONNECT_START_PARAMETER
        ? 'onboarding:connectReplace'
        : 'onboarding:welcomeBack';
    // In a group, how to connect a token is for the member who asked.
    await ctx.toMember.reply(ctx.t(key, { name: ctx.from.first_name, bot: ctx.botInfo.username }), {
      parse_mode: 'HTML',
      link_preview_options: { is_disabled: true },
    });
  });

  composer.help((ctx) => ctx.reply(ctx.t('onboarding:help'), { parse_mode: 'HTML' }));

  composer.command('token', async (ctx) => {
    // `/token <token>` on one line: the argument is the token, and the message carrying it must go.
    const pasted = ctx.payload.trim() !== '';
    if (ctx.chat.type !== 'private') {
      if (pasted) await refuseTokenInGroup(ctx, deps.logger);
      else await ctx.toMember.reply(ctx.t('onboarding:tokenPrivateOnly'));
      return;
    }
    if (pasted) await takeToken(ctx, ctx.payload, deps);
    else await ctx.scene.enter(TOKEN_SCENE);
  });

  composer.command('logout', async (ctx) => {
    // With several accounts /logout removes the active one (asked first, saying what goes with
    // it), or forgets everything; with one it forgets everything, as before accounts.
    const accounts = ctx.chat.type === 'private' ? await deps.chatData.listAccounts(ctx.chat.id) : [];
    const active = accounts.find((account) => account.active);
    if (accounts.length > 1 && active !== undefined) {
      await askRemoval(ctx, deps, active, { forgetAll: true });
      return;
    }
    await ctx.reply(ctx.t('onboarding:logoutConfirm'), {
      ...Markup.inlineKeyboard([
        // It deletes the token, the saved customers and the settings of the chat.
        styled(
          Markup.button.callback(ctx.t('onboarding:logoutYes'), encodeCallback('logout', 'yes')),
          'danger',
        ),
        Markup.button.callback(ctx.t('onboarding:logoutNo'), encodeCallback('logout', 'no')),
      ]),
    });
  });

  callbacks.on('logout', async (ctx, answer) => {
    await ctx.editMessageReplyMarkup(undefined).catch(() => undefined);
    if (answer !== 'yes' || ctx.chat === undefined) {
      await ctx.reply(ctx.t('onboarding:logoutKept'));
      return;
    }
    await ctx.scene.leave();
    // Groups bound with this chat's token (or this group's own binding) go with it.
    const groups = ctx.chat.type === 'private' ? await unbindOwnerGroups(deps, ctx.chat.id) : [];
    if (ctx.chat.type !== 'private') await unbindGroup(deps, ctx.chat.id);
    // The watches first: should one fail, the partner is told and the chat is still as it was.
    // Every account of the chat goes (a group holds one).
    for (const account of await deps.chatData.listAccounts(ctx.chat.id))
      await deps.watches?.disconnect(ctx.chat.id, account.token);
    // Its robots' keys too: a key of a forgotten chat would only be refused, yet it stays a secret
    // kept for nobody (revoked as /keys' 🗑 revokes it).
    for (const key of await deps.robotKeys.list(ctx.chat.id)) await deps.robotKeys.revoke(key.id);
    await deps.chatData.wipe(ctx.chat.id);
    // The session middleware writes the (now empty) session back after this handler.
    ctx.session = {};
    await ctx.reply(ctx.t('onboarding:loggedOut'));
    await tellGroupsUnbound(ctx.telegram, deps, groups);
  });

  const setLocale = async (ctx: BotContext, word: string) => {
    const locale = LOCALES.find((l) => l === word);
    if (!locale || ctx.chat === undefined) return false;
    await deps.chatData.setLocale(ctx.chat.id, locale);
    ctx.locale = locale;
    return true;
  };

  composer.command('lang', async (ctx) => {
    const word = commandWords(ctx.payload)[0]?.toLowerCase();
    if (word !== undefined && (await setLocale(ctx, word))) {
      await ctx.reply(ctx.t('onboarding:langSet', { lng: word }));
      return;
    }
    await ctx.reply(ctx.t('onboarding:langChoose'), {
      ...Markup.inlineKeyboard(
        LOCALES.map((l) =>
          Markup.button.callback(ctx.t(`onboarding:langName.${l}`), encodeCallback('lang', l)),
        ),
      ),
    });
  });

  callbacks.on('lang', async (ctx, word) => {
    if (await setLocale(ctx, word)) {
      await ctx.editMessageReplyMarkup(undefined).catch(() => undefined);
      await ctx.reply(ctx.t('onboarding:langSet', { lng: word }));
    }
  });

  // /cancel closes whatever is open: a form or a question, and a preview waiting for its Apply.
  composer.command('cancel', async (ctx) => {
    const inScene = ctx.scene.current !== undefined;
    if (inScene) await ctx.scene.leave();
    const closed = deps.closeOpen(ctx);
    await ctx.reply(ctx.t(inScene || closed ? 'onboarding:cancelled' : 'onboarding:nothingToCancel'));
  });

  return {
    name: 'onboarding',
    composer,
    callbacks: callbacks.registrations,
    scenes: [createTokenScene(deps)],
  };
}
