import type { PartnerApi } from '../../src/api/index.js';

/** Shared test data: a customer as a partner would enter one, and a real (throwaway) CSR. */

export const ADDRESS = {
  postal_code: '220030',
  country_code: 'BY',
  region: 'Минская область',
  city: 'Минск',
  street: 'пр. Независимости',
  building: '4',
  room: '12',
};

export const NATURAL_PERSON = {
  last_name: 'Иванов',
  first_name: 'Иван',
  middle_name: 'Иванович',
  address: ADDRESS,
};

export const CONTACTS = { phone: '+375291234567', email: 'ivan@example.by' };

/** `openssl req -new` for CN=shop.example.by with a key that was thrown away at once. */
export const CSR_PEM = `-----BEGIN CERTIFICATE REQUEST-----
MIHTMHwCAQAwGjEYMBYGA1UEAwwPc2hvcC5leGFtcGxlLmJ5MFkwEwYHKoZIzj0C
AQYIKoZIzj0DAQcDQgAEzLXAl+xQ5CgRA0lHQcNKFzh8xBakP1p72EGQYOCfsgKk
nJ7s6V15U9+cZXKrt/tpz9jQdXN3crR7phm76l/VUKAAMAoGCCqGSM49BAMCA0cA
MEQCIFkmbCtQJ//R8g/jWx9EteOWCc6NF+6NjefDd5Imm3ohAiBpio5Taq7yXjvx
qXXPufCrcZBuF3nOV3GE8URGKxbC3A==
-----END CERTIFICATE REQUEST-----`;

/** A natural person's answers, typed one per question in the order form asks them (ru). */
export const PERSON_ANSWERS = [
  NATURAL_PERSON.last_name,
  NATURAL_PERSON.first_name,
  NATURAL_PERSON.middle_name,
  ADDRESS.country_code,
  ADDRESS.postal_code,
  'Минская',
  ADDRESS.city,
  ADDRESS.street,
  ADDRESS.building,
  ADDRESS.room,
];

/** Orders a .com domain for `name` straight at the provider (not through the bot); its order id. */
export async function orderTestDomain(api: PartnerApi, name: string): Promise<number> {
  const [zone] = (await api.listDomainZones()).filter((z) => z.name === 'com');
  const created = await api.createDomainOrder({
    period_unit_count: 1,
    currency_id: 1,
    tariff_id: zone?.actual_registration_tariff_id ?? 0,
    domain: name,
    ...CONTACTS,
    natural_person_requisites: NATURAL_PERSON,
  });
  if (created.order_id === undefined) throw new Error('the sandbox created no order');
  return created.order_id;
}

/**
 * A person as a saved customer keeps him (answers by step id, as the app's form saves them): all
 * a hosting or mail order needs, and no WHOIS data (a .by domain asks the passport besides).
 */
export const SAVED_PERSON = {
  customerType: 'natural',
  'c:last_name': 'Иванов',
  'c:first_name': 'Иван',
  'c:middle_name': null,
  'c:address.country_code': 'BY',
  'c:address.postal_code': '220030',
  'c:address.region': 'Минская',
  'c:address.city': 'Минск',
  'c:address.street': 'ул. Немига',
  'c:address.building': '5',
  'c:address.room': null,
  phone: '+375291234567',
  email: 'ivanov@example.by',
};

/**
 * The second partner's token on the harness's sandbox (`h.secondToken`, `h.connectSecond()`): its
 * own world, ids and domains unlike the first's (SECOND_PARTNER: orders 11001–11004, invoices
 * 15001–15004, domains studio-b.by and studio-b.com).
 */
export const SECOND_TOKEN = 'second-partner-token';
export { SECOND_PARTNER } from '../../src/sandbox/seed.js';
