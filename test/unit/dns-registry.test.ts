import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeRecord } from '../../src/bot/features/dns/views.js';
import { loadTranslations } from '../../src/bot/kit/i18n.js';
import { formatDnsLine, parseDnsLine } from '../../src/core/dns-line.js';
import {
  DNS_RECORD_TYPES,
  DNS_TYPES,
  type DnsRecordData,
  type DnsType,
  sameRecord,
  sameRecordKey,
} from '../../src/core/dns-records.js';
import { describeSkipReason } from '../../src/core/dns-words.js';
import { isApexNs } from '../../src/core/zone-provider.js';
import { importZone, type SkipReason } from '../../src/core/zone-reader.js';
import { exportZone } from '../../src/core/zone-writer.js';
import { hostArbitrary, recordArbitrary, relativeName } from '../helpers/dns-arbitraries.js';

/*
 * The registry's promise: whatever a record type's descriptor says, each of its renderings reads
 * back as the same record, and equality is one relation whichever form the records went through.
 */

const DOMAINS = ['example.com', 'пример.бел'] as const;

const txtArb = fc
  .oneof(
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 200 }),
    fc.string({ unit: fc.constantFrom('ж', 'a', '"', '\\', ';', '(', ' ', '\t', 'é', '='), maxLength: 80 }),
    fc.constantFrom('v=spf1 -all', '"already quoted"', 'ends with ttl=300', 'ttl=5 first', 'number 300'),
  )
  .filter((text) => text.trim() !== '' && text.length <= 4000);

const anyRecord = recordArbitrary({
  host: hostArbitrary(fc.constantFrom('www', '_dmarc', 'mail._domainkey', 'in', 'mx')),
  srvHost: fc.oneof(fc.constant('@'), relativeName),
  text: txtArb,
});
const recordOf = (type: DnsType): fc.Arbitrary<DnsRecordData> => anyRecord.filter((r) => r.type === type);

/** The record a one-line rendering reads back as. */
function viaLine(record: DnsRecordData): DnsRecordData {
  const parsed = parseDnsLine(formatDnsLine(record));
  if (!parsed.ok) throw new Error(`${formatDnsLine(record)}: ${parsed.field} ${parsed.reason}`);
  return parsed.record;
}

/** The record a BIND rendering reads back as (exactly one, nothing skipped). */
function viaBind(record: DnsRecordData, domain: string): DnsRecordData {
  const imported = importZone(exportZone(domain, [record]), domain);
  expect(imported.unsupported).toEqual([]);
  expect(imported.records).toHaveLength(1);
  const [read] = imported.records;
  if (!read) throw new Error('no record read');
  return read;
}

/** ASCII letters upper-cased: names compare case-insensitively, texts and addresses do not. */
const shout = (text: string): string => text.replace(/[a-z]/g, (c) => c.toUpperCase());

/** A second record of the same type: the same one spelt differently, one field changed, or any. */
function partnerOf(record: DnsRecordData): fc.Arbitrary<DnsRecordData> {
  const names: Record<string, string> = {};
  for (const [key, value] of Object.entries(record)) {
    if (key !== 'type' && key !== 'text' && typeof value === 'string') names[key] = shout(value);
  }
  const respelt: DnsRecordData = { ...record, ...names } as DnsRecordData;
  return fc.oneof(
    fc.constant(record),
    fc.constant(respelt),
    fc.integer({ min: 1, max: 86_400 }).map((ttl): DnsRecordData => ({ ...record, ttl })),
    recordOf(record.type),
  );
}

describe.each(DNS_TYPES)('record type %s through the registry', (type) => {
  it('one-line → record → one-line gives the same line and the same record', () => {
    fc.assert(
      fc.property(recordOf(type), (record) => {
        const read = viaLine(record);
        expect(read).toEqual(record);
        expect(formatDnsLine(read)).toBe(formatDnsLine(record));
      }),
      { numRuns: 150 },
    );
  });

  it('BIND → record → BIND gives the same zone file and an equal record', () => {
    // An apex NS is the domain's name server, set with /ns: a zone file's is never imported.
    const bindable = recordOf(type).filter((record) => !isApexNs(record));
    fc.assert(
      fc.property(bindable, fc.constantFrom(...DOMAINS), (record, domain) => {
        const read = viaBind(record, domain);
        expect(sameRecord(read, record)).toBe(true);
        expect(exportZone(domain, [read])).toBe(exportZone(domain, [record]));
      }),
      { numRuns: 150 },
    );
  });

  it('equality is reflexive and symmetric, and agrees with the one-line and BIND forms', () => {
    const pairs = recordOf(type).chain((a) => partnerOf(a).map((b) => [a, b] as const));
    fc.assert(
      fc.property(pairs, fc.constantFrom(...DOMAINS), ([a, b], domain) => {
        expect(sameRecord(a, a)).toBe(true);
        const same = sameRecord(a, b);
        expect(sameRecord(b, a)).toBe(same);
        // The key the import finds duplicates by is the same relation.
        expect(sameRecordKey(a) === sameRecordKey(b)).toBe(same);
        expect(sameRecord(viaLine(a), viaLine(b))).toBe(same);
        if (!isApexNs(a) && !isApexNs(b))
          expect(sameRecord(viaBind(a, domain), viaBind(b, domain))).toBe(same);
        // The same line is the same record.
        if (formatDnsLine(a) === formatDnsLine(b)) expect(same).toBe(true);
      }),
      { numRuns: 150 },
    );
  });
});

