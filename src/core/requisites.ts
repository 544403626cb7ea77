import type { FieldSpec } from './requisites-fields.js';

/*
 * Customer requisites as partner-api.md describes them: three customer types, their fields,
 * the address block, optional bank requisites, and the WHOIS blocks of BY/БЕЛ and RU/SU/РФ
 * domains. The bot asks for fields in this order and builds request blocks from the answers.
 */

export const CUSTOMER_TYPES = ['natural', 'businessman', 'juridical'] as const;
export type CustomerType = (typeof CUSTOMER_TYPES)[number];

/** The path of a field next to `path` in the same block: `legal_address.postal_code` → `legal_address.country_code`. */
export function siblingPath(path: string, name: string): string {
  const dot = path.lastIndexOf('.');
  return dot < 0 ? name : `${path.slice(0, dot + 1)}${name}`;
}

// The country comes first: the postal code is checked in the form of that country.
const ADDRESS_FIELDS: FieldSpec[] = [
  { path: 'country_code', kind: 'country' },
  { path: 'postal_code', kind: 'postalCode' },
  { path: 'region', kind: 'text' },
  { path: 'city', kind: 'text' },
  { path: 'street', kind: 'text' },
  { path: 'building', kind: 'text' },
  { path: 'room', kind: 'text', optional: true, emptyWhenSkipped: true },
];

const BANK_FIELDS: FieldSpec[] = [
  { path: 'bank_requisites.bank_name', kind: 'text', optional: true },
  { path: 'bank_requisites.swift', kind: 'swift', optional: true },
  { path: 'bank_requisites.iban', kind: 'iban', optional: true },
];

/** УНП, the Belarusian taxpayer number the provider takes as `ucn`: nine digits. */
const UCN: FieldSpec = {
  path: 'ucn',
  kind: 'digits',
  lengths: [9],
  example: '190123455',
  checksum: 'unp',
  register: 'unp',
};

function under(prefix: string, fields: FieldSpec[]): FieldSpec[] {
  return fields.map((f) => ({ ...f, path: `${prefix}.${f.path}` }));
}

/**
 * The request block each customer type sends: the one home of that mapping (the bot builds the
 * block a customer's answers make through it). Exhaustive: a new customer type fails `tsc` here.
 */
export const REQUISITES_BLOCK = {
  natural: 'natural_person_requisites',
  businessman: 'individual_businessman_requisites',
  juridical: 'juridical_person_requisites',
} as const satisfies Record<CustomerType, string>;

/** The name of a customer requisites block in an order request. */
export type RequisitesBlock = (typeof REQUISITES_BLOCK)[CustomerType];

/** Fields of a customer, in asking order; postal address and bank requisites are asked apart. */
export function customerFields(type: CustomerType): FieldSpec[] {
  switch (type) {
    case 'natural':
      return [
        { path: 'last_name', kind: 'name' },
        { path: 'first_name', kind: 'name' },
        { path: 'middle_name', kind: 'name', optional: true, emptyWhenSkipped: true },
        ...under('address', ADDRESS_FIELDS),
      ];
    case 'businessman':
      return [
        UCN,
        { path: 'last_name', kind: 'name' },
        { path: 'first_name', kind: 'name' },
        { path: 'middle_name', kind: 'name', optional: true, emptyWhenSkipped: true },
        ...under('legal_address', ADDRESS_FIELDS),
      ];
    case 'juridical':
      return [
        UCN,
        { path: 'company_name', kind: 'text' },
        { path: 'executive_last_name', kind: 'name' },
        { path: 'executive_first_name', kind: 'name' },
        { path: 'executive_middle_name', kind: 'name', optional: true, emptyWhenSkipped: true },
        { path: 'post_of_executive', kind: 'text' },
        ...under('legal_address', ADDRESS_FIELDS),
      ];
  }
}

/** Whether a customer type has a legal/postal address pair and bank requisites. */
export function hasPostalAndBank(type: CustomerType): boolean {
  return type !== 'natural';
}

export const POSTAL_ADDRESS_FIELDS = under('postal_address', ADDRESS_FIELDS);
export const BANK_REQUISITES_FIELDS = BANK_FIELDS;

