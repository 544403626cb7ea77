import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { ApiRequestError, type DomainOrderRequest, type MailOrderRequest } from '../../../api/index.js';
import {
  individualBusinessmanRequisites,
  juridicalPersonRequisites,
  naturalPersonRequisites,
  whoisCompanyRequisites,
  whoisPersonRequisites,
} from '../../../api/schemas/ordering.js';
import { escapeHtml } from '../../../core/format.js';
import {
  BANK_REQUISITES_FIELDS,
  buildFromAnswers,
  CUSTOMER_TYPES,
  type CustomerType,
  checkField,
  customerFields,
  type FieldCheck,
  type FieldSpec,
  hasPostalAndBank,
  POSTAL_ADDRESS_FIELDS,
  postalFormOf,
  REQUISITES_BLOCK,
  type RequisitesBlock,
  siblingPath,
  whoisFields,
} from '../../../core/requisites.js';
import { cardFields, type PastedCard, parseRequisitesCard } from '../../../core/requisites-paste.js';
import type { WhoisRules } from '../../../core/zones.js';
import type { Profile } from '../../../storage/chat-data.js';
import { UserInputError } from '../../context.js';
import type { Translate } from '../../kit/i18n.js';
import { type CardEntry, fieldLabel, lineLabel, renderCustomerCard } from './requisites-views.js';

export { fieldLabel };

import {
  answerOf,
  type OrderDraft,
  orSkipped,
  readBoolean,
  readNumber,
  readString,
  type Section,
  type Step,
  type StepEnv,
} from '../../forms/types.js';

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

const CUSTOMER_PREFIX = 'c:';
const WHOIS_PREFIX = 'w:';

/** The customer type as answered. */
const readCustomerType = (value: unknown): CustomerType | undefined =>
  CUSTOMER_TYPES.find((t) => t === value);

/** Readers of the shared answers other steps and the requests depend on. */
const CUSTOMER_TYPE = { id: STEP.customerType, read: readCustomerType };
const POSTAL_SAME = { id: STEP.postalSame, read: readBoolean };
const BANK_WANTED = { id: STEP.bankWanted, read: readBoolean };
const CUSTOMER_SOURCE = { id: STEP.customerSource, read: readString };

/**
 * The answer of a requisites, WHOIS or contact field: the checked text, Yes/No for a boolean
 * field, `null` for an optional field skipped.
 */
export type FieldAnswer = string | boolean | null;

/** Reads a field's answer by its kind; `null` only where the field may be skipped. */
function fieldReader(field: FieldSpec): (value: unknown) => FieldAnswer | undefined {
  const read: (value: unknown) => FieldAnswer | undefined =
    field.kind === 'boolean' ? readBoolean : readString;
  return field.optional === true ? orSkipped(read) : read;
}

const YES_NO = (t: Translate) => [
  { label: t('order:yes'), value: true },
  { label: t('order:no'), value: false },
];

function describeValue(t: Translate, value: unknown): string {
  if (value === true) return t('order:yes');
  if (value === false) return t('order:no');
  if (value === null || value === undefined || value === '') return '—';
  return escapeHtml(String(value));
}

/** `10, 12` → "10 или 12": a list of numbers in words of the chat's language. */
function listInWords(t: Translate, numbers: readonly number[]): string {
  const head = numbers.slice(0, -1).join(', ');
  const last = String(numbers.at(-1) ?? '');
  return head === '' ? last : `${head} ${t('order:or')} ${last}`;
}

/** The postal code form of a country in words, with its example when it has one. */
function postalInWords(t: Translate, country: string | undefined) {
  const { form, example } = postalFormOf(country);
  return {
    format: t(`order:postalForm.${form}`),
    example: example ?? '',
    country: country ?? '',
    withCountry: country !== undefined,
    withExample: example !== undefined,
  };
}

/** The message of a refused value: its i18n key and parameters in words, never codes. */
export function refusal(t: Translate, label: string, refused: Extract<FieldCheck, { ok: false }>) {
  const params = refused.params ?? {};
  switch (refused.reason) {
    case 'digits': {
      const lengths = params.lengths ?? [];
      return new UserInputError('order:invalid.digits', {
        label,
        count: lengths.at(-1) ?? 0,
        lengths: listInWords(t, lengths),
        example: params.example ?? '',
      });
    }
    case 'postalCode': {
      const words = postalInWords(t, params.country);
      const key = !words.withCountry
        ? 'order:invalid.postalCodeAny'
        : words.withExample
          ? 'order:invalid.postalCode'
          : 'order:invalid.postalCodeOther';
      return new UserInputError(key, { label, ...words });
    }
    default:
      return new UserInputError(`order:invalid.${refused.reason}`, {
        label,
        ...(params.max === undefined ? {} : { max: params.max }),
      });
  }
}

