/**
 * What people type in a form's country, phone and postal code, read the same by the chat's form
 * and the Mini App's (both hold answers to core's checkField): a country by its name in Russian or
 * English or a common alias as well as its code, a phone as dialled at home, a postal code with a
 * space in it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COUNTRIES, countryCodeOf, countryName, countryOptions } from '../../src/core/countries.js';
import { checkField, type FieldKind, type FieldSpec } from '../../src/core/requisites-fields.js';

const spec = (kind: FieldKind): FieldSpec => ({ path: 'x', kind });
const readAs = (kind: FieldKind, text: string, country?: string) => {
  const checked = checkField(spec(kind), text, { country });
  return checked.ok ? checked.value : undefined;
};

describe('a country typed by its name, an alias or its code', () => {
  it.each([
    ['Беларусь', 'BY'],
    ['беларусь', 'BY'],
    ['  БЕЛАРУСЬ ', 'BY'],
    ['Belarus', 'BY'],
    ['РБ', 'BY'],
    ['Р.Б.', 'BY'],
    ['Республика Беларусь', 'BY'],
    ['Белоруссия', 'BY'],
    ['by', 'BY'],
    ['Россия', 'RU'],
    ['РФ', 'RU'],
    ['Российская Федерация', 'RU'],
    ['Russia', 'RU'],
    ['RU', 'RU'],
    ['Казахстан', 'KZ'],
    ['Германия', 'DE'],
    ['Чехия', 'CZ'],
    ['Czech Republic', 'CZ'],
    ['Великобритания', 'GB'],
    ['UK', 'GB'],
    ['США', 'US'],
    ['Соединённые Штаты Америки', 'US'],
    ['Объединённые Арабские Эмираты', 'AE'],
  ])('%s → %s', (typed, code) => {
    expect(checkField(spec('country'), typed)).toEqual({ ok: true, value: code });
  });

  it('still takes any two Latin letters as a code, and refuses what names no country', () => {
    expect(readAs('country', 'fr')).toBe('FR');
    for (const bad of ['Бе', 'Беларус', 'Атлантида', '😀', 'B', 'BYR1', '-1'])
      expect(checkField(spec('country'), bad), bad).toEqual({ ok: false, reason: 'country' });
  });

  it('reads every name, alias and code of the table as its country, in any case', () => {
    fc.assert(
      fc.property(fc.constantFrom(...COUNTRIES), fc.nat(), fc.boolean(), (country, pick, upper) => {
        const names = [country.code, country.ru, country.en, ...country.aliases];
        const name = names[pick % names.length] ?? country.code;
        const typed = upper ? name.toUpperCase() : name.toLowerCase();
        expect(countryCodeOf(typed)).toBe(country.code);
      }),
    );
  });

  it('has one row per code, and no name or alias that names two countries', () => {
    const codes = COUNTRIES.map((c) => c.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of ['BY', 'RU', 'UA', 'KZ', 'UZ', 'KG', 'TJ', 'TM', 'AM', 'AZ', 'GE', 'MD'])
      expect(codes, code).toContain(code);
    const eu = 'AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE';
    for (const code of eu.split(' ')) expect(codes, code).toContain(code);
    for (const country of COUNTRIES)
      for (const name of [country.ru, country.en, ...country.aliases])
        expect(countryCodeOf(name), name).toBe(country.code);
  });

  it('lists the choices Belarus and Russia first, then by name in the language asked', () => {
    const ru = countryOptions('ru');
    expect(ru.slice(0, 2)).toEqual([
      { value: 'BY', label: 'Беларусь' },
      { value: 'RU', label: 'Россия' },
    ]);
    const rest = ru.slice(2).map((o) => o.label);
    expect(rest).toEqual([...rest].sort((a, b) => a.localeCompare(b, 'ru')));
    expect(ru).toHaveLength(COUNTRIES.length);
    expect(countryOptions('en')[0]).toEqual({ value: 'BY', label: 'Belarus' });
    expect(countryName('DE', 'ru')).toBe('Германия');
    expect(countryName('XX', 'ru')).toBeUndefined();
  });
});

describe('a phone as dialled at home', () => {
  it.each([
    ['8 029 123 45 67', '+375291234567'],
    ['8 (029) 123-45-67', '+375291234567'],
    ['(029) 123-45-67', '+375291234567'],
    ['029 1234567', '+375291234567'],
    ['8 017 200-00-00', '+375172000000'],
    ['375 29 123 45 67', '+375291234567'],
    ['+375 (29) 123-45-67', '+375291234567'],
    ['8 912 345-67-89', '+79123456789'],
    ['8 (495) 123-45-67', '+74951234567'],
    ['7 912 345 67 89', '+79123456789'],
    ['+7 912 345-67-89', '+79123456789'],
    ['+48 22 123 45 67', '+48221234567'],
    ['0048 22 123 45 67', '+48221234567'],
  ])('%s → %s', (typed, phone) => {
    expect(checkField(spec('phone'), typed)).toEqual({ ok: true, value: phone });
  });

  it('refuses what is no phone', () => {
    for (const bad of [
      '+0123456',
      '+12345',
      '-1',
      '😀',
      '1234567',
      '8 029 123 45',
      '+375 29 123 45 67 89 01 23',
    ])
      expect(checkField(spec('phone'), bad), bad).toEqual({ ok: false, reason: 'phone' });
  });

  const separated = (digits: string) =>
    fc
      .array(fc.constantFrom('', ' ', '-', ' ', '\u00A0'), {
        minLength: digits.length,
        maxLength: digits.length,
      })
      .map((seps) => [...digits].map((d, i) => d + (seps[i] ?? '')).join(''));
  /** A Belarusian number without its code: a two-digit area or operator code and seven digits. */
  const byNumber = fc.stringMatching(/^[1-4]\d{8}$/);
  /** A Russian one: ten digits, the first an area's or an operator's (3 to 9). */
  const ruNumber = fc.stringMatching(/^[3-9]\d{9}$/);

  it('reads a Belarusian number the same in every form it is written', () => {
    fc.assert(
      fc.property(
        byNumber.chain((n) =>
          fc.tuple(
            fc.constant(n),
            fc.constantFrom('+375', '375', '80', '0').chain((p) => separated(p + n)),
          ),
        ),
        ([number, typed]) => {
          expect(readAs('phone', typed)).toBe(`+375${number}`);
        },
      ),
    );
  });

  it('reads a Russian number the same in every form it is written', () => {
    fc.assert(
      fc.property(
        ruNumber.chain((n) =>
          fc.tuple(
            fc.constant(n),
            fc.constantFrom('+7', '7', '8').chain((p) => separated(p + n)),
          ),
        ),
        ([number, typed]) => {
          expect(readAs('phone', typed)).toBe(`+7${number}`);
        },
      ),
    );
  });

  it('gives a phone in international form that reads again as itself', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0123456789+() -'), maxLength: 20 }), (typed) => {
        const phone = readAs('phone', typed);
        if (phone === undefined) return;
        expect(phone).toMatch(/^\+[1-9]\d{6,14}$/);
        expect(readAs('phone', String(phone))).toBe(phone);
      }),
    );
  });
});

