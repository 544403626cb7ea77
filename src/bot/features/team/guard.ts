import type { Capability, Role } from '../../../core/team.js';
import { can, DEFAULT_ROLE } from '../../../core/team.js';
import type { ChatData, TeamRecord } from '../../../storage/chat-data.js';
import type { BotContext } from '../../context.js';
import { commandOf } from '../../middlewares/group-scope.js';
import { decodeCallback } from '../../registry.js';
import { actionCapability, commandCapability } from './access.js';
import { ownerName, renderRefusal } from './views.js';

/**
 * Roles in a group bound by `/team`: a command or a button outside the member's role is refused
 * with the roles that may use it; anyone the bot has not met there yet becomes a viewer. Groups
 * that are not bound, and private chats, pass untouched.
 */
export function createTeamGuard(deps: { chatData: ChatData }) {
  return async (ctx: BotContext, next: () => Promise<void>) => {
    const chat = ctx.chat;
    const from = ctx.from;
    if (chat === undefined || from === undefined || (chat.type !== 'group' && chat.type !== 'supergroup')) {
      return next();
    }
    const team = await deps.chatData.getTeam(chat.id);
    if (team === undefined) return next();
    const role = await memberRole(deps.chatData, chat.id, team, from);
    ctx.teamMember = { name: from.first_name, role };
    const needed = neededCapability(ctx);
    if (needed === undefined || can(role, needed)) return next();
    // A refusal is the member's alone, and says whom to ask: ephemeral (tied to the pressed button)
    // where the server allows; else an alert for a button, a reply for a command.
    if (ctx.callbackQuery && !ctx.toMember.ephemeral) {
      await ctx.answerCbQuery(renderRefusal(ctx.t, 'button', needed, role, ownerName(team)), {
        show_alert: true,
      });
      return;
    }
    if (ctx.callbackQuery) await ctx.answerCbQuery().catch(() => undefined);
    const messageId = ctx.message?.message_id;
    const quoted =
      messageId === undefined
        ? {}
        : { reply_parameters: { message_id: messageId, allow_sending_without_reply: true } };
    const refusal = renderRefusal(
      ctx.t,
      ctx.callbackQuery ? 'button' : 'command',
      needed,
      role,
      ownerName(team),
    );
    await ctx.toMember.send((ephemeral) => ctx.reply(refusal, { ...(ephemeral ?? quoted) }));
  };
}

/** The member's role; a newcomer is recorded as a viewer, and a changed first name kept. */
async function memberRole(
  chatData: ChatData,
  chatId: number,
  team: TeamRecord,
  from: { id: number; first_name: string },
): Promise<Role> {
  const id = String(from.id);
  const role = from.id === team.owner ? 'owner' : (team.members[id] ?? DEFAULT_ROLE);
  if (team.members[id] !== role || team.names[id] !== from.first_name) {
    await chatData.setTeam(chatId, {
      ...team,
      members: { ...team.members, [id]: role },
      names: { ...team.names, [id]: from.first_name },
    });
  }
  return role;
}

/** What the update asks for: a known command or button; undefined for anything else. */
function neededCapability(ctx: BotContext): Capability | undefined {
  const query = ctx.callbackQuery;
  if (query !== undefined) {
    const decoded = decodeCallback('data' in query ? query.data : undefined);
    // A stale button is told so by the router.
    return decoded === undefined ? undefined : actionCapability(decoded.action, ctx.session);
  }
  const command = commandOf(ctx);
  return command === undefined ? undefined : commandCapability(command.name);
}
