import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CUSTOMER_TYPES,
  customerFields,
  POSTAL_ADDRESS_FIELDS,
  REQUISITES_BLOCK,
  whoisFields,
} from '../../src/core/requisites.js';
import { type Checksum, controlDigitsHold } from '../../src/core/requisites-control-digits.js';
import { checkField, type FieldKind, type FieldSpec } from '../../src/core/requisites-fields.js';
import { normalizeTyped } from '../../src/core/text.js';

const spec = (kind: FieldKind, extra: Partial<FieldSpec> = {}): FieldSpec => ({ path: 'x', kind, ...extra });
const field = (fields: FieldSpec[], path: string): FieldSpec => {
  const found = fields.find((f) => f.path === path);
  if (!found) throw new Error(`no field ${path}`);
  return found;
};
const accepts = (s: FieldSpec, text: string, country?: string) => checkField(s, text, { country }).ok;

/** Characters that show nothing, and spaces of every kind. */
const INVISIBLE = [
  '\u200B',
  '\u200C',
  '\u200D',
  '\u2060',
  '\uFEFF',
  '\u00AD',
  '\u200E',
  '\u00A0',
  ' ',
  '\t',
  '\n',
  '\u3000',
];
const ALL_KINDS: FieldKind[] = [
  'text',
  'name',
  'code',
  'email',
  'phone',
  'date',
  'country',
  'digits',
  'postalCode',
  'swift',
  'iban',
];

describe('typed input is normalized before any check', () => {
  it('counts an answer of invisible characters and spaces as empty, for every kind of field', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...INVISIBLE), minLength: 1 }),
        fc.constantFrom(...ALL_KINDS),
        (text, kind) => {
          expect(normalizeTyped(text)).toBe('');
          expect(checkField(spec(kind), text)).toEqual({ ok: false, reason: 'empty' });
        },
      ),
    );
  });

  it('drops invisible characters inside a value and makes spaces plain', () => {
    expect(normalizeTyped('Ива\u200Bнов\u2060')).toBe('Иванов');
    expect(normalizeTyped('\uFEFFул.\u00A0Ленина\n 1 ')).toBe('ул. Ленина 1');
    expect(checkField(spec('name'), '\u200BИванов\u200D')).toEqual({ ok: true, value: 'Иванов' });
    expect(checkField(spec('digits', { lengths: [9] }), '190\u200B123\u00A0455')).toEqual({
      ok: true,
      value: '190123455',
    });
  });
});

