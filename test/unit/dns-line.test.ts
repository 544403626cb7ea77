import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DNS_LINE_FORMS,
  formatDnsLine,
  parseDnsLine,
  readTxtAnswer,
  readValues,
} from '../../src/core/dns-line.js';
import { DNS_TYPES, type DnsRecordData, recordDataText, validateRecord } from '../../src/core/dns-records.js';
import { dkimArb, hostArbitrary, recordArbitrary } from '../helpers/dns-arbitraries.js';

/** A line that reads: its record, whether or not it stated a TTL (asserted on its own below). */
const okLine = (record: unknown) => ({ ok: true, record, ttlGiven: expect.any(Boolean) });

// ---- generated valid records ------------------------------------------------------------------

const hostArb = hostArbitrary(fc.constantFrom('www', '_dmarc', 'mail._domainkey', 'shop'));
const txtArb = fc
  .oneof(
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 120 }),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 60 }),
    fc.constantFrom(
      'v=spf1 include:_spf.sandbox-host.by ~all',
      'v=DMARC1; p=none; rua=mailto:dmarc@mysite.by',
      '"already quoted"',
      'say "hi" \\ back',
      'Привет, мир; проверка',
      '  padded  ',
      'ends with ttl=300',
      'ttl=5 first',
      'trailing number 300',
    ),
    dkimArb.filter((text) => text.length <= 4000),
  )
  .filter((text) => text.trim() !== '' && text.length <= 4000);

const recordArb = recordArbitrary({
  host: hostArb,
  srvHost: hostArb,
  text: txtArb,
});