/** The line under a field's question that says what form the answer takes. */
function fieldHint(t: Translate, field: FieldSpec, country: string | undefined): string {
  if (field.kind === 'digits') {
    const lengths = field.lengths ?? [];
    return t('order:hint.digits', {
      count: lengths.at(-1) ?? 0,
      lengths: listInWords(t, lengths),
      example: field.example ?? '',
    });
  }
  if (field.kind === 'postalCode') {
    const words = postalInWords(t, country);
    return t(
      words.withCountry && words.withExample ? 'order:hint.postalCode' : 'order:hint.postalCodeOther',
      words,
    );
  }
  if (field.kind === 'date' && field.past) return t('order:hint.pastDate');
  return t(`order:hint.${field.kind}`, { defaultValue: '' });
}

/** A step asking for one requisites or WHOIS field, typed (or Yes/No for a boolean). */
function fieldStep(prefix: string, section: Section, field: FieldSpec): Step<FieldAnswer> {
  const id = `${prefix}${field.path}`;
  // The country of the same address, which the postal code is checked against.
  const country = { id: `${prefix}${siblingPath(field.path, 'country_code')}`, read: readString };
  const postalId = `${prefix}${siblingPath(field.path, 'postal_code')}`;
  const countryOf = (draft: OrderDraft): string | undefined => answerOf(draft, country);
  return {
    id,
    section,
    read: fieldReader(field),
    async ask({ ctx, draft }) {
      const label = fieldLabel(ctx.t, field.path);
      if (field.kind === 'boolean')
        return { text: ctx.t('order:askChoice', { label }), options: YES_NO(ctx.t) };
      const hint = fieldHint(ctx.t, field, countryOf(draft));
      return {
        text: ctx.t('order:askField', { label }) + (hint ? `\n<i>${hint}</i>` : ''),
        skippable: field.optional === true,
      };
    },
    ...(field.kind === 'boolean'
      ? {}
      : {
          async parseText({ ctx, draft }: StepEnv, text: string): Promise<FieldAnswer> {
            const checked = checkField(field, text, { country: countryOf(draft) });
            if (!checked.ok) throw refusal(ctx.t, fieldLabel(ctx.t, field.path), checked);
            return checked.value;
          },
        }),
    ...(field.kind === 'country'
      ? {
          // A postal code kept from before (Edit, Back, "Keep") may not fit a new country: it is
          // asked again rather than offered.
          async afterAnswer({ draft }: StepEnv, value: FieldAnswer) {
            const country = typeof value === 'string' ? value : undefined;
            for (const store of [draft.answers, draft.previous]) {
              const code = store[postalId];
              if (typeof code !== 'string') continue;
              const postal: FieldSpec = { path: 'postal_code', kind: 'postalCode' };
              if (!checkField(postal, code, { country }).ok) delete store[postalId];
            }
          },
        }
      : {}),
    describe: ({ ctx }, value) => `${lineLabel(ctx.t, field.path)}: ${describeValue(ctx.t, value)}`,
    keepText: ({ ctx }, value) =>
      value === true ? ctx.t('order:yes') : value === false ? ctx.t('order:no') : (value ?? undefined),
  };
}

function customerType(draft: OrderDraft): CustomerType | undefined {
  return answerOf(draft, CUSTOMER_TYPE);
}

/** Currency: the last one used first; a single currency is chosen without asking. */
export function currencyStep(): Step<number> {
  return {
    id: STEP.currency,
    section: 'currency',
    read: readNumber,
    async auto({ api }) {
      const currencies = await api.listCurrencies();
      return currencies.length === 1 ? currencies[0]?.currency_id : undefined;
    },
    async ask({ ctx, api, chatData, account }) {
      const currencies = await api.listCurrencies();
      const last = await chatData.getLastCurrencyId(account);
      const ordered = [...currencies].sort(
        (a, b) => Number(b.currency_id === last) - Number(a.currency_id === last),
      );
      return {
        text: ctx.t('order:askCurrency'),
        options: ordered.map((c) => ({
          label: `${c.currency_code} — ${c.currency_name}`,
          value: c.currency_id,
        })),
        perRow: 1,
      };
    },
    afterAnswer: async ({ chatData, account }, value) => {
      await chatData.setLastCurrencyId(account, value);
    },
  };
}

