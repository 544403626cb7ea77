import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  parseDomainList,
  readTypedDomain,
  toAsciiDomain,
  toUnicodeDomain,
} from '../../src/core/domain-names.js';

/** A label of [a-z0-9-], 1–63 characters, neither starting nor ending with '-', not punycode. */
const labelArb = fc
  .stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/)
  .filter((label) => label.length <= 63 && !label.startsWith('xn--'));
/** A top-level label: letters, as real TLDs are (all digits would be an IP address). */
const tldArb = fc.stringMatching(/^[a-z]{2,63}$/).filter((label) => label.length <= 63);
const hostnameArb = fc
  .tuple(fc.array(labelArb, { minLength: 1, maxLength: 5 }), tldArb)
  .map(([labels, tld]) => [...labels, tld].join('.'))
  .filter((name) => name.length <= 253);

const CYRILLIC = [
  ['пример.бел', 'xn--e1afmkfd.xn--90ais'],
  ['пример.рф', 'xn--e1afmkfd.xn--p1ai'],
  ['домен.бел', 'xn--d1acufc.xn--90ais'],
  ['мой-сайт.by', 'xn----8sbzclmxk.by'],
] as const;

describe('toAsciiDomain', () => {
  it('returns a valid ASCII hostname lower-cased, with or without a trailing dot', () => {
    fc.assert(
      fc.property(fc.mixedCase(hostnameArb), fc.boolean(), (typed, dot) => {
        expect(toAsciiDomain(dot ? `${typed}.` : typed)).toBe(typed.toLowerCase());
      }),
      { numRuns: 500 },
    );
  });

  it('round-trips valid ASCII hostnames through toUnicodeDomain', () => {
    fc.assert(
      fc.property(hostnameArb, (name) => {
        const ascii = toAsciiDomain(name);
        expect(ascii).toBe(name);
        expect(toUnicodeDomain(ascii ?? '')).toBe(name);
      }),
      { numRuns: 500 },
    );
  });

  it('converts Cyrillic names to punycode and back', () => {
    for (const [unicode, ascii] of CYRILLIC) {
      expect(toAsciiDomain(unicode)).toBe(ascii);
      expect(toAsciiDomain(unicode.toUpperCase())).toBe(ascii);
      expect(toUnicodeDomain(ascii)).toBe(unicode);
      expect(toUnicodeDomain(toAsciiDomain(unicode) ?? '')).toBe(unicode);
      expect(toAsciiDomain(ascii.toUpperCase())).toBe(ascii);
    }
  });

  it('accepts labels up to 63 characters and names up to 253', () => {
    const label63 = 'a'.repeat(63);
    expect(toAsciiDomain(`${label63}.by`)).toBe(`${label63}.by`);
    // 3 × 63 + 61 + 3 dots = 253.
    const name253 = ['a'.repeat(63), 'b'.repeat(63), 'c'.repeat(63), 'd'.repeat(61)].join('.');
    expect(name253).toHaveLength(253);
    expect(toAsciiDomain(name253)).toBe(name253);
    expect(toAsciiDomain(`${name253}.`)).toBe(name253);
  });

  it('refuses what is not a domain name', () => {
    const notDomains = [
      '',
      '   ',
      'localhost',
      'by',
      'not_a_domain',
      'not_a_domain.by',
      '-bad.by',
      'bad-.by',
      'a..b',
      '.by',
      'a.by..',
      '1.2.3.4',
      'example.123',
      `${'a'.repeat(64)}.by`,
      ['a'.repeat(63), 'b'.repeat(63), 'c'.repeat(63), 'd'.repeat(62)].join('.'),
      'exa mple.by',
      'example.by:443',
      'xn--zz.by',
    ];
    for (const text of notDomains) {
      expect(toAsciiDomain(text), text).toBeUndefined();
    }
  });

  it('refuses names whose punycode form is over 253 characters', () => {
    // 227 characters as typed; 257 in punycode, each label still under 63.
    const name = `${['д', 'е', 'ж', 'з'].map((letter) => letter.repeat(55)).join('.')}.бел`;
    expect(name.length).toBeLessThanOrEqual(253);
    expect(toAsciiDomain(name)).toBeUndefined();
    // One letter less per label fits (4 × 60 + 4 dots + 9 = 253).
    const fits = `${['д', 'е', 'ж', 'з'].map((letter) => letter.repeat(54)).join('.')}.бел`;
    expect(toAsciiDomain(fits)?.length).toBeLessThanOrEqual(253);
    expect(toUnicodeDomain(toAsciiDomain(fits) ?? '')).toBe(fits);
  });
});

