/*
 * The saved customers' endpoints: the account chat's list (a private chat's own, or a bound
 * group's — the chat's /requisites shows the same), one customer, the form's fields for a type and
 * its choices in the chat's order and words, the answers checked as the user types, a customer
 * saved or deleted, and a pasted card read. Every check is the chat's (core's checkField with its
 * context); every word is the chat's (core's requisites words). No answer echoes a typed value
 * back into a log: refusals carry codes, and problems only the fields' names and examples.
 */
import { countryOptions } from '../core/countries.js';
import { customerLabelOf, readCustomerType, STEP, toAnswerId } from '../core/customer-answers.js';
import {
  type AnswerProblem,
  answersOfCard,
  checkCustomerAnswers,
  choiceOf,
  countryFor,
  customerFormFields,
} from '../core/customer-form.js';
import { CUSTOMER_TYPES, type CustomerType, hasPostalAndBank } from '../core/requisites.js';
import { parseRequisitesCard } from '../core/requisites-paste.js';
import { describeFieldForm, describeRefusal, lineLabel } from '../core/requisites-words.js';
import type { AnswerOf } from './contract.js';
import { type CallOf, type EndpointCall, EndpointError } from './endpoint-types.js';

/** A profile's id as the chat keeps them: a query's other text names no customer. */
const PROFILE_ID = /^[\w-]{1,64}$/;

const typeName = (call: EndpointCall, type: CustomerType) => call.t(`order:customerType.${type}`);

/** A field's problem in the user's words: what to fill or choose, or why its value is refused. */
function describeProblem(call: EndpointCall, problem: AnswerProblem) {
  const { id, spec } = problem;
  if (problem.missing === true) {
    const key = spec.kind === 'boolean' ? 'miniapp:customer.choose' : 'miniapp:customer.required';
    return { id, message: call.t(key, { label: lineLabel(call.t, spec.path) }) };
  }
  return { id, message: describeRefusal(call.t, spec.path, problem.check) };
}

/** `GET customers`: the account's saved customers, each with its type in words. */
export async function listCustomers(call: CallOf<'customers'>): Promise<AnswerOf<'customers'>> {
  const entries = await call.services.customers.list(call.account.chatId);
  return {
    customers: entries.map((entry) => {
      const type = readCustomerType(entry.customer?.[STEP.customerType]);
      return {
        id: entry.id,
        label: entry.label,
        type: type ?? null,
        typeName: type === undefined ? '' : typeName(call, type),
      };
    }),
  };
}

async function customerOf(call: EndpointCall, id: string) {
  const entry = await call.services.customers.find(call.account.chatId, id);
  if (entry === undefined) throw new EndpointError(404, 'customerNotFound');
  return entry;
}

/** `GET customer?id=`: one saved customer's answers, as the chat keeps them. */
export async function getCustomer(call: CallOf<'customer'>): Promise<AnswerOf<'customer'>> {
  const { id } = call.input;
  if (id === undefined || !PROFILE_ID.test(id)) throw new EndpointError(404, 'customerNotFound');
  const entry = await customerOf(call, id);
  const type = readCustomerType(entry.customer?.[STEP.customerType]);
  return {
    id: entry.id,
    label: entry.label,
    type: type ?? null,
    typeName: type === undefined ? '' : typeName(call, type),
    answers: entry.customer ?? {},
  };
}

/** `POST customer/form`: the fields to show for a type and its choices, in the chat's order and words. */
export function customerForm(call: CallOf<'customer/form'>): AnswerOf<'customer/form'> {
  const body = call.input;
  const typed = body.answers ?? {};
  const choice = {
    type: body.type,
    postalSame: body.postalSame ?? true,
    bankWanted: body.bankWanted ?? false,
    whois: body.whois,
  };
  return {
    type: body.type,
    types: CUSTOMER_TYPES.map((type) => ({ type, name: typeName(call, type) })),
    // A businessman's and a company's: the postal address apart, the bank.
    choices: hasPostalAndBank(body.type)
      ? [
          { id: STEP.postalSame, label: call.t('miniapp:customer.postalSame'), value: choice.postalSame },
          { id: STEP.bankWanted, label: call.t('miniapp:customer.bankWanted'), value: choice.bankWanted },
        ]
      : [],
    fields: customerFormFields(choice).map(({ id, spec, section }) => ({
      id,
      label: lineLabel(call.t, spec.path),
      hint: describeFieldForm(call.t, spec, spec.kind === 'postalCode' ? countryFor(spec, typed) : undefined),
      kind: spec.kind,
      ...(spec.kind === 'country' ? { options: countryOptions(call.locale) } : {}),
      optional: spec.optional === true,
      section,
      sectionName: call.t(`order:section.${section}`),
    })),
  };
}

/** `POST customer/check`: the problems of what is typed so far (a field left empty is none yet). */
export function checkCustomer(call: CallOf<'customer/check'>): AnswerOf<'customer/check'> {
  const body = call.input;
  const fields = customerFormFields(choiceOf(body.type, body.answers, body.whois));
  const { problems } = checkCustomerAnswers(fields, body.answers, { partial: true });
  return { problems: problems.map((problem) => describeProblem(call, problem)) };
}

/**
 * `POST customer/save`: every field checked (the needed ones given), then saved with the values as
 * checkField returns them — a new customer without `id`. Nothing is saved while anything is wrong.
 */
export async function saveCustomer(call: CallOf<'customer/save'>): Promise<AnswerOf<'customer/save'>> {
  const body = call.input;
  const choice = choiceOf(body.type, body.answers, body.whois);
  const checked = checkCustomerAnswers(customerFormFields(choice), body.answers);
  if (checked.problems.length > 0) {
    const problems = checked.problems.map((problem) => describeProblem(call, problem));
    throw new EndpointError(400, 'badFields', {}, { problems });
  }
  return call.services.customers.save(
    call.account.chatId,
    { id: body.id, choice, answers: checked.answers },
    (data) => customerLabelOf(data) ?? call.t('order:unnamedCustomer'),
  );
}

/** `POST customer/delete`: the customer is gone, from the chat's /requisites too. */
export async function deleteCustomer(call: CallOf<'customer/delete'>): Promise<AnswerOf<'customer/delete'>> {
  const { id } = call.input;
  if (!(await call.services.customers.remove(call.account.chatId, id)))
    throw new EndpointError(404, 'customerNotFound');
  return { deleted: true };
}

/**
 * `POST customer/paste`: a pasted card read as the chat reads one, into the form's answers (not
 * saved: the app fills its editor, the user saves); values the checks refused are listed apart.
 */
export function pasteCustomer(call: CallOf<'customer/paste'>): AnswerOf<'customer/paste'> {
  const card = parseRequisitesCard(call.input.text);
  if (card.type === undefined) throw new EndpointError(400, 'notACard');
  return {
    type: card.type,
    typeName: typeName(call, card.type),
    answers: answersOfCard(card),
    refused: card.refused.map((refused) => ({
      id: toAnswerId(refused.path),
      message: describeRefusal(call.t, refused.path, refused.check),
    })),
  };
}