/** A Yes/No step of the customer section. */
function yesNoStep(
  reader: { id: string; read(value: unknown): boolean | undefined },
  askKey: string,
  more: Pick<Step<boolean>, 'auto' | 'afterAnswer' | 'describe'> = {},
): Step<boolean> {
  return {
    ...reader,
    section: 'customer',
    async ask({ ctx }) {
      return { text: ctx.t(askKey), options: YES_NO(ctx.t) };
    },
    describe: () => undefined,
    ...more,
  };
}

/** The answer id of a field a card fills: `w:` WHOIS, `c:` customer, contacts as they are. */
function answerIdOf(path: string): string {
  if (path.startsWith('whois_')) return `${WHOIS_PREFIX}${path}`;
  if (path === STEP.phone || path === STEP.email) return path;
  return `${CUSTOMER_PREFIX}${path}`;
}

/** The block a field belongs to (`legal_address`, `whois_person_requisites`), '' for top-level ones. */
const blockOf = (path: string) => (path.includes('.') ? path.slice(0, path.lastIndexOf('.')) : '');

/**
 * Reads a pasted card (a message or a .txt file) where the customer is asked. Text that is no card
 * is refused (the step is asked again); a card is kept in the draft until the answer is filed.
 */
function readPastedCard(draft: OrderDraft, text: string): CustomerType {
  const card = parseRequisitesCard(text);
  if (!card.type) throw new UserInputError('order:notACard');
  draft.pastedCard = text.slice(0, 20_000);
  return card.type;
}

/**
 * Fills the customer, WHOIS and contact answers a pasted card gives, and shows what was taken:
 * only what is missing or was refused is asked after it. An optional field the card leaves out
 * in a block it fills (a room, a middle name) is taken as skipped.
 */
async function applyPastedCard(env: StepEnv): Promise<void> {
  const { ctx, draft } = env;
  const text = draft.pastedCard;
  draft.pastedCard = undefined;
  if (text === undefined) return;
  const card: PastedCard = parseRequisitesCard(text);
  const type = card.type;
  if (!type) return;
  draft.answers[STEP.customerType] = type;
  for (const [path, value] of Object.entries(card.fields)) draft.answers[answerIdOf(path)] = value;
  if (hasPostalAndBank(type)) {
    const postal = POSTAL_ADDRESS_FIELDS.filter((f) => card.fields[f.path] !== undefined);
    const same = POSTAL_ADDRESS_FIELDS.every(
      (f) => card.fields[f.path] === card.fields[f.path.replace(/^postal_address\./, 'legal_address.')],
    );
    // No postal address on a card means letters go to the legal one.
    draft.answers[STEP.postalSame] = postal.length === 0 || same;
    if (postal.length === 0 || same)
      for (const f of POSTAL_ADDRESS_FIELDS) delete draft.answers[answerIdOf(f.path)];
    draft.answers[STEP.bankWanted] = BANK_REQUISITES_FIELDS.some((f) => card.fields[f.path] !== undefined);
  }
  const filledBlocks = new Set(Object.keys(card.fields).map(blockOf));
  const refused = new Set(card.refused.map((r) => r.path));
  for (const field of cardFields(type)) {
    const id = answerIdOf(field.path);
    if (
      field.optional &&
      !(id in draft.answers) &&
      !refused.has(field.path) &&
      filledBlocks.has(blockOf(field.path))
    )
      draft.answers[id] = null;
  }
  const entries: CardEntry[] = cardEntries(draft.answers);
  const problems = card.refused.map((r) => describeRefusal(ctx.t, r.path, r.check));
  await ctx.reply(renderCustomerCard(ctx.t, { title: ctx.t('order:cardTaken'), entries, problems }), {
    parse_mode: 'HTML',
  });
}

function describeRefusal(t: Translate, path: string, check: Extract<FieldCheck, { ok: false }>): string {
  const error = refusal(t, lineLabel(t, path), check);
  return t(error.key, error.params);
}