describe('toUnicodeDomain', () => {
  it('lower-cases and drops a trailing dot', () => {
    expect(toUnicodeDomain('Example.BY.')).toBe('example.by');
    expect(toUnicodeDomain('XN--E1AFMKFD.XN--90AIS')).toBe('пример.бел');
  });
});

describe('parseDomainList', () => {
  it('splits on spaces, commas, semicolons and new lines', () => {
    const text = 'a.by b.by,c.by;d.by\ne.by\r\nf.by\t g.by ,; \n h.by';
    expect(parseDomainList(text)).toEqual({
      valid: ['a.by', 'b.by', 'c.by', 'd.by', 'e.by', 'f.by', 'g.by', 'h.by'],
      invalid: [],
    });
  });

  it('returns nothing for blank input', () => {
    expect(parseDomainList('')).toEqual({ valid: [], invalid: [] });
    expect(parseDomainList(' ,;\n ')).toEqual({ valid: [], invalid: [] });
  });

  it('strips URL schemes, paths, queries, fragments and trailing dots, and lower-cases', () => {
    const text =
      'https://Example.BY/path/to?x=1 http://shop.by?q#top ftp://files.by# News.BY. https://Site.by/';
    expect(parseDomainList(text)).toEqual({
      valid: ['example.by', 'shop.by', 'files.by', 'news.by', 'site.by'],
      invalid: [],
    });
  });

  it('dedupes by the ASCII form and returns Unicode forms in first-seen order', () => {
    const text = 'ПРИМЕР.БЕЛ xn--e1afmkfd.xn--90ais b.by пример.бел. B.BY https://пример.бел/x';
    expect(parseDomainList(text)).toEqual({ valid: ['пример.бел', 'b.by'], invalid: [] });
    expect(parseDomainList('xn--e1afmkfd.xn--90ais')).toEqual({ valid: ['пример.бел'], invalid: [] });
  });

  it('puts non-domains in invalid, as typed, and keeps the valid ones', () => {
    const long = `${'a'.repeat(64)}.by`;
    const tooLong = ['a'.repeat(63), 'b'.repeat(63), 'c'.repeat(63), 'd'.repeat(62)].join('.');
    const text = `ok.by not_a_domain -bad.by a..b 1.2.3.4 localhost ${long} ${tooLong} https://-x.by/p good.бел`;
    expect(parseDomainList(text)).toEqual({
      valid: ['ok.by', 'good.бел'],
      invalid: ['not_a_domain', '-bad.by', 'a..b', '1.2.3.4', 'localhost', long, tooLong, 'https://-x.by/p'],
    });
  });

  it('keeps invalid pieces even when repeated, and never lists one name twice', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(hostnameArb, fc.constantFrom('пример.бел', 'bad_name', 'a..b')), { maxLength: 12 }),
        fc.constantFrom(' ', ',', ';', '\n', ', '),
        (pieces, separator) => {
          const { valid, invalid } = parseDomainList(pieces.join(separator));
          expect(new Set(valid.map((name) => toAsciiDomain(name))).size).toBe(valid.length);
          expect(invalid).toEqual(pieces.filter((piece) => toAsciiDomain(piece) === undefined));
          const expectedValid = [
            ...new Set(pieces.filter((piece) => toAsciiDomain(piece) !== undefined).map(toUnicodeDomain)),
          ];
          expect(valid).toEqual(expectedValid);
        },
      ),
    );
  });
});

describe('a domain as typed', () => {
  it('is read in ASCII with a URL’s scheme, path, query and fragment left out', () => {
    expect(readTypedDomain('https://Магазин.by/cart?x=1#top')).toBe('xn--80aairftm.by');
    expect(readTypedDomain('shop.by')).toBe('shop.by');
    expect(readTypedDomain('not a domain')).toBeUndefined();
  });
});