describe('УНП, ИНН, КПП, ОГРН', () => {
  const ucn = field(customerFields('juridical'), 'ucn');
  const ruCompany = (type: 'businessman' | 'juridical') => whoisFields('ru', type);

  it('takes УНП as exactly 9 digits and says so with an example', () => {
    expect(checkField(ucn, '190123455')).toEqual({ ok: true, value: '190123455' });
    expect(checkField(ucn, ' 190 123 455 ')).toEqual({ ok: true, value: '190123455' });
    for (const bad of [
      '😀',
      '-1',
      '1; DROP TABLE orders; --',
      "' OR '1'='1",
      '19012345',
      '1901234567',
      '19O123456',
      '+190123455',
    ]) {
      expect(checkField(ucn, bad), bad).toEqual({
        ok: false,
        reason: 'digits',
        params: { lengths: [9], example: '190123455' },
      });
    }
    expect(field(customerFields('businessman'), 'ucn')).toEqual(ucn);
    // Nine digits with a typo: the control digit says so.
    expect(checkField(ucn, '190123456')).toEqual({
      ok: false,
      reason: 'checksum',
      params: { lengths: [9], example: '190123455' },
    });
  });

  it('takes a 10-digit ИНН and 13-digit ОГРН of an organisation, 12 and 15 of a businessman, a 9-digit КПП', () => {
    const juridical = ruCompany('juridical');
    const businessman = ruCompany('businessman');
    const inn = 'whois_company_requisites.inn';
    const ogrn = 'whois_company_requisites.ogrn';
    const kpp = 'whois_company_requisites.kpp';
    expect(accepts(field(juridical, inn), '7707083893')).toBe(true);
    expect(accepts(field(juridical, inn), '500100732259')).toBe(false);
    expect(accepts(field(businessman, inn), '500100732259')).toBe(true);
    expect(accepts(field(businessman, inn), '7707083893')).toBe(false);
    expect(accepts(field(juridical, ogrn), '1027700132195')).toBe(true);
    expect(accepts(field(juridical, ogrn), '304500116000157')).toBe(false);
    expect(accepts(field(businessman, ogrn), '304500116000157')).toBe(true);
    expect(accepts(field(businessman, ogrn), '1027700132195')).toBe(false);
    expect(accepts(field(juridical, kpp), '770701001')).toBe(true);
    expect(accepts(field(juridical, kpp), '77070100')).toBe(false);
    expect(field(businessman, kpp).optional).toBe(true);
  });

  it('reads УНП, ИНН, КПП and ОГРН typed after their name or with spaces inside as the number', () => {
    const juridical = ruCompany('juridical');
    const ogrnip = field(ruCompany('businessman'), 'whois_company_requisites.ogrn');
    const cases: [FieldSpec, string, string[]][] = [
      [
        ucn,
        '591705582',
        [
          'УНП 591705582',
          'УНП: 591705582',
          'UNP 591705582',
          'unp591705582',
          '591 705 582',
          'УНП 591 705 582',
          'унп № 591705582',
          'UCN: 591705582',
        ],
      ],
      [
        field(juridical, 'whois_company_requisites.inn'),
        '7707083893',
        ['ИНН 7707083893', 'ИНН: 7707083893', 'INN 7707083893', 'inn7707083893', '770 708 3893'],
      ],
      [field(juridical, 'whois_company_requisites.kpp'), '770701001', ['КПП 770701001', 'kpp: 770 701 001']],
      [
        field(juridical, 'whois_company_requisites.ogrn'),
        '1027700132195',
        ['ОГРН 1027700132195', 'OGRN: 1027700132195', 'огрн1027700132195', '1 027 700 132 195'],
      ],
      [
        ogrnip,
        '304500116000157',
        ['ОГРНИП 304500116000157', 'ОГРНИП: 304 500 116 000 157', 'ogrnip304500116000157'],
      ],
    ];
    for (const [spec, number, typed] of cases) {
      for (const text of typed) expect(checkField(spec, text), text).toEqual({ ok: true, value: number });
    }
  });

  it('drops only the name of the field’s own register, and only before digits', () => {
    const inn = field(ruCompany('juridical'), 'whois_company_requisites.inn');
    for (const text of [
      'ИНН 591705582',
      'КПП: 591705582',
      'УНПП 591705582',
      'номер 591705582',
      'УНП',
      'УНП: abc',
    ]) {
      expect(checkField(ucn, text), text).toMatchObject({ ok: false, reason: 'digits' });
    }
    expect(checkField(inn, 'УНП 7707083893')).toMatchObject({ ok: false, reason: 'digits' });
    // A field of no register keeps refusing letters.
    expect(checkField(spec('digits', { lengths: [9] }), 'УНП 591705582')).toMatchObject({ ok: false });
  });

  it('never takes anything but digits as a digit field', () => {
    fc.assert(
      fc.property(
        fc
          .string({ minLength: 1, maxLength: 20 })
          .filter((s) =>
            /[^\d\s\u200B-\u200D\u2060\uFEFF\u00AD\u180E\u200E-\u200F\u202A-\u202E\u2061-\u2064\u2066-\u206F]/.test(
              s,
            ),
          ),
        fc.constantFrom(9, 10, 12, 13, 15),
        (text, length) => {
          expect(checkField(spec('digits', { lengths: [length] }), text).ok).toBe(false);
        },
      ),
    );
  });
});

