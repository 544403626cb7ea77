import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toDnsRecordBody as toApiInput } from '../../src/api/domains.js';
import { isIpv4, isIpv6 } from '../../src/core/dns-fields.js';
import { isDomainName, isHostLabel, relativeHost } from '../../src/core/dns-host-names.js';
import { type DnsRecordData, sameRecord, validateRecord } from '../../src/core/dns-records.js';

const octet = fc.integer({ min: 0, max: 255 });

describe('isIpv4', () => {
  it('accepts every dotted quad of 0..255', () => {
    fc.assert(
      fc.property(fc.tuple(octet, octet, octet, octet), (parts) => {
        expect(isIpv4(parts.join('.'))).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses a quad with any part above 255', () => {
    fc.assert(
      fc.property(
        fc.tuple(octet, octet, octet, octet),
        fc.nat({ max: 3 }),
        fc.integer({ min: 256, max: 99_999 }),
        (parts, at, big) => {
          const bad = parts.map((part, index) => (index === at ? big : part));
          expect(isIpv4(bad.join('.'))).toBe(false);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('refuses leading zeros, wrong part counts and anything but digits and dots', () => {
    fc.assert(
      fc.property(fc.tuple(octet, octet, octet, octet), fc.nat({ max: 3 }), (parts, at) => {
        const padded = parts.map((part, index) => (index === at ? `0${part}` : String(part)));
        expect(isIpv4(padded.join('.'))).toBe(false);
      }),
    );
    for (const text of [
      '1.2.3',
      '1.2.3.4.5',
      '',
      '1..2.3',
      ' 1.2.3.4',
      '1.2.3.4 ',
      '1.2.3.-4',
      '1.2.3.4.',
      'a.b.c.d',
      '1.2.3.0x4',
      '::1',
    ])
      expect(isIpv4(text), text).toBe(false);
    for (const text of ['0.0.0.0', '255.255.255.255', '192.0.2.1', '10.0.0.10'])
      expect(isIpv4(text), text).toBe(true);
  });
});

describe('isIpv6', () => {
  it('accepts what fast-check generates and the usual spellings', () => {
    fc.assert(
      fc.property(fc.ipV6(), (address) => {
        expect(isIpv6(address)).toBe(true);
      }),
      { numRuns: 500 },
    );
    for (const text of [
      '::',
      '::1',
      '2001:db8::1',
      '2A00:1760:1:1::10',
      '::ffff:192.0.2.1',
      '1:2:3:4:5:6:7:8',
    ])
      expect(isIpv6(text), text).toBe(true);
  });

  it('refuses malformed addresses, IPv4 and zone indexes', () => {
    for (const text of [
      '2001:db8:::1',
      '1:2:3:4:5:6:7:8:9',
      '12345::1',
      'g::1',
      '192.0.2.1',
      '',
      '[::1]',
      'fe80::1%eth0',
      ':1',
    ])
      expect(isIpv6(text), text).toBe(false);
  });
});

describe('isHostLabel', () => {
  it('accepts the apex, wildcards, service labels, relative names and IDN', () => {
    for (const host of [
      '@',
      '*',
      '*.dev',
      'www',
      'WWW',
      '_dmarc',
      'mail._domainkey',
      'a.b.c',
      '1',
      'a-b',
      'почта',
      'xn--80a1acny',
      'a'.repeat(63),
    ])
      expect(isHostLabel(host), host).toBe(true);
  });

  it('refuses spaces, bad hyphens, empty labels, long labels and misplaced wildcards', () => {
    for (const host of [
      '',
      ' ',
      'a b',
      '-a',
      'a-',
      'a..b',
      'www.',
      '.www',
      'a'.repeat(64),
      'a.*',
      '*.',
      '**',
      'a/b',
      'a@b',
      '@.www',
      'xn--zz',
      '⁰',
    ])
      expect(isHostLabel(host), host).toBe(false);
  });

  it('refuses names over 253 characters', () => {
    const name = (count: number) => Array.from({ length: count }, () => 'a'.repeat(9)).join('.');
    expect(isHostLabel(name(25))).toBe(true); // 249 characters
    expect(isHostLabel(name(26))).toBe(false); // 259 characters
  });

  it('accepts every name of valid labels', () => {
    const label = fc
      .stringMatching(/^[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,20}[A-Za-z0-9_])?$/)
      .filter((l) => !/^xn--/i.test(l));
    fc.assert(
      fc.property(fc.array(label, { minLength: 1, maxLength: 5 }), fc.boolean(), (labels, wildcard) => {
        expect(isHostLabel(`${wildcard ? '*.' : ''}${labels.join('.')}`)).toBe(true);
      }),
    );
  });
});

describe('isDomainName', () => {
  it('accepts full names, with or without a trailing dot, IDN included', () => {
    for (const name of [
      'mail.example.com',
      'mail.example.com.',
      'mx1.sandbox-host.by',
      'пример.бел',
      'мх.пример.бел.',
      '_spf.example.com',
      'xn--e1afmkfd.xn--90ais',
    ])
      expect(isDomainName(name), name).toBe(true);
  });

  it('refuses single labels, addresses, empty labels and wildcards', () => {
    for (const name of [
      '',
      '.',
      'localhost',
      'mail',
      '192.0.2.1',
      '1.2.3.4.',
      'a..example.com',
      '-a.example.com',
      '*.example.com',
      'a b.com',
      'example.com..',
    ])
      expect(isDomainName(name), name).toBe(false);
  });
});

describe('relativeHost', () => {
  it('makes names inside the domain relative, in either IDN form', () => {
    expect(relativeHost('example.com', 'example.com')).toBe('@');
    expect(relativeHost('www.example.com.', 'example.com')).toBe('www');
    expect(relativeHost('A.B.Example.COM', 'example.com.')).toBe('A.B');
    expect(relativeHost('почта.xn--e1afmkfd.xn--90ais', 'пример.бел')).toBe('почта');
    expect(relativeHost('xn--80a1acny.пример.бел.', 'xn--e1afmkfd.xn--90ais')).toBe('xn--80a1acny');
    expect(relativeHost('*.example.com', 'example.com')).toBe('*');
  });

  it('gives undefined outside the domain', () => {
    expect(relativeHost('www.example.org', 'example.com')).toBeUndefined();
    expect(relativeHost('wwwexample.com', 'example.com')).toBeUndefined();
    expect(relativeHost('com', 'example.com')).toBeUndefined();
  });
});

describe('validateRecord', () => {
  const valid: DnsRecordData[] = [
    { type: 'A', host: '@', ttl: 3600, ipv4: '192.0.2.1' },
    { type: 'AAAA', host: 'www', ttl: 1, ipv6: '2001:db8::1' },
    { type: 'A', host: 'status', ttl: 0, ipv4: '192.0.2.2' },
    { type: 'CNAME', host: '*', ttl: 2_147_483_647, canonical: 'example.com.' },
    { type: 'NS', host: 'shop', ttl: 86_400, ns: 'ns1.other-dns.by' },
    { type: 'MX', host: '@', ttl: 3600, mail_server: 'mx.example.com', priority: 0 },
    // A null MX: the domain accepts no mail (RFC 7505).
    { type: 'MX', host: 'noreply', ttl: 3600, mail_server: '.', priority: 0 },
    { type: 'TXT', host: '_dmarc', ttl: 3600, text: 'x'.repeat(4000) },
    {
      type: 'SRV',
      host: '@',
      ttl: 3600,
      service: '_sip',
      protocol: '_tcp',
      target: '.',
      port: 65_535,
      priority: 0,
      weight: 65_535,
    },
  ];
  it.each(valid)('accepts a valid $type record', (record) => {
    expect(validateRecord(record)).toBeUndefined();
  });

  const srv = {
    type: 'SRV' as const,
    host: '@',
    ttl: 3600,
    service: '_sip',
    protocol: '_tcp',
    target: 'sip.example.com',
    port: 5060,
    priority: 10,
    weight: 60,
  };
  const refused: [string, string, DnsRecordData][] = [
    ['host', 'empty', { type: 'A', host: '', ttl: 3600, ipv4: '192.0.2.1' }],
    ['host', 'host', { type: 'A', host: 'a b', ttl: 3600, ipv4: '192.0.2.1' }],
    ['ipv4', 'empty', { type: 'A', host: 'www', ttl: 3600, ipv4: '' }],
    ['ipv4', 'ipv4', { type: 'A', host: 'www', ttl: 3600, ipv4: '256.1.1.1' }],
    ['ipv6', 'ipv6', { type: 'AAAA', host: 'www', ttl: 3600, ipv6: '1::2::3' }],
    ['canonical', 'empty', { type: 'CNAME', host: 'www', ttl: 3600, canonical: ' ' }],
    ['canonical', 'domain', { type: 'CNAME', host: 'www', ttl: 3600, canonical: 'www' }],
    ['ns', 'domain', { type: 'NS', host: 'sub', ttl: 3600, ns: '192.0.2.1' }],
    // '.' is a null MX's mail server only; no name server, no canonical name.
    ['ns', 'domain', { type: 'NS', host: 'sub', ttl: 3600, ns: '.' }],
    ['canonical', 'domain', { type: 'CNAME', host: 'www', ttl: 3600, canonical: '.' }],
    ['priority', 'nullMx', { type: 'MX', host: '@', ttl: 3600, mail_server: '.', priority: 10 }],
    [
      'priority',
      'integer',
      { type: 'MX', host: '@', ttl: 3600, mail_server: 'mx.example.com', priority: 1.5 },
    ],
    [
      'priority',
      'range',
      { type: 'MX', host: '@', ttl: 3600, mail_server: 'mx.example.com', priority: 65_536 },
    ],
    ['text', 'empty', { type: 'TXT', host: '@', ttl: 3600, text: '' }],
    ['text', 'tooLong', { type: 'TXT', host: '@', ttl: 3600, text: 'x'.repeat(4001) }],
    ['service', 'empty', { ...srv, service: '' }],
    ['protocol', 'service', { ...srv, protocol: '_t p' }],
    ['target', 'domain', { ...srv, target: 'sip' }],
    ['port', 'range', { ...srv, port: -1 }],
    ['weight', 'integer', { ...srv, weight: Number.NaN }],
    ['ttl', 'range', { type: 'A', host: 'www', ttl: -1, ipv4: '192.0.2.1' }],
    ['ttl', 'range', { type: 'A', host: 'www', ttl: 2_147_483_648, ipv4: '192.0.2.1' }],
    ['ttl', 'integer', { type: 'A', host: 'www', ttl: 60.5, ipv4: '192.0.2.1' }],
  ];
  it.each(refused)('refuses a bad %s (%s)', (field, reason, record) => {
    expect(validateRecord(record)).toEqual({ field, reason });
  });

  it('reports the first problem in the order host, fields, ttl', () => {
    expect(validateRecord({ type: 'A', host: '-', ttl: -1, ipv4: 'x' })).toEqual({
      field: 'host',
      reason: 'host',
    });
    expect(validateRecord({ type: 'A', host: 'www', ttl: -1, ipv4: 'x' })).toEqual({
      field: 'ipv4',
      reason: 'ipv4',
    });
    expect(validateRecord({ ...srv, target: 'x', port: -1 })).toEqual({ field: 'target', reason: 'domain' });
  });
});

describe('toApiInput', () => {
  it('gives the lower-case kind and exactly the body fields of partner-api.md', () => {
    expect(toApiInput({ type: 'A', host: 'www', ttl: 300, ipv4: '192.0.2.1' })).toEqual({
      kind: 'a',
      ttl: 300,
      host: 'www',
      ipv4: '192.0.2.1',
    });
    expect(toApiInput({ type: 'AAAA', host: '@', ttl: 3600, ipv6: '2001:db8::1' })).toEqual({
      kind: 'aaaa',
      ttl: 3600,
      host: '@',
      ipv6: '2001:db8::1',
    });
    expect(toApiInput({ type: 'CNAME', host: 'ftp', ttl: 3600, canonical: 'mysite.by.' })).toEqual({
      kind: 'cname',
      ttl: 3600,
      host: 'ftp',
      canonical: 'mysite.by',
    });
    expect(toApiInput({ type: 'NS', host: 'shop', ttl: 3600, ns: 'ns1.other-dns.by' })).toEqual({
      kind: 'ns',
      ttl: 3600,
      host: 'shop',
      ns: 'ns1.other-dns.by',
    });
    expect(
      toApiInput({ type: 'MX', host: '@', ttl: 3600, mail_server: 'mx.example.com', priority: 10 }),
    ).toEqual({
      kind: 'mx',
      ttl: 3600,
      host: '@',
      mail_server: 'mx.example.com',
      priority: 10,
    });
    expect(toApiInput({ type: 'TXT', host: '_dmarc', ttl: 3600, text: ' v=DMARC1; p=none ' })).toEqual({
      kind: 'txt',
      ttl: 3600,
      host: '_dmarc',
      text: ' v=DMARC1; p=none ',
    });
    expect(
      toApiInput({
        type: 'SRV',
        host: '@',
        ttl: 3600,
        service: '_sip',
        protocol: '_tcp',
        target: 'sip.example.com.',
        port: 5060,
        priority: 10,
        weight: 60,
      }),
    ).toEqual({
      kind: 'srv',
      ttl: 3600,
      host: '@',
      service: '_sip',
      protocol: '_tcp',
      target: 'sip.example.com',
      port: 5060,
      priority: 10,
      weight: 60,
    });
  });

  it('sends Unicode hosts and targets in punycode, ASCII ones as typed', () => {
    expect(
      toApiInput({ type: 'MX', host: 'почта', ttl: 3600, mail_server: 'мх.пример.бел.', priority: 5 }),
    ).toEqual({
      kind: 'mx',
      ttl: 3600,
      host: 'xn--80a1acny',
      mail_server: 'xn--l1as.xn--e1afmkfd.xn--90ais',
      priority: 5,
    });
    expect(toApiInput({ type: 'A', host: '*.Dev', ttl: 3600, ipv4: '192.0.2.1' }).host).toBe('*.Dev');
  });
});

describe('sameRecord', () => {
  const a: DnsRecordData = { type: 'A', host: 'www', ttl: 3600, ipv4: '192.0.2.1' };
  it('ignores host case, trailing dots and the IDN spelling', () => {
    expect(sameRecord(a, { ...a, host: 'WWW' })).toBe(true);
    expect(
      sameRecord(
        { type: 'CNAME', host: 'почта', ttl: 3600, canonical: 'Mail.Example.com.' },
        { type: 'CNAME', host: 'xn--80a1acny', ttl: 3600, canonical: 'mail.example.com' },
      ),
    ).toBe(true);
  });

  it('compares IPv6 addresses, not their spelling', () => {
    const v6 = (ipv6: string): DnsRecordData => ({ type: 'AAAA', host: '@', ttl: 3600, ipv6 });
    expect(sameRecord(v6('2001:DB8:0:0::1'), v6('2001:db8::1'))).toBe(true);
    expect(sameRecord(v6('::ffff:192.0.2.1'), v6('::ffff:c000:201'))).toBe(true);
    expect(sameRecord(v6('2001:db8::1'), v6('2001:db8::2'))).toBe(false);
  });

  it('reads _sip and sip as the same service', () => {
    const srv = (service: string, protocol: string): DnsRecordData => ({
      type: 'SRV',
      host: '@',
      ttl: 3600,
      service,
      protocol,
      target: 'sip.example.com',
      port: 5060,
      priority: 10,
      weight: 60,
    });
    expect(sameRecord(srv('_sip', '_tcp'), srv('sip', 'TCP'))).toBe(true);
    expect(sameRecord(srv('_sip', '_tcp'), srv('_sip', '_udp'))).toBe(false);
  });

  it('tells apart type, ttl, data and TXT case', () => {
    expect(sameRecord(a, { ...a, ttl: 300 })).toBe(false);
    expect(sameRecord(a, { ...a, ipv4: '192.0.2.2' })).toBe(false);
    expect(sameRecord(a, { ...a, host: 'www2' })).toBe(false);
    expect(sameRecord(a, { type: 'CNAME', host: 'www', ttl: 3600, canonical: 'example.com' })).toBe(false);
    const txt = (text: string): DnsRecordData => ({ type: 'TXT', host: '@', ttl: 3600, text });
    expect(sameRecord(txt('Hello'), txt('hello'))).toBe(false);
    expect(
      sameRecord(
        { type: 'MX', host: '@', ttl: 3600, mail_server: 'mx.example.com', priority: 10 },
        { type: 'MX', host: '@', ttl: 3600, mail_server: 'mx.example.com', priority: 20 },
      ),
    ).toBe(false);
  });

  it('takes "" and "@" both as the apex', () => {
    expect(sameRecord({ ...a, host: '@' }, { ...a, host: '' })).toBe(true);
  });
});
