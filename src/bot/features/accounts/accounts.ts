import { Composer, Markup, Scenes } from 'telegraf';
import { escapeHtml } from '../../../core/format.js';
import type { Logger } from '../../../logger.js';
import { type Account, MAX_ACCOUNTS } from '../../../storage/chat-data/accounts.js';
import type { ChatData } from '../../../storage/chat-data.js';
import type { Locale } from '../../../storage/chat-store.js';
import type { RobotKeys } from '../../../storage/robot-keys.js';
import type { BotContext, WatchPort } from '../../context.js';
import type { Translations } from '../../kit/i18n.js';
import { QUESTION_WORDS, sceneAnswers } from '../../kit/scene-answers.js';
import { accountLabel, DRAFTS } from '../../middlewares/account.js';
import { CallbackSet, type Feature } from '../../registry.js';
import { TOKEN_SCENE } from '../onboarding/token-scene.js';
import { ownerGroupsWith, tellGroupsUnbound, unbindGroup } from '../team/binding.js';
import { NAME_LIMIT, type RemovalCost, renderAccounts, renderRemovalQuestion } from './views.js';

/*
 * `/accounts` (docs/accounts.md): the partner accounts of a private chat, side by side. The list
 * names each by the user's own name, with the provider's name of the partner under it, and marks
 * the active one (the one commands act on). From it: make another one active, give one a name of
 * one's own (a typed answer), remove one (asked first, naming what goes with it), add one (the
 * token step, as /token). Team groups hold one account each; there the command says so.
 */

/** The scene that waits for an account's own name. */
export const ACCOUNT_NAME_SCENE = 'account-name';

/** What the accounts feature is built from. */
export interface AccountsDeps {
  chatData: ChatData;
  robotKeys: RobotKeys;
  watches?: WatchPort | undefined;
  logger: Logger;
  translations: Translations;
  defaultLocale: Locale;
  /** Closes every feature's open previews (`Feature.closeOpen`), as /cancel does. */
  closeOpen: (ctx: BotContext) => boolean;
}

/** What removing an account did. */
export interface Removed {
  account: Account;
  keys: number;
  groups: number;
  /** The active account after it (none: the chat has no account left). */
  active: Account | undefined;
}

/** What removing account n would take with it: its keys and the groups bound with its token. */
export async function removalCost(
  deps: Pick<AccountsDeps, 'chatData' | 'robotKeys'>,
  chatId: number,
  account: Account,
): Promise<RemovalCost> {
  const [keys, groups, numbers] = await Promise.all([
    deps.robotKeys.list(chatId, account.n),
    ownerGroupsWith(deps, chatId, account.token),
    deps.chatData.accountNumbers(chatId),
  ]);
  return { keys: keys.length, groups: groups.length, last: numbers.length <= 1 };
}

/**
 * Asks whether to remove `account`, saying what goes with it. `forgetAll` (from /logout in a chat
 * of several accounts) also offers to forget everything, as /logout does with one account.
 */
export async function askRemoval(
  ctx: BotContext,
  deps: Pick<AccountsDeps, 'chatData' | 'robotKeys'>,
  account: Account,
  options: { forgetAll?: boolean; edit?: boolean } = {},
): Promise<void> {
  const chatId = ctx.chat?.id;
  if (chatId === undefined) return;
  const cost = await removalCost(deps, chatId, account);
  const { text, keyboard } = renderRemovalQuestion(ctx.t, account, cost, options);
  const extra = { parse_mode: 'HTML' as const, ...Markup.inlineKeyboard(keyboard) };
  if (options.edit) await ctx.editMessageText(text, extra).catch(() => ctx.reply(text, extra));
  else await ctx.reply(text, extra);
}