/**
 * The lines of a customer card, in the order the form asks for them: the type, the fields, the
 * postal address when it differs, the bank, the WHOIS data, the contacts. Answers are read from a
 * draft's answers or a saved profile's data (the same ids).
 */
export function cardEntries(answers: Record<string, unknown>): CardEntry[] {
  const type = readCustomerType(answers[STEP.customerType]);
  if (!type) return [];
  const entries: CardEntry[] = [{ path: STEP.customerType, value: type }];
  for (const field of cardFields(type)) {
    const value = answers[answerIdOf(field.path)];
    if (typeof value === 'string' && value !== '') entries.push({ path: field.path, value });
  }
  const government = answers[`${WHOIS_PREFIX}whois_company_requisites.is_government_company`];
  if (typeof government === 'boolean')
    entries.push({ path: 'whois_company_requisites.is_government_company', value: government });
  return entries;
}

/** Every customer step: saved profile or new, type, fields, postal address, bank. */
export function customerSteps(draft: OrderDraft): Step[] {
  const source: Step<string> = {
    ...CUSTOMER_SOURCE,
    section: 'customer',
    // A card pasted instead of choosing is a new customer with its fields filled.
    async parseText({ draft: d }, text) {
      readPastedCard(d, text);
      return 'new';
    },
    async parseFile({ draft: d }, content) {
      readPastedCard(d, content);
      return 'new';
    },
    async auto({ chatData, account }) {
      return (await chatData.getProfiles(account)).length === 0 ? 'new' : undefined;
    },
    async ask({ ctx, chatData, account }) {
      const profiles = await chatData.getProfiles(account);
      return {
        text: `${ctx.t('order:askCustomer')}\n<i>${ctx.t('order:pasteHint')}</i>`,
        options: [
          ...profiles.map((p) => ({ label: p.label, value: p.id })),
          { label: ctx.t('order:newCustomer'), value: 'new' },
        ],
        perRow: 1,
      };
    },
    afterAnswer: async (env, value) => {
      const { chatData, account, draft: d } = env;
      if (value === 'new') return applyPastedCard(env);
      const profile = (await chatData.getProfiles(account)).find((p) => p.id === value);
      // A saved profile answers the customer and contact steps; Edit can still change them. A
      // profile that no longer reads as one answers nothing: the customer is asked for.
      const saved = profile ? readSavedCustomer(profile) : undefined;
      for (const [key, answer] of Object.entries(saved ?? {})) d.answers[key] = answer;
      d.answers[STEP.saveProfile] = false;
    },
    invalidates: (d) =>
      Object.keys(d.answers).filter(
        (k) => k.startsWith(CUSTOMER_PREFIX) || k.startsWith(WHOIS_PREFIX) || isCustomerStep(k),
      ),
    describe: () => undefined,
  };
  const typeStep: Step<CustomerType> = {
    ...CUSTOMER_TYPE,
    section: 'customer',
    async ask({ ctx }) {
      return {
        text: `${ctx.t('order:askCustomerType')}\n<i>${ctx.t('order:pasteHint')}</i>`,
        options: CUSTOMER_TYPES.map((type) => ({
          label: ctx.t(`order:customerType.${type}`),
          value: type,
        })),
        perRow: 1,
      };
    },
    async parseText({ draft: d }, text) {
      return readPastedCard(d, text);
    },
    async parseFile({ draft: d }, content) {
      return readPastedCard(d, content);
    },
    afterAnswer: applyPastedCard,
    invalidates: (d) =>
      Object.keys(d.answers).filter((k) => k.startsWith(CUSTOMER_PREFIX) || k.startsWith(WHOIS_PREFIX)),
    describe: ({ ctx }, value) =>
      ctx.t('order:summaryCustomerType', { type: ctx.t(`order:customerType.${value}`) }),
  };
  const steps: Step[] = [source, typeStep];
  const type = customerType(draft);
  if (!type) return steps;
  steps.push(...customerFields(type).map((f) => fieldStep(CUSTOMER_PREFIX, 'customer', f)));
  if (hasPostalAndBank(type)) {
    steps.push(
      yesNoStep(POSTAL_SAME, 'order:askPostalSame', {
        describe: ({ ctx }, value) =>
          ctx.t('order:summaryPostalSame', { answer: describeValue(ctx.t, value) }),
      }),
    );
    if (answerOf(draft, POSTAL_SAME) === false) {
      steps.push(...POSTAL_ADDRESS_FIELDS.map((f) => fieldStep(CUSTOMER_PREFIX, 'customer', f)));
    }
    steps.push(yesNoStep(BANK_WANTED, 'order:askBank'));
    if (answerOf(draft, BANK_WANTED) === true) {
      steps.push(...BANK_REQUISITES_FIELDS.map((f) => fieldStep(CUSTOMER_PREFIX, 'customer', f)));
    }
  }
  return steps;
}

