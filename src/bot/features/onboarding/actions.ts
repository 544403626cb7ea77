import type { ActionTable } from '../../kit/callback-data.js';

/** Onboarding's buttons: the language switch and the logout confirmation. */
export const ONBOARDING_ACTIONS = {
  /** Language switch. */
  lang: { code: 'l', args: ['word'], need: 'all' },
  /** Logout confirmation: yes / no. */
  logout: { code: 'lo', args: ['word'], need: 'roles' },
} as const satisfies ActionTable;
