import type { ActionTable } from '../../kit/callback-data.js';

/**
 * `/accounts`' buttons: each names the account it acts on by its number in the chat (never
 * reused, so a button of a removed account never reaches a newer one). Accounts are the owner's
 * own business: in a bound group only the owner could press them (they are never drawn there).
 */
export const ACCOUNTS_ACTIONS = {
  /** The chat's accounts again. */
  accounts: { code: 'ac', args: [], need: 'roles' },
  /** Make account n the active one. */
  accountSwitch: { code: 'aw', args: ['int'], need: 'roles' },
  /** Ask for the user's own name of account n. */
  accountRename: { code: 'ar', args: ['int'], need: 'roles' },
  /** Ask to remove account n (saying what goes with it), then remove it. */
  accountRemove: { code: 'ad', args: ['int'], need: 'roles' },
  accountRemoveYes: { code: 'ay', args: ['int'], need: 'roles' },
  /** «Нет» on the removal question: the list again. */
  accountRemoveNo: { code: 'an', args: [], need: 'roles' },
  /** ➕ Another account: the token step. */
  accountAdd: { code: 'aa', args: [], need: 'roles' },
} as const satisfies ActionTable;
