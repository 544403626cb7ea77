import { type Middleware, Scenes, session, Telegraf, type Telegram } from 'telegraf';
import type { ApiFactory } from '../api/index.js';
import type { Logger } from '../logger.js';
import { errorForLog } from '../logger.js';
import { createDnsRecorder } from '../services/dns-journal.js';
import type { KeyReportPort } from '../services/key-reports.js';
import type { OrderReportPort } from '../services/order-placing.js';
import type { EditsReportPort } from '../services/zone-editing.js';
import type { ChatData } from '../storage/chat-data.js';
import type { Locale } from '../storage/chat-store.js';
import type { DnsHistory } from '../storage/dns-history.js';
import type { ChatLock } from '../storage/redis-coordination.js';
import type { RobotKeys } from '../storage/robot-keys.js';
import type { BotContext, BotSession, WatchPort } from './context.js';
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
import type { LiveCheckPort } from './features/dns/live-check/live-check.js';
import { createDnsAddFlow } from './features/dns/records/add-flow.js';
import { createDomainsFeature } from './features/domains/domains.js';
import { createFreeTextFeature } from './features/free-text/free-text.js';
import { createInlineFeature } from './features/inline/inline.js';
import type { AcmeDnsPort } from './features/keys/acme-dns.js';
import { createKeyReports } from './features/keys/key-reports.js';
import { createKeyParts } from './features/keys/keys.js';
import { createNotifyFeature } from './features/notify/notify.js';
import { createWatchEnsurer } from './features/notify/watch-ensurer.js';
import { createOnboardingFeature } from './features/onboarding/onboarding.js';
import { createAppOrderReports } from './features/ordering/app-order-report.js';
import { ORDER_KINDS } from './features/ordering/kinds.js';
import { createOrderFormsFeature, createOrderingFeature } from './features/ordering/ordering.js';
import { createProfileFlow } from './features/ordering/profile-flow.js';
import { createOrdersFeature } from './features/orders/orders.js';
import { createGroupMigration } from './features/team/group-migration.js';
import { createTeamGuard } from './features/team/guard.js';
import { TeamOrders } from './features/team/orders.js';
import { createRoleKeyboards } from './features/team/role-keyboards.js';
import { createTeamFeature } from './features/team/team.js';
import { OrderEngine } from './forms/engine.js';
import { createMemberScenes } from './forms/member-scenes.js';
import { callBotApi } from './kit/bot-api-today.js';
import { CallbackRouter } from './kit/callback-router.js';
import { registerFeatures } from './kit/feature.js';
import { LOCALES, pickLocale, type Translations } from './kit/i18n.js';
import { createMemberMessages } from './kit/member-messages.js';
import { EPHEMERAL_COMMANDS, MENU_COMMANDS } from './kit/menu.js';
import type { MiniAppLinks } from './kit/mini-app-button.js';
import { PagedLists } from './kit/paged-list.js';
import { Screens } from './kit/screens.js';
import { createFileReader } from './kit/telegram-files.js';
import { logUnknownWordsTo } from './kit/words.js';
import { createAccessGuard } from './middlewares/access.js';
import { createAccountContext, installAccountDefaults } from './middlewares/account.js';
import { createChatContext } from './middlewares/chat-context.js';
import { createDedupe, createMemoryDeduper, type UpdateDeduper } from './middlewares/dedupe.js';
import { createErrorBoundary, reportError } from './middlewares/errors.js';
import { createGroupScope } from './middlewares/group-scope.js';
import { createSequentializer } from './middlewares/sequentialize.js';
import { ACTIONS, type BotCallbackRouter, callbackCodec, type Feature } from './registry.js';

