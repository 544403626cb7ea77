/*
 * A customer as one form rather than a dialog: the fields the chat's order form would ask, in its
 * order, for a type and the postal-address and bank choices; every answer held to checkField with
 * the context the chat gives it (a postal code by its own address's country); and the answers a
 * pasted card gives. The Mini App's customer editor and the chat's pasted card both run these.
 */
import {
  type FieldAnswer,
  readCustomerType,
  type SavedCustomer,
  STEP,
  toAnswerId,
  WHOIS_PREFIX,
} from './customer-answers.js';
import {
  BANK_REQUISITES_FIELDS,
  type CustomerType,
  customerFields,
  hasPostalAndBank,
  POSTAL_ADDRESS_FIELDS,
  siblingPath,
  whoisFields,
} from './requisites.js';
import { checkField, type FieldContext, type FieldSpec } from './requisites-fields.js';
import { CONTACT_FIELDS, cardFields, type PastedCard } from './requisites-paste.js';
import type { RefusedCheck } from './requisites-words.js';
import type { WhoisRules } from './zones.js';

/** The zone rules whose WHOIS fields a customer is asked for (none outside BY/БЕЛ and RU/SU/РФ). */
export const CUSTOMER_WHOIS = ['by', 'ru'] as const;
export type CustomerWhois = (typeof CUSTOMER_WHOIS)[number];

/** What decides a customer form's fields besides its type. */
export interface CustomerChoice {
  type: CustomerType;
  /** The postal address is the legal one (asked of a businessman or a company only). */
  postalSame: boolean;
  /** Bank requisites are given (a businessman or a company only). */
  bankWanted: boolean;
  whois?: CustomerWhois | undefined;
}

/** The parts of the form a field sits in, as the chat's sections name them. */
export const FORM_SECTIONS = ['customer', 'whois', 'contacts'] as const;
export type FormSection = (typeof FORM_SECTIONS)[number];

/** One field of the form: its answer id (`c:ucn`, `w:…`, `phone`), its rules and its section. */
export interface FormField {
  id: string;
  spec: FieldSpec;
  section: FormSection;
}

const fieldsOf = (specs: readonly FieldSpec[], section: FormSection): FormField[] =>
  specs.map((spec) => ({ id: toAnswerId(spec.path), spec, section }));

/**
 * The fields in the order the chat asks them: the customer (the postal address after the legal
 * one when it differs, then the bank when wanted), the WHOIS fields of the zone, the contacts.
 */
export function customerFormFields(choice: CustomerChoice): FormField[] {
  const { type } = choice;
  const fields = fieldsOf(customerFields(type), 'customer');
  if (hasPostalAndBank(type)) {
    if (!choice.postalSame) fields.push(...fieldsOf(POSTAL_ADDRESS_FIELDS, 'customer'));
    if (choice.bankWanted) fields.push(...fieldsOf(BANK_REQUISITES_FIELDS, 'customer'));
  }
  if (choice.whois !== undefined) fields.push(...fieldsOf(whoisFields(choice.whois, type), 'whois'));
  fields.push(...fieldsOf(CONTACT_FIELDS, 'contacts'));
  return fields;
}

/** The form's choices as a customer's answers keep them: the postal address and bank default to none. */
export function choiceOf(
  type: CustomerType,
  answers: Readonly<Record<string, unknown>>,
  whois?: CustomerWhois,
): CustomerChoice {
  return {
    type,
    postalSame: answers[STEP.postalSame] !== false,
    bankWanted: answers[STEP.bankWanted] === true,
    whois,
  };
}

/** Why a field's answer does not do: none given where one is needed, or refused by its check. */
export type AnswerProblem =
  | { id: string; spec: FieldSpec; missing: true }
  | { id: string; spec: FieldSpec; missing?: never; check: RefusedCheck };

/** The country code a field's address has answered, as checkField reads it; undefined when none fits. */
export function countryFor(spec: FieldSpec, answers: Readonly<Record<string, unknown>>): string | undefined {
  const raw = answers[toAnswerId(siblingPath(spec.path, 'country_code'))];
  if (typeof raw !== 'string') return undefined;
  const checked = checkField({ path: 'country_code', kind: 'country' }, raw);
  return checked.ok && typeof checked.value === 'string' ? checked.value : undefined;
}

export interface CheckedAnswers {
  /** The answers as checkField returns them, `null` for an optional field left empty. */
  answers: Record<string, FieldAnswer>;
  problems: AnswerProblem[];
}

/**
 * Holds each answer of the form to its field's check, with the context the chat gives it (a
 * postal code by the country of its own address). `partial`: a field left empty is no problem
 * (the app checks as the user types); else a needed field left empty is `missing`.
 */