export function createAccountsFeature(deps: AccountsDeps): Feature {
  const { chatData } = deps;
  const composer = new Composer<BotContext>();
  const callbacks = new CallbackSet();

  /** The list, as a new message or in place of the pressed one, with a line of news above it. */
  const showList = async (ctx: BotContext, mode: 'reply' | 'edit', note?: string) => {
    const chatId = ctx.chat?.id;
    if (chatId === undefined) return;
    const { text, keyboard } = renderAccounts(ctx.t, await chatData.listAccounts(chatId));
    const shown = note === undefined ? text : `${note}\n\n${text}`;
    const extra = { parse_mode: 'HTML' as const, ...Markup.inlineKeyboard(keyboard) };
    if (mode === 'edit') await ctx.editMessageText(shown, extra).catch(() => ctx.reply(shown, extra));
    else await ctx.reply(shown, extra);
  };

  /** The account a button names, if the chat still holds it; else the partner is told. */
  const accountOf = async (ctx: BotContext, n: number): Promise<Account | undefined> => {
    const chatId = ctx.chat?.id;
    const account = chatId === undefined ? undefined : await chatData.getAccount(chatId, n);
    if (account === undefined) await showList(ctx, 'edit', ctx.t('accounts:gone'));
    return account;
  };

  /** Accounts are a private chat's: a group works with the one account its owner bound (/team). */
  const inPrivate = async (ctx: BotContext): Promise<boolean> => {
    if (ctx.chat?.type === 'private') return true;
    await ctx.toMember.reply(ctx.t('accounts:privateOnly'));
    return false;
  };

  /**
   * Removes account n of the chat and what goes with it: the watch of its token here (the watch
   * first: should it fail, the account is still there), its robots' keys, the groups bound with
   * its token (each told), the form or draft that was started on it.
   */
  const remove = async (ctx: BotContext, chatId: number, account: Account): Promise<Removed> => {
    await deps.watches?.disconnect(chatId, account.token);
    const keys = await deps.robotKeys.list(chatId, account.n);
    for (const key of keys) await deps.robotKeys.revoke(key.id);
    const groups = await ownerGroupsWith(deps, chatId, account.token);
    for (const groupId of groups) await unbindGroup(deps, groupId);
    await tellGroupsUnbound(ctx.telegram, deps, groups, 'accounts:groupUnbound');
    if (ctx.session?.account === account.n) {
      if (ctx.scene.current !== undefined) await ctx.scene.leave();
      deps.closeOpen(ctx);
      for (const draft of DRAFTS) delete ctx.session[draft];
      delete ctx.session.account;
    }
    await chatData.removeAccount(chatId, account.n);
    deps.logger.info(
      { chatId, account: account.n, keys: keys.length, groups: groups.length },
      'account removed',
    );
    const active = (await chatData.listAccounts(chatId)).find((left) => left.active);
    return { account, keys: keys.length, groups: groups.length, active };
  };

  composer.command('accounts', async (ctx) => {
    if (await inPrivate(ctx)) await showList(ctx, 'reply');
  });

  callbacks.on('accounts', (ctx) => showList(ctx, 'reply'));

  callbacks.on(
    'accountSwitch',
    async (ctx, n) => {
      const chatId = ctx.chat?.id;
      const account = chatId === undefined ? undefined : await chatData.getAccount(chatId, n);
      if (chatId === undefined || account === undefined) {
        await ctx.answerCbQuery(ctx.t('accounts:goneToast'));
        await showList(ctx, 'edit');
        return;
      }
      const label = fitToast(accountLabel(ctx.t, account));
      if (account.active) {
        await ctx.answerCbQuery(ctx.t('accounts:alreadyActive', { label }));
        return;
      }
      await chatData.switchAccount(chatId, n);
      await ctx.answerCbQuery(ctx.t('accounts:switchedToast', { label }));
      await showList(
        ctx,
        'edit',
        ctx.t('accounts:switched', { label: escapeHtml(accountLabel(ctx.t, account)) }),
      );
    },
    { selfAnswer: true },
  );

  callbacks.on('accountRename', async (ctx, n) => {
    const account = await accountOf(ctx, n);
    if (account !== undefined) await ctx.scene.enter(ACCOUNT_NAME_SCENE, { n });
  });

  callbacks.on('accountRemove', async (ctx, n) => {
    const account = await accountOf(ctx, n);
    if (account !== undefined) await askRemoval(ctx, deps, account, { edit: true });
  });

  callbacks.on('accountRemoveYes', async (ctx, n) => {
    const chatId = ctx.chat?.id;
    const account = await accountOf(ctx, n);
    if (chatId === undefined || account === undefined) return;
    const removed = await remove(ctx, chatId, account);
    const label = escapeHtml(accountLabel(ctx.t, account));
    const done = [
      ctx.t('accounts:removed', { label }),
      removed.keys === 0 ? undefined : ctx.t('accounts:removedKeys', { count: removed.keys }),
      removed.groups === 0 ? undefined : ctx.t('accounts:removedGroups', { count: removed.groups }),
      removed.active === undefined
        ? ctx.t('accounts:removedLast')
        : ctx.t('accounts:nowActive', { label: escapeHtml(accountLabel(ctx.t, removed.active)) }),
    ]
      .filter((line) => line !== undefined)
      .join('\n');
    if (removed.active === undefined) {
      // No account left: a button would carry the removed one's stamp.
      await ctx
        .editMessageText(done, { parse_mode: 'HTML' })
        .catch(() => ctx.reply(done, { parse_mode: 'HTML' }));
      return;
    }
    // The list's buttons from now on carry an account the chat still holds.
    if (ctx.account?.n === account.n) ctx.actOnAccount(removed.active.n);
    await showList(ctx, 'edit', done);
  });

  callbacks.on('accountRemoveNo', (ctx) => showList(ctx, 'edit'));

  callbacks.on('accountAdd', async (ctx) => {
    const chatId = ctx.chat?.id;
    if (chatId === undefined || !(await inPrivate(ctx))) return;
    if ((await chatData.accountNumbers(chatId)).length >= MAX_ACCOUNTS) {
      await ctx.reply(ctx.t('accounts:fullAdd', { max: MAX_ACCOUNTS }));
      return;
    }
    await ctx.scene.enter(TOKEN_SCENE, { adding: true });
  });

  return {
    name: 'accounts',
    composer,
    callbacks: callbacks.registrations,
    scenes: [createNameScene(deps, showList)],
  };
}

