import { CUSTOMER_TYPES, type CustomerType } from '../../../core/requisites.js';
import { readBoolean, readNumber, readString } from '../../forms/types.js';

/** Answer ids of the steps shared by every kind. */
export const STEP = {
  period: 'period',
  currency: 'currency',
  customerSource: 'customerSource',
  customerType: 'customerType',
  postalSame: 'postalSame',
  bankWanted: 'bankWanted',
  saveProfile: 'saveProfile',
  phone: 'phone',
  email: 'email',
} as const;

/** Prefixes of the answers of the customer's requisites fields and of the WHOIS fields. */
export const CUSTOMER_PREFIX = 'c:';
export const WHOIS_PREFIX = 'w:';

/** The customer type as answered. */
export const readCustomerType = (value: unknown): CustomerType | undefined =>
  CUSTOMER_TYPES.find((t) => t === value);

/** Readers of the shared answers other steps, the requests and the saved customers depend on. */
export const PERIOD = { id: STEP.period, read: readNumber };
export const CURRENCY = { id: STEP.currency, read: readNumber };
export const CUSTOMER_SOURCE = { id: STEP.customerSource, read: readString };
export const CUSTOMER_TYPE = { id: STEP.customerType, read: readCustomerType };
export const POSTAL_SAME = { id: STEP.postalSame, read: readBoolean };
export const BANK_WANTED = { id: STEP.bankWanted, read: readBoolean };

/**
 * The answer of a requisites, WHOIS or contact field: the checked text, Yes/No for a boolean
 * field, `null` for an optional field skipped.
 */
export type FieldAnswer = string | boolean | null;

/** Answer ids besides the `c:` and `w:` fields that a saved customer keeps. */
const CUSTOMER_STEP_IDS: readonly string[] = [
  STEP.customerType,
  STEP.postalSame,
  STEP.bankWanted,
  STEP.saveProfile,
  STEP.phone,
  STEP.email,
];

/** Whether an answer describes the customer (what another customer's choice takes away). */
export function isCustomerAnswer(id: string): boolean {
  return id.startsWith(CUSTOMER_PREFIX) || id.startsWith(WHOIS_PREFIX) || CUSTOMER_STEP_IDS.includes(id);
}

/** The answer id of a field by its request path: `w:` WHOIS, `c:` customer, contacts as they are. */
export function toAnswerId(path: string): string {
  if (path.startsWith('whois_')) return `${WHOIS_PREFIX}${path}`;
  if (path === STEP.phone || path === STEP.email) return path;
  return `${CUSTOMER_PREFIX}${path}`;
}