describe('postal codes by country', () => {
  const postal = spec('postalCode');

  it.each([
    ['BY', ['220030'], ['22003', '2200300', '22O030']],
    ['RU', ['125009'], ['12500', '125-009']],
    ['KZ', ['050000'], ['05000']],
    ['UA', ['01001'], ['010010']],
    ['DE', ['10115'], ['1011', '101155']],
    ['PL', ['00-950'], ['00950', '0-0950']],
    ['LT', ['LT-01100', '01100', 'lt-01100'], ['LT01100', 'LT-0110']],
    ['LV', ['LV-1050', 'lv-1050'], ['1050', 'LV1050', 'LV-105']],
    ['US', ['10001', '10001-1234'], ['1000', '10001-123', '100011234']],
    ['GB', ['SW1A 1AA', 'sw1a 1aa'], ['S', 'SW1A 1AA 1AA', '-SW1A']],
    ['NL', ['1234 AB'], ['12', '1234_AB']],
  ] as const)('%s', (country, good, bad) => {
    for (const code of good)
      expect(checkField(postal, code, { country }), code).toEqual({ ok: true, value: code.toUpperCase() });
    for (const code of bad) expect(accepts(postal, code, country), code).toBe(false);
  });

  it('says the form of the country and gives an example', () => {
    expect(checkField(postal, '-1', { country: 'BY' })).toEqual({
      ok: false,
      reason: 'postalCode',
      params: { postalForm: 'digits6', country: 'BY', example: '220030' },
    });
    expect(checkField(postal, '-1', { country: 'FR' })).toEqual({
      ok: false,
      reason: 'postalCode',
      params: { postalForm: 'other', country: 'FR' },
    });
    expect(checkField(postal, '-1')).toEqual({
      ok: false,
      reason: 'postalCode',
      params: { postalForm: 'other' },
    });
  });

  it('never takes emoji, SQL or a negative number, whatever the country', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('BY', 'RU', 'KZ', 'UA', 'PL', 'LT', 'LV', 'DE', 'US', 'FR', undefined),
        fc.constantFrom('😀', '-1', "' OR 1=1 --", '1; DROP TABLE x', '<b>', '220030😀', '—'),
        (country, code) => {
          expect(accepts(postal, code, country)).toBe(false);
        },
      ),
    );
  });

  it('asks the country of an address before its postal code', () => {
    const lists = [...CUSTOMER_TYPES.map((type) => customerFields(type)), POSTAL_ADDRESS_FIELDS];
    for (const fields of lists) {
      const postalAt = fields.findIndex((f) => f.path.endsWith('.postal_code'));
      expect(postalAt).toBeGreaterThan(0);
      expect(fields[postalAt]?.kind).toBe('postalCode');
      expect(fields[postalAt - 1]?.path).toMatch(/\.country_code$/);
    }
  });
});

describe('dates', () => {
  const now = new Date(Date.UTC(2026, 5, 15, 12));
  const past = spec('date', { past: true });

  it('takes only dates that exist, as DD.MM.YYYY', () => {
    expect(accepts(spec('date'), '29.02.2024')).toBe(true);
    for (const bad of ['29.02.2025', '31.04.2020', '00.01.2020', '1.1.2020', '2020-01-01', '-1', '😀']) {
      expect(checkField(spec('date'), bad), bad).toEqual({ ok: false, reason: 'date' });
    }
  });

  it('refuses a birth or issue date in the future or before 1900, and takes today in any time zone', () => {
    expect(checkField(past, '15.06.2026', { now })).toEqual({ ok: true, value: '15.06.2026' });
    // Already the 16th east of UTC+12.
    expect(checkField(past, '16.06.2026', { now })).toEqual({ ok: true, value: '16.06.2026' });
    expect(checkField(past, '17.06.2026', { now })).toEqual({ ok: false, reason: 'pastDate' });
    expect(checkField(past, '01.01.2100', { now })).toEqual({ ok: false, reason: 'pastDate' });
    expect(checkField(past, '31.12.1899', { now })).toEqual({ ok: false, reason: 'pastDate' });
    expect(checkField(past, '01.01.1900', { now }).ok).toBe(true);
    const person = whoisFields('ru', 'natural');
    for (const path of ['whois_person_requisites.date_of_birth', 'whois_person_requisites.date_of_issue']) {
      expect(field(person, path).past, path).toBe(true);
    }
    expect(
      field(whoisFields('by', 'juridical'), 'whois_company_requisites.registration_issue_date').past,
    ).toBe(true);
  });
});

