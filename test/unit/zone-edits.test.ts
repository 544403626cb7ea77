import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDnsLine } from '../../src/core/dns-line.js';
import type { ListedRecord } from '../../src/core/dns-plan.js';
import { type DnsRecordData, recordDataText, sameRecord } from '../../src/core/dns-records.js';
import { planZoneEdits, readRow, rowOfRecord, type ZoneEdit } from '../../src/core/zone-edits.js';
import { hostArbitrary, recordArbitrary } from '../helpers/dns-arbitraries.js';

const hostArb = hostArbitrary(fc.constantFrom('www', '_dmarc', 'mail._domainkey', 'shop'));
const recordArb = recordArbitrary({
  host: hostArb,
  srvHost: hostArb,
  text: fc.oneof(
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 80 }),
    fc.constantFrom('v=spf1 include:_spf.example.by ~all', '"quoted"', ' padded ', 'ttl=5 inside'),
  ),
}).filter((record) => record.type !== 'TXT' || record.text.trim() !== '');

const ZONE: ListedRecord[] = [
  { id: 1, record: { type: 'A', host: '@', ttl: 3600, ipv4: '93.125.99.10' } },
  { id: 2, record: { type: 'A', host: 'www', ttl: 3600, ipv4: '93.125.99.10' } },
  { id: 3, record: { type: 'MX', host: '@', ttl: 3600, mail_server: 'mx.mysite.by', priority: 10 } },
  { id: 4, record: { type: 'TXT', host: '@', ttl: 600, text: 'v=spf1 mx ~all' } },
  { id: 5, record: { type: 'NS', host: '@', ttl: 3600, ns: 'ns1.hoster.by' } },
  { id: 6, record: { type: 'CNAME', host: 'shop', ttl: 3600, canonical: 'shops.example.net' } },
];
const row = (type: string, host: string, data: string, ttl = 3600) => ({ type, host, data, ttl });

