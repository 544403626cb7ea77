import { z } from 'zod';
import { ddmmyyyy, digitsInt, id, optional, price, stringId, text } from './common.js';

// ---- Reference data ----

export const service = z.object({
  service_id: stringId,
  canonical_name: z.string(),
  name: z.string(),
});

export const tariff = z.object({
  tariff_id: id,
  tariff_name: z.string(),
  service_id: stringId,
  period_type: z.string(),
  prices: z.array(price),
  // The spec allows the supported periods to come as a plain list instead of (or beside) prices.
  available_periods: optional(z.array(z.int())),
});

export const domainZone = z.object({
  domain_zone_id: id,
  name: z.string(),
  min_period: z.int(),
  max_period: z.int(),
  actual_registration_tariff_id: id,
  registration_price: z.number(),
  actual_renew_tariff_id: id,
  renew_price: z.number(),
  period_type: z.string(),
});

export const servicesResponse = z.object({ services: z.array(service) });
export const tariffsResponse = z.object({ tariffs: z.array(tariff) });
export const domainZonesResponse = z.object({ domain_zones: z.array(domainZone) });

export const hostingTariffQuery = z.strictObject({ currency_id: id.optional(), service_id: id.optional() });
export const currencyQuery = z.strictObject({ currency_id: id.optional() });

// ---- Orders ----

const hostingAdvanced = z.object({ tariff_id: optional(id) });
const sslAdvanced = z.object({
  domain: optional(z.string()),
  use_csr: optional(z.boolean()),
  tariff_id: optional(id),
  valid_from_date: optional(z.string()),
  valid_till_date: optional(z.string()),
});
const domainAdvanced = z.object({
  domain: optional(z.string()),
  registered: optional(z.boolean()),
  renewed: optional(z.boolean()),
  registration_tariff_id: optional(id),
  renew_tariff_id: optional(id),
});

function orderWith<A extends z.ZodType>(advanced: A) {
  return z.object({
    order_id: id,
    service_id: stringId,
    number: z.string(),
    state: z.string(),
    order_datetime: z.string(),
    complete_date: optional(z.string()),
    expiration_date: optional(z.string()),
    currency_id: id,
    period_unit_type: z.string(),
    period_unit_count: digitsInt,
    paid: z.boolean(),
    completed: z.boolean(),
    business_entity_type: z.string(),
    advanced: optional(advanced),
  });
}

export const order = orderWith(z.object({}));
export const hostingOrder = orderWith(hostingAdvanced);
export const mailOrder = orderWith(hostingAdvanced);
export const sslOrder = orderWith(sslAdvanced);
export const domainOrder = orderWith(domainAdvanced);

export const ordersResponse = z.object({ orders: z.array(order) });
export const hostingOrdersResponse = z.object({ orders: z.array(hostingOrder) });
export const mailOrdersResponse = z.object({ orders: z.array(mailOrder) });
export const sslOrdersResponse = z.object({ orders: z.array(sslOrder) });
export const domainOrdersResponse = z.object({ orders: z.array(domainOrder) });

const orderFilter = {
  order_number: text.optional(),
  order_id: id.optional(),
  from_order_date: ddmmyyyy.optional(),
  to_order_date: ddmmyyyy.optional(),
};
export const orderQuery = z.strictObject({ ...orderFilter, service_id: id.optional() });
export const orderKindQuery = z.strictObject(orderFilter);

// ---- Order requests (strict: the provider forbids properties it does not list) ----

/** Required but may be empty: a patronymic some people do not have, a room a house does not have. */
const presentText = z.string().trim();

export const address = z.strictObject({
  postal_code: text,
  country_code: text,
  region: text,
  city: text,
  street: text,
  building: text,
  room: presentText,
});

export const bankRequisites = z.strictObject({
  bank_name: text.optional(),
  swift: text.optional(),
  iban: text.optional(),
});

export const naturalPersonRequisites = z.strictObject({
  last_name: text,
  first_name: text,
  middle_name: presentText,
  address,
});

export const individualBusinessmanRequisites = z.strictObject({
  ucn: text,
  last_name: text,
  first_name: text,
  middle_name: presentText,
  legal_address: address,
  postal_address: address.optional(),
  bank_requisites: bankRequisites.optional(),
});

export const juridicalPersonRequisites = z.strictObject({
  ucn: text,
  company_name: text,
  executive_last_name: text,
  executive_first_name: text,
  executive_middle_name: presentText,
  post_of_executive: text,
  legal_address: address,
  postal_address: address.optional(),
  bank_requisites: bankRequisites.optional(),
});

