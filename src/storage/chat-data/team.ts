/**
 * Team chats: a bound group's owner and members' roles (plain: roles say nothing personal), the
 * members' first names (sealed for the group), and in a partner's private chat the groups the
 * partner bound.
 */
import { isRole, type Team } from '../../core/team.js';
import { isPlainObject } from '../chat-doc.js';
import type { ChatDoc } from '../chat-store.js';
import { type ChatDocAccess, toError, withField } from './doc-access.js';

/** A bound group's team as the bot uses it: roles, and members' first names as Telegram gave them. */
export interface TeamRecord extends Team {
  names: Record<string, string>;
}

/** A group's team, and the groups a partner bound. */
export interface ChatTeams {
  /** The team of a group bound by `/team`; undefined when the group is not bound. */
  getTeam(chatId: number): Promise<TeamRecord | undefined>;
  /** Stores the group's team (the names sealed for the group). */
  setTeam(chatId: number, team: TeamRecord): Promise<void>;
  /** Forgets the group's team (not its token: unbinding clears both). */
  clearTeam(chatId: number): Promise<void>;
  /** The groups a partner bound, kept in the partner's private chat (`chatId` = user id). */
  getTeamGroups(chatId: number): Promise<number[]>;
  addTeamGroup(chatId: number, groupId: number): Promise<void>;
  removeTeamGroup(chatId: number, groupId: number): Promise<void>;
}

/** The team part of `ChatData` over the shared document. */
export function createChatTeams(access: ChatDocAccess): ChatTeams {
  /** The team members' names; `{}` (reported) when they no longer open. */
  function openNames(chatId: number, doc: ChatDoc): Record<string, string> {
    if (doc.teamNames === undefined) return {};
    try {
      const parsed: unknown = JSON.parse(access.open(doc.teamNames, chatId));
      if (!isPlainObject(parsed)) throw new TypeError('stored team names are not an object');
      return Object.fromEntries(
        Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
      );
    } catch (error) {
      access.report(chatId, 'teamNames', toError(error));
      return {};
    }
  }

  return {
    async getTeam(chatId) {
      const doc = await access.read(chatId);
      const team = doc?.team;
      if (doc === undefined || !isPlainObject(team) || !Number.isSafeInteger(team.owner)) return undefined;
      const members: Record<string, Team['members'][string]> = {};
      for (const [id, role] of Object.entries(isPlainObject(team.members) ? team.members : {})) {
        if (isRole(role)) members[id] = role;
      }
      return { owner: team.owner, members, names: openNames(chatId, doc) };
    },

    async setTeam(chatId, team) {
      const sealed = access.seal(JSON.stringify(team.names), chatId);
      const plain = { owner: team.owner, members: { ...team.members } };
      await access.update(chatId, (doc) => ({ ...doc, team: plain, teamNames: sealed }));
    },

    async clearTeam(chatId) {
      await access.update(chatId, ({ team: _team, teamNames: _names, ...rest }) => rest);
    },

    async getTeamGroups(chatId) {
      const groups = (await access.read(chatId))?.teamGroups;
      return Array.isArray(groups) ? groups.filter((id) => Number.isSafeInteger(id)) : [];
    },

    async addTeamGroup(chatId, groupId) {
      await access.update(chatId, (doc) => {
        const groups = doc.teamGroups ?? [];
        return groups.includes(groupId) ? doc : { ...doc, teamGroups: [...groups, groupId] };
      });
    },

    async removeTeamGroup(chatId, groupId) {
      await access.update(chatId, (doc) => {
        const groups = (doc.teamGroups ?? []).filter((id) => id !== groupId);
        return withField(doc, 'teamGroups', groups.length === 0 ? undefined : groups);
      });
    },
  };
}