/**
 * After the contacts, the offer to save a newly entered customer (with its contacts) for next
 * time. A customer taken from a saved profile is not offered again.
 */
export function saveProfileStep(): Step<boolean> {
  return yesNoStep({ id: STEP.saveProfile, read: readBoolean }, 'order:askSaveProfile', {
    async auto({ draft }) {
      return answerOf(draft, CUSTOMER_SOURCE) === 'new' ? undefined : false;
    },
    afterAnswer: async (env, value) => {
      if (value) await saveCustomerProfile(env);
    },
  });
}

/** Answer ids besides the `c:` fields that a saved customer keeps. */
const CUSTOMER_STEP_IDS: readonly string[] = [
  STEP.customerType,
  STEP.postalSame,
  STEP.bankWanted,
  STEP.saveProfile,
  STEP.phone,
  STEP.email,
];

function isCustomerStep(id: string): boolean {
  return CUSTOMER_STEP_IDS.includes(id);
}

/**
 * A saved customer (`Profile.data`): the answers of the customer and contact steps, keyed by step
 * id. Parsed when read, as the store keeps it sealed JSON; each answer is read by its step again
 * once it is in a draft.
 */
const savedCustomer = z.record(z.string(), z.union([z.string(), z.boolean(), z.null()]));
export type SavedCustomer = z.output<typeof savedCustomer>;

/** The answers a profile keeps, or `undefined` when its data is not a saved customer. */
export function readSavedCustomer(profile: Profile): SavedCustomer | undefined {
  const parsed = savedCustomer.safeParse(profile.data);
  return parsed.success ? parsed.data : undefined;
}

/** Saves the entered customer (and contacts when known) as a profile, labelled by its name. */
export async function saveCustomerProfile({ ctx, chatData, account, draft }: StepEnv): Promise<void> {
  const data: SavedCustomer = {};
  for (const [key, value] of Object.entries(draft.answers)) {
    if (key === STEP.saveProfile) continue;
    if (!(key.startsWith(CUSTOMER_PREFIX) || key.startsWith(WHOIS_PREFIX) || isCustomerStep(key))) continue;
    const answer = savedCustomer.valueType.safeParse(value);
    if (answer.success) data[key] = answer.data;
  }
  const label =
    [data['c:company_name'], data['c:last_name'], data['c:first_name']]
      .filter((v) => typeof v === 'string' && v)
      .join(' ') || ctx.t('order:unnamedCustomer');
  await chatData.saveProfile(account, { id: randomBytes(4).toString('hex'), label, data });
}

/**
 * Keeps the WHOIS answers of an order for a saved customer with that customer's profile, so the
 * next order in a zone that needs them asks only what the profile still lacks. Answers already in
 * the profile are overwritten by this order's (an Edit in the summary corrects them).
 */
export async function rememberWhois({ chatData, account, draft }: StepEnv): Promise<void> {
  const id = answerOf(draft, CUSTOMER_SOURCE);
  if (id === undefined || id === 'new') return;
  const profile = (await chatData.getProfiles(account)).find((p) => p.id === id);
  const saved = profile ? readSavedCustomer(profile) : undefined;
  if (!profile || !saved || saved[STEP.customerType] !== draft.answers[STEP.customerType]) return;
  const data: SavedCustomer = { ...saved };
  for (const [key, value] of Object.entries(draft.answers)) {
    if (!key.startsWith(WHOIS_PREFIX)) continue;
    const answer = savedCustomer.valueType.safeParse(value);
    if (answer.success) data[key] = answer.data;
  }
  if (JSON.stringify(data) !== JSON.stringify(saved))
    await chatData.saveProfile(account, { ...profile, data });
}