/** A toast is short: a long name is cut. */
const fitToast = (label: string) =>
  [...label].length <= 40 ? label : `${[...label].slice(0, 39).join('')}…`;

/** The account's own name as typed: trimmed, spaces collapsed; `-` clears it; else why not. */
export function readAccountName(text: string): { name: string | undefined } | { problem: string } {
  const name = text.replace(/\s+/g, ' ').trim();
  if (name === '-' || name === '—') return { name: undefined };
  if (/\p{Cc}/u.test(text.replace(/[\n\r\t]/g, ' '))) return { problem: 'accounts:nameBad' };
  if (!/[\p{L}\p{N}]/u.test(name)) return { problem: 'accounts:nameBad' };
  if ([...name].length > NAME_LIMIT) return { problem: 'accounts:nameTooLong' };
  return { name };
}

/** Waits for an account's own name (the account in the scene's state) and stores it. */
function createNameScene(
  deps: Pick<AccountsDeps, 'chatData'>,
  showList: (ctx: BotContext, mode: 'reply' | 'edit', note?: string) => Promise<void>,
) {
  const scene = new Scenes.BaseScene<BotContext>(ACCOUNT_NAME_SCENE);
  const answers = new Composer<BotContext>();
  const stateN = (ctx: BotContext): number | undefined => {
    const state: object = ctx.scene.state;
    return 'n' in state && typeof state.n === 'number' ? state.n : undefined;
  };

  scene.enter(async (ctx) => {
    const n = stateN(ctx);
    const chatId = ctx.chat?.id;
    const account =
      n === undefined || chatId === undefined ? undefined : await deps.chatData.getAccount(chatId, n);
    if (account === undefined) {
      await ctx.scene.leave();
      return;
    }
    await ctx.reply(
      ctx.t('accounts:nameAsk', { label: escapeHtml(accountLabel(ctx.t, account)), max: NAME_LIMIT }),
      { parse_mode: 'HTML' },
    );
  });

  answers.on('text', async (ctx) => {
    const n = stateN(ctx);
    const read = readAccountName(ctx.message.text);
    if ('problem' in read) {
      await ctx.reply(ctx.t(read.problem, { max: NAME_LIMIT }));
      return;
    }
    await ctx.scene.leave();
    const renamed = n !== undefined && (await deps.chatData.renameAccount(ctx.chat.id, n, read.name));
    const account = renamed && n !== undefined ? await deps.chatData.getAccount(ctx.chat.id, n) : undefined;
    if (account === undefined) {
      await showList(ctx, 'reply', ctx.t('accounts:gone'));
      return;
    }
    const label = escapeHtml(accountLabel(ctx.t, account));
    await showList(
      ctx,
      'reply',
      read.name === undefined
        ? ctx.t('accounts:nameCleared', { label })
        : ctx.t('accounts:renamed', { label }),
    );
  });
  answers.on('message', (ctx) => ctx.reply(ctx.t('accounts:nameAsText')));

  scene.use(sceneAnswers(answers, QUESTION_WORDS));
  return scene;
}
