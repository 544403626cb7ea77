import type { ActionTable } from '../../kit/callback-data.js';

/** The orders' buttons: an order's details, and a domain's certificate. */
export const ORDERS_ACTIONS = {
  /** Details of an order: order kind (all, domain, hosting, mail, ssl) and order id. */
  order: { code: 'o', args: ['word', 'int'], need: 'lookup' },
  /** The certificate of a domain order: order id. */
  certificate: { code: 'c', args: ['int'], need: 'tech' },
} as const satisfies ActionTable;
