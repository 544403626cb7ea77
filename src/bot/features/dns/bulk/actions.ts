import type { ActionTable } from '../../../kit/callback-data.js';

/** `/dns bulk` (`dnsbulk`): the domain picker, the change, and Apply. */
export const BULK_ACTIONS = {
  /**
   * Toggle a domain (bulk nonce, order id, page); the picker's page,
   * select all / none, done (nonce, op, page); a preset as the change (nonce, preset id); apply
   * the preview (nonce, ask | force).
   */
  dnsBulkToggle: { code: 'Bt', args: ['word', 'int', 'int'], need: 'tech' },
  dnsBulkPick: { code: 'Bp', args: ['word', 'word', 'int'], need: 'tech' },
  dnsBulkPreset: { code: 'Bs', args: ['word', 'word'], need: 'tech' },
  dnsBulkApply: { code: 'Ba', args: ['word', 'word'], need: 'tech' },
} as const satisfies ActionTable;
