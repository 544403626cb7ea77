/*
 * Which partner account a Mini App call acts on, and with which role. Opened from the user's own
 * chat, the app acts with the token of the user's private chat (its chat id is the user id), as the
 * owner. Opened for a bound group (`start_param` = `g<chat id>`), it acts with the group's token and
 * the member's role exactly as the chat's team guard reads it — but a user the group's team has
 * not recorded is refused rather than made a viewer: the chat sees a member speak in the group,
 * the app sees only a link, which anyone can open.
 */

import { parseStartParam } from '../core/mini-app-launch.js';
import { type Capability, can, type Role } from '../core/team.js';
import type { ChatData } from '../storage/chat-data.js';
import type { LaunchData } from './init-data.js';

/** Whether a user still belongs to a group, as Telegram tells (`getChatMember`); composed in main. */
export type MembershipCheck = (chatId: number, userId: number) => Promise<boolean>;

export interface AccessDeps {
  chatData: Pick<ChatData, 'getToken' | 'getTeam'>;
  /** `ALLOWED_USER_IDS`: anyone else is refused, as the chat refuses them. */
  allowedUserIds?: ReadonlySet<number> | undefined;
  /** Asked for a recorded member of a group; absent = the team's record is trusted alone. */
  isGroupMember?: MembershipCheck | undefined;
}

/** The account a call acts on. The token stays on the server: no response carries it. */
export interface Account {
  kind: 'private' | 'group';
  /** The chat whose token acts: the user's private chat (= user id) or the group. */
  chatId: number;
  role: Role;
  token: string;
}

/**
 * Why a signed user may not act (each answered 403, but `badStartParam`: 400):
 * - `notAllowed`: not on ALLOWED_USER_IDS;
 * - `noToken`: the chat whose token would act has none (no /token in the private chat, or the
 *   group's token no longer opens);
 * - `badStartParam`: the launch parameter names nothing this version knows;
 * - `groupNotBound`: the group has no team (never bound by /team, or unbound since);
 * - `notMember`: the group's team has not recorded the user, or Telegram says they left;
 * - `roleTooLow`: the member's role lacks what the call needs (the reply names the roles that may).
 */
export type AccessRefusal =
  | 'notAllowed'
  | 'noToken'
  | 'badStartParam'
  | 'groupNotBound'
  | 'notMember'
  | 'roleTooLow';

export type AccessResult = { ok: true; account: Account } | { ok: false; reason: AccessRefusal };

/** The account and role a launch acts with; refusals carry no secret. */
export async function resolveAccess(deps: AccessDeps, launch: LaunchData): Promise<AccessResult> {
  const userId = launch.userId;
  if (deps.allowedUserIds !== undefined && !deps.allowedUserIds.has(userId)) {
    return { ok: false, reason: 'notAllowed' };
  }
  if (launch.startParam === undefined) {
    const token = await deps.chatData.getToken(userId);
    if (token === undefined) return { ok: false, reason: 'noToken' };
    return { ok: true, account: { kind: 'private', chatId: userId, role: 'owner', token } };
  }
  const target = parseStartParam(launch.startParam);
  if (target === undefined) return { ok: false, reason: 'badStartParam' };
  const team = await deps.chatData.getTeam(target.chatId);
  if (team === undefined) return { ok: false, reason: 'groupNotBound' };
  const role: Role | undefined = userId === team.owner ? 'owner' : team.members[String(userId)];
  if (role === undefined) return { ok: false, reason: 'notMember' };
  if (deps.isGroupMember !== undefined && !(await deps.isGroupMember(target.chatId, userId))) {
    return { ok: false, reason: 'notMember' };
  }
  const token = await deps.chatData.getToken(target.chatId);
  if (token === undefined) return { ok: false, reason: 'noToken' };
  return { ok: true, account: { kind: 'group', chatId: target.chatId, role, token } };
}

/** Whether the account's role may do what `capability` allows; the chat's rule, from core. */
export function mayDo(account: Account, capability: Capability): boolean {
  return can(account.role, capability);
}
