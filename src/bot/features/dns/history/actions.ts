import type { ActionTable } from '../../../kit/callback-data.js';

/** The DNS history and its undo. */
export const HISTORY_ACTIONS = {
  /** DNS history of a domain order; undo an entry (order id, entry id): preview, then apply. */
  dnsHistory: { code: 'dh', args: ['int'], need: 'tech' },
  dnsUndo: { code: 'du', args: ['int', 'word'], need: 'tech' },
  dnsUndoYes: { code: 'dz', args: ['int', 'word'], need: 'tech' },
} as const satisfies ActionTable;
