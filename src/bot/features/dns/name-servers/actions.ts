import type { ActionTable } from '../../../kit/callback-data.js';

/** Name servers of a domain order. */
export const NAME_SERVER_ACTIONS = {
  /** The name servers of a domain order: order id. */
  nameServers: { code: 'n', args: ['int'], need: 'tech' },
  /** Name servers: ask to set (hosting, editor, delete, custom), then apply. */
  nsAsk: { code: 'na', args: ['int', 'word'], need: 'tech' },
  nsApply: { code: 'nx', args: ['int', 'word'], need: 'tech' },
} as const satisfies ActionTable;