describe('contacts, bank, names and free text', () => {
  it('takes a phone in international form, or as dialled at home in Belarus', () => {
    expect(checkField(spec('phone'), '+375 (29) 123-45-67')).toEqual({ ok: true, value: '+375291234567' });
    expect(checkField(spec('phone'), '80291234567')).toEqual({ ok: true, value: '+375291234567' });
    for (const bad of ['+0123456', '+12345', '-1', '😀', '+375 29 123 45 67 89 01 23']) {
      expect(accepts(spec('phone'), bad), bad).toBe(false);
    }
  });

  it('takes an e-mail address with a real domain, Cyrillic domains too', () => {
    for (const good of [
      'ivan@example.by',
      'i.van+shop@mail.example.com',
      'info@пример.бел',
      'a@xn--90ais.xn--90ais',
    ]) {
      expect(accepts(spec('email'), good), good).toBe(true);
    }
    for (const bad of [
      'ivan@',
      'a@b',
      'a@b.c',
      '.a@b.by',
      'a..b@c.by',
      'a@-b.by',
      'a b@c.by',
      "x'; DROP TABLE t;--@",
      '😀@a.by',
      'a@b.1',
    ]) {
      expect(accepts(spec('email'), bad), bad).toBe(false);
    }
  });

  it('checks SWIFT/BIC by form and IBAN by its check digits', () => {
    expect(checkField(spec('swift'), 'akbb by2x')).toEqual({ ok: true, value: 'AKBBBY2X' });
    expect(accepts(spec('swift'), 'AKBBBY2XXXX')).toBe(true);
    expect(accepts(spec('swift'), 'AKBB1Y2X')).toBe(false);
    expect(checkField(spec('iban'), 'by86 akbb 1010 0000 0029 6600 0000')).toEqual({
      ok: true,
      value: 'BY86AKBB10100000002966000000',
    });
    expect(accepts(spec('iban'), 'BY87AKBB10100000002966000000')).toBe(false);
    expect(accepts(spec('iban'), 'DE89370400440532013000')).toBe(true);
    expect(accepts(spec('iban'), 'DE89370400440532013001')).toBe(false);
  });

  it('takes names of letters with hyphens, apostrophes and spaces, not digits or emoji', () => {
    for (const good of ['Иванов', 'Анна-Мария', "O'Brien", 'де ла Круз', 'Jr.', 'J. R.', 'Ёлкин']) {
      expect(accepts(spec('name'), good), good).toBe(true);
    }
    for (const bad of ['-1', '😀', 'Иванов 2', 'Иван😀', "'; DROP TABLE x; --", '--', 'Ivan--Petrov']) {
      expect(accepts(spec('name'), bad), bad).toBe(false);
    }
  });

  it('refuses an emoji-only last name, also emoji Unicode files as letters (ℹ️) and invisible fillers', () => {
    const lastName = field(customerFields('natural'), 'last_name');
    for (const bad of ['ℹ️', 'ℹ', 'ℹ️ℹ️', 'Ⓜ️', '😀😀', '👨‍👩‍👧', '🇧🇾', 'ㅤ', 'ㅤㅤ', 'ᅟ']) {
      expect(checkField(lastName, bad), bad).toMatchObject({ ok: false });
    }
    expect(checkField(lastName, 'Иванов')).toEqual({ ok: true, value: 'Иванов' });
    // A document series made of an emoji is no series either.
    const series = field(whoisFields('by', 'natural'), 'whois_person_requisites.series');
    expect(checkField(series, 'ℹ️').ok).toBe(false);
  });

  it('takes document codes and free text with letters or digits, never emoji alone', () => {
    for (const good of ['MP', '1234567', '3140580A001PB1', 'MP 1234567', '45 10', 'AB-12/3']) {
      expect(accepts(spec('code'), good), good).toBe(true);
    }
    for (const bad of ['-1', '😀', '#1', '1;2']) expect(accepts(spec('code'), bad), bad).toBe(false);
    for (const good of ['ООО «Ромашка»', 'ул. Ленина', '10к2', '-1'])
      expect(accepts(spec('text'), good), good).toBe(true);
    for (const bad of ['😀', '—', '...', 'ООО 😀', 'a\u0007b'])
      expect(accepts(spec('text'), bad), bad).toBe(false);
  });
});

describe('the request block of each customer type', () => {
  it('is its own block, named as partner-api.md names it', () => {
    expect(CUSTOMER_TYPES.map((type) => REQUISITES_BLOCK[type])).toEqual([
      'natural_person_requisites',
      'individual_businessman_requisites',
      'juridical_person_requisites',
    ]);
  });
});

