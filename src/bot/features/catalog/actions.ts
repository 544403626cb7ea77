import type { ActionTable } from '../../kit/callback-data.js';

/** The catalog's buttons: a price list's tariffs, and a kind chosen by button. */
export const CATALOG_ACTIONS = {
  /** Tariffs of a price list: number, date as YYYYMMDD (0 for today). */
  priceList: { code: 'pr', args: ['word', 'int'], need: 'lookup' },
  /** A list of a kind chosen by button (tariffs: hosting, mail, ssl; orders: kinds). */
  choose: { code: 'ch', args: ['word'], need: 'lookup' },
} as const satisfies ActionTable;
