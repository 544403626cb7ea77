import type { ActionTable } from '../../kit/callback-data.js';

/**
 * `/keys`' buttons. Keys act on the partner's DNS, so in a bound group they are technical work
 * (owner, admin, tech); hiding one's own secret message is anyone's.
 */
export const KEYS_ACTIONS = {
  /** The chat's keys again. */
  keys: { code: 'ky', args: [], need: 'tech' },
  /** ➕ A new key (the guided form). */
  keyNew: { code: 'kn', args: [], need: 'tech' },
  /** 🔑 Автообновление on a record's card: order id, record id. */
  keyForRecord: { code: 'kf', args: ['int', 'int'], need: 'tech' },
  /** Ask to give a key a new secret, then do it: key id. */
  keyRotate: { code: 'kr', args: ['word'], need: 'tech' },
  keyRotateYes: { code: 'kt', args: ['word'], need: 'tech' },
  /** Ask to delete a key, then delete it: key id. */
  keyRevoke: { code: 'kd', args: ['word'], need: 'tech' },
  keyRevokeYes: { code: 'ke', args: ['word'], need: 'tech' },
  /** «Нет» on a key's question: the question says nothing was changed. */
  keyNo: { code: 'kx', args: [], need: 'tech' },
  /** Delete the message that shows a key's secret (its reader saved it). */
  keyHide: { code: 'kh', args: [], need: 'anyone' },
} as const satisfies ActionTable;
