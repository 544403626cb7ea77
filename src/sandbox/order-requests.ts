/**
 * Checking the body of an order-creation request: the common fields, exactly one customer
 * requisites block, the kind's own fields, and for domains the WHOIS blocks the zone requires.
 * Failures are 400 with a Russian `message` naming the field.
 */

import { badRequest, messages } from './api-errors.js';
import { isHostName, registrable } from './domain-rules.js';
import type { CustomerType, OrderKind, SandboxState, WhoisRules, Zone } from './state.js';
import {
  bodyObject,
  dateString,
  type JsonObject,
  type ObjectSchema,
  optionalString,
  patternString,
  requiredInteger,
  requiredString,
  type Schema,
  type StringSchema,
  validate,
} from './validation.js';

const email: StringSchema = {
  type: 'string',
  check: (value, field) =>
    /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)
      ? undefined
      : messages.invalidFormat(field, 'ожидается адрес электронной почты'),
};

const phone: StringSchema = {
  type: 'string',
  check: (value, field) =>
    /^\+?[\d\s()-]{7,20}$/.test(value) && value.replace(/\D/g, '').length >= 7
      ? undefined
      : messages.invalidFormat(field, 'ожидается номер телефона, например +375291234567'),
};

const countryCode = patternString(/^[A-Za-z]{2}$/, 'ожидается двухбуквенный код страны, например BY');
const mayBeEmpty: StringSchema = { type: 'string', allowEmpty: true };

const address: ObjectSchema = {
  type: 'object',
  fields: {
    postal_code: requiredString,
    country_code: countryCode,
    region: requiredString,
    city: requiredString,
    street: requiredString,
    building: requiredString,
    room: mayBeEmpty,
  },
};

const bankRequisites: ObjectSchema = {
  type: 'object',
  optional: true,
  fields: { bank_name: optionalString, swift: optionalString, iban: optionalString },
};

const COMMON_FIELDS: Record<string, Schema> = {
  period_unit_count: requiredInteger,
  currency_id: requiredInteger,
  phone,
  email,
  tariff_id: requiredInteger,
};

const REQUISITES: Record<string, { customer: CustomerType; schema: ObjectSchema }> = {
  natural_person_requisites: {
    customer: 'NaturalPerson',
    schema: {
      type: 'object',
      fields: { last_name: requiredString, first_name: requiredString, middle_name: mayBeEmpty, address },
    },
  },
  individual_businessman_requisites: {
    customer: 'IndividualBusinessman',
    schema: {
      type: 'object',
      fields: {
        ucn: requiredString,
        last_name: requiredString,
        first_name: requiredString,
        middle_name: mayBeEmpty,
        legal_address: address,
        postal_address: { ...address, optional: true },
        bank_requisites: bankRequisites,
      },
    },
  },
  juridical_person_requisites: {
    customer: 'JuridicalPerson',
    schema: {
      type: 'object',
      fields: {
        ucn: requiredString,
        company_name: requiredString,
        executive_last_name: requiredString,
        executive_first_name: requiredString,
        executive_middle_name: mayBeEmpty,
        post_of_executive: requiredString,
        legal_address: address,
        postal_address: { ...address, optional: true },
        bank_requisites: bankRequisites,
      },
    },
  },
};

const WHOIS_PERSON = 'whois_person_requisites';
const WHOIS_COMPANY = 'whois_company_requisites';

function whoisPersonSchema(rules: WhoisRules): ObjectSchema {
  const fields: Record<string, Schema> = {
    citizenship: countryCode,
    series: requiredString,
    number: requiredString,
    organization: requiredString,
    identity_number: optionalString,
    date_of_issue: dateString(),
  };
  if (rules === 'ru') fields.date_of_birth = dateString();
  return { type: 'object', fields };
}

function whoisCompanySchema(rules: WhoisRules): ObjectSchema {
  if (rules === 'by') {
    return {
      type: 'object',
      fields: {
        registration_number: requiredString,
        registration_organization: requiredString,
        registration_issue_number: optionalString,
        registration_issue_date: dateString(),
        is_government_company: { type: 'boolean', optional: true },
      },
    };
  }
  return {
    type: 'object',
    fields: {
      inn: patternString(/^\d{10}(\d{2})?$/, 'ИНН состоит из 10 или 12 цифр'),
      kpp: patternString(/^\d{9}$/, 'КПП состоит из 9 цифр', true),
      ogrn: patternString(/^\d{13}(\d{2})?$/, 'ОГРН состоит из 13 или 15 цифр', true),
    },
  };
}

const KIND_FIELDS: Record<OrderKind, string[]> = {
  hosting: ['domain'],
  mail: [],
  ssl: ['domain', 'csr'],
  domain: ['domain', WHOIS_PERSON, WHOIS_COMPANY],
};

const CSR_PEM =
  /^\s*-----BEGIN (?:NEW )?CERTIFICATE REQUEST-----\r?\n([A-Za-z0-9+/=\r\n]+)-----END (?:NEW )?CERTIFICATE REQUEST-----\s*$/;

