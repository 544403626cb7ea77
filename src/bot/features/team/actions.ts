import type { ActionTable } from '../../kit/callback-data.js';

/** `/team`'s buttons. */
export const TEAM_ACTIONS = {
  /** The team screen again (owner only). */
  teamScreen: { code: 'ts', args: [], need: 'roles' },
  /** The list of roles to give a member (user id) (owner only). */
  teamMember: { code: 'tm', args: ['int'], need: 'roles' },
  /** Give a member (user id) a role (owner only). */
  teamRole: { code: 'tr', args: ['int', 'word'], need: 'roles' },
} as const satisfies ActionTable;
