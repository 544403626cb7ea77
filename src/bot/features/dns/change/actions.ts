import type { ActionTable } from '../../../kit/callback-data.js';

/** A record as a thing you tap: its card, changing it, checking it; finishing or applying a change. */
export const CHANGE_ACTIONS = {
  /** A record's card: order id, record id. */
  dnsRecord: { code: 'dr', args: ['int', 'int'], need: 'tech' },
  /** ✏️ Change a record (the guided form, prefilled): order id, record id. */
  dnsChange: { code: 'dc', args: ['int', 'int'], need: 'tech' },
  /** 🔎 What the name servers answer for the record's name and type: order id, record id. */
  dnsCheckRecord: { code: 'dk', args: ['int', 'int'], need: 'tech' },
  /** Finish a change that stopped half-way (a call failed): the change's id. */
  dnsFinish: { code: 'df', args: ['word'], need: 'tech' },
  /** Apply a `set` that replaces several records, after its preview: the preview's id. */
  dnsSetYes: { code: 'ds', args: ['word'], need: 'tech' },
} as const satisfies ActionTable;
