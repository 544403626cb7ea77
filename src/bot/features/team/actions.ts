import type { ActionTable } from '../../kit/callback-data.js';

/** `/team`'s buttons. */
export const TEAM_ACTIONS = {
  /** Give a member (user id) a role (owner only). */
  teamRole: { code: 'tr', args: ['int', 'word'], need: 'roles' },
} as const satisfies ActionTable;