/** WHOIS fields for the zone's rules and the customer type (none outside BY/БЕЛ/RU/SU/РФ). */
export function whoisSteps(draft: OrderDraft, rules: WhoisRules): Step<FieldAnswer>[] {
  const type = customerType(draft);
  if (!type) return [];
  return whoisFields(rules, type).map((f) => fieldStep(WHOIS_PREFIX, 'whois', f));
}

/** Contact phone and e-mail. */
export function contactSteps(): Step<FieldAnswer>[] {
  return [
    fieldStep('', 'contacts', { path: STEP.phone, kind: 'phone' }),
    fieldStep('', 'contacts', { path: STEP.email, kind: 'email' }),
  ];
}

/** Answers of one prefix with it stripped: `c:address.city` → `address.city`. */
export function answersUnder(draft: OrderDraft, prefix: 'c:' | 'w:'): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(draft.answers)) {
    if (key.startsWith(prefix)) out[key.slice(prefix.length)] = value;
  }
  return out;
}

export { CUSTOMER_PREFIX, customerType, WHOIS_PREFIX };

/** The answers a request is built from are read back by their steps; one missing is a bug. */
export function required<T>(draft: OrderDraft, step: { id: string; read(value: unknown): T | undefined }): T {
  const value = answerOf(draft, step);
  if (value === undefined) throw new Error(`order answer ${step.id} missing`);
  return value;
}

/** The shared answers of every order: period and currency, read as numbers. */
export const PERIOD = { id: STEP.period, read: readNumber };
export const CURRENCY = { id: STEP.currency, read: readNumber };

/**
 * A block built from answers, read as the API's type by the API's own schema. A value the schema
 * refuses is reported as the API would report it (the field named), before anything is sent.
 */
function checked<S extends z.ZodType>(schema: S, name: string, value: unknown): z.output<S> {
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
    natural_person_requisites: checked(naturalPersonRequisites, 'natural_person_requisites', value),
  }),
  individual_businessman_requisites: (value: unknown) => ({
    individual_businessman_requisites: checked(
      individualBusinessmanRequisites,
      'individual_businessman_requisites',
      value,
    ),
  }),
  juridical_person_requisites: (value: unknown) => ({
    juridical_person_requisites: checked(juridicalPersonRequisites, 'juridical_person_requisites', value),
  }),
} satisfies { [B in RequisitesBlock]: (value: unknown) => BlockRequest<B> };

/** The customer requisites block of the request, exactly one, as the answers give it. */
export function customerRequest(draft: OrderDraft): CustomerRequest {
  const type = customerType(draft);
  if (!type) throw new Error('customer type not answered');
  const fields = [
    ...customerFields(type),
    ...(answerOf(draft, POSTAL_SAME) === false ? POSTAL_ADDRESS_FIELDS : []),
    ...(answerOf(draft, BANK_WANTED) === true ? BANK_REQUISITES_FIELDS : []),
  ];
  const block = buildFromAnswers(fields, answersUnder(draft, CUSTOMER_PREFIX));
  const bank = block.bank_requisites;
  if (bank && typeof bank === 'object' && Object.keys(bank).length === 0) delete block.bank_requisites;
  return BLOCK_REQUEST[REQUISITES_BLOCK[type]](block);
}

/** The WHOIS blocks of a domain order request. */
export type WhoisRequest = Pick<DomainOrderRequest, 'whois_person_requisites' | 'whois_company_requisites'>;

/** The WHOIS blocks of a domain order request (empty outside BY/БЕЛ/RU/SU/РФ). */
export function whoisRequest(draft: OrderDraft, rules: WhoisRules): WhoisRequest {
  const type = customerType(draft);
  if (!type) return {};
  const built = buildFromAnswers(whoisFields(rules, type), answersUnder(draft, WHOIS_PREFIX));
  const out: WhoisRequest = {};
  if (built.whois_person_requisites !== undefined)
    out.whois_person_requisites = checked(
      whoisPersonRequisites,
      'whois_person_requisites',
      built.whois_person_requisites,
    );
  if (built.whois_company_requisites !== undefined)
    out.whois_company_requisites = checked(
      whoisCompanyRequisites,
      'whois_company_requisites',
      built.whois_company_requisites,
    );
  return out;
}

/** Phone and e-mail as answered. */
export function contactsRequest(draft: OrderDraft): { phone: string; email: string } {
  return {
    phone: required(draft, { id: STEP.phone, read: readString }),
    email: required(draft, { id: STEP.email, read: readString }),
  };
}