/** The WHOIS blocks a domain order needs, by zone rules and customer type (partner-api.md). */
export function whoisBlocks(rules: 'by' | 'ru' | 'none', type: CustomerType): ('person' | 'company')[] {
  if (rules === 'none') return [];
  if (type === 'natural') return ['person'];
  if (type === 'businessman') return ['person', 'company'];
  return ['company'];
}

/** Fields of the WHOIS blocks, zone-specific ones only for their zones. */
export function whoisFields(rules: 'by' | 'ru' | 'none', type: CustomerType): FieldSpec[] {
  const fields: FieldSpec[] = [];
  const blocks = whoisBlocks(rules, type);
  if (blocks.includes('person')) {
    fields.push(
      { path: 'whois_person_requisites.citizenship', kind: 'country' },
      { path: 'whois_person_requisites.series', kind: 'code' },
      { path: 'whois_person_requisites.number', kind: 'code' },
      { path: 'whois_person_requisites.organization', kind: 'text' },
      { path: 'whois_person_requisites.identity_number', kind: 'code', optional: true },
      { path: 'whois_person_requisites.date_of_issue', kind: 'date', past: true },
    );
    if (rules === 'ru')
      fields.push({ path: 'whois_person_requisites.date_of_birth', kind: 'date', past: true });
  }
  if (blocks.includes('company')) {
    if (rules === 'by') {
      fields.push(
        { path: 'whois_company_requisites.registration_number', kind: 'code' },
        { path: 'whois_company_requisites.registration_organization', kind: 'text' },
        { path: 'whois_company_requisites.registration_issue_number', kind: 'code', optional: true },
        { path: 'whois_company_requisites.registration_issue_date', kind: 'date', past: true },
        { path: 'whois_company_requisites.is_government_company', kind: 'boolean' },
      );
    } else {
      fields.push(
        // An individual businessman has a person's ИНН (12 digits) and an ОГРНИП (15), and no КПП
        // of his own; an organisation has a 10-digit ИНН and a 13-digit ОГРН.
        type === 'businessman'
          ? {
              path: 'whois_company_requisites.inn',
              kind: 'digits',
              lengths: [12],
              example: '500100732259',
              checksum: 'inn',
              register: 'inn',
            }
          : {
              path: 'whois_company_requisites.inn',
              kind: 'digits',
              lengths: [10],
              example: '7707083893',
              checksum: 'inn',
              register: 'inn',
            },
        {
          path: 'whois_company_requisites.kpp',
          kind: 'digits',
          lengths: [9],
          example: '770701001',
          register: 'kpp',
          optional: type === 'businessman',
        },
        type === 'businessman'
          ? {
              path: 'whois_company_requisites.ogrn',
              kind: 'digits',
              lengths: [15],
              example: '304500116000157',
              checksum: 'ogrn',
              register: 'ogrn',
            }
          : {
              path: 'whois_company_requisites.ogrn',
              kind: 'digits',
              lengths: [13],
              example: '1027700132195',
              checksum: 'ogrn',
              register: 'ogrn',
            },
      );
    }
  }
  return fields;
}

/** Sets `value` at a dotted path of a nested plain object. */
export function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    if (typeof next !== 'object' || next === null) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  const last = keys.at(-1);
  if (last !== undefined) node[last] = value;
}

/**
 * Builds nested request data from answers keyed by field path. Skipped fields (`undefined`)
 * are left out, or sent as '' when the provider requires the property.
 */
export function buildFromAnswers(
  fields: readonly FieldSpec[],
  answers: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const value = answers[field.path];
    if (value !== undefined && value !== null) setPath(out, field.path, value);
    else if (field.emptyWhenSkipped) setPath(out, field.path, '');
  }
  return out;
}

/** PEM certificate request, as pasted or sent as a .csr/.pem file. */
export function looksLikeCsr(text: string): boolean {
  const match =
    /^\s*-----BEGIN (NEW )?CERTIFICATE REQUEST-----\r?\n([A-Za-z0-9+/=\r\n]+?)\r?\n?-----END (NEW )?CERTIFICATE REQUEST-----\s*$/.exec(
      text,
    );
  if (!match?.[2]) return false;
  const body = match[2].replace(/\s/g, '');
  return body.length >= 64 && body.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(body);
}
