import { type Middleware, type Scenes, session } from 'telegraf';
import type { BotContext, BotSession } from '../context.js';
import type { BotDeps } from '../deps.js';
import { createWatchEnsurer } from '../features/notify/watch-ensurer.js';
import { createGroupMigration } from '../features/team/group-migration.js';
import { createTeamGuard } from '../features/team/guard.js';
import { createRoleKeyboards } from '../features/team/role-keyboards.js';
import { createMemberScenes } from '../forms/member-scenes.js';
import type { Translate } from '../kit/i18n.js';
import { createMemberMessages } from '../kit/member-messages.js';
import type { BotCallbackRouter } from '../registry.js';
import { createAccessGuard } from './access.js';
import { createAccountContext } from './account.js';
import { createChatContext } from './chat-context.js';
import { createDedupe, createMemoryDeduper } from './dedupe.js';
import { createErrorBoundary } from './errors.js';
import { createGroupScope } from './group-scope.js';
import type { createSequentializer } from './sequentialize.js';

/** What the chain is built around: the chat queue, and the features' parts in their order. */
export interface ChainParts {
  sequentializer: ReturnType<typeof createSequentializer>;
  /** Words for errors met before the chat's language is known. */
  fallbackT: (ctx: BotContext) => Translate;
  settlers: Middleware<BotContext>[];
  stage: Scenes.Stage<BotContext>;
  router: BotCallbackRouter;
  composers: Middleware<BotContext>[];
}

/**
 * Every middleware an update passes, in order (the order is the design: see `createBot`).
 */
export function createMiddlewareChain(deps: BotDeps, parts: ChainParts): Middleware<BotContext>[] {
  const { sequentializer, fallbackT, settlers, stage, router, composers } = parts;
  return [
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
}