describe('a zone edited as a table', () => {
  it('a record becomes a row and the row reads back as the same record (any type, any TTL)', () => {
    fc.assert(
      fc.property(recordArb, (record) => {
        const read = readRow(rowOfRecord(record));
        expect(read.ok && sameRecord(read.record, record) && read.record.ttl === record.ttl).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('shows the data as the chat writes it, the TTL apart', () => {
    const [, , mx, txt] = ZONE;
    expect(mx && rowOfRecord(mx.record)).toEqual(row('MX', '@', '10 mx.mysite.by'));
    expect(txt && rowOfRecord(txt.record)).toEqual(row('TXT', '@', '"v=spf1 mx ~all"', 600));
    const srv: DnsRecordData = {
      type: 'SRV',
      host: '@',
      ttl: 3600,
      service: '_sip',
      protocol: '_tcp',
      target: 'sip.mysite.by',
      port: 5060,
      priority: 10,
      weight: 60,
    };
    expect(rowOfRecord(srv)).toEqual(row('SRV', '@', '_sip _tcp 10 60 5060 sip.mysite.by'));
  });

  it('a row is the chat’s writing of its record, and reads back to the same row (any record)', () => {
    fc.assert(
      fc.property(recordArb, (record) => {
        const shown = rowOfRecord(record);
        expect(shown.data).toBe(recordDataText(record));
        const read = readRow(shown);
        expect(read.ok && rowOfRecord(read.record)).toEqual(shown);
      }),
      { numRuns: 400 },
    );
  });

  it('a cell also takes the one-line add’s order, as the chat’s line does', () => {
    fc.assert(
      fc.property(recordArb, (record) => {
        const line = formatDnsLine({ ...record, ttl: 3600 });
        const data = line.slice(record.type.length + record.host.length + 2);
        const read = readRow({ type: record.type, host: record.host, data, ttl: record.ttl });
        expect(read.ok && sameRecord(read.record, record)).toBe(true);
      }),
      { numRuns: 400 },
    );
    const read = (type: string, data: string) => {
      const result = readRow(row(type, '@', data));
      return result.ok ? rowOfRecord(result.record).data : result;
    };
    expect(read('MX', 'mx.mysite.by 10')).toBe('10 mx.mysite.by');
    expect(read('SRV', '_sip _tcp sip.mysite.by 5060 10 60')).toBe('_sip _tcp 10 60 5060 sip.mysite.by');
    expect(read('SRV', '_sip _tcp 10 60 5060 .')).toBe('_sip _tcp 10 60 5060 .');
    // Neither order: the checks name the field at fault in the one-line form's order.
    expect(read('SRV', '_sip _tcp 10 60 x sip.mysite.by')).toEqual({
      ok: false,
      field: 'target',
      reason: 'domain',
    });
  });

  it("changes www's address and a TTL, deletes one record: adds first, then the deletes", () => {
    const edits: ZoneEdit[] = [
      { op: 'change', id: 2, row: row('A', 'www', '93.125.99.20') },
      { op: 'change', id: 4, row: row('TXT', '@', 'v=spf1 mx ~all', 300) },
      { op: 'delete', id: 3 },
    ];
    const plan = planZoneEdits(ZONE, edits);
    expect(plan.problems).toEqual([]);
    expect(plan.calls.map((c) => `${c.op} ${c.record.type} ${c.record.host} ${c.record.ttl}`)).toEqual([
      'add A www 3600',
      'add TXT @ 300',
      'delete A www 3600',
      'delete TXT @ 600',
      'delete MX @ 3600',
    ]);
    expect(plan.lines.map((l) => l.op)).toEqual(['change', 'change', 'delete']);
    expect(plan.needsForce).toBe(false);
  });

  it('a CNAME changed into an A record at its name goes delete first (old and new cannot stand together)', () => {
    const plan = planZoneEdits(ZONE, [{ op: 'change', id: 6, row: row('A', 'shop', '192.0.2.7') }]);
    expect(plan.problems).toEqual([]);
    expect(plan.calls.map((c) => c.op)).toEqual(['delete', 'add']);
  });

  it('an edit back to what was listed changes nothing', () => {
    const plan = planZoneEdits(ZONE, [{ op: 'change', id: 2, row: row('A', 'www', '93.125.99.10') }]);
    expect(plan).toMatchObject({ lines: [], calls: [], problems: [] });
  });

  it('says which edit is wrong and why, in the grammar’s own terms', () => {
    const plan = planZoneEdits(ZONE, [
      { op: 'add', row: row('A', 'api', '999.1.1.1') },
      { op: 'change', id: 2, row: row('A', 'www', '192.0.2.1', -5) },
      { op: 'delete', id: 99 },
      { op: 'delete', id: 5 },
      { op: 'add', row: row('AAAA', 'www', '2001:db8::1 300') },
      { op: 'add', row: row('A', ' ', '192.0.2.1') },
    ]);
    expect(plan.problems).toEqual([
      { edit: 0, reason: 'ipv4', field: 'ipv4' },
      { edit: 1, reason: 'range', field: 'ttl' },
      { edit: 2, reason: 'gone' },
      { edit: 3, reason: 'nameServers' },
      { edit: 4, reason: 'extra', field: 'ttl' },
      { edit: 5, reason: 'empty', field: 'host' },
    ]);
  });

  it('a record edited twice is refused the second time', () => {
    const plan = planZoneEdits(ZONE, [
      { op: 'change', id: 2, row: row('A', 'www', '192.0.2.1') },
      { op: 'delete', id: 2 },
    ]);
    expect(plan.problems).toEqual([{ edit: 1, reason: 'twice' }]);
  });

  it('keeps the CNAME rules: none beside another record of its name, none at the apex', () => {
    const beside = planZoneEdits(ZONE, [
      { op: 'add', row: row('A', 'api', '192.0.2.1') },
      { op: 'add', row: row('CNAME', 'www', 'cdn.example.net') },
    ]);
    expect(beside.problems).toEqual([{ edit: 1, reason: 'cnameBeside', host: 'www', types: ['A'] }]);
    const apex = planZoneEdits(ZONE, [{ op: 'add', row: row('CNAME', '@', 'cdn.example.net') }]);
    expect(apex.problems).toEqual([{ edit: 0, reason: 'cnameApex' }]);
    // www's address changed and a CNAME added at www: the CNAME is the edit at fault, beside an A.
    const both = planZoneEdits(ZONE, [
      { op: 'change', id: 2, row: row('A', 'www', '192.0.2.30') },
      { op: 'add', row: row('CNAME', 'www', 'cdn.example.net') },
    ]);
    expect(both.problems).toEqual([{ edit: 1, reason: 'cnameBeside', host: 'www', types: ['A'] }]);
    // An A record added beside the zone's CNAME: the A is at fault, beside a CNAME.
    const beneath = planZoneEdits(ZONE, [{ op: 'add', row: row('A', 'shop', '192.0.2.8') }]);
    expect(beneath.problems).toEqual([{ edit: 0, reason: 'cnameBeside', host: 'shop', types: ['CNAME'] }]);
  });

  it('deleting more than 30% of ten or more records needs force; fewer records never do', () => {
    const ten: ListedRecord[] = Array.from({ length: 10 }, (_, i) => ({
      id: i + 1,
      record: { type: 'A', host: `h${i}`, ttl: 3600, ipv4: `192.0.2.${i + 1}` },
    }));
    const deletes = (n: number): ZoneEdit[] => ten.slice(0, n).map((r) => ({ op: 'delete', id: r.id }));
    expect(planZoneEdits(ten, deletes(3)).needsForce).toBe(false);
    expect(planZoneEdits(ten, deletes(4)).needsForce).toBe(true);
    expect(
      planZoneEdits(
        ZONE,
        [1, 2, 3, 4].map((id) => ({ op: 'delete', id })),
      ).needsForce,
    ).toBe(false);
  });
});
