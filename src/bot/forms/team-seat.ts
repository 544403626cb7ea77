import type { ChatData } from '../../storage/chat-data.js';
import type { BotContext } from '../context.js';
import type { TeamOrders, TeamSeat } from '../features/team/orders.js';
import type { OrderDraft } from './types.js';

/** The member's seat in the group the draft orders for, if they may still order there. */
export async function findTeamSeat(
  teamOrders: TeamOrders | undefined,
  ctx: BotContext,
  draft: OrderDraft,
): Promise<TeamSeat | undefined> {
  const { team } = draft;
  if (team === undefined || ctx.from === undefined) return undefined;
  return teamOrders?.seat(ctx.from.id, team.chat, team.thread);
}

/**
 * A group's order: the group hears of it with the link, and that message is the one marked paid
 * (the group's token is watched for the group, not for this private chat). `false`, and nothing
 * said, when the draft is no group's order or its member may no longer order there.
 */
export async function announceTeamOrder(
  deps: { teamOrders?: TeamOrders | undefined; chatData: ChatData },
  ctx: BotContext,
  draft: OrderDraft,
  order: { subject: string; order: string | number },
  invoice: { url: string | undefined; invoiceId: number | undefined },
): Promise<boolean> {
  const seat = await findTeamSeat(deps.teamOrders, ctx, draft);
  if (seat === undefined || !deps.teamOrders) return false;
  const { url, invoiceId } = invoice;
  const told = await deps.teamOrders.announceOrder(
    ctx.telegram,
    seat,
    { kind: draft.kind, ...order },
    url || undefined,
  );
  if (url && invoiceId !== undefined && told !== undefined) {
    await deps.chatData.rememberInvoiceLink(seat.chat, invoiceId, told);
  }
  return true;
}
