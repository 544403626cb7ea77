import { Scenes, Telegraf, type Telegram } from 'telegraf';
import type { Logger } from '../logger.js';
import { errorForLog } from '../logger.js';
import { createDnsRecorder } from '../services/dns-journal.js';
import type { InvoiceCardPort } from '../services/invoice-cards.js';
import type { KeyReportPort } from '../services/key-reports.js';
import type { OrderReportPort } from '../services/order-placing.js';
import type { EditsReportPort } from '../services/zone-editing.js';
import type { BotContext } from './context.js';
import type { BotDeps } from './deps.js';
import { createAccountsFeature } from './features/accounts/accounts.js';
import { createBillingFeature } from './features/billing/billing.js';
import { createCatalogFeature } from './features/catalog/catalog.js';
import { createDnsChangeFlow } from './features/dns/change/change-flow.js';
import { createChangeRunner } from './features/dns/change/runner.js';
import {
  createDnsFeature,
  createDnsJournal,
  createDnsRecordList,
  type DnsPorts,
} from './features/dns/dns.js';
import { createEditsReports } from './features/dns/edits-report.js';
import { createDnsAddFlow } from './features/dns/records/add-flow.js';
import { createDomainsFeature } from './features/domains/domains.js';
import { createFreeTextFeature } from './features/free-text/free-text.js';
import { createInlineFeature } from './features/inline/inline.js';
import { createInvoiceCardPort } from './features/inline/invoice-card.js';
import { createKeyReports } from './features/keys/key-reports.js';
import { createKeyParts } from './features/keys/keys.js';
import { createNotifyFeature } from './features/notify/notify.js';
import { createOnboardingFeature } from './features/onboarding/onboarding.js';
import { createAppOrderReports } from './features/ordering/app-order-report.js';
import { ORDER_KINDS } from './features/ordering/kinds.js';
import { createOrderFormsFeature, createOrderingFeature } from './features/ordering/ordering.js';
import { createProfileFlow } from './features/ordering/profile-flow.js';
import { createOrdersFeature } from './features/orders/orders.js';
import { TeamOrders } from './features/team/orders.js';
import { createTeamFeature } from './features/team/team.js';
import { OrderEngine } from './forms/engine.js';
import { callBotApi } from './kit/bot-api-today.js';
import { CallbackRouter } from './kit/callback-router.js';
import { registerFeatures } from './kit/feature.js';
import { LOCALES, pickLocale, type Translations } from './kit/i18n.js';
import { EPHEMERAL_COMMANDS, MENU_COMMANDS } from './kit/menu.js';
import { PagedLists } from './kit/paged-list.js';
import { Screens } from './kit/screens.js';
import { createFileReader } from './kit/telegram-files.js';
import { logUnknownWordsTo } from './kit/words.js';
import { installAccountDefaults } from './middlewares/account.js';
import { createMiddlewareChain } from './middlewares/chain.js';
import { reportError } from './middlewares/errors.js';
import { createSequentializer } from './middlewares/sequentialize.js';
import { ACTIONS, type BotCallbackRouter, callbackCodec, type Feature } from './registry.js';

export type { BotDeps } from './deps.js';

export { MENU_COMMANDS };

/** The wired bot and what main.ts needs to stop it gracefully. */
export interface PartnerBot {
  bot: Telegraf<BotContext>;
  /** Resolves when every update already started has finished. */
  drain(): Promise<void>;
  /** Tells a chat of DNS edits made in the Mini App for its account (the services' port). */
  editsReports: EditsReportPort;
  /** Tells a chat of an order placed in the Mini App for its account, with the invoice link. */
  orderReports: OrderReportPort;
  /** Tells a key's chat what robots did with it (the gateway's services' port). */
  keyReports: KeyReportPort;
  /** Prepares an invoice's card for the Mini App's Share (`savePreparedInlineMessage`). */
  invoiceCards: InvoiceCardPort;
}

/**
 * Builds the bot. Middleware order matters: the error boundary wraps everything; one chat's
 * updates run one at a time; the chat's language is known before the allow-list answers; the
 * session is read only for allowed users; scenes see their answers before the commands; the
 * last feature (free text) helps with anything nobody understood.
 *
 * Forum topics need no middleware: telegraf 4.16's `ctx.reply`, `ctx.replyWith…` and
 * `ctx.sendChatAction` add the `message_thread_id` of the update's message (or of the pressed
 * button's message) when it is a topic message, so every answer lands in the topic it was asked in.
 * Handlers post with those, never `ctx.telegram.send…(chatId)` (the "forum topics" story in
 * test/bot/team/announce.test.ts fails on such a call).
 */