describe('equality by field kind', () => {
  it('holds across spellings that name the same thing, and not across types', () => {
    const mx = (mail_server: string): DnsRecordData => ({
      type: 'MX',
      host: '@',
      ttl: 3600,
      mail_server,
      priority: 10,
    });
    expect(sameRecord(mx('MX.Example.com.'), mx('mx.example.com'))).toBe(true);
    expect(sameRecord(mx('почта.пример.бел'), mx('xn--80a1acny.xn--e1afmkfd.xn--90ais.'))).toBe(true);
    expect(
      sameRecord(
        { type: 'NS', host: 'www', ttl: 3600, ns: 'ns1.example.com' },
        { type: 'CNAME', host: 'www', ttl: 3600, canonical: 'ns1.example.com' },
      ),
    ).toBe(false);
  });
});

describe('skipped-line reasons in words', () => {
  const translations = loadTranslations();
  /** One reason of each key; a key added to SkipReason without one here fails tsc. */
  const samples: Record<SkipReason['key'], SkipReason> = {
    field: { key: 'field', params: { field: 'mail_server', reason: 'domain' } },
    type: { key: 'type', params: { type: 'CAA' } },
    class: { key: 'class', params: { class: 'CH' } },
    outside: { key: 'outside', params: { owner: 'www.other.by.', domain: 'example.by' } },
    directive: { key: 'directive', params: { directive: '$INCLUDE' } },
    duplicate: { key: 'duplicate', params: { line: 12 } },
    notText: { key: 'notText', params: { byte: '\\000' } },
    soa: { key: 'soa', params: {} },
    apexNs: { key: 'apexNs', params: {} },
    nsGlue: { key: 'nsGlue', params: {} },
    noOwner: { key: 'noOwner', params: {} },
    srvOwner: { key: 'srvOwner', params: {} },
    originArgument: { key: 'originArgument', params: {} },
    ttlArgument: { key: 'ttlArgument', params: {} },
    quote: { key: 'quote', params: {} },
    parentheses: { key: 'parentheses', params: {} },
    notRecord: { key: 'notRecord', params: {} },
  };

  it.each(['ru', 'en'] as const)(
    'has a sentence for every reason and a name for every field (%s)',
    (lang) => {
      const t = translations.forLocale(lang);
      for (const reason of Object.values(samples)) {
        const text = describeSkipReason(t, reason);
        expect(text, reason.key).not.toMatch(/dns:|\{\{/);
      }
      const fields = new Set([
        'host',
        'ttl',
        'extra',
        ...DNS_TYPES.flatMap((type) => DNS_RECORD_TYPES[type].fields.map((f) => f.name)),
      ]);
      for (const field of fields) {
        const key = `dns:fieldName.${field.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())}`;
        expect(translations.has(lang, key), key).toBe(true);
      }
      expect(translations.has(lang, 'dns:reason.quoted')).toBe(true);
    },
  );

  it('puts a bad field into Russian words: the field named, the reason said, no code', () => {
    const text = describeSkipReason(translations.forLocale('ru'), {
      key: 'field',
      params: { field: 'priority', reason: 'range' },
    });
    expect(text).toBe('поле «приоритет»: Нужно целое число от 0 до 65535.');
  });
});

describe('what a record means, in words', () => {
  const translations = loadTranslations();
  const nullMx: DnsRecordData = { type: 'MX', host: 'noreply', ttl: 3600, mail_server: '.', priority: 0 };

  it('says a null MX is a domain that accepts no mail, in Russian and English', () => {
    expect(describeRecord(translations.forLocale('ru'), nullMx)).toBe(
      '<b>MX</b> noreply → <code>0 .</code> (домен не принимает почту) · TTL 3600 с',
    );
    expect(describeRecord(translations.forLocale('en'), nullMx)).toContain(
      '<code>0 .</code> (the domain accepts no mail)',
    );
  });

  it('adds nothing to an ordinary record', () => {
    const mx: DnsRecordData = { ...nullMx, mail_server: 'mx.example.by', priority: 10 };
    expect(describeRecord(translations.forLocale('ru'), mx)).toBe(
      '<b>MX</b> noreply → <code>10 mx.example.by</code> · TTL 3600 с',
    );
  });
});
