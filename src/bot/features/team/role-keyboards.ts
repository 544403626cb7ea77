import type { Middleware } from 'telegraf';
import type { InlineKeyboardButton } from 'telegraf/types';
import { type Capability, can, type Role, rolesAllowed } from '../../../core/team.js';
import type { BotContext } from '../../context.js';
import { disabledButton } from '../../kit/bot-api-today.js';
import { gateKeyboard, passOutgoing } from '../../kit/outgoing.js';
import { decodeCallback } from '../../registry.js';
import { actionCapability } from './access.js';

/*
 * Buttons that say what a member's role lacks (docs/team-chats.md#disabled-buttons): in a group
 * bound by /team, every inline keyboard the bot sends to one member alone (an ephemeral message,
 * or an edit of one) while it answers that member's update is drawn for them. A button whose
 * action their role lacks becomes a disabled button (Bot API 10.3) naming the role it needs —
 * «🔒 Удалить · нужна роль «техник»». A message the whole group sees is never drawn for one
 * member: the owner and the tech read it too, so its buttons stay live and the role guard answers
 * whoever taps one their role lacks, to them alone. One place for every screen and every method:
 * the update's own Telegram client, whatever method carries a `reply_markup`.
 */

/**
 * After the role guard: in a bound group, the update's outgoing keyboards meant for the sender
 * alone are gated by the sender's role. Private chats, unbound groups and the owner (who may do everything) pass
 * untouched and cost nothing.
 */
export function createRoleKeyboards(): Middleware<BotContext> {
  return (ctx, next) => {
    const role = ctx.teamMember?.role;
    if (role === undefined || role === 'owner') return next();
    // The context itself as the subject: a member's update in a group needs its session and
    // language, and is far rarer than a private chat's (whose pass holds no context).
    passOutgoing(ctx.telegram, gateForMember, ctx);
    return next();
  };
}

/** The outgoing pass of a member's update: what only they see is gated by their role. */
function gateForMember(ctx: BotContext, method: string, payload: Record<string, unknown>) {
  const role = ctx.teamMember?.role;
  if (role === undefined || !forOneMember(method, payload)) return payload;
  return gateKeyboard(payload, (button) => lockedFor(ctx, role, button));
}

/** Whether a call's message is seen by one member alone: sent ephemeral, or an ephemeral one edited. */
function forOneMember(method: string, payload: Record<string, unknown>): boolean {
  return 'ephemeral_message_parameters' in payload || /ephemeral/i.test(method);
}

/** The disabled stand-in for a button `role` may not press; undefined for one it may. */
function lockedFor(
  ctx: BotContext,
  role: Role,
  button: InlineKeyboardButton,
): InlineKeyboardButton | undefined {
  if (!('callback_data' in button)) return undefined;
  const needed = neededFor(ctx, button.callback_data);
  if (needed === undefined || can(role, needed)) return undefined;
  // The least trusted role that may: the one to ask the owner for.
  const [least] = rolesAllowed(needed);
  if (least === undefined) return undefined;
  return disabledButton(
    ctx.t('team:lockedButton', { label: withoutIcon(button.text), role: ctx.t(`team:role.${least}`) }),
  );
}

/** What pressing a button with this data needs; undefined for data the bot would call stale. */
function neededFor(ctx: BotContext, data: string): Capability | undefined {
  const decoded = decodeCallback(data);
  if (decoded === undefined) return undefined;
  try {
    return actionCapability(decoded.action, ctx.session);
  } catch {
    // A form's buttons sent after the update's chain ended (the session is closed): left to the guard.
    return undefined;
  }
}

/** A label's leading emoji go: the lock takes their place («🗑 Удалить» → «Удалить»). */
const LEADING_ICONS = /^(?:(?:\p{Extended_Pictographic}|\u{FE0F}|\u{200D}|\p{Emoji_Modifier})+\s*)+/u;

function withoutIcon(label: string): string {
  return label.replace(LEADING_ICONS, '') || label;
}
