/*
 * The Mini App's API as one contract: each endpoint's method, its request (a GET's query, a POST's
 * body) and its answer, as zod schemas. The server parses every request with them and types every
 * answer against them (endpoints.ts); the app takes the types with `import type` (erased by Vite,
 * so no server code reaches the bundle); the API tests parse every answer with them, strictly, so
 * a field added or renamed on one side fails there. Lists come from core (record types, customer
 * types, field kinds, screens, roles), never written again here.
 */
import { z } from 'zod';
import { savedCustomer } from '../core/customer-answers.js';
import { CUSTOMER_WHOIS, FORM_SECTIONS } from '../core/customer-form.js';
import { DNS_TYPES } from '../core/dns-records.js';
import { APP_SCREENS } from '../core/mini-app-launch.js';
import { PRODUCT_KINDS } from '../core/product-kinds.js';
import { CUSTOMER_TYPES } from '../core/requisites.js';
import { FIELD_KINDS } from '../core/requisites-fields.js';
import { CAPABILITIES, ROLE_LIST } from '../core/team.js';
import {
  type dnsChangeEntry,
  type expiringDomain,
  type invoiceEntry,
  MONEY_ENDPOINTS,
  type money,
  type paymentEntry,
  type statementEntry,
} from './contract-money.js';

// ---- shared shapes ----------------------------------------------------------------------------

const int = z.int();
const customerType = z.enum(CUSTOMER_TYPES);
const whois = z.enum(CUSTOMER_WHOIS);
const productKind = z.enum(PRODUCT_KINDS);

/** A record as the editor edits it: type, host, the data between host and TTL, the TTL. */
const row = z.strictObject({
  type: z.string().min(1).max(10),
  host: z.string().max(253),
  data: z.string().max(4_100),
  ttl: int,
});

/** One edit of the table: a listed record (by the provider's id) changed, a row added, a record deleted. */
const edit = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('change'), id: int, row }),
  z.strictObject({ op: z.literal('add'), row }),
  z.strictObject({ op: z.literal('delete'), id: int }),
]);

/** What stops an edit; `edit` is its index among the edits sent, `field` the field at fault. */
const editProblem = z.strictObject({ edit: int, field: z.string().optional(), message: z.string() });

/** A customer's field and what is wrong with it, in words. */
const fieldProblem = z.strictObject({ id: z.string(), message: z.string() });

/** An answer of a customer's form: typed text, Yes/No, or none (an optional field skipped). */
const answer = z.union([z.string().max(1_000), z.boolean(), z.null()]);
/** What the app sends of a customer's form; what it is sent back is a saved customer's (core's shape). */
const answers = z.record(z.string().max(100), answer).refine((value) => Object.keys(value).length <= 200);

/** A saved profile's id: the chat's 8 hex digits, or anything of that alphabet a store already keeps. */
const profileId = z.string().regex(/^[\w-]{1,64}$/);
const domainField = z.string().min(1).max(253);

/** A GET's query: every parameter optional text (an endpoint words what it lacks itself). */
const query = <T extends Record<string, z.ZodOptional<z.ZodString>>>(shape: T) => z.object(shape);
const param = z.string().optional();

/** One period a form may choose: its count, its words, its total price (and in words). */
const periodOption = z.strictObject({
  count: int,
  label: z.string(),
  price: z.number().nullable(),
  priceText: z.string(),
});

const customerEntry = z.strictObject({
  id: z.string(),
  label: z.string(),
  type: customerType.nullable(),
  typeName: z.string(),
});

// ---- the endpoints ----------------------------------------------------------------------------

/** One of the chat's partner accounts, as the app names it (never its token). */
const accountEntry = z.strictObject({
  n: int,
  /** The user's own name, else the provider's name of the partner, else «Аккаунт N». */
  label: z.string(),
});

