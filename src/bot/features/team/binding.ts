import type { Telegram } from 'telegraf';
import type { Logger } from '../../../logger.js';
import { errorForLog } from '../../../logger.js';
import type { ChatData, TeamRecord } from '../../../storage/chat-data.js';
import type { Locale } from '../../../storage/chat-store.js';
import type { WatchPort } from '../../context.js';
import type { Translations } from '../../kit/i18n.js';

/** What binding and unbinding a group touch: the chats' documents and the watchers. */
export interface TeamBindingDeps {
  chatData: ChatData;
  watches?: WatchPort | undefined;
}

/**
 * Binds a group to the owner's token: a copy sealed for the group, the team with the owner, the
 * group in the owner's index (so /logout finds it), and the group watched for notifications.
 */
export async function bindGroup(
  deps: TeamBindingDeps,
  groupId: number,
  owner: { id: number; first_name: string },
  token: string,
): Promise<TeamRecord> {
  const team: TeamRecord = {
    owner: owner.id,
    members: { [String(owner.id)]: 'owner' },
    names: { [String(owner.id)]: owner.first_name },
  };
  await deps.chatData.setToken(groupId, token);
  await deps.chatData.setTeam(groupId, team);
  await deps.chatData.addTeamGroup(owner.id, groupId);
  await deps.watches?.connect(groupId, token);
  return team;
}

/** Unbinds a group: the watch first (should it fail, the group stays as it was), then its token and team. */
export async function unbindGroup(deps: TeamBindingDeps, groupId: number): Promise<void> {
  const team = await deps.chatData.getTeam(groupId);
  const token = await deps.chatData.getToken(groupId);
  if (token !== undefined) await deps.watches?.disconnect(groupId, token);
  await deps.chatData.clearToken(groupId);
  await deps.chatData.clearTeam(groupId);
  if (team !== undefined) await deps.chatData.removeTeamGroup(team.owner, groupId);
}

/**
 * Moves what the bot keeps of a group to its new chat id: Telegram gives a group upgraded to a
 * supergroup a new id, and the old one goes quiet. The binding (the token sealed again for the new
 * id, the team, the owner's index, the watch) and the group's language, notification settings,
 * saved customers and last currency move; the old record is wiped. Only a bound group with an
 * unbound successor moves, so the two service messages Telegram sends (one in each chat) move it
 * once. Returns whether it moved.
 */
export async function moveGroup(deps: TeamBindingDeps, from: number, to: number): Promise<boolean> {
  const { chatData } = deps;
  const [team, token] = [await chatData.getTeam(from), await chatData.getToken(from)];
  if (team === undefined || token === undefined || (await chatData.getTeam(to)) !== undefined) return false;
  const locale = await chatData.getLocale(from);
  if (locale !== undefined) await chatData.setLocale(to, locale);
  await chatData.setNotifySettings(to, await chatData.getNotifySettings(from));
  for (const profile of await chatData.getProfiles(from)) await chatData.saveProfile(to, profile);
  const currency = await chatData.getLastCurrencyId(from);
  if (currency !== undefined) await chatData.setLastCurrencyId(to, currency);
  await chatData.setToken(to, token);
  await chatData.setTeam(to, team);
  await chatData.addTeamGroup(team.owner, to);
  await deps.watches?.connect(to, token);
  await deps.watches?.disconnect(from, token);
  await chatData.removeTeamGroup(team.owner, from);
  await chatData.wipe(from);
  return true;
}

/**
 * Moves the groups the partner bound to their new token (a new `/token` in their private chat):
 * each group still on the old token gets the new one sealed for it and is watched with it. A group
 * bound again by someone else since keeps theirs. Returns the groups moved.
 */
export async function rebindOwnerGroups(
  deps: TeamBindingDeps,
  ownerId: number,
  previous: string,
  token: string,
): Promise<number[]> {
  const moved: number[] = [];
  for (const groupId of await deps.chatData.getTeamGroups(ownerId)) {
    if ((await deps.chatData.getTeam(groupId))?.owner !== ownerId) continue;
    if ((await deps.chatData.getToken(groupId)) !== previous) continue;
    await deps.chatData.setToken(groupId, token);
    await deps.watches?.disconnect(groupId, previous);
    await deps.watches?.connect(groupId, token);
    moved.push(groupId);
  }
  return moved;
}

/** The groups the partner bound that work with `token` (one of their accounts). */
export async function ownerGroupsWith(
  deps: TeamBindingDeps,
  ownerId: number,
  token: string,
): Promise<number[]> {
  const found: number[] = [];
  for (const groupId of await deps.chatData.getTeamGroups(ownerId)) {
    if ((await deps.chatData.getTeam(groupId))?.owner !== ownerId) continue;
    if ((await deps.chatData.getToken(groupId)) === token) found.push(groupId);
  }
  return found;
}

/** Unbinds every group the partner bound (their /logout); returns the groups unbound. */
export async function unbindOwnerGroups(deps: TeamBindingDeps, ownerId: number): Promise<number[]> {
  const unbound: number[] = [];
  for (const groupId of await deps.chatData.getTeamGroups(ownerId)) {
    // A group bound again by someone else since is theirs now.
    if ((await deps.chatData.getTeam(groupId))?.owner !== ownerId) continue;
    await unbindGroup(deps, groupId);
    unbound.push(groupId);
  }
  return unbound;
}

/**
 * Tells each group the owner's /logout (or the removal of the account it worked with, `key`)
 * unbound (in the group's language): without it the group would learn only at its next command.
 * A group that removed the bot is logged and skipped.
 */
export async function tellGroupsUnbound(
  telegram: Telegram,
  deps: { chatData: ChatData; translations: Translations; defaultLocale: Locale; logger: Logger },
  groups: readonly number[],
  key = 'team:unboundByLogout',
): Promise<void> {
  for (const groupId of groups) {
    try {
      const locale = (await deps.chatData.getLocale(groupId)) ?? deps.defaultLocale;
      await telegram.sendMessage(groupId, deps.translations.t(locale, key));
    } catch (error) {
      deps.logger.warn({ chatId: groupId, err: errorForLog(error) }, 'could not tell a group it was unbound');
    }
  }
}