export function createBot(deps: BotDeps): PartnerBot {
  const bot = new Telegraf<BotContext>(deps.botToken, {
    ...(deps.telegramApiRoot ? { telegram: { apiRoot: deps.telegramApiRoot } } : {}),
    // telegraf's own timeout cannot cancel a handler; the provider deadline bounds handlers instead.
    handlerTimeout: Number.POSITIVE_INFINITY,
  });
  // One per bot: a server found without rich messages is remembered for every later screen.
  const screens = new Screens(deps.richMessages ?? true, deps.logger);
  bot.context.screens = screens;
  installAccountDefaults(bot.context);
  const sequentializer = createSequentializer(deps.chatLock);
  const { router, stage, settlers, composers } = createFeatures(deps);

  // Errors met before the chat's language is known are told in the default one.
  const fallbackT = (ctx: BotContext) =>
    deps.translations.forLocale(pickLocale(ctx.from?.language_code, deps.defaultLocale));
  // One `use` for the whole chain: telegraf composes each `use` around the ones before, so a chain
  // built by one call per middleware nests a dispatch frame per middleware for every update.
  bot.use(...createMiddlewareChain(deps, { sequentializer, fallbackT, settlers, stage, router, composers }));

  // Last resort: the boundary above catches handler errors; this catches the rest (e.g. the
  // boundary's own reply failing) and never prints the update, which may carry a token.
  bot.catch(async (error, ctx) => {
    deps.logger.error({ updateId: ctx.update.update_id, err: errorForLog(error) }, 'unhandled bot error');
    await reportError(ctx, error, deps.logger, fallbackT).catch(() => undefined);
  });

  const editsReports = createEditsReports({
    telegram: bot.telegram,
    screens,
    translations: deps.translations,
    chatData: deps.chatData,
    defaultLocale: deps.defaultLocale,
    apiFor: deps.apiFor,
    liveChecks: deps.liveChecks,
  });
  const orderReports = createAppOrderReports({
    telegram: bot.telegram,
    translations: deps.translations,
    chatData: deps.chatData,
    defaultLocale: deps.defaultLocale,
  });
  const keyReports = createKeyReports({ ...deps, telegram: bot.telegram });
  const invoiceCards = createInvoiceCardPort({ telegram: bot.telegram, translations: deps.translations });
  return { bot, drain: () => sequentializer.drain(), editsReports, orderReports, keyReports, invoiceCards };
}

/**
 * The bot's features in one visible order, each `{ composer, callbacks, scenes }` built from
 * explicit deps. Shared pieces come first: the router with its own buttons (pages, the plain
 * "No"), the paged lists, the DNS records list (both the DNS feature and the engine's guided add
 * end on it), then the order engine with its forms. A duplicate button action or scene id throws
 * here, at start. Nothing outside `deps` is kept, so building twice gives two independent bots.
 */
export function createFeatures(deps: BotDeps) {
  const router: BotCallbackRouter = new CallbackRouter(deps.logger, callbackCodec);
  // Provider values without words in the locales are shown as sent and logged once (views/words.ts).
  logUnknownWordsTo(deps.logger);
  router.on('noop', async () => undefined);
  const lists = new PagedLists();
  const readFile = createFileReader({ localFilesDir: deps.localFilesDir });
  const downloadFile = (ctx: BotContext, fileId: string) => readFile(ctx.telegram, fileId);
  router.on('page', (ctx, listId, page, filter) => lists.turnPage(ctx, listId, page, filter));
  // The DNS parts' ports: the change history and the live check, handed in like every other dep.
  const dnsPorts: DnsPorts = {
    journal: createDnsJournal(
      createDnsRecorder({
        chatData: deps.chatData,
        dnsHistory: deps.dnsHistory,
        logger: deps.logger,
        zoneChanged: deps.zoneChanged,
      }),
    ),
    liveChecks: deps.liveChecks,
    persistSession: async (ctx) => {
      if (ctx.chat) await deps.chatData.sessionStore<object>().set(String(ctx.chat.id), ctx.session);
    },
  };
  const { showRecords, showAdded } = createDnsRecordList({ lists, ports: dnsPorts, miniApp: deps.miniApp });
  // Record changes, gap-free and finished after a kill: the DNS feature and the guided change share them.
  const changes = createChangeRunner({ ports: dnsPorts, logger: deps.logger });
  // Keys for robots: the form that makes one (the engine runs it) and /keys itself.
  const keys = createKeyParts({ ...deps, miniAppUrl: deps.miniApp?.url });
  // A team group's orders are filled in the member's private chat (customers' data is personal).
  const teamOrders = new TeamOrders(deps);
  const engine = new OrderEngine({
    chatData: deps.chatData,
    logger: deps.logger,
    flows: {
      // The product kinds' flows come from the order-kind registry (order-kinds.ts).
      profile: createProfileFlow(),
      dnsAdd: createDnsAddFlow({ showAdded }),
      dnsChange: createDnsChangeFlow({ changes }),
      keyNew: keys.flow,
    },
    productFlows: ORDER_KINDS,
    downloadFile,
    watches: deps.watches,
    teams: teamOrders,
  });
  // /cancel (onboarding) closes what every feature keeps open; the features are listed below.
  const closeOpen = (ctx: BotContext) =>
    features.map((feature) => feature.closeOpen?.(ctx) ?? false).some((closed) => closed);
  const features: Feature[] = [
    createOnboardingFeature({ ...deps, closeOpen }),
    // /accounts: the private chat's partner accounts (add, switch, rename, remove).
    createAccountsFeature({ ...deps, closeOpen }),
    createBillingFeature({ lists, chatData: deps.chatData }),
    // Inline mode (`@bot` in any chat): answers only inline queries and their chosen results.
    createInlineFeature({ logger: deps.logger, chatData: deps.chatData, apiFor: deps.apiFor }),
    createCatalogFeature({ lists }),
    createOrdersFeature({ lists, chatData: deps.chatData }),
    createNotifyFeature({ chatData: deps.chatData, watches: deps.watches }),
    createTeamFeature({ chatData: deps.chatData, watches: deps.watches, logger: deps.logger }),
    createDomainsFeature(),
    createOrderFormsFeature({ engine }),
    createOrderingFeature({ engine, chatData: deps.chatData, teamOrders, miniApp: deps.miniApp }),
    createDnsFeature({
      engine,
      lists,
      showRecords,
      showAdded,
      changes,
      downloadFile,
      ports: dnsPorts,
    }),
    keys.feature(engine),
    // Last: text nobody else took (a bare invoice, order or domain gets its buttons; else, help).
    createFreeTextFeature({ chatData: deps.chatData }),
  ];
  const stage = new Scenes.Stage<BotContext>(registerFeatures(router, ACTIONS, features));
  return {
    router,
    stage,
    // Work a killed process left half-done is settled before any scene, button or command.
    settlers: features.flatMap((feature) => (feature.settle ? [feature.settle] : [])),
    composers: features.map((feature) => feature.composer),
    features,
  };
}