describe('control digits', () => {
  const valid: [Checksum, string][] = [
    ['unp', '190123455'],
    ['unp', '100582333'],
    ['inn', '7707083893'],
    ['inn', '500100732259'],
    ['ogrn', '1027700132195'],
    ['ogrn', '304500116000157'],
  ];

  it.each(valid)('%s %s holds', (kind, number) => {
    expect(controlDigitsHold(kind, number)).toBe(true);
  });

  it('catches every single mistyped digit of the УНП and ИНН examples', () => {
    for (const [kind, number] of valid) {
      for (let i = 0; i < number.length; i++) {
        for (let digit = 0; digit <= 9; digit++) {
          if (String(digit) === number[i]) continue;
          const typo = `${number.slice(0, i)}${digit}${number.slice(i + 1)}`;
          // ОГРН's mod 11 then mod 10 lets one digit in eleven through at the last place; the
          // weighted sums catch every single typo.
          if (kind === 'ogrn') continue;
          expect(controlDigitsHold(kind, typo), `${kind} ${typo}`).toBe(false);
        }
      }
    }
  });

  it('refuses a УНП whose control sum is 10 (none is issued), and a wrong length', () => {
    // 19200000 weighs to 10 mod 11: no ninth digit can follow it.
    for (let last = 0; last <= 9; last++) expect(controlDigitsHold('unp', `19200000${last}`)).toBe(false);
    expect(controlDigitsHold('inn', '77070838931')).toBe(false);
    expect(controlDigitsHold('ogrn', '10277001321950')).toBe(false);
  });

  it('ИНН and ОГРН with a typo are refused in words, with the right example', () => {
    const inn = field(whoisFields('ru', 'juridical'), 'whois_company_requisites.inn');
    const ogrnip = field(whoisFields('ru', 'businessman'), 'whois_company_requisites.ogrn');
    expect(checkField(inn, '7707083894')).toMatchObject({ ok: false, reason: 'checksum' });
    expect(checkField(inn, '7707083893')).toEqual({ ok: true, value: '7707083893' });
    expect(checkField(ogrnip, '304500116000158')).toMatchObject({
      ok: false,
      reason: 'checksum',
      params: { example: '304500116000157' },
    });
  });
});

describe('the first digit of ОГРН and ОГРНИП', () => {
  const ogrn = field(whoisFields('ru', 'juridical'), 'whois_company_requisites.ogrn');
  const ogrnip = field(whoisFields('ru', 'businessman'), 'whois_company_requisites.ogrn');
  /** The number after `head` with its control digit (ОГРН mod 11, ОГРНИП mod 13, then mod 10). */
  const withControlDigit = (head: string) =>
    `${head}${(BigInt(head) % (head.length === 12 ? 11n : 13n)) % 10n}`;

  it('takes an organisation’s ОГРН starting with 1 or 5 and an entrepreneur’s ОГРНИП starting with 3', () => {
    for (const number of ['1027700132195', withControlDigit('502770013219')]) {
      expect(checkField(ogrn, number), number).toEqual({ ok: true, value: number });
    }
    expect(checkField(ogrnip, '304500116000157')).toEqual({ ok: true, value: '304500116000157' });
  });

  it('refuses a number whose first digit no register gives such a number, though its control digit holds', () => {
    for (const first of '02346789') {
      const number = withControlDigit(`${first}02770013219`);
      expect(controlDigitsHold('ogrn', number)).toBe(true);
      expect(checkField(ogrn, number), number).toEqual({
        ok: false,
        reason: 'ogrnFirstDigit',
        params: { lengths: [13], example: '1027700132195', firstDigit: first },
      });
    }
    for (const first of '012456789') {
      const number = withControlDigit(`${first}0450011600015`);
      expect(controlDigitsHold('ogrn', number)).toBe(true);
      expect(checkField(ogrnip, number), number).toEqual({
        ok: false,
        reason: 'ogrnipFirstDigit',
        params: { lengths: [15], example: '304500116000157', firstDigit: first },
      });
    }
  });

  it('names the first digit before the control digit: a ГРН is no ОГРН even with a typo in it', () => {
    expect(checkField(ogrn, '2027700132195')).toMatchObject({ ok: false, reason: 'ogrnFirstDigit' });
    // ИНН and УНП carry no such sign.
    expect(checkField(field(customerFields('juridical'), 'ucn'), '591705582')).toEqual({
      ok: true,
      value: '591705582',
    });
  });
});
