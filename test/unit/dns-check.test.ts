import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  comparableAnswer,
  comparableRecord,
  type Expectation,
  expectChange,
  expectListed,
  fullName,
  judge,
  LIVE_CHECK_LIMIT_MS,
  type RawAnswer,
  recordOwner,
  retryDelay,
  summarizeRound,
} from '../../src/core/dns-check.js';
import { toAsciiHostName } from '../../src/core/dns-host-names.js';
import type { DnsRecordData } from '../../src/core/dns-records.js';
import { hostArbitrary, recordArbitrary, relativeName } from '../helpers/dns-arbitraries.js';

/** A name as a resolver may hand it back: ASCII, in another case, with the root dot. */
const asServed = (name: string, upper: boolean) => {
  const ascii = toAsciiHostName(name.replace(/\.$/, ''));
  return `${upper ? ascii.toUpperCase() : ascii}.`;
};

/** What node:dns gives for the record (TXT cut in 255-character strings, names in ASCII). */
function rawOf(record: DnsRecordData, upper: boolean): RawAnswer {
  switch (record.type) {
    case 'A':
      return record.ipv4;
    case 'AAAA':
      return upper ? record.ipv6.toUpperCase() : record.ipv6;
    case 'CNAME':
      return asServed(record.canonical, upper);
    case 'NS':
      return asServed(record.ns, upper);
    case 'MX':
      // node:dns gives a null MX's root name as ''.
      return {
        priority: record.priority,
        exchange: record.mail_server === '.' ? '' : asServed(record.mail_server, upper),
      };
    case 'TXT':
      return record.text.match(/[\s\S]{1,255}/g) ?? [''];
    case 'SRV':
      return {
        priority: record.priority,
        weight: record.weight,
        port: record.port,
        name: record.target === '.' ? '' : asServed(record.target, upper),
      };
  }
}

const records = recordArbitrary({
  host: hostArbitrary(fc.constantFrom('www', 'mail')),
  srvHost: fc.oneof(fc.constant('@'), relativeName),
  text: fc.string({ minLength: 1, maxLength: 700 }),
});

describe('comparing what a name server answers with a record', () => {
  it('any record reads the same from an answer: case, root dot, punycode, TXT strings, MX priority', () => {
    fc.assert(
      fc.property(records, fc.boolean(), (record, upper) => {
        expect(comparableAnswer(record.type, rawOf(record, upper))).toBe(comparableRecord(record));
      }),
    );
  });

  it('a different value is a different answer', () => {
    const mx = (priority: number): DnsRecordData => ({
      type: 'MX',
      host: '@',
      ttl: 3600,
      mail_server: 'mx.example.by',
      priority,
    });
    expect(comparableAnswer('MX', { priority: 20, exchange: 'MX.example.by.' })).not.toBe(
      comparableRecord(mx(10)),
    );
  });
});

describe('names', () => {
  it('a host of the domain is a full ASCII name', () => {
    expect(fullName('@', 'mysite.by')).toBe('mysite.by');
    expect(fullName('WWW', 'MySite.by.')).toBe('www.mysite.by');
    expect(fullName('почта', 'пример.бел')).toBe('xn--80a1acny.xn--e1afmkfd.xn--90ais');
    expect(fullName('other.example.', 'mysite.by')).toBe('other.example');
  });

  it('an SRV record is seen at _service._protocol.host', () => {
    const srv: DnsRecordData = {
      type: 'SRV',
      host: '@',
      ttl: 3600,
      service: '_sip',
      protocol: '_TCP',
      target: 'sip.mysite.by',
      port: 5060,
      priority: 10,
      weight: 5,
    };
    expect(recordOwner(srv, 'mysite.by')).toEqual({ name: '_sip._tcp.mysite.by', type: 'SRV' });
  });
});

describe('what a change should look like', () => {
  const a = (host: string, ipv4: string): DnsRecordData => ({ type: 'A', host, ttl: 300, ipv4 });

  it('groups by name and type: added values present, removed ones absent (unless added again)', () => {
    const plan = expectChange('mysite.by', {
      added: [a('www', '192.0.2.1'), a('www', '192.0.2.2'), a('@', '192.0.2.3')],
      removed: [a('www', '192.0.2.9'), a('@', '192.0.2.3')],
    });
    expect(plan.map((e) => [e.name, e.type, e.present, e.absent])).toEqual([
      ['www.mysite.by', 'A', ['192.0.2.1', '192.0.2.2'], ['192.0.2.9']],
      ['mysite.by', 'A', ['192.0.2.3'], []],
    ]);
  });

  it('checks at most five names after a large import', () => {
    const added = Array.from({ length: 9 }, (_, i) => a(`h${i}`, '192.0.2.1'));
    expect(expectChange('mysite.by', { added })).toHaveLength(5);
  });

  it('judges an answer: present, absent, exact, and a failure as it is', () => {
    const [expectation] = expectChange('mysite.by', {
      added: [a('www', '192.0.2.1')],
      removed: [a('www', '192.0.2.9')],
    }) as [Expectation];
    const answer = (...values: string[]) => ({ kind: 'answer' as const, values });
    expect(judge(expectation, answer('192.0.2.1', '192.0.2.5'))).toBe('visible');
    expect(judge(expectation, answer())).toBe('notYet');
    expect(judge(expectation, answer('192.0.2.1', '192.0.2.9'))).toBe('notYet');
    expect(judge(expectation, { kind: 'failed', reason: 'timeout' })).toBe('timeout');
    const exact = expectListed('mysite.by', 'www', 'A', [a('www', '192.0.2.1'), a('ftp', '192.0.2.7')]);
    expect(exact.present).toEqual(['192.0.2.1']);
    expect(judge(exact, answer('192.0.2.1'))).toBe('visible');
    expect(judge(exact, answer('192.0.2.1', '192.0.2.5'))).toBe('notYet');
    expect(judge(expectListed('mysite.by', 'none', 'TXT', []), answer())).toBe('visible');
  });

  it('a round is done only when every server shows the change', () => {
    expect(
      summarizeRound([
        { server: 'ns1', sighting: 'visible' },
        { server: 'ns2', sighting: 'notYet' },
        { server: 'ns3', sighting: 'timeout' },
      ]),
    ).toEqual({
      visible: ['ns1'],
      notYet: ['ns2'],
      failed: [{ server: 'ns3', reason: 'timeout' }],
      done: false,
    });
    expect(summarizeRound([{ server: 'ns1', sighting: 'visible' }]).done).toBe(true);
    expect(summarizeRound([]).done).toBe(false);
  });

  it('asks again quickly at first, then every 30 s, for up to 2 minutes', () => {
    const delays: number[] = [];
    for (let elapsed = 0, attempt = 0; elapsed + retryDelay(attempt) <= LIVE_CHECK_LIMIT_MS; attempt++) {
      delays.push(retryDelay(attempt));
      elapsed += retryDelay(attempt);
    }
    expect(delays).toEqual([2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
  });
});