/** Everything the bot needs, built by main.ts (or a test). */
export interface BotDeps {
  botToken: string;
  telegramApiRoot?: string;
  chatData: ChatData;
  apiFor: ApiFactory;
  translations: Translations;
  logger: Logger;
  defaultLocale: Locale;
  allowedUserIds?: ReadonlySet<number> | undefined;
  /** Remembers handled update ids (per process by default; Redis when several run). */
  deduper?: UpdateDeduper;
  /** Keeps other instances out of a chat while this one handles it (Redis). */
  chatLock?: ChatLock;
  /** The watchers behind /notify (absent when NOTIFY_INTERVAL_S=0). */
  watches?: WatchPort | undefined;
  /** The DNS change history behind `/dns <domain> history` and the Undo buttons. */
  dnsHistory?: DnsHistory | undefined;
  /** Told of every zone change the chat makes (the robots' gateway drops its cached addresses). */
  zoneChanged?: ((accountId: string, orderId: number) => Promise<void>) | undefined;
  /** The live check after DNS changes and on `/dns <domain> check` (absent: not offered). */
  liveChecks?: LiveCheckPort | undefined;
  /** `TELEGRAM_LOCAL_FILES_DIR`: where a `--local` Bot API server's files are visible to the bot. */
  localFilesDir?: string | undefined;
  /**
   * `RICH_MESSAGES`: tables and documents as rich messages (Bot API 10.1; on unless told), or as
   * HTML for a self-hosted Bot API server older than that.
   */
  richMessages?: boolean;
  /**
   * The Mini App (`MINI_APP_URL`, `MINI_APP_SHORT_NAME`): screens offer to open it; absent, they
   * do not. Only where it is: the bot never imports the app's server.
   */
  miniApp?: MiniAppLinks | undefined;
  /** Robots' keys behind /keys (routers, certificate clients). */
  robotKeys: RobotKeys;
  /** `GATEWAY_URL`: where robots reach this server, shown in their configs (else the Mini App's origin). */
  gatewayUrl?: string | undefined;
  /** acme-dns registration for certificate keys (the challenges service); absent, /keys offers httpreq only. */
  acmeDns?: AcmeDnsPort | undefined;
}

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
  const chain: Middleware<BotContext>[] = [
    createErrorBoundary(deps.logger, fallbackT),
    // First after the boundary, with no await before it: updates dispatched in update-id order
    // (the polling loop and the webhook hand them over without waiting) join their chat's queue
    // in that order. A re-delivered update then waits behind the first and is dropped below.
    sequentializer.middleware,
    createDedupe(deps.deduper ?? createMemoryDeduper(), (updateId) =>
      deps.logger.info({ updateId }, 'duplicate update ignored'),
    ),
    createChatContext(deps),
    // What concerns one member goes to them alone (ephemeral); edits of such a screen are routed here.
    createMemberMessages(deps),
    createAccessGuard(deps.allowedUserIds),
    // A token stored before the watchers existed (or while they were off) is watched from its next update.
    ...(deps.watches ? [createWatchEnsurer(deps.chatData, deps.watches, deps.logger)] : []),
    // A bound group upgraded to a supergroup carries its binding to the new chat id.
    createGroupMigration(deps),
    // In groups only commands addressed to the bot and replies to it; token commands only when bound.
    createGroupScope(deps),
    session<BotSession, BotContext>({
      store: deps.chatData.sessionStore<BotSession>(),
      getSessionKey: (ctx) => ctx.chat?.id.toString(),
      defaultSession: () => ({}),
    }),
    // The account the update acts on: a button's own, an open form's, else the active one
    // (before anything reads a button's data: it takes the account's stamp off).
    createAccountContext(deps),
    // In groups each member's form is their own: others' messages do not feed it.
    createMemberScenes(),
    // Roles in groups bound by /team, before any scene, button or command sees the update.
    createTeamGuard(deps),
    // What the member's role lacks is drawn disabled, naming the role, on every keyboard sent to them.
    createRoleKeyboards(),
    ...settlers,
    stage.middleware(),
    router.middleware(),
    // The features' commands, in the order they were built (first match wins).
    ...composers,
  ];
  bot.use(...chain);

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
  return { bot, drain: () => sequentializer.drain(), editsReports, orderReports, keyReports };
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
