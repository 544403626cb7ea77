/*
 * A customer as the forms keep it: answers keyed by the step that asks them — `c:` requisites
 * fields by request path, `w:` WHOIS fields, the customer type, the postal address and bank
 * choices, phone and e-mail. The chat's guided order, the saved customers and the Mini App's
 * customer card all read and write this one shape.
 */
import { z } from 'zod';
import { CUSTOMER_TYPES, type CustomerType } from './requisites.js';

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

/**
 * A saved customer (a profile's `data`): the answers of the customer and contact steps, keyed by
 * step id. Parsed when read, as the store keeps it sealed JSON.
 */
export const savedCustomer = z.record(z.string(), z.union([z.string(), z.boolean(), z.null()]));
/** The answers of a saved customer, keyed by step id. */
export type SavedCustomer = z.output<typeof savedCustomer>;

/** The answers a profile's data keeps, or `undefined` when it is not a saved customer. */
export function readSavedCustomer(data: unknown): SavedCustomer | undefined {
  const parsed = savedCustomer.safeParse(data);
  return parsed.success ? parsed.data : undefined;
}

/** A saved customer's label: the company, else the surname and name. */
export function customerLabelOf(data: SavedCustomer): string | undefined {
  return (
    [data['c:company_name'], data['c:last_name'], data['c:first_name']]
      .filter((v) => typeof v === 'string' && v)
      .join(' ') || undefined
  );
}
