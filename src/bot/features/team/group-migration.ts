import type { Logger } from '../../../logger.js';
import type { BotContext } from '../../context.js';
import { moveGroup, type TeamBindingDeps } from './binding.js';

/**
 * A group upgraded to a supergroup gets a new chat id; Telegram says so with a service message in
 * each chat (`migrate_to_chat_id` in the old one, `migrate_from_chat_id` in the new one). The old
 * chat's one moves the group's binding and team to the new id (team-binding.ts) — one update, in
 * the old chat's queue, so two instances never both move it — and the new supergroup is told its
 * team carried over. The new chat's one is only acknowledged (nothing answered).
 */
export function createGroupMigration(deps: TeamBindingDeps & { logger: Logger }) {
  return async (ctx: BotContext, next: () => Promise<void>) => {
    const message = ctx.message;
    const chatId = ctx.chat?.id;
    if (message === undefined || chatId === undefined) return next();
    if ('migrate_from_chat_id' in message) return;
    if (!('migrate_to_chat_id' in message)) return next();
    const move = { from: chatId, to: message.migrate_to_chat_id };
    if (!(await moveGroup(deps, move.from, move.to))) return;
    deps.logger.info(move, 'bound group moved to its supergroup');
    await ctx.telegram.sendMessage(move.to, ctx.t('team:migrated'));
  };
}