export const whoisPersonRequisites = z.strictObject({
  citizenship: text.optional(),
  series: text.optional(),
  number: text.optional(),
  organization: text.optional(),
  identity_number: text.optional(),
  date_of_issue: ddmmyyyy.optional(),
  date_of_birth: ddmmyyyy.optional(),
});

export const whoisCompanyRequisites = z.strictObject({
  registration_number: text.optional(),
  registration_organization: text.optional(),
  registration_issue_number: text.optional(),
  registration_issue_date: ddmmyyyy.optional(),
  is_government_company: z.boolean().optional(),
  inn: text.optional(),
  kpp: text.optional(),
  ogrn: text.optional(),
});

const REQUISITES_BLOCKS = [
  'natural_person_requisites',
  'individual_businessman_requisites',
  'juridical_person_requisites',
] as const;

const orderBase = {
  period_unit_count: z.int().min(1).max(36),
  currency_id: id,
  phone: text,
  email: text,
  tariff_id: id,
  natural_person_requisites: naturalPersonRequisites.optional(),
  individual_businessman_requisites: individualBusinessmanRequisites.optional(),
  juridical_person_requisites: juridicalPersonRequisites.optional(),
};

/** Exactly one customer requisites block is sent. */
function oneRequisitesBlock(value: Record<string, unknown>, ctx: z.RefinementCtx) {
  const present = REQUISITES_BLOCKS.filter((block) => value[block] !== undefined);
  if (present.length !== 1) {
    ctx.addIssue({
      code: 'custom',
      path: present.length === 0 ? [] : [present[1] ?? ''],
      message: `exactly one of ${REQUISITES_BLOCKS.join(', ')} is required, got ${present.length}`,
    });
  }
}

export const hostingOrderRequest = z
  .strictObject({ ...orderBase, domain: text.optional() })
  .superRefine(oneRequisitesBlock);

export const mailOrderRequest = z.strictObject(orderBase).superRefine(oneRequisitesBlock);

export const sslOrderRequest = z
  .strictObject({ ...orderBase, domain: text.optional(), csr: text.optional() })
  .superRefine(oneRequisitesBlock)
  .superRefine((value, ctx) => {
    if (value.domain === undefined && value.csr === undefined) {
      ctx.addIssue({ code: 'custom', path: ['domain'], message: 'domain or csr is required' });
    }
  });

export const domainOrderRequest = z
  .strictObject({
    ...orderBase,
    domain: text,
    whois_person_requisites: whoisPersonRequisites.optional(),
    whois_company_requisites: whoisCompanyRequisites.optional(),
  })
  .superRefine(oneRequisitesBlock);

export const orderCreated = z.object({
  order_id: optional(id),
  invoice_id: optional(id),
  invoice_url: optional(z.string()),
});

export type Service = z.output<typeof service>;
export type Tariff = z.output<typeof tariff>;
export type DomainZone = z.output<typeof domainZone>;
export type Order = z.output<typeof order>;
export type HostingOrder = z.output<typeof hostingOrder>;
export type MailOrder = z.output<typeof mailOrder>;
export type SslOrder = z.output<typeof sslOrder>;
export type DomainOrder = z.output<typeof domainOrder>;
export type HostingTariffQuery = z.input<typeof hostingTariffQuery>;
export type CurrencyQuery = z.input<typeof currencyQuery>;
export type OrderQuery = z.input<typeof orderQuery>;
export type OrderKindQuery = z.input<typeof orderKindQuery>;
export type Address = z.input<typeof address>;
export type BankRequisites = z.input<typeof bankRequisites>;
export type NaturalPersonRequisites = z.input<typeof naturalPersonRequisites>;
export type IndividualBusinessmanRequisites = z.input<typeof individualBusinessmanRequisites>;
export type JuridicalPersonRequisites = z.input<typeof juridicalPersonRequisites>;
export type WhoisPersonRequisites = z.input<typeof whoisPersonRequisites>;
export type WhoisCompanyRequisites = z.input<typeof whoisCompanyRequisites>;
export type HostingOrderRequest = z.input<typeof hostingOrderRequest>;
export type MailOrderRequest = z.input<typeof mailOrderRequest>;
export type SslOrderRequest = z.input<typeof sslOrderRequest>;
export type DomainOrderRequest = z.input<typeof domainOrderRequest>;
export type OrderCreated = z.output<typeof orderCreated>;
