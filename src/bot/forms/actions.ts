import type { ActionTable } from '../kit/callback-data.js';

/** The guided-form engine's buttons: they serve every form, so they need what the member's open form needs. */
export const FORM_ACTIONS = {
  /** An option of the order step shown on screen `screen`: screen, option index. */
  orderOption: { code: 'oo', args: ['int', 'int'], need: 'openForm' },
  /** Navigation on an order screen: screen, back | skip | keep | cancel | edit | summary. */
  orderNav: { code: 'on', args: ['int', 'word'], need: 'openForm' },
  /** Edit one section from the summary: screen, section. */
  orderEdit: { code: 'oe', args: ['int', 'word'], need: 'openForm' },
  /** Confirm the order shown in a summary: its single-use nonce. */
  orderConfirm: { code: 'oc', args: ['word'], need: 'openForm' },
} as const satisfies ActionTable;