describe('parseDnsLine and formatDnsLine', () => {
  it('generates only valid records (the round trip below is about valid input)', () => {
    fc.assert(
      fc.property(recordArb, (record) => {
        expect(validateRecord(record)).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it('reads back every record of all seven kinds from its formatted line', () => {
    fc.assert(
      fc.property(recordArb, (record) => {
        expect(parseDnsLine(formatDnsLine(record))).toEqual(okLine(record));
      }),
      { numRuns: 2000 },
    );
  });

  it('reads back every record from its data as the chat shows it (BIND’s order)', () => {
    fc.assert(
      fc.property(recordArb, (record) => {
        const line = `${record.type} ${record.host} ${recordDataText(record)} ttl=${record.ttl}`;
        expect(parseDnsLine(line)).toEqual(okLine(record));
      }),
      { numRuns: 2000 },
    );
  });

  it('covers every type in the generator', () => {
    const seen = new Set(fc.sample(recordArb, 500).map((record) => record.type));
    expect([...seen].sort()).toEqual([...DNS_TYPES].sort());
  });

  it('formats plain TXT unquoted with ttl= and awkward TXT quoted with a trailing ttl', () => {
    expect(formatDnsLine({ type: 'TXT', host: '@', ttl: 300, text: 'v=spf1 -all' })).toBe(
      'TXT @ v=spf1 -all ttl=300',
    );
    expect(formatDnsLine({ type: 'TXT', host: '@', ttl: 3600, text: 'v=spf1 -all' })).toBe(
      'TXT @ v=spf1 -all',
    );
    expect(formatDnsLine({ type: 'TXT', host: '@', ttl: 300, text: ' a "b" \\ ' })).toBe(
      'TXT @ " a \\"b\\" \\\\ " 300',
    );
    expect(
      formatDnsLine({ type: 'MX', host: '@', ttl: 3600, mail_server: 'mx.example.com', priority: 10 }),
    ).toBe('MX @ mx.example.com 10');
  });
});

describe('parseDnsLine: the forms of docs/dns.md', () => {
  const cases: [string, DnsRecordData][] = [
    ['A www 192.0.2.1', { type: 'A', host: 'www', ttl: 3600, ipv4: '192.0.2.1' }],
    ['AAAA @ 2001:db8::1', { type: 'AAAA', host: '@', ttl: 3600, ipv6: '2001:db8::1' }],
    ['CNAME ftp mysite.by', { type: 'CNAME', host: 'ftp', ttl: 3600, canonical: 'mysite.by' }],
    ['NS shop ns1.other-dns.by', { type: 'NS', host: 'shop', ttl: 3600, ns: 'ns1.other-dns.by' }],
    [
      'MX @ mx1.sandbox-host.by 10',
      { type: 'MX', host: '@', ttl: 3600, mail_server: 'mx1.sandbox-host.by', priority: 10 },
    ],
    [
      'TXT @ v=spf1 include:_spf.sandbox-host.by ~all',
      { type: 'TXT', host: '@', ttl: 3600, text: 'v=spf1 include:_spf.sandbox-host.by ~all' },
    ],
    [
      'TXT _dmarc v=DMARC1; p=none; rua=mailto:dmarc@mysite.by',
      { type: 'TXT', host: '_dmarc', ttl: 3600, text: 'v=DMARC1; p=none; rua=mailto:dmarc@mysite.by' },
    ],
    [
      'SRV @ _sip _tcp sip.mysite.by 5060 10 60',
      {
        type: 'SRV',
        host: '@',
        ttl: 3600,
        service: '_sip',
        protocol: '_tcp',
        target: 'sip.mysite.by',
        port: 5060,
        priority: 10,
        weight: 60,
      },
    ],
    [
      'SRV @ _sip _tcp 10 60 5060 sip.mysite.by 300',
      {
        type: 'SRV',
        host: '@',
        ttl: 300,
        service: '_sip',
        protocol: '_tcp',
        target: 'sip.mysite.by',
        port: 5060,
        priority: 10,
        weight: 60,
      },
    ],
    [
      'MX @ 10 mx1.sandbox-host.by',
      { type: 'MX', host: '@', ttl: 3600, mail_server: 'mx1.sandbox-host.by', priority: 10 },
    ],
    ['A почта 192.0.2.7', { type: 'A', host: 'почта', ttl: 3600, ipv4: '192.0.2.7' }],
    ['CNAME * пример.бел.', { type: 'CNAME', host: '*', ttl: 3600, canonical: 'пример.бел.' }],
  ];
  it.each(cases)('%s', (line, record) => {
    expect(parseDnsLine(line)).toEqual(okLine(record));
  });

  it('reads the type in any case', () => {
    for (const type of ['a', 'A', 'Aaaa', 'cname', 'mX', 'txt', 'Srv', 'ns']) {
      const line = {
        A: 'www 192.0.2.1',
        AAAA: 'www ::1',
        CNAME: 'www example.com',
        NS: 'sub ns1.example.com',
        MX: '@ mx.example.com 10',
        TXT: '@ hello',
        SRV: '@ _sip _tcp sip.example.com 5060 10 60',
      }[type.toUpperCase() as (typeof DNS_TYPES)[number]];
      const parsed = parseDnsLine(`${type} ${line}`);
      expect(parsed.ok && parsed.record.type).toBe(type.toUpperCase());
    }
  });

  it('takes the ttl as a trailing integer or as ttl=<n> anywhere', () => {
    const a = { type: 'A', host: 'www', ttl: 300, ipv4: '192.0.2.1' };
    expect(parseDnsLine('A www 192.0.2.1 300')).toEqual(okLine(a));
    expect(parseDnsLine('A www 192.0.2.1 ttl=300')).toEqual(okLine(a));
    expect(parseDnsLine('A ttl=300 www 192.0.2.1')).toEqual(okLine(a));
    expect(parseDnsLine('ttl=300 A www 192.0.2.1')).toEqual(okLine(a));
    expect(parseDnsLine('A www TTL=300 192.0.2.1')).toEqual(okLine(a));
    expect(parseDnsLine('  A   www   192.0.2.1  ')).toEqual(okLine({ ...a, ttl: 3600 }));
    // 0 is a ttl (answered, never cached), not a missing one.
    expect(parseDnsLine('A www 192.0.2.1 0')).toEqual(okLine({ ...a, ttl: 0 }));
    expect(parseDnsLine('TXT @ hello ttl=0')).toMatchObject({ ok: true, record: { ttl: 0 } });
    const mx = { type: 'MX', host: '@', ttl: 600, mail_server: 'mx.example.com', priority: 5 };
    expect(parseDnsLine('MX @ mx.example.com 5 600')).toEqual(okLine(mx));
    expect(parseDnsLine('MX @ mx.example.com 5 ttl=600')).toEqual(okLine(mx));
  });

  it('reads MX in zone-file order too', () => {
    expect(parseDnsLine('MX @ 10 mx.example.com 600')).toEqual(
      okLine({ type: 'MX', host: '@', ttl: 600, mail_server: 'mx.example.com', priority: 10 }),
    );
  });

  it('keeps an unquoted TXT text to the end of the line, its ttl only as ttl=', () => {
    const txt = (text: string, ttl = 3600) => okLine({ type: 'TXT', host: '@', ttl, text });
    expect(parseDnsLine('TXT @ v=spf1 -all 300')).toEqual(txt('v=spf1 -all 300'));
    expect(parseDnsLine('TXT @ v=spf1 -all ttl=300')).toEqual(txt('v=spf1 -all', 300));
    expect(parseDnsLine('TXT @ ttl=300 v=spf1 -all')).toEqual(txt('v=spf1 -all', 300));
    expect(parseDnsLine('TXT @ a  b\t"c";  d')).toEqual(txt('a  b\t"c";  d'));
    expect(parseDnsLine('TXT @ a ttl=5 b')).toEqual(txt('a ttl=5 b'));
  });

  it('reads a quoted TXT text with escapes, several strings, and a trailing ttl', () => {
    const txt = (text: string, ttl = 3600) => okLine({ type: 'TXT', host: '@', ttl, text });
    expect(parseDnsLine('TXT @ "v=spf1 -all" 300')).toEqual(txt('v=spf1 -all', 300));
    expect(parseDnsLine('TXT @ "say \\"hi\\"" ttl=60')).toEqual(txt('say "hi"', 60));
    expect(parseDnsLine('TXT @ "a\\\\b" ')).toEqual(txt('a\\b'));
    expect(parseDnsLine('TXT @ "C:\\path"')).toEqual(txt('C:\\path'));
    expect(parseDnsLine('TXT dkim._domainkey "v=DKIM1; k=rsa; " "p=MIGf"')).toEqual(
      okLine({ type: 'TXT', host: 'dkim._domainkey', ttl: 3600, text: 'v=DKIM1; k=rsa; p=MIGf' }),
    );
  });
});

describe('parseDnsLine: refused lines name the field and give the form', () => {
  const refused: [string, string, string][] = [
    ['A www 256.1.1.1', 'ipv4', 'ipv4'],
    ['A www 1.2.3', 'ipv4', 'ipv4'],
    ['A www 01.2.3.4', 'ipv4', 'ipv4'],
    ['A www 1.2.3.4.5', 'ipv4', 'ipv4'],
    ['A www example.com', 'ipv4', 'ipv4'],
    ['AAAA www 2001:db8:::1', 'ipv6', 'ipv6'],
    ['AAAA www 192.0.2.1', 'ipv6', 'ipv6'],
    ['AAAA www fe80::1%eth0', 'ipv6', 'ipv6'],
    ['A -a 192.0.2.1', 'host', 'host'],
    ['A a- 192.0.2.1', 'host', 'host'],
    ['A www. 192.0.2.1', 'host', 'host'],
    ['A a..b 192.0.2.1', 'host', 'host'],
    ['A a/b 192.0.2.1', 'host', 'host'],
    [`A ${'a'.repeat(64)} 192.0.2.1`, 'host', 'host'],
    ['TXT "my host" hello', 'host', 'host'],
    ['A www 192.0.2.1 abc', 'ttl', 'integer'],
    ['A www 192.0.2.1 1.5', 'ttl', 'integer'],
    ['A www 192.0.2.1 -5', 'ttl', 'range'],
    ['A www 192.0.2.1 2147483648', 'ttl', 'range'],
    ['A www 192.0.2.1 99999999999999999999999', 'ttl', 'range'],
    ['A www 192.0.2.1 ttl=', 'ttl', 'integer'],
    ['TXT @ hello ttl=-1', 'ttl', 'range'],
    ['A www 192.0.2.1 ttl=1 ttl=2', 'ttl', 'extra'],
    ['MX @ mx.example.com 65536', 'priority', 'range'],
    ['MX @ mx.example.com -1', 'priority', 'range'],
    ['MX @ mx.example.com high', 'priority', 'integer'],
    ['MX @ 192.0.2.1 10', 'mail_server', 'domain'],
    ['MX @ localhost 10', 'mail_server', 'domain'],
    ['CNAME www not_a..name', 'canonical', 'domain'],
    ['NS sub ns1', 'ns', 'domain'],
    ['SRV @ _sip _tcp sip.example.com 70000 10 60', 'port', 'range'],
    ['SRV @ _sip _tcp sip.example.com 5060 10 x', 'weight', 'integer'],
    ['SRV @ _s!p _tcp sip.example.com 5060 10 60', 'service', 'service'],
    ['SRV @ -sip _tcp sip.example.com 5060 10 60', 'service', 'service'],
    ['SRV @ sip _tcp sip.example.com 5060 10 60', 'service', 'service'],
    ['SRV @ _sip _tcp 192.0.2.1 5060 10 60', 'target', 'domain'],
    ['A www', 'ipv4', 'missing'],
    ['A', 'host', 'missing'],
    ['MX @ mx.example.com', 'priority', 'missing'],
    ['SRV @ _sip _tcp sip.example.com 5060', 'priority', 'missing'],
    ['TXT @', 'text', 'missing'],
    ['TXT @ ttl=300', 'text', 'missing'],
    ['TXT @ ""', 'text', 'empty'],
    ['TXT @ "   "', 'text', 'empty'],
    [`TXT @ ${'x'.repeat(4001)}`, 'text', 'tooLong'],
    ['TXT @ "unclosed', 'text', 'quote'],
    ['TXT @ "quoted" and more', 'extra', 'extra'],
    ['TXT @ "quoted" 300 ttl=300', 'extra', 'extra'],
    ['A www 192.0.2.1 300 extra', 'extra', 'extra'],
    ['A www 192.0.2.1 ttl=300 300', 'extra', 'extra'],
    ['CNAME www example.com example.org', 'ttl', 'integer'],
    ['CNAME www example.com example.org 300', 'extra', 'extra'],
  ];
  for (const [line, field, reason] of refused) {
    const shown = line.length > 60 ? `${line.slice(0, 60)}…` : line;
    it(`${shown} → ${field} (${reason})`, () => {
      const type = (line.split(' ')[0] ?? '').toUpperCase() as keyof typeof DNS_LINE_FORMS;
      expect(parseDnsLine(line)).toEqual({ ok: false, field, reason, form: DNS_LINE_FORMS[type] });
    });
  }

  it('reports the first bad field in the order of the form', () => {
    expect(parseDnsLine('A -a 256.1.1.1 abc')).toMatchObject({ field: 'host' });
    expect(parseDnsLine('A www 256.1.1.1 abc')).toMatchObject({ field: 'ipv4' });
    expect(parseDnsLine('MX @ mx.example.com x abc')).toMatchObject({ field: 'priority', reason: 'integer' });
    expect(parseDnsLine('SRV @ _sip _tcp sip.example.com x 70000 60')).toMatchObject({ field: 'port' });
  });

  it('refuses an empty line or an unknown type without a form', () => {
    expect(parseDnsLine('')).toEqual({ ok: false, field: 'type', reason: 'missing', form: undefined });
    expect(parseDnsLine('   ')).toEqual({ ok: false, field: 'type', reason: 'missing', form: undefined });
    expect(parseDnsLine('CAA @ 0 issue "letsencrypt.org"')).toEqual({
      ok: false,
      field: 'type',
      reason: 'unknown',
      form: undefined,
    });
  });

  it('never throws, whatever the line', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (line) => {
        const parsed = parseDnsLine(line);
        if (parsed.ok) expect(validateRecord(parsed.record)).toBeUndefined();
      }),
      { numRuns: 1000 },
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...DNS_TYPES),
        fc.array(fc.string({ maxLength: 12 }), { maxLength: 9 }),
        (t, w) => {
          const parsed = parseDnsLine([t, ...w].join(' '));
          if (parsed.ok) expect(validateRecord(parsed.record)).toBeUndefined();
          else expect(parsed.form).toBe(DNS_LINE_FORMS[t]);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('readValues', () => {
  it('reads words, and a quoted text as one value with the TXT quotes’ escapes', () => {
    expect(readValues('93.125.99.10 192.0.2.55')).toEqual({
      ok: true,
      values: ['93.125.99.10', '192.0.2.55'],
    });
    expect(readValues('  "v=spf1 a -all"   "say \\"hi\\" \\\\ back" x ')).toEqual({
      ok: true,
      values: ['v=spf1 a -all', 'say "hi" \\ back', 'x'],
    });
    // Two quoted texts side by side stay two values (a TXT would join them).
    expect(readValues('"a" "b"')).toEqual({ ok: true, values: ['a', 'b'] });
    expect(readValues('')).toEqual({ ok: true, values: [] });
  });

  it('says a quoted text is not closed, with the values before it', () => {
    expect(readValues('old "new text')).toEqual({ ok: false, reason: 'quote', values: ['old'] });
  });
});

describe('whether a line states its TTL (what `set` keeps when it does not)', () => {
  it('tells a stated TTL from the default, wherever it stands', () => {
    for (const line of [
      'A www 192.0.2.1 300',
      'A www 192.0.2.1 ttl=3600',
      'ttl=300 A www 192.0.2.1',
      'TXT @ "x" 600',
    ])
      expect(parseDnsLine(line), line).toMatchObject({ ok: true, ttlGiven: true });
    for (const line of ['A www 192.0.2.1', 'TXT @ hello world', 'MX @ mx.example.by 10'])
      expect(parseDnsLine(line), line).toMatchObject({ ok: true, ttlGiven: false });
  });
});

describe('a TXT typed as a guided answer', () => {
  it('drops the quotes of a quoted text, joins several strings, and keeps a bare text as typed', () => {
    expect(readTxtAnswer('"v=spf1 include:_spf.yandex.net ~all"')).toBe(
      'v=spf1 include:_spf.yandex.net ~all',
    );
    expect(readTxtAnswer('"v=DKIM1; k=rsa; " "p=MIGf"')).toBe('v=DKIM1; k=rsa; p=MIGf');
    expect(readTxtAnswer('say "hi" to all')).toBe('say "hi" to all');
    expect(readTxtAnswer('"unclosed')).toBe('"unclosed');
  });
});