describe('a postal code typed with a space', () => {
  it.each([
    ['220 030', 'BY', '220030'],
    ['125 009', 'RU', '125009'],
    ['10 115', 'DE', '10115'],
    ['00 950', 'PL', '00-950'],
    ['LT 01100', 'LT', 'LT-01100'],
    ['LV 1050', 'LV', 'LV-1050'],
    ['SW1A 1AA', 'GB', 'SW1A 1AA'],
  ])('%s in %s → %s', (typed, country, code) => {
    expect(checkField(spec('postalCode'), typed, { country })).toEqual({ ok: true, value: code });
  });

  it('reads a Belarusian or Russian code the same however its digits are spaced', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^\d{6}$/),
        fc.constantFrom('BY', 'RU', 'KZ'),
        fc.array(fc.constantFrom('', ' '), { minLength: 5, maxLength: 5 }),
        (code, country, spaces) => {
          const typed = [...code].map((d, i) => d + (spaces[i] ?? '')).join('');
          expect(readAs('postalCode', typed, country)).toBe(code);
        },
      ),
    );
  });

  it('still refuses a code of the wrong length, spaced or not', () => {
    for (const bad of ['220 03', '2200 300', '22 0 03 0 0'])
      expect(readAs('postalCode', bad, 'BY'), bad).toBeUndefined();
  });
});
