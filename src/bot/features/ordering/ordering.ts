import { Composer, Markup } from 'telegraf';
import type { InlineKeyboardButton } from 'telegraf/types';
import { readSavedCustomer } from '../../../core/customer-answers.js';
import { toAsciiDomain, toUnicodeDomain } from '../../../core/domain-names.js';
import { escapeHtml } from '../../../core/format.js';
import { MESSAGE_LIMIT } from '../../../core/paging.js';
import { PRODUCT_KINDS, type ProductKind, productKindOf } from '../../../core/product-kinds.js';
import { splitMessage } from '../../../core/text.js';
import type { ChatData } from '../../../storage/chat-data.js';
import type { BotContext } from '../../context.js';
import { UserInputError } from '../../errors.js';
import type { OrderEngine } from '../../forms/engine.js';
import { commandWords } from '../../kit/arguments.js';
import { styled } from '../../kit/bot-api-today.js';
import { type MiniAppLinks, miniAppButton } from '../../kit/mini-app-button.js';
import { findInAccounts } from '../../kit/other-accounts.js';
import { CallbackSet, encodeCallback, type Feature } from '../../registry.js';
import { parseTeamStart, type TeamOrders } from '../team/orders.js';
import { ORDER_KINDS } from './kinds.js';
import { listCardEntries, renderCustomerCard } from './requisites-views.js';

/** The menu of the kinds of order, one button each. */
/** The kinds to order, one a row; under them the order form in the app, when there is one. */
export function orderMenu(ctx: BotContext, form?: InlineKeyboardButton) {
  return Markup.inlineKeyboard([
    ...PRODUCT_KINDS.map((kind) => [
      Markup.button.callback(ctx.t(ORDER_KINDS[kind].labelKey), encodeCallback('orderStart', kind)),
    ]),
    ...(form === undefined ? [] : [[form]]),
  ]);
}

/** The button argument naming `account`'s saved customers: 0 for this chat's, else the group's id unsigned. */
const ownerArg = (ctx: BotContext, account: number) => (account === ctx.chat?.id ? 0 : Math.abs(account));

/** The answer the word after `/order <kind>` gives (a domain name), when the kind takes one. */
function prefill(kind: ProductKind, word: string | undefined): Record<string, unknown> {
  const step = ORDER_KINDS[kind].prefillStep;
  return word === undefined || step === null ? {} : { [step]: word };
}

/**
 * /order [domain|hosting|mail|ssl] [domain], the Order button of /check, and /requisites. In a
 * team group they hand over to the member's private chat (`features/team/orders.ts`), which `/start
 * <hand-over>` opens: the order of the group, or its saved customers, there.
 */
