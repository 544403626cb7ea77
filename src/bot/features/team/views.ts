import { escapeHtml } from '../../../core/format.js';
import { type Capability, ROLE_LIST, type Role, rolesAllowed } from '../../../core/team.js';
import type { TeamRecord } from '../../../storage/chat-data.js';
import type { Translate } from '../../kit/i18n.js';

/** A member's first name as Telegram gave it (escaped), or their id when the bot never saw it. */
export function memberName(team: TeamRecord, userId: number | string): string {
  return escapeHtml(team.names[String(userId)] ?? String(userId));
}

/** The members, owner first, then by role (most trusted first). */
export function teamMembers(team: TeamRecord): { userId: number; role: Role }[] {
  return Object.entries(team.members)
    .map(([id, role]) => ({ userId: Number(id), role }))
    .sort((a, b) => ROLE_LIST.indexOf(a.role) - ROLE_LIST.indexOf(b.role) || a.userId - b.userId);
}

/** The team screen: every member with their role in words. */
export function renderTeam(t: Translate, team: TeamRecord, owner: boolean): string {
  const members = teamMembers(team);
  const lines = members.map(({ userId, role }) =>
    t('team:memberLine', { name: memberName(team, userId), role: t(`team:role.${role}`) }),
  );
  return [
    t('team:title', { count: members.length }),
    ...lines,
    '',
    t(owner ? 'team:ownerHint' : 'team:memberHint'),
  ].join('\n');
}

/** The owner's first name as Telegram gave it, unescaped (for plain text), or their id. */
export function ownerName(team: TeamRecord): string {
  return team.names[String(team.owner)] ?? String(team.owner);
}

/**
 * «This command is for: accountant, admin, owner. Your role: viewer. Roles are changed by the
 * owner, Анна.» Plain text: `owner` is the name as it is (ownerName).
 */
export function renderRefusal(
  t: Translate,
  what: 'command' | 'button',
  capability: Capability,
  role: Role,
  owner: string,
): string {
  const roles = rolesAllowed(capability)
    .map((r) => t(`team:role.${r}`))
    .join(', ');
  return t(what === 'command' ? 'team:refusedCommand' : 'team:refusedButton', {
    roles,
    role: t(`team:role.${role}`),
    owner,
  });
}
