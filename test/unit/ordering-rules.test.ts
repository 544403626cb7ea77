import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildFromAnswers,
  CUSTOMER_TYPES,
  type CustomerType,
  customerFields,
  looksLikeCsr,
  whoisBlocks,
  whoisFields,
} from '../../src/core/requisites.js';
import { checkField } from '../../src/core/requisites-fields.js';
import { findZone, whoisRulesOf, zonePeriods } from '../../src/core/zones.js';
import { CSR_PEM } from '../helpers/fixtures.js';

const zone = (name: string, min = 1, max = 10) => ({ name, min_period: min, max_period: max });
const ZONES = ['by', 'бел', 'com.by', 'ru', 'su', 'рф', 'com', 'eu'].map((n) => zone(n));

describe('zone by longest suffix', () => {
  it.each([
    ['example.by', 'by'],
    ['shop.com.by', 'com.by'],
    ['пример.бел', 'бел'],
    ['xn--e1afmkfd.xn--90ais', 'бел'],
    ['ПРИМЕР.РФ', 'рф'],
    ['sub.domain.com', 'com'],
    ['example.org', undefined],
    ['by', undefined],
  ])('%s → %s', (domain, expected) => {
    expect(findZone(domain, ZONES)?.name).toBe(expected);
  });

  it('offers the periods from min to max', () => {
    expect(zonePeriods(zone('ru', 1, 1))).toEqual([1]);
    expect(zonePeriods(zone('by', 1, 10))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
});

/** What partner-api.md asks per zone and customer type (the table the bot must follow). */
const EXPECTED: Record<string, { rules: 'by' | 'ru' | 'none' }> = {
  by: { rules: 'by' },
  бел: { rules: 'by' },
  'com.by': { rules: 'none' },
  ru: { rules: 'ru' },
  su: { rules: 'ru' },
  рф: { rules: 'ru' },
  com: { rules: 'none' },
  eu: { rules: 'none' },
};

describe('WHOIS blocks per zone × customer type', () => {
  const cases = Object.keys(EXPECTED).flatMap((z) => CUSTOMER_TYPES.map((type) => [z, type] as const));

  it.each(cases)('%s, %s', (zoneName, type: CustomerType) => {
    const rules = whoisRulesOf(zoneName);
    expect(rules).toBe(EXPECTED[zoneName]?.rules);
    const blocks = whoisBlocks(rules, type);
    const fields = whoisFields(rules, type).map((f) => f.path);
    if (rules === 'none') {
      expect(blocks).toEqual([]);
      expect(fields).toEqual([]);
      return;
    }
    const person = type === 'natural' || type === 'businessman';
    const company = type === 'juridical' || type === 'businessman';
    expect(blocks.includes('person')).toBe(person);
    expect(blocks.includes('company')).toBe(company);
    const has = (field: string) => fields.includes(field);
    expect(has('whois_person_requisites.citizenship')).toBe(person);
    expect(has('whois_person_requisites.date_of_birth')).toBe(person && rules === 'ru');
    for (const byOnly of [
      'registration_number',
      'registration_organization',
      'registration_issue_date',
      'is_government_company',
    ]) {
      expect(has(`whois_company_requisites.${byOnly}`)).toBe(company && rules === 'by');
    }
    for (const ruOnly of ['inn', 'kpp', 'ogrn']) {
      expect(has(`whois_company_requisites.${ruOnly}`)).toBe(company && rules === 'ru');
    }
  });
});

describe('typed values', () => {
  const spec = (kind: Parameters<typeof checkField>[0]['kind'], lengths?: number[]) => ({
    path: 'x',
    kind,
    ...(lengths ? { lengths } : {}),
  });

  it('normalises phones to + and digits, a Belarusian one dialled at home too', () => {
    expect(checkField(spec('phone'), '+375 (29) 123-45-67')).toEqual({ ok: true, value: '+375291234567' });
    expect(checkField(spec('phone'), '80291234567')).toEqual({ ok: true, value: '+375291234567' });
    expect(checkField(spec('phone'), '+0123456')).toEqual({ ok: false, reason: 'phone' });
  });

  it('checks e-mail, dates, country codes and digit counts', () => {
    expect(checkField(spec('email'), 'a@b.by').ok).toBe(true);
    expect(checkField(spec('email'), 'a@b').ok).toBe(false);
    expect(checkField(spec('date'), '29.02.2024').ok).toBe(true);
    expect(checkField(spec('date'), '29.02.2025').ok).toBe(false);
    expect(checkField(spec('country'), 'by')).toEqual({ ok: true, value: 'BY' });
    expect(checkField(spec('country'), 'BLR')).toEqual({ ok: true, value: 'BY' });
    expect(checkField(spec('country'), 'BYR').ok).toBe(false);
    expect(checkField(spec('digits', [10, 12]), '7707 083 893')).toEqual({ ok: true, value: '7707083893' });
    expect(checkField(spec('digits', [10, 12]), '77070838931').ok).toBe(false);
  });

  it('refuses empty and over-long text whatever it is', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('text', 'email', 'phone', 'date', 'country', 'digits'),
        fc.nat({ max: 5 }),
        (kind, n) => {
          const blank = ' '.repeat(n);
          return (
            checkField(spec(kind as 'text'), blank).ok === false &&
            checkField(spec(kind as 'text'), 'x'.repeat(256)).ok === false
          );
        },
      ),
    );
  });
});

describe('request blocks from answers', () => {
  it('leaves skipped fields out, but sends required-yet-empty ones as empty strings', () => {
    const fields = customerFields('natural');
    const block = buildFromAnswers(fields, {
      last_name: 'Иванов',
      first_name: 'Иван',
      middle_name: null,
      'address.postal_code': '220030',
      'address.country_code': 'BY',
      'address.region': 'Минская',
      'address.city': 'Минск',
      'address.street': 'Независимости',
      'address.building': '4',
      'address.room': null,
    });
    expect(block).toEqual({
      last_name: 'Иванов',
      first_name: 'Иван',
      middle_name: '',
      address: {
        postal_code: '220030',
        country_code: 'BY',
        region: 'Минская',
        city: 'Минск',
        street: 'Независимости',
        building: '4',
        room: '',
      },
    });
  });
});

describe('CSR', () => {
  it('accepts a PEM certificate request and refuses anything else', () => {
    expect(looksLikeCsr(CSR_PEM)).toBe(true);
    expect(looksLikeCsr(CSR_PEM.replace('REQUEST', 'REQUESTS'))).toBe(false);
    expect(looksLikeCsr('-----BEGIN CERTIFICATE REQUEST-----\nabc\n-----END CERTIFICATE REQUEST-----')).toBe(
      false,
    );
    expect(looksLikeCsr('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----')).toBe(false);
  });
});