function isCsr(text: string): boolean {
  const match = CSR_PEM.exec(text);
  if (!match) return false;
  const der = Buffer.from((match[1] ?? '').replace(/\s/g, ''), 'base64');
  return der.length > 16 && der[0] === 0x30;
}

export interface OrderRequest {
  periodUnitCount: number;
  currencyId: number;
  tariffId: number;
  customer: CustomerType;
  /** Hosting (optional), SSL (domain or csr) and domain orders: lower-cased as sent. */
  domain: string | undefined;
  csr: string | undefined;
  /** Domain orders: the zone found by longest suffix, and the name in punycode. */
  zone: Zone | undefined;
  domainAscii: string | undefined;
}

function present(body: JsonObject, key: string): boolean {
  return body[key] !== undefined && body[key] !== null;
}

/** Checks an order-creation body of the given kind; throws 400 ApiErrors. */
export function parseOrderRequest(rawBody: unknown, kind: OrderKind, state: SandboxState): OrderRequest {
  const body = bodyObject(rawBody);
  const allowed = new Set([...Object.keys(COMMON_FIELDS), ...Object.keys(REQUISITES), ...KIND_FIELDS[kind]]);
  for (const key of Object.keys(body)) {
    if (!allowed.has(key)) throw badRequest(messages.extraProperty(key));
  }
  for (const [key, schema] of Object.entries(COMMON_FIELDS)) validate(body[key], schema, key);

  const blocks = Object.keys(REQUISITES).filter((key) => present(body, key));
  const [blockKey] = blocks;
  const requisites = blockKey === undefined ? undefined : REQUISITES[blockKey];
  if (blockKey === undefined || requisites === undefined) {
    throw badRequest(
      'Необходимо передать реквизиты заказчика: один из блоков «natural_person_requisites», ' +
        '«individual_businessman_requisites» или «juridical_person_requisites»',
    );
  }
  if (blocks.length > 1) {
    throw badRequest(
      `Допускается только один блок реквизитов заказчика, получены: ${blocks.map((b) => `«${b}»`).join(', ')}`,
    );
  }
  validate(body[blockKey], requisites.schema, blockKey);

  const request: OrderRequest = {
    periodUnitCount: body.period_unit_count as number,
    currencyId: body.currency_id as number,
    tariffId: body.tariff_id as number,
    customer: requisites.customer,
    domain: undefined,
    csr: undefined,
    zone: undefined,
    domainAscii: undefined,
  };

  if (kind === 'hosting' || kind === 'ssl' || kind === 'domain') {
    validate(body.domain, kind === 'domain' ? requiredString : optionalString, 'domain');
    const domain =
      typeof body.domain === 'string' && body.domain.trim() !== '' ? body.domain.trim() : undefined;
    if (domain !== undefined && kind !== 'domain' && !isHostName(domain.toLowerCase(), kind === 'ssl')) {
      throw badRequest(messages.invalidFormat('domain', 'ожидается доменное имя'));
    }
    request.domain = domain?.toLowerCase();
  }

  if (kind === 'ssl') {
    validate(body.csr, optionalString, 'csr');
    const csr = typeof body.csr === 'string' && body.csr.trim() !== '' ? body.csr : undefined;
    if (csr !== undefined && !isCsr(csr)) {
      throw badRequest(
        messages.invalidFormat(
          'csr',
          'ожидается запрос на сертификат в формате PEM (-----BEGIN CERTIFICATE REQUEST-----)',
        ),
      );
    }
    if (request.domain === undefined && csr === undefined) {
      throw badRequest('Необходимо заполнить поле «domain» или «csr»');
    }
    request.csr = csr;
  }

  if (kind === 'domain') {
    const domain = request.domain ?? '';
    const result = registrable(domain, state.zones);
    if (!result.ok) {
      throw badRequest(
        result.reason === 'Invalid'
          ? `Некорректное доменное имя «${domain}»`
          : `Регистрация доменов в зоне домена «${domain}» не поддерживается`,
      );
    }
    request.zone = result.zone;
    request.domainAscii = result.ascii;
    checkWhois(body, result.zone, requisites.customer);
  }
  return request;
}

function checkWhois(body: JsonObject, zone: Zone, customer: CustomerType): void {
  const needed = new Set<string>();
  if (zone.whois !== 'none') {
    if (customer !== 'JuridicalPerson') needed.add(WHOIS_PERSON);
    if (customer !== 'NaturalPerson') needed.add(WHOIS_COMPANY);
  }
  for (const key of [WHOIS_PERSON, WHOIS_COMPANY]) {
    if (present(body, key) && !needed.has(key)) throw badRequest(messages.extraProperty(key));
  }
  if (needed.has(WHOIS_PERSON)) validate(body[WHOIS_PERSON], whoisPersonSchema(zone.whois), WHOIS_PERSON);
  if (needed.has(WHOIS_COMPANY)) validate(body[WHOIS_COMPANY], whoisCompanySchema(zone.whois), WHOIS_COMPANY);
}
