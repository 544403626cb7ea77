import { Composer, Markup } from 'telegraf';
import { MESSAGE_LIMIT } from '../../core/paging.js';
import { PRODUCT_KINDS, type ProductKind, productKindOf } from '../../core/product-kinds.js';
import { splitMessage } from '../../core/text.js';
import type { ChatData } from '../../storage/chat-data.js';
import { type BotContext, UserInputError } from '../context.js';
import { CallbackSet, type Feature } from '../feature.js';
import { encodeCallback } from '../keyboards/callback-data.js';
import { ORDER_KINDS } from '../order-kinds.js';
import { cardEntries, readSavedCustomer } from '../scenes/order/common-steps.js';
import type { OrderEngine } from '../scenes/order/engine.js';
import { renderCustomerCard } from '../views/requisites.js';
import { commandWords } from './arguments.js';

/** The menu of the kinds of order, one button each. */
export function orderMenu(ctx: BotContext) {
  return Markup.inlineKeyboard(
    PRODUCT_KINDS.map((kind) => [
      Markup.button.callback(ctx.t(ORDER_KINDS[kind].labelKey), encodeCallback('orderStart', kind)),
    ]),
  );
}

/** The answer the word after `/order <kind>` gives (a domain name), when the kind takes one. */
function prefill(kind: ProductKind, word: string | undefined): Record<string, unknown> {
  const step = ORDER_KINDS[kind].prefillStep;
  return word === undefined || step === null ? {} : { [step]: word };
}

/** /order [domain|hosting|mail|ssl] [domain], the Order button of /check, and /requisites. */
export function createOrderingFeature(deps: { engine: OrderEngine; chatData: ChatData }): Feature {
  const { engine } = deps;
  const composer = new Composer<BotContext>();
  const callbacks = new CallbackSet();

  composer.command('order', async (ctx) => {
    const [word, name] = commandWords(ctx.payload);
    const kind = productKindOf(word?.toLowerCase());
    if (word === undefined) {
      await ctx.partnerApi();
      await ctx.reply(ctx.t('order:chooseKind'), orderMenu(ctx));
      return;
    }
    if (!kind) throw new UserInputError('order:badKind', { usageKey: 'order:usage' });
    await engine.start(ctx, kind, prefill(kind, name));
  });

  callbacks.on('orderDomain', (ctx, ascii) => engine.start(ctx, 'domain', prefill('domain', ascii)));

  composer.command('requisites', async (ctx) => {
    if (!ctx.chat) return;
    const profiles = await deps.chatData.getProfiles(ctx.chat.id);
    const buttons = profiles.map((p) => [
      Markup.button.callback(p.label, encodeCallback('profileShow', p.id)),
    ]);
    buttons.push([
      Markup.button.callback(ctx.t('order:profileAdd'), encodeCallback('orderStart', 'profile')),
    ]);
    await ctx.reply(profiles.length === 0 ? ctx.t('order:noProfiles') : ctx.t('order:profilesTitle'), {
      ...Markup.inlineKeyboard(buttons),
    });
  });

  callbacks.on('orderStart', async (ctx, word) => {
    if (word === 'profile') return engine.start(ctx, 'profile', {}, { customerSource: 'new' });
    if (word === 'menu') {
      await ctx.reply(ctx.t('order:chooseKind'), orderMenu(ctx));
      return;
    }
    const kind = productKindOf(word);
    if (kind) await engine.start(ctx, kind);
  });

  callbacks.on('profileShow', async (ctx, id) => {
    if (!ctx.chat) return;
    const profile = (await deps.chatData.getProfiles(ctx.chat.id)).find((p) => p.id === id);
    if (!profile) throw new UserInputError('order:profileGone');
    // A profile that no longer reads as a saved customer shows its label only, and can be deleted.
    // Fields in the form's order with their labels, the WHOIS data and contacts included.
    const card = renderCustomerCard(ctx.t, {
      title: profile.label,
      entries: cardEntries(readSavedCustomer(profile) ?? {}),
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
              [Markup.button.callback(ctx.t('order:profileDelete'), encodeCallback('profileDelete', id))],
            ])
          : {}),
      });
    }
  });

  callbacks.on('profileDelete', async (ctx, id) => {
    await ctx.reply(ctx.t('order:profileDeleteConfirm'), {
      ...Markup.inlineKeyboard([
        Markup.button.callback(ctx.t('order:yes'), encodeCallback('profileDeleteYes', id)),
        Markup.button.callback(ctx.t('order:no'), encodeCallback('noop')),
      ]),
    });
  });

  callbacks.on('profileDeleteYes', async (ctx, id) => {
    if (!ctx.chat) return;
    await ctx.editMessageReplyMarkup(undefined).catch(() => undefined);
    const deleted = await deps.chatData.deleteProfile(ctx.chat.id, id);
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
