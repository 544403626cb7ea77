import type { ActionTable } from '../../kit/callback-data.js';

/** Free text's buttons: check a domain typed as plain text. */
export const FREE_TEXT_ACTIONS = {
  /** Check a domain typed as free text (its ASCII form). */
  checkDomain: { code: 'cd', args: ['word'], need: 'tech' },
} as const satisfies ActionTable;