const session = z.strictObject({
  user: z.strictObject({ id: int, firstName: z.string() }),
  /**
   * `roleName`: the role in the user's language, the chat's own word for it. `n` and `label`: the
   * partner account the session acts on; `accounts`: how many the chat holds (from 2 the app
   * offers a switcher, listed by `accounts`).
   */
  account: z.strictObject({
    kind: z.enum(['private', 'group']),
    chatId: int,
    role: z.literal(ROLE_LIST),
    roleName: z.string(),
    n: int,
    label: z.string(),
    accounts: int,
  }),
  capabilities: z.array(z.literal(CAPABILITIES)),
  dns: z.enum(['edit', 'read', 'none']),
  /** With `dns: 'read'`: which roles may edit, in words. */
  readOnlyReason: z.string().optional(),
  /** Saved customers: the chat's /requisites; `none` comes with words on who may. */
  customers: z.enum(['edit', 'none']),
  customersRefusal: z.string().optional(),
  /** With `customers: 'none'`: who may place orders (the same capability), in words. */
  orderRefusal: z.string().optional(),
  /** When Telegram signed the launch (ISO 8601). */
  authDate: z.iso.datetime(),
  /** The screen a group's button opened (its signed start parameter); a private button's is in the address. */
  screen: z.enum(APP_SCREENS).optional(),
});

const zoneRecord = z.strictObject({
  id: int,
  type: z.string(),
  ttl: int,
  value: z.string(),
  /** The chat's one-line form; null for a record the bot cannot read (not editable). */
  line: z.string().nullable(),
  row: row.nullable(),
});

const zone = z.strictObject({
  domain: z.string(),
  domainUnicode: z.string(),
  orderId: int,
  /** The record types a row may have (core's list). */
  recordTypes: z.array(z.enum(DNS_TYPES)),
  records: z.array(zoneRecord),
});

const checked = z.discriminatedUnion('ok', [
  z.strictObject({ ok: z.literal(true), line: z.string(), row }),
  z.strictObject({
    ok: z.literal(false),
    field: z.string(),
    reason: z.string(),
    form: z.string().nullable(),
  }),
]);

const planLine = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('change'), before: row, after: row, text: z.string() }),
  z.strictObject({ op: z.enum(['add', 'delete']), row, text: z.string() }),
]);

const plan = z.strictObject({
  domain: z.string(),
  domainUnicode: z.string(),
  orderId: int,
  existing: int,
  lines: z.array(planLine),
  problems: z.array(editProblem),
  needsForce: z.boolean(),
  forceQuestion: z.string().optional(),
  summary: z.string(),
});

const pasted = z.strictObject({
  rows: z.array(row),
  /** Listed records the paste gives another TTL: that record changed, not a second one. */
  changes: z.array(z.strictObject({ id: int, row })),
  skipped: z.array(z.strictObject({ line: int, message: z.string() })),
});

const applied = z.strictObject({
  applied: int,
  failed: int,
  total: int,
  failures: z.array(z.strictObject({ text: z.string(), reason: z.string() })),
  message: z.string(),
});

const editsBody = z.strictObject({ domain: domainField, edits: z.array(edit).max(500) });

const customerForm = z.strictObject({
  type: customerType,
  types: z.array(z.strictObject({ type: customerType, name: z.string() })),
  /** A businessman's and a company's: the postal address apart, the bank. */
  choices: z.array(
    z.strictObject({ id: z.enum(['postalSame', 'bankWanted']), label: z.string(), value: z.boolean() }),
  ),
  fields: z.array(
    z.strictObject({
      id: z.string(),
      label: z.string(),
      /** The form its answer takes ('' when there is nothing to say). */
      hint: z.string(),
      kind: z.enum(FIELD_KINDS),
      /** A country's: the countries to choose from, by code with their names (Belarus and Russia first). */
      options: z.array(z.strictObject({ value: z.string(), label: z.string() })).optional(),
      optional: z.boolean(),
      section: z.enum(FORM_SECTIONS),
      sectionName: z.string(),
    }),
  ),
});

const customerCheck = z.strictObject({ type: customerType, answers, whois: whois.optional() });

