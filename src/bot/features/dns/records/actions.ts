import type { ActionTable } from '../../../kit/callback-data.js';

/** A domain's records: the list, the guided add, delete with a confirmation. */
export const RECORD_ACTIONS = {
  /** The records of a domain order: order id. */
  dns: { code: 'd', args: ['int'], need: 'tech' },
  /** Add a record (by buttons); ask to delete a record, then delete it: order id, record id. */
  dnsAdd: { code: 'da', args: ['int'], need: 'tech' },
  dnsDelete: { code: 'dd', args: ['int', 'int'], need: 'tech' },
  dnsDeleteYes: { code: 'dy', args: ['int', 'int'], need: 'tech' },
  /**
   * "No" on a DNS confirmation (every dismiss topic is one, so it ends a tech's question): the
   * question is edited to say what was left unchanged (its topic).
   */
  dismiss: { code: 'dn', args: ['word'], need: 'tech' },
} as const satisfies ActionTable;
