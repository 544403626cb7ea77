/*
 * The saved customers' API shapes, as the server answers them (src/mini-app/customer-endpoints.ts).
 * Types only: the app imports no server code. Answers are keyed by the chat's answer ids: `c:` a
 * requisites field by its request path (`c:ucn`, `c:legal_address.city`), `w:` a WHOIS field,
 * `phone`, `email`, and the choices `postalSame`, `bankWanted`.
 */

export type CustomerType = 'natural' | 'businessman' | 'juridical';
export type Whois = 'by' | 'ru';

/** An answer: typed text, Yes/No, or none (an optional field skipped). */
export type Answer = string | boolean | null;
export type Answers = Record<string, Answer>;

/** `GET api/customers`: the account's saved customers; `type` null for one that no longer reads. */
export interface CustomerEntry {
  id: string;
  label: string;
  type: CustomerType | null;
  typeName: string;
}

/** `GET api/customer?id=`. */
export interface SavedCustomer extends CustomerEntry {
  answers: Answers;
}

/** How a field's value is checked (the server's `FieldSpec.kind`): the input it gets. */
export type FieldKind =
  | 'text'
  | 'name'
  | 'code'
  | 'email'
  | 'phone'
  | 'date'
  | 'country'
  | 'digits'
  | 'postalCode'
  | 'swift'
  | 'iban'
  | 'boolean';

/** One field of the form, worded by the server as the chat words it. */
export interface FormField {
  id: string;
  label: string;
  /** The form its answer takes ('' when there is nothing to say). */
  hint: string;
  kind: FieldKind;
  optional: boolean;
  section: 'customer' | 'whois' | 'contacts';
  sectionName: string;
}

/** `POST api/customer/form`. */
export interface CustomerForm {
  type: CustomerType;
  types: Array<{ type: CustomerType; name: string }>;
  /** A businessman's and a company's: the postal address apart, the bank. */
  choices: Array<{ id: 'postalSame' | 'bankWanted'; label: string; value: boolean }>;
  fields: FormField[];
}

/** A field's problem, in words. */
export interface FieldProblem {
  id: string;
  message: string;
}

/** `POST api/customer/paste`: a card read into answers (not saved), its refused values worded. */
export interface PastedCustomer {
  type: CustomerType;
  typeName: string;
  answers: Answers;
  refused: FieldProblem[];
}

/** `POST api/customer/save`'s 200. */
export interface Saved {
  id: string;
  label: string;
}

/** Whether a refusal's item is a field's problem (`badFields` lists them). */
export const isFieldProblem = (value: unknown): value is FieldProblem =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { id?: unknown }).id === 'string' &&
  typeof (value as { message?: unknown }).message === 'string';