const catalog = z.strictObject({
  kind: productKind,
  kinds: z.array(z.strictObject({ kind: productKind, name: z.string() })),
  currencyId: int,
  currencies: z.array(z.strictObject({ id: int, code: z.string() })),
  customers: z.array(z.strictObject({ id: z.string(), label: z.string(), typeName: z.string() })),
  /** A domain's zones (kind `domain`). */
  zones: z.array(z.strictObject({ name: z.string(), periods: z.array(periodOption) })).optional(),
  /** A tariff kind's tariffs. */
  tariffs: z
    .array(z.strictObject({ id: int, name: z.string(), serviceId: int, periods: z.array(periodOption) }))
    .optional(),
});

const domainCheck = z.strictObject({
  available: z.boolean(),
  premium: z.boolean().optional(),
  /** ASCII. */
  domain: z.string().optional(),
  zone: z.string().optional(),
  /** The zone's WHOIS rules: a customer entered for this domain is asked them at once. */
  whois: whois.optional(),
  message: z.string(),
});

const orderRequest = z.strictObject({
  key: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/),
  kind: productKind,
  currencyId: z.int().positive(),
  period: z.int().min(1).max(120),
  customerId: z.string().min(1).max(64),
  tariffId: z.int().positive().optional(),
  domain: z.string().max(255).optional(),
});

const placed = z.strictObject({
  orderId: int.nullable(),
  invoiceNumber: z.string().nullable(),
  again: z.boolean(),
  message: z.string(),
  /** Where the invoice's link went (the chat with the bot, or the team group's). */
  linkSentTo: z.string(),
});

/** The API, by path below `<app path>api/`: each endpoint's method, request and answer. */
export const CONTRACT = {
  session: { method: 'GET', request: query({}), answer: session },
  /** The chat's accounts to switch between (a team group's: its one). */
  accounts: {
    method: 'GET',
    request: query({}),
    answer: z.strictObject({ accounts: z.array(accountEntry), active: int }),
  },
  zone: { method: 'GET', request: query({ domain: param }), answer: zone },
  /** The account's domains the picker offers (ASCII and as shown), by name. */
  'zone/domains': {
    method: 'GET',
    request: query({}),
    answer: z.strictObject({
      domains: z.array(z.strictObject({ domain: z.string(), domainUnicode: z.string() })),
    }),
  },
  'zone/check': {
    method: 'POST',
    request: z.strictObject({ line: z.string().min(1).max(2_000) }),
    answer: checked,
  },
  'zone/plan': { method: 'POST', request: editsBody, answer: plan },
  'zone/paste': {
    method: 'POST',
    request: z.strictObject({ domain: domainField, text: z.string().min(1).max(60_000) }),
    answer: pasted,
  },
  'zone/apply': {
    method: 'POST',
    request: editsBody.extend({ force: z.boolean().optional(), key: z.string().regex(/^[\w-]{16,64}$/) }),
    answer: applied,
  },
  customers: {
    method: 'GET',
    request: query({}),
    answer: z.strictObject({ customers: z.array(customerEntry) }),
  },
  customer: {
    method: 'GET',
    request: query({ id: param }),
    answer: customerEntry.extend({ answers: savedCustomer }),
  },
  'customer/form': {
    method: 'POST',
    request: z.strictObject({
      type: customerType,
      postalSame: z.boolean().optional(),
      bankWanted: z.boolean().optional(),
      whois: whois.optional(),
      /** What is typed so far: a postal code's hint names its address's country. */
      answers: answers.optional(),
    }),
    answer: customerForm,
  },
  'customer/check': {
    method: 'POST',
    request: customerCheck,
    answer: z.strictObject({ problems: z.array(fieldProblem) }),
  },
  'customer/save': {
    method: 'POST',
    request: customerCheck.extend({ id: profileId.optional() }),
    answer: z.strictObject({ id: z.string(), label: z.string() }),
  },
  'customer/delete': {
    method: 'POST',
    request: z.strictObject({ id: profileId }),
    answer: z.strictObject({ deleted: z.literal(true) }),
  },
  'customer/paste': {
    method: 'POST',
    request: z.strictObject({ text: z.string().min(1).max(16_000) }),
    answer: z.strictObject({
      type: customerType,
      typeName: z.string(),
      answers: savedCustomer,
      refused: z.array(fieldProblem),
    }),
  },
  'order/catalog': {
    method: 'GET',
    request: query({ kind: param, currency: param }),
    answer: catalog,
  },
  'order/domain': { method: 'GET', request: query({ name: param, currency: param }), answer: domainCheck },
  'order/submit': { method: 'POST', request: orderRequest, answer: placed },
  ...MONEY_ENDPOINTS,
} as const;

