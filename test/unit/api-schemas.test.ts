import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { invoice } from '../../src/api/schemas/billing.js';
import { dnsRecordInput, nameServer } from '../../src/api/schemas/domains.js';
import {
  domainOrder,
  domainOrderRequest,
  hostingOrderRequest,
  orderCreated,
  sslOrderRequest,
  tariff,
} from '../../src/api/schemas/ordering.js';

const address = {
  postal_code: '220030',
  country_code: 'BY',
  region: 'Минская',
  city: 'Минск',
  street: 'пр. Независимости',
  building: '4',
  room: '12',
};
const person = { last_name: 'Иванов', first_name: 'Иван', middle_name: 'Иванович', address };
const common = {
  period_unit_count: 12,
  currency_id: 1,
  phone: '+375291234567',
  email: 'ivan@example.by',
  tariff_id: 5,
};

const listedOrder = {
  order_id: 101,
  service_id: 4,
  number: 'Z-101',
  state: 'NewOrder',
  order_datetime: '01.11.2026 10:15',
  complete_date: null,
  expiration_date: null,
  currency_id: 1,
  period_unit_type: 'year',
  period_unit_count: '1',
  paid: false,
  completed: false,
  business_entity_type: 'NaturalPerson',
  advanced: { domain: 'пример.бел', registered: null, renewed: false, registration_tariff_id: 30 },
  something_new: 'ignored',
};

describe('response schemas are tolerant where the spec is', () => {
  it('reads null optional fields as undefined, digit strings as integers, numeric service ids as strings', () => {
    const parsed = domainOrder.parse(listedOrder);
    expect(parsed.complete_date).toBeUndefined();
    expect(parsed.period_unit_count).toBe(1);
    expect(parsed.service_id).toBe('4');
    expect(parsed.advanced?.registered).toBeUndefined();
    expect(parsed.advanced?.domain).toBe('пример.бел');
    expect(parsed).not.toHaveProperty('something_new');
  });

  it('accepts period_unit_count as any integer or any string of digits, and nothing else', () => {
    fc.assert(
      fc.property(fc.nat({ max: 1_000_000 }), fc.boolean(), (n, asString) => {
        const parsed = domainOrder.parse({ ...listedOrder, period_unit_count: asString ? String(n) : n });
        return parsed.period_unit_count === n;
      }),
    );
    expect(domainOrder.safeParse({ ...listedOrder, period_unit_count: '12 months' }).success).toBe(false);
    expect(domainOrder.safeParse({ ...listedOrder, period_unit_count: 1.5 }).success).toBe(false);
  });

  it('accepts a service_id given as a string or a number', () => {
    const base = {
      tariff_id: 1,
      tariff_name: 'Start',
      period_type: 'month',
      prices: [{ period: 1, price: 5 }],
    };
    expect(tariff.parse({ ...base, service_id: '7' }).service_id).toBe('7');
    expect(tariff.parse({ ...base, service_id: 7 }).service_id).toBe('7');
    expect(
      tariff.parse({ ...base, service_id: 7, available_periods: null }).available_periods,
    ).toBeUndefined();
  });

  it('still requires the fields marked required', () => {
    const good = {
      invoice_id: 1,
      invoice_number: 'С-1',
      order_id: 2,
      creation_date: '01.11.2026',
      expiration_date: '06.11.2026',
      amount: 10.5,
      currency_id: 1,
      state: 'WaitingForPayment',
    };
    expect(invoice.safeParse(good).success).toBe(true);
    const { amount: _, ...missing } = good;
    expect(invoice.safeParse(missing).success).toBe(false);
    expect(nameServer.parse({ ns: 'ns1.example.by', ip: null })).toEqual({
      ns: 'ns1.example.by',
      ip: undefined,
    });
    expect(nameServer.safeParse({ ns: '' }).success).toBe(false);
    expect(orderCreated.parse({})).toEqual({
      order_id: undefined,
      invoice_id: undefined,
      invoice_url: undefined,
    });
  });
});

describe('request schemas are strict', () => {
  it('rejects properties the spec does not list, at any depth', () => {
    expect(
      hostingOrderRequest.safeParse({ ...common, natural_person_requisites: person, promo: 'x' }).success,
    ).toBe(false);
    const deep = { ...person, address: { ...address, flat: '1' } };
    expect(hostingOrderRequest.safeParse({ ...common, natural_person_requisites: deep }).success).toBe(false);
  });

  it('requires exactly one customer requisites block', () => {
    expect(hostingOrderRequest.safeParse({ ...common }).success).toBe(false);
    expect(hostingOrderRequest.safeParse({ ...common, natural_person_requisites: person }).success).toBe(
      true,
    );
    const juridical = {
      ucn: '190000005',
      company_name: 'ООО «Пример»',
      executive_last_name: 'Петров',
      executive_first_name: 'Пётр',
      executive_middle_name: 'Петрович',
      post_of_executive: 'Директор',
      legal_address: address,
    };
    expect(
      hostingOrderRequest.safeParse({
        ...common,
        natural_person_requisites: person,
        juridical_person_requisites: juridical,
      }).success,
    ).toBe(false);
  });

  it('bounds the period to 1..36 and requires a domain or CSR for SSL', () => {
    expect(
      hostingOrderRequest.safeParse({ ...common, period_unit_count: 37, natural_person_requisites: person })
        .success,
    ).toBe(false);
    expect(sslOrderRequest.safeParse({ ...common, natural_person_requisites: person }).success).toBe(false);
    expect(
      sslOrderRequest.safeParse({ ...common, natural_person_requisites: person, domain: 'example.by' })
        .success,
    ).toBe(true);
    expect(domainOrderRequest.safeParse({ ...common, natural_person_requisites: person }).success).toBe(
      false,
    );
  });

  it('checks DNS record fields per kind', () => {
    expect(dnsRecordInput.safeParse({ kind: 'a', ttl: 3600, host: '@', ipv4: '192.0.2.1' }).success).toBe(
      true,
    );
    expect(dnsRecordInput.safeParse({ kind: 'a', ttl: 3600, host: '@', ipv4: '192.0.2' }).success).toBe(
      false,
    );
    expect(
      dnsRecordInput.safeParse({ kind: 'aaaa', ttl: 3600, host: '@', ipv6: '2001:db8::1' }).success,
    ).toBe(true);
    expect(
      dnsRecordInput.safeParse({ kind: 'mx', ttl: 3600, host: '@', mail_server: 'mx.by', priority: 1.5 })
        .success,
    ).toBe(false);
    expect(dnsRecordInput.safeParse({ kind: 'txt', ttl: 0, host: '@', text: 'v=spf1 -all' }).success).toBe(
      true,
    );
    expect(dnsRecordInput.safeParse({ kind: 'txt', ttl: -1, host: '@', text: 'v=spf1 -all' }).success).toBe(
      false,
    );
    expect(dnsRecordInput.safeParse({ kind: 'txt', ttl: 60, host: '@', text: '' }).success).toBe(false);
  });
});
