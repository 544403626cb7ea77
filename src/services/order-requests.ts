/*
 * An order request's customer, WHOIS and contact blocks, built from a customer's answers (a chat
 * form's draft, or a saved customer the Mini App's order form names) and read by the API's own
 * schemas, so a value the provider would refuse is refused here, naming its field.
 */
import type { z } from 'zod';
import { ApiRequestError, type DomainOrderRequest, type MailOrderRequest } from '../api/index.js';
import {
  individualBusinessmanRequisites,
  juridicalPersonRequisites,
  naturalPersonRequisites,
  whoisCompanyRequisites,
  whoisPersonRequisites,
} from '../api/schemas/ordering.js';
import { CUSTOMER_PREFIX, readCustomerType, STEP, WHOIS_PREFIX } from '../core/customer-answers.js';
import {
  BANK_REQUISITES_FIELDS,
  buildFromAnswers,
  customerFields,
  POSTAL_ADDRESS_FIELDS,
  REQUISITES_BLOCK,
  type RequisitesBlock,
  whoisFields,
} from '../core/requisites.js';
import type { WhoisRules } from '../core/zones.js';

/** Answers of one prefix with it stripped: `c:address.city` → `address.city`. */
function readAnswersUnder(answers: Answers, prefix: 'c:' | 'w:'): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(answers)) {
    if (key.startsWith(prefix)) out[key.slice(prefix.length)] = value;
  }
  return out;
}

/**
 * A block built from answers, read as the API's type by the API's own schema. A value the schema
 * refuses is reported as the API would report it (the field named), before anything is sent.
 */
function checkBlock<S extends z.ZodType>(schema: S, name: string, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = [name, ...(issue?.path.map(String) ?? [])].join('.');
  throw new ApiRequestError(
    { operation: 'orderRequest', method: 'POST', path: '' },
    field,
    issue?.message ?? 'invalid',
  );
}

/** A customer requisites block of the request, as the API's request types name it. */
type BlockRequest<B extends RequisitesBlock> = Required<Pick<MailOrderRequest, B>>;

/**
 * Exactly one customer requisites block: one of the blocks core's `REQUISITES_BLOCK` names,
 * under the API's name for it (a block renamed on either side fails `tsc` here).
 */
export type CustomerRequest = { [B in RequisitesBlock]: BlockRequest<B> }[RequisitesBlock];

/**
 * Each block of the request, checked by the API's schema of that block. Which customer type sends
 * which block is core's `REQUISITES_BLOCK` alone; this only pairs an API block with its schema.
 */
const BLOCK_REQUEST = {
  natural_person_requisites: (value: unknown) => ({
    natural_person_requisites: checkBlock(naturalPersonRequisites, 'natural_person_requisites', value),
  }),
  individual_businessman_requisites: (value: unknown) => ({
    individual_businessman_requisites: checkBlock(
      individualBusinessmanRequisites,
      'individual_businessman_requisites',
      value,
    ),
  }),
  juridical_person_requisites: (value: unknown) => ({
    juridical_person_requisites: checkBlock(juridicalPersonRequisites, 'juridical_person_requisites', value),
  }),
} satisfies { [B in RequisitesBlock]: (value: unknown) => BlockRequest<B> };

/** The customer requisites block of the request, exactly one, as the answers give it. */
export function buildCustomerRequest(answers: Answers): CustomerRequest {
  const type = readCustomerType(answers[STEP.customerType]);
  if (!type) throw new Error('customer type not answered');
  const fields = [
    ...customerFields(type),
    ...(answers[STEP.postalSame] === false ? POSTAL_ADDRESS_FIELDS : []),
    ...(answers[STEP.bankWanted] === true ? BANK_REQUISITES_FIELDS : []),
  ];
  const block = buildFromAnswers(fields, readAnswersUnder(answers, CUSTOMER_PREFIX));
  const bank = block.bank_requisites;
  if (bank && typeof bank === 'object' && Object.keys(bank).length === 0) delete block.bank_requisites;
  return BLOCK_REQUEST[REQUISITES_BLOCK[type]](block);
}

/** The WHOIS blocks of a domain order request. */
export type WhoisRequest = Pick<DomainOrderRequest, 'whois_person_requisites' | 'whois_company_requisites'>;

/** The WHOIS blocks of a domain order request (empty outside BY/БЕЛ/RU/SU/РФ). */
export function buildWhoisRequest(answers: Answers, rules: WhoisRules): WhoisRequest {
  const type = readCustomerType(answers[STEP.customerType]);
  if (!type) return {};
  const built = buildFromAnswers(whoisFields(rules, type), readAnswersUnder(answers, WHOIS_PREFIX));
  const out: WhoisRequest = {};
  if (built.whois_person_requisites !== undefined)
    out.whois_person_requisites = checkBlock(
      whoisPersonRequisites,
      'whois_person_requisites',
      built.whois_person_requisites,
    );
  if (built.whois_company_requisites !== undefined)
    out.whois_company_requisites = checkBlock(
      whoisCompanyRequisites,
      'whois_company_requisites',
      built.whois_company_requisites,
    );
  return out;
}

/** Phone and e-mail as answered; one missing is a bug of the form that built the answers. */
export function buildContactsRequest(answers: Answers): { phone: string; email: string } {
  const { phone, email } = answers;
  if (typeof phone !== 'string' || typeof email !== 'string') throw new Error('order contacts missing');
  return { phone, email };
}

/** A customer's answers, keyed by step id (core/customer-answers.ts). */
type Answers = Readonly<Record<string, unknown>>;