/**
 * Every refusal: the `error` code (a key of the `miniapp:error` words), its `message` in the
 * user's words, and what some add: the problems by edit (`badEdits`, `zoneChanged`) or by field
 * (`badFields`), the fields a saved customer lacks and the zone's WHOIS rules
 * (`customerIncomplete`).
 */
export const refusalSchema = z.strictObject({
  error: z.string(),
  message: z.string(),
  problems: z.array(z.union([editProblem, fieldProblem])).optional(),
  missing: z.array(z.string()).optional(),
  whois: whois.optional(),
});

/**
 * The header every call names its partner account in (`X-Account: <n>`, the session's `account.n`);
 * without it the chat's active account acts. A number the chat does not hold is refused
 * (`accountUnknown`). A type, so the app spells it as the server reads it and ships nothing.
 */
export type AccountHeader = 'X-Account';

export type EndpointName = keyof typeof CONTRACT;
type Spec<N extends EndpointName> = (typeof CONTRACT)[N];
/** What the app sends: a GET's query parameters or a POST's body. */
export type RequestOf<N extends EndpointName> = z.input<Spec<N>['request']>;
/** The request as the server reads it, parsed. */
export type ParsedRequestOf<N extends EndpointName> = z.output<Spec<N>['request']>;
/** What the endpoint answers with a 200. */
export type AnswerOf<N extends EndpointName> = z.output<Spec<N>['answer']>;
/** The endpoints the app calls with a GET, and those with a POST. */
export type GetEndpoint = { [N in EndpointName]: Spec<N>['method'] extends 'GET' ? N : never }[EndpointName];
export type PostEndpoint = Exclude<EndpointName, GetEndpoint>;
export type Refusal = z.output<typeof refusalSchema>;

// The names the app's screens read the shapes by.
export type Row = z.output<typeof row>;
export type Edit = z.output<typeof edit>;
export type EditProblem = z.output<typeof editProblem>;
export type FieldProblem = z.output<typeof fieldProblem>;
export type Answer = z.output<typeof answer>;
export type Answers = Record<string, Answer>;
export type Session = AnswerOf<'session'>;
export type AccountEntry = z.output<typeof accountEntry>;
export type Zone = AnswerOf<'zone'>;
export type ZoneRecord = z.output<typeof zoneRecord>;
export type Plan = AnswerOf<'zone/plan'>;
export type PlanLine = z.output<typeof planLine>;
export type Pasted = AnswerOf<'zone/paste'>;
export type Applied = AnswerOf<'zone/apply'>;
export type CustomerEntry = z.output<typeof customerEntry>;
export type SavedCustomer = AnswerOf<'customer'>;
export type CustomerForm = AnswerOf<'customer/form'>;
export type FormField = CustomerForm['fields'][number];
export type PastedCustomer = AnswerOf<'customer/paste'>;
export type Saved = AnswerOf<'customer/save'>;
export type Catalog = AnswerOf<'order/catalog'>;
export type PeriodOption = z.output<typeof periodOption>;
export type DomainCheck = AnswerOf<'order/domain'>;
export type OrderRequest = RequestOf<'order/submit'>;
export type Placed = AnswerOf<'order/submit'>;
export type Money = z.output<typeof money>;
export type InvoiceEntry = z.output<typeof invoiceEntry>;
export type PaymentEntry = z.output<typeof paymentEntry>;
export type StatementEntry = z.output<typeof statementEntry>;
export type ExpiringDomain = z.output<typeof expiringDomain>;
export type DnsChangeEntry = z.output<typeof dnsChangeEntry>;
export type Owed = AnswerOf<'home/owed'>;
export type PreparedShare = AnswerOf<'billing/share'>;
export type StatementFile = AnswerOf<'billing/statement-file'>;