export function checkCustomerAnswers(
  fields: readonly FormField[],
  answers: Readonly<Record<string, unknown>>,
  options: { partial?: boolean; now?: Date } = {},
): CheckedAnswers {
  const checked: Record<string, FieldAnswer> = {};
  const problems: AnswerProblem[] = [];
  const absent = (field: FormField) => {
    if (field.spec.optional === true) checked[field.id] = null;
    else if (options.partial !== true) problems.push({ id: field.id, spec: field.spec, missing: true });
  };
  for (const field of fields) {
    const raw = answers[field.id];
    if (field.spec.kind === 'boolean') {
      if (typeof raw === 'boolean') checked[field.id] = raw;
      else absent(field);
      continue;
    }
    if (typeof raw !== 'string') {
      absent(field);
      continue;
    }
    const context: FieldContext = {
      ...(field.spec.kind === 'postalCode' ? { country: countryFor(field.spec, answers) } : {}),
      ...(options.now ? { now: options.now } : {}),
    };
    const result = checkField(field.spec, raw, context);
    if (result.ok) checked[field.id] = result.value;
    else if (result.reason === 'empty') absent(field);
    else problems.push({ id: field.id, spec: field.spec, check: result });
  }
  return { answers: checked, problems };
}

/**
 * A saved customer's data from a checked form: the type, the postal-address and bank choices
 * where the type has them, and the fields' answers. WHOIS answers `kept` from before (the same
 * type's, from an earlier order) stay unless the form answered them anew.
 */
export function savedCustomerOf(
  choice: CustomerChoice,
  checked: Readonly<Record<string, FieldAnswer>>,
  kept: Readonly<SavedCustomer> = {},
): SavedCustomer {
  const data: SavedCustomer = { [STEP.customerType]: choice.type };
  if (hasPostalAndBank(choice.type)) {
    data[STEP.postalSame] = choice.postalSame;
    data[STEP.bankWanted] = choice.bankWanted;
  }
  if (kept[STEP.customerType] === choice.type) {
    for (const [id, value] of Object.entries(kept)) if (id.startsWith(WHOIS_PREFIX)) data[id] = value;
  }
  return { ...data, ...checked };
}

/** The block a field belongs to (`legal_address`, `whois_person_requisites`), '' for top-level ones. */
const blockOf = (path: string) => (path.includes('.') ? path.slice(0, path.lastIndexOf('.')) : '');

/**
 * The answers a pasted card gives: its type, its fields by answer id, whether the postal address is
 * the legal one (no postal address on the card, or the same one) and whether bank requisites were
 * given; an optional field the card leaves out in a block it fills (a room, a middle name) is
 * `null`, taken as skipped. Refused values are left out (`card.refused` says why).
 */
export function answersOfCard(card: PastedCard): SavedCustomer {
  const type = card.type;
  if (type === undefined) return {};
  const answers: SavedCustomer = { [STEP.customerType]: type };
  for (const [path, value] of Object.entries(card.fields)) answers[toAnswerId(path)] = value;
  if (hasPostalAndBank(type)) {
    const postal = POSTAL_ADDRESS_FIELDS.filter((f) => card.fields[f.path] !== undefined);
    const same = POSTAL_ADDRESS_FIELDS.every(
      (f) => card.fields[f.path] === card.fields[f.path.replace(/^postal_address\./, 'legal_address.')],
    );
    // No postal address on a card means letters go to the legal one.
    answers[STEP.postalSame] = postal.length === 0 || same;
    if (postal.length === 0 || same)
      for (const f of POSTAL_ADDRESS_FIELDS) delete answers[toAnswerId(f.path)];
    answers[STEP.bankWanted] = BANK_REQUISITES_FIELDS.some((f) => card.fields[f.path] !== undefined);
  }
  const filledBlocks = new Set(Object.keys(card.fields).map(blockOf));
  const refused = new Set(card.refused.map((r) => r.path));
  for (const field of cardFields(type)) {
    const id = toAnswerId(field.path);
    if (
      field.optional &&
      !(id in answers) &&
      !refused.has(field.path) &&
      filledBlocks.has(blockOf(field.path))
    )
      answers[id] = null;
  }
  return answers;
}

/**
 * What a saved customer lacks for an order in a zone with `whois` rules: the needed fields of its
 * form without an answer, as answer ids (the type itself when it has none). The order is refused
 * naming them, and the customer editor completes them.
 */
export function missingForOrder(answers: Readonly<Record<string, unknown>>, whois: WhoisRules): string[] {
  const type = readCustomerType(answers[STEP.customerType]);
  if (type === undefined) return [STEP.customerType];
  return customerFormFields(choiceOf(type, answers, whois === 'none' ? undefined : whois))
    .filter(({ id, spec }) => {
      if (spec.optional === true) return false;
      const value = answers[id];
      return spec.kind === 'boolean'
        ? typeof value !== 'boolean'
        : typeof value !== 'string' || value.trim() === '';
    })
    .map(({ id }) => id);
}