export function createOrderingFeature(deps: {
  engine: OrderEngine;
  chatData: ChatData;
  teamOrders: TeamOrders;
  /**
   * The Mini App (MINI_APP_URL): /order offers its order form, /requisites its customer screen;
   * absent, no button.
   */
  miniApp?: MiniAppLinks | undefined;
}): Feature {
  const { engine, teamOrders } = deps;
  const composer = new Composer<BotContext>();
  const callbacks = new CallbackSet();
  const withForm = (ctx: BotContext) =>
    orderMenu(ctx, miniAppButton(ctx, deps.miniApp, ctx.t('order:openFormButton'), 'order'));

  composer.command('order', async (ctx) => {
    const [word, name] = commandWords(ctx.payload);
    const kind = productKindOf(word?.toLowerCase());
    if (word === undefined) {
      await ctx.partnerApi();
      await ctx.reply(ctx.t('order:chooseKind'), withForm(ctx));
      return;
    }
    if (!kind) throw new UserInputError('order:badKind', { usageKey: 'order:usage' });
    const ascii = name === undefined ? undefined : toAsciiDomain(name);
    if (await teamOrders.redirect(ctx, kind, ascii)) return;
    // Hosting, mail or SSL for a domain of another account of the chat: ordered in that account.
    if (kind !== 'domain' && ascii && ctx.account?.many) {
      await findInAccounts(
        ctx,
        async (api) => ((await api.domainOrderIndex()).byDomain.has(ascii) ? ascii : undefined),
        (found, label) =>
          found.reply(
            found.t('accounts:domainElsewhere', {
              domain: escapeHtml(toUnicodeDomain(ascii)),
              label: escapeHtml(label),
            }),
            { parse_mode: 'HTML' },
          ),
      );
    }
    await engine.start(ctx, kind, prefill(kind, name));
  });

  callbacks.on('orderDomain', async (ctx, ascii) => {
    if (await teamOrders.redirect(ctx, 'domain', ascii)) return;
    await engine.start(ctx, 'domain', prefill('domain', ascii));
  });

  composer.command('requisites', async (ctx) => {
    if (await teamOrders.redirect(ctx, 'requisites')) return;
    await showProfiles(ctx, ctx.chat.id);
  });

  /** The saved customers of `account` (this chat, or a team group's for its member), as buttons. */
  async function showProfiles(ctx: BotContext, account: number): Promise<void> {
    const profiles = await deps.chatData.getProfiles(account);
    const owner = ownerArg(ctx, account);
    const buttons: InlineKeyboardButton[][] = profiles.map((p) => [
      Markup.button.callback(p.label, encodeCallback('profileShow', p.id, owner)),
    ]);
    // A group's new customers are saved while ordering for it; a form of its own is this chat's.
    if (owner === 0) {
      buttons.push([
        Markup.button.callback(ctx.t('order:profileAdd'), encodeCallback('orderStart', 'profile')),
      ]);
    }
    // The same customers as a form in the app: this chat's account, or the group's by its link.
    const form = miniAppButton(
      ctx,
      deps.miniApp,
      ctx.t('order:openFormButton'),
      'customers',
      {},
      owner === 0 ? undefined : account,
    );
    if (form !== undefined) buttons.push([form]);
    const title =
      owner !== 0
        ? ctx.t(profiles.length === 0 ? 'team:noProfiles' : 'team:profilesTitle')
        : ctx.t(profiles.length === 0 ? 'order:noProfiles' : 'order:profilesTitle');
    // Saved customers are the chat's, not an account's: said where the chat holds several.
    const shared = owner === 0 && ctx.account?.many ? `\n\n${ctx.t('order:profilesShared')}` : '';
    await ctx.reply(`${title}${shared}`, { ...Markup.inlineKeyboard(buttons) });
  }

  /**
   * Whose saved customers a profile button means: this chat's (0), or a team group's, which the
   * member must still be an owner or admin of; undefined (told) when not.
   */
  async function profilesOf(ctx: BotContext, owner: number): Promise<number | undefined> {
    if (ctx.chat === undefined) return undefined;
    if (owner === 0) return ctx.chat.id;
    if (ctx.chat.type === 'private' && (await teamOrders.seat(ctx.from?.id ?? 0, -owner)) !== undefined)
      return -owner;
    throw new UserInputError('team:seatNone');
  }

  // `/start <hand-over>` in the private chat (the onboarding's /start passes it on).
  composer.start(async (ctx) => {
    const start = parseTeamStart(ctx.payload);
    if (start === undefined || ctx.chat.type !== 'private') return;
    const seat = await teamOrders.seat(ctx.from.id, start.chat, start.thread);
    if (seat === undefined) throw new UserInputError('team:seatNone');
    if (start.what === 'requisites') return showProfiles(ctx, seat.chat);
    await ctx.reply(ctx.t('team:orderForGroup'));
    await engine.start(ctx, start.what, prefill(start.what, start.domain), {}, seat);
  });

  callbacks.on('orderStart', async (ctx, word) => {
    if (word === 'profile') {
      if (await teamOrders.redirect(ctx, 'requisites')) return;
      return engine.start(ctx, 'profile', {}, { customerSource: 'new' });
    }
    if (word === 'menu') {
      await ctx.reply(ctx.t('order:chooseKind'), withForm(ctx));
      return;
    }
    const kind = productKindOf(word);
    if (kind === undefined || (await teamOrders.redirect(ctx, kind))) return;
    await engine.start(ctx, kind);
  });

  callbacks.on('profileShow', async (ctx, id, owner) => {
    if (await teamOrders.redirect(ctx, 'requisites')) return;
    const account = await profilesOf(ctx, owner);
    if (account === undefined) return;
    const profile = (await deps.chatData.getProfiles(account)).find((p) => p.id === id);
    if (!profile) throw new UserInputError('order:profileGone');
    // A profile that no longer reads as a saved customer shows its label only, and can be deleted.
    // Fields in the form's order with their labels, the WHOIS data and contacts included.
    const card = renderCustomerCard(ctx.t, {
      title: profile.label,
      entries: listCardEntries(readSavedCustomer(profile.data) ?? {}),
    });
    // Every field may hold 255 characters: a whole profile can run past one message. It is split
    // at line breaks (a line is one escaped field, far below the limit), Delete under the last.
    const parts = splitMessage(card, MESSAGE_LIMIT);
    for (const [index, part] of parts.entries()) {
      const last = index === parts.length - 1;
      await ctx.reply(part, {
        parse_mode: 'HTML',
        ...(last
          ? Markup.inlineKeyboard([
              [
                styled(
                  Markup.button.callback(
                    ctx.t('order:profileDelete'),
                    encodeCallback('profileDelete', id, owner),
                  ),
                  'danger',
                ),
              ],
            ])
          : {}),
      });
    }
  });

  callbacks.on('profileDelete', async (ctx, id, owner) => {
    if (await teamOrders.redirect(ctx, 'requisites')) return;
    await ctx.reply(ctx.t('order:profileDeleteConfirm'), {
      ...Markup.inlineKeyboard([
        styled(
          Markup.button.callback(ctx.t('order:yes'), encodeCallback('profileDeleteYes', id, owner)),
          'danger',
        ),
        Markup.button.callback(ctx.t('order:no'), encodeCallback('profileKeep')),
      ]),
    });
  });

  // "No" is answered in place, never silently: the question says the customer stays.
  callbacks.on('profileKeep', async (ctx) => {
    await ctx
      .editMessageText(`${ctx.t('order:profileDeleteConfirm')}\n\n<i>${ctx.t('order:profileKept')}</i>`, {
        parse_mode: 'HTML',
      })
      .catch(() => ctx.editMessageReplyMarkup(undefined).catch(() => undefined));
  });

  callbacks.on('profileDeleteYes', async (ctx, id, owner) => {
    if (await teamOrders.redirect(ctx, 'requisites')) return;
    const account = await profilesOf(ctx, owner);
    if (account === undefined) return;
    await ctx.editMessageReplyMarkup(undefined).catch(() => undefined);
    const deleted = await deps.chatData.deleteProfile(account, id);
    await ctx.reply(ctx.t(deleted ? 'order:profileDeleted' : 'order:profileGone'));
  });

  return { name: 'ordering', composer, callbacks: callbacks.registrations, scenes: [] };
}

/**
 * The order engine's own part: its scene and its buttons (options, navigation, edit, confirm).
 * The forms it runs are started by the ordering and DNS features, which get the engine as a dep.
 */
export function createOrderFormsFeature(deps: { engine: OrderEngine }): Feature {
  const callbacks = new CallbackSet();
  deps.engine.register(callbacks);
  return {
    name: 'orderForms',
    composer: new Composer<BotContext>(),
    callbacks: callbacks.registrations,
    scenes: [deps.engine.scene()],
  };
}
