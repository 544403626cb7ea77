import type { ActionTable } from '../../kit/callback-data.js';

/** `/notify`'s buttons. */
export const NOTIFY_ACTIONS = {
  /** Turn a notification kind on or off; set quiet hours (`22-8`) or none (`off`). */
  notifyToggle: { code: 'nt', args: ['word'], need: 'billing' },
  notifyQuiet: { code: 'nq', args: ['word'], need: 'billing' },
} as const satisfies ActionTable;
