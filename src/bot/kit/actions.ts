import { type ActionTable, createCallbackCodec } from './callback-data.js';

/** The kit's own buttons: pages of a paged list, and a button that does nothing. */
export const KIT_ACTIONS = {
  /** A page of a list: list id, page index, the list's filter (`-` for none). */
  // Whoever sees a list in a group may turn its pages.
  page: { code: 'p', args: ['word', 'int', 'word'], need: 'lookup' },
  /** A button that does nothing (a page counter, a settled question's last word). */
  noop: { code: 'x', args: [], need: 'anyone' },
} as const satisfies ActionTable;

/** Encodes the kit's buttons (the same data the merged codec writes). */
export const encodeKitCallback = createCallbackCodec(KIT_ACTIONS).encode;
