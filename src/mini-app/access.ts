/*
 * Which partner account a Mini App call acts on, and with which role. Opened from the user's own
 * chat, the app acts with the token of the user's private chat (its chat id is the user id), as the
 * owner. Opened for a bound group (`start_param` = `g<chat id>`), it acts with the group's token and
 * the member's role exactly as the chat's team guard reads it — but a user the group's team has
 * not recorded is refused rather than made a viewer: the chat sees a member speak in the group,
 * the app sees only a link, which anyone can open.
 *
 * Accounts: a private chat may hold several partner accounts. A call names the one it acts on
 * (`X-Account: <n>`, contract.ts); without it the chat's active account acts. A team group holds
 * one account, so a group's app reaches that one only. A number the chat does not hold is
 * refused (`accountUnknown`): never another account in its place.
 */

import { parseStartParam } from '../core/mini-app-launch.js';
import { type Capability, can, type Role } from '../core/team.js';
import type { ChatData } from '../storage/chat-data.js';
import type { LaunchData } from './init-data.js';

/** Whether a user still belongs to a group, as Telegram tells (`getChatMember`); composed in main. */
export type MembershipCheck = (chatId: number, userId: number) => Promise<boolean>;

export interface AccessDeps {
  chatData: Pick<ChatData, 'getTeam' | 'getAccount' | 'currentAccount' | 'accountNumbers' | 'listAccounts'>;
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
  /** The account's number in that chat (1 for a group: its one account). */
  n: number;
  /** The user's own name of it, else how the provider names the partner (none: «Аккаунт N»). */
  name: string | undefined;
  /** How many accounts the chat holds (a switcher offered from 2). */
  count: number;
}

/**
 * Why a signed user may not act (each answered 403, but `badStartParam`: 400):
 * - `notAllowed`: not on ALLOWED_USER_IDS;
 * - `noToken`: the chat whose token would act has none (no /token in the private chat, or the
 *   group's token no longer opens);
 * - `badStartParam`: the launch parameter names nothing this version knows;
 * - `groupNotBound`: the group has no team (never bound by /team, or unbound since);
 * - `notMember`: the group's team has not recorded the user, or Telegram says they left;
 * - `accountUnknown`: the call names an account the chat does not hold (removed, another chat's,
 *   or any but the one of a team group);
 * - `roleTooLow`: the member's role lacks what the call needs (the reply names the roles that may).
 */
export type AccessRefusal =
  | 'notAllowed'
  | 'noToken'
  | 'badStartParam'
  | 'groupNotBound'
  | 'notMember'
  | 'accountUnknown'
  | 'roleTooLow';

export type AccessResult = { ok: true; account: Account } | { ok: false; reason: AccessRefusal };

/**
 * The account number a call names (`X-Account`): undefined when it names none; NaN when the header
 * is not a number (refused as an account the chat does not hold).
 */
export function askedAccount(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return undefined;
  return /^\d{1,6}$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
}

/** The chat's account `asked` (else its active one) and how many it holds; undefined: none to act with. */
async function accountOfChat(
  chatData: AccessDeps['chatData'],
  chatId: number,
  asked: number | undefined,
): Promise<{ ok: true; n: number; token: string; name: string | undefined; count: number } | AccessFailure> {
  const numbers = await chatData.accountNumbers(chatId);
  if (asked !== undefined && !numbers.includes(asked)) return { ok: false, reason: 'accountUnknown' };
  const account =
    asked === undefined ? await chatData.currentAccount(chatId) : await chatData.getAccount(chatId, asked);
  if (account === undefined) return { ok: false, reason: 'noToken' };
  return {
    ok: true,
    n: account.n,
    token: account.token,
    name: account.name ?? account.partner,
    count: numbers.length,
  };
}

type AccessFailure = { ok: false; reason: AccessRefusal };

/**
 * The account and role a launch acts with; refusals carry no secret. `asked`: the account the call
 * names (`askedAccount`), else the chat's active one.
 */
export async function resolveAccess(
  deps: AccessDeps,
  launch: LaunchData,
  asked?: number,
): Promise<AccessResult> {
  const userId = launch.userId;
  if (deps.allowedUserIds !== undefined && !deps.allowedUserIds.has(userId)) {
    return { ok: false, reason: 'notAllowed' };
  }
  if (launch.startParam === undefined) {
    const found = await accountOfChat(deps.chatData, userId, asked);
    if (!found.ok) return found;
    const { ok: _ok, ...account } = found;
    return { ok: true, account: { kind: 'private', chatId: userId, role: 'owner', ...account } };
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
  // The group's one account: the owner's other accounts are not the group's to reach.
  const found = await accountOfChat(deps.chatData, target.chatId, asked);
  if (!found.ok) return found;
  const { ok: _ok, ...account } = found;
  return { ok: true, account: { kind: 'group', chatId: target.chatId, role, ...account } };
}

/** The accounts a call may switch to: the private chat's every account; a team group's one. */
export async function accountsOf(
  deps: AccessDeps,
  account: Account,
): Promise<{ n: number; name: string | undefined; active: boolean }[]> {
  const all = await deps.chatData.listAccounts(account.chatId);
  return all.map((a) => ({ n: a.n, name: a.name ?? a.partner, active: a.active }));
}

/** Whether the account's role may do what `capability` allows; the chat's rule, from core. */
export function mayDo(account: Account, capability: Capability): boolean {
  return can(account.role, capability);
}
