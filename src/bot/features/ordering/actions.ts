import type { ActionTable } from '../../kit/callback-data.js';

/** Ordering's buttons: start an order (of a kind, or of a checked domain), and saved customers. */
export const ORDERING_ACTIONS = {
  /** Start a domain order for a checked domain (its ASCII form). */
  orderDomain: { code: 'od', args: ['word'], need: 'all' },
  /** Start a guided order of a kind (domain, hosting, mail, ssl). */
  orderStart: { code: 'os', args: ['word'], need: 'all' },
  /**
   * Saved requisites profiles: show or delete (ask), delete (confirmed): profile id, and whose
   * (0: this chat's; a team group's id without its minus, shown in a member's private chat).
   */
  profileShow: { code: 'ps', args: ['word', 'int'], need: 'all' },
  profileDelete: { code: 'pd', args: ['word', 'int'], need: 'all' },
  profileDeleteYes: { code: 'py', args: ['word', 'int'], need: 'all' },
  /** "No" to deleting a saved customer: the question says the customer stays. */
  profileKeep: { code: 'pk', args: [], need: 'all' },
} as const satisfies ActionTable;