/** Registers the command menu in each language; a failure is logged, never fatal. */
export async function registerCommandMenus(telegram: Telegram, translations: Translations, logger: Logger) {
  for (const locale of LOCALES) {
    const commands = MENU_COMMANDS.map((command) => ({
      command,
      description: translations.t(locale, `common:commands.${command}`),
    }));
    try {
      await telegram.setMyCommands(commands, { language_code: locale });
      if (locale === 'ru') await telegram.setMyCommands(commands);
    } catch (error) {
      logger.warn({ locale, err: errorForLog(error) }, 'could not register the command menu');
    }
    // In groups, the commands a member uses for themselves are ephemeral (Bot API 10.3): seen by
    // the sender and the bot only. A server without them keeps the menu above for groups too.
    const inGroups = commands.map((entry) =>
      EPHEMERAL_COMMANDS.has(entry.command) ? { ...entry, is_ephemeral: true } : entry,
    );
    try {
      const scope = { type: 'all_group_chats' } as const;
      await callBotApi(telegram, 'setMyCommands', { commands: inGroups, scope, language_code: locale });
      if (locale === 'ru') await callBotApi(telegram, 'setMyCommands', { commands: inGroups, scope });
    } catch (error) {
      logger.warn({ locale, err: errorForLog(error) }, 'could not register the group command menu');
    }
    // What a user reads before pressing Start (the profile and the empty chat): cosmetic, so a
    // refusal is a warning, never a failed start.
    const description = translations.t(locale, 'common:botDescription');
    const short = translations.t(locale, 'common:botShortDescription');
    try {
      await telegram.setMyDescription(description, locale);
      await telegram.setMyShortDescription(short, locale);
      if (locale === 'ru') {
        await telegram.setMyDescription(description);
        await telegram.setMyShortDescription(short);
      }
    } catch (error) {
      logger.warn({ locale, err: errorForLog(error) }, 'could not set the bot description');
    }
  }
}

/**
 * The bot's menu button opens the Mini App (its home) when MINI_APP_URL is set: the default
 * button of every private chat, named in the default language. BotFather's «main Mini App» is
 * another thing, set there by hand. Cosmetic: a refusal is a warning, never a failed start.
 */
export async function registerMenuButton(
  telegram: Pick<Telegram, 'callApi'>,
  miniAppUrl: string | undefined,
  text: string,
  logger: Logger,
): Promise<void> {
  if (miniAppUrl === undefined) return;
  try {
    await callBotApi(telegram, 'setChatMenuButton', {
      menu_button: { type: 'web_app', text, web_app: { url: miniAppUrl } },
    });
  } catch (error) {
    logger.warn({ err: errorForLog(error) }, 'could not set the menu button');
  }
}
