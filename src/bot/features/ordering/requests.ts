import type { z } from 'zod';
import { ApiRequestError, type DomainOrderRequest, type MailOrderRequest } from '../../../api/index.js';
import {
  individualBusinessmanRequisites,
  juridicalPersonRequisites,
  naturalPersonRequisites,
  whoisCompanyRequisites,
  whoisPersonRequisites,
} from '../../../api/schemas/ordering.js';
import { CUSTOMER_PREFIX, STEP, WHOIS_PREFIX } from '../../../core/customer-answers.js';
import {
  BANK_REQUISITES_FIELDS,
  buildFromAnswers,
  customerFields,
  POSTAL_ADDRESS_FIELDS,
  REQUISITES_BLOCK,
  type RequisitesBlock,
  whoisFields,
} from '../../../core/requisites.js';
import type { WhoisRules } from '../../../core/zones.js';
import { answerOf, type OrderDraft, readString } from '../../forms/types.js';
import { BANK_WANTED, CUSTOMER_TYPE, POSTAL_SAME } from './answers.js';

/** The answers a request is built from are read back by their steps; one missing is a bug. */
export function requireAnswer<T>(
  draft: OrderDraft,
  step: { id: string; read(value: unknown): T | undefined },
): T {
  const value = answerOf(draft, step);
  if (value === undefined) throw new Error(`order answer ${step.id} missing`);
  return value;
}

/** Answers of one prefix with it stripped: `c:address.city` → `address.city`. */
function readAnswersUnder(draft: OrderDraft, prefix: 'c:' | 'w:'): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(draft.answers)) {
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
export function buildCustomerRequest(draft: OrderDraft): CustomerRequest {
  const type = answerOf(draft, CUSTOMER_TYPE);
  if (!type) throw new Error('customer type not answered');
  const fields = [
    ...customerFields(type),
    ...(answerOf(draft, POSTAL_SAME) === false ? POSTAL_ADDRESS_FIELDS : []),
    ...(answerOf(draft, BANK_WANTED) === true ? BANK_REQUISITES_FIELDS : []),
  ];
  const block = buildFromAnswers(fields, readAnswersUnder(draft, CUSTOMER_PREFIX));
  const bank = block.bank_requisites;
  if (bank && typeof bank === 'object' && Object.keys(bank).length === 0) delete block.bank_requisites;
  return BLOCK_REQUEST[REQUISITES_BLOCK[type]](block);
}

/** The WHOIS blocks of a domain order request. */
export type WhoisRequest = Pick<DomainOrderRequest, 'whois_person_requisites' | 'whois_company_requisites'>;

/** The WHOIS blocks of a domain order request (empty outside BY/БЕЛ/RU/SU/РФ). */
export function buildWhoisRequest(draft: OrderDraft, rules: WhoisRules): WhoisRequest {
  const type = answerOf(draft, CUSTOMER_TYPE);
  if (!type) return {};
  const built = buildFromAnswers(whoisFields(rules, type), readAnswersUnder(draft, WHOIS_PREFIX));
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

/** Phone and e-mail as answered. */
export function buildContactsRequest(draft: OrderDraft): { phone: string; email: string } {
  return {
    phone: requireAnswer(draft, { id: STEP.phone, read: readString }),
    email: requireAnswer(draft, { id: STEP.email, read: readString }),
  };
}
