import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type FieldKind, readField } from '../../src/core/dns-fields.js';
import { formatDnsLine, parseDnsLine } from '../../src/core/dns-line.js';
import {
  checkTogether,
  DNS_RECORD_TYPES,
  type DnsRecordData,
  fieldKind,
  validateRecord,
} from '../../src/core/dns-records.js';
import { isApexNs } from '../../src/core/zone-provider.js';
import { importZone } from '../../src/core/zone-reader.js';
import { exportZone } from '../../src/core/zone-writer.js';
import { recordArbitrary, relativeName } from '../helpers/dns-arbitraries.js';

/*
 * One record model, one verdict: the same record typed as one line, answered field by field in
 * the guided form, or imported from a BIND file is accepted or refused alike, and the one-line
 * and guided paths name the same field.
 */

const DOMAIN = 'example.by';

/**
 * Single-word values each path reads the same way; some right, most wrong. No bare label such as
 * `mx` for a name: a zone file reads it relative to $ORIGIN, which is the format, not a check.
 */
const BAD: Record<FieldKind, readonly (string | number)[]> = {
  host: ['-a', 'a..b', 'a/b'],
  ttl: [-1, 2_147_483_648],
  ipv4: ['256.1.1.1', '1.2.3', '01.2.3.4'],
  ipv6: ['2001:db8:::1', '192.0.2.1'],
  name: ['192.0.2.1', '-a.by', 'a..by', 'mx.example.com'],
  target: ['.', '-sip.by', '192.0.2.1'],
  service: ['-sip', 'sip', '_s!p', '_sip', 'tcp'],
  uint16: [70_000, -1, 65_535, 0],
  text: ['hello'],
};

/** A valid record with, sometimes, one field replaced by a value from BAD. */
const records = fc
  .tuple(
    recordArbitrary({
      host: fc.oneof(fc.constant('@'), relativeName),
      srvHost: fc.oneof(fc.constant('@'), relativeName),
      text: fc.constant('v=spf1 -all'),
    }),
    fc.nat(),
    fc.nat(),
    fc.boolean(),
  )
  .map(([record, fieldIndex, valueIndex, mutate]): DnsRecordData => {
    if (!mutate) return record;
    const names = ['host', ...DNS_RECORD_TYPES[record.type].fields.map((f) => f.name), 'ttl'];
    const field = names[fieldIndex % names.length] ?? 'host';
    const kind = fieldKind(record.type, field) ?? 'host';
    const pool = BAD[kind];
    const value = pool[valueIndex % pool.length];
    return { ...record, [field]: value } as DnsRecordData;
  });

/**
 * The guided form's verdict: each answer typed as text, read and checked on its own, then with
 * the type's fields answered so far (a null MX's priority).
 */
function guided(record: DnsRecordData): { ok: true } | { ok: false; field: string } {
  const values: Readonly<Record<string, unknown>> = record;
  const answers: [string, FieldKind][] = [
    ['host', 'host'],
    ...DNS_RECORD_TYPES[record.type].fields.map((f): [string, FieldKind] => [f.name, f.kind]),
    ['ttl', 'ttl'],
  ];
  const answered: Record<string, string | number> = {};
  for (const [field, kind] of answers) {
    const read = readField(field, kind, String(values[field]));
    if (!read.ok) return { ok: false, field: read.problem.field };
    answered[field] = read.value;
    const together = checkTogether(record.type, answered);
    if (together) return { ok: false, field: together.field };
  }
  return { ok: true };
}

/** The record as a zone file; SRV written by hand, as the exporter adds a missing underscore. */
function zoneOf(record: DnsRecordData): string {
  if (record.type !== 'SRV') return exportZone(DOMAIN, [record]);
  const owner = `${record.service}.${record.protocol}${record.host === '@' ? '' : `.${record.host}`}`;
  const rdata = `${record.priority} ${record.weight} ${record.port} ${record.target}`;
  return `$ORIGIN ${DOMAIN}.\n${owner} ${record.ttl} IN SRV ${rdata}\n`;
}

/**
 * The BIND import's verdict. An apex NS is accepted as a record, then skipped for what it is (the
 * domain's name servers are set with /ns), so it counts as accepted when skipped for that alone.
 */
function bind(record: DnsRecordData): boolean {
  const imported = importZone(zoneOf(record), DOMAIN);
  const skipped = imported.unsupported.map((line) => line.reason.key);
  if (isApexNs(record) && validateRecord(record) === undefined) return skipped.join() === 'apexNs';
  return imported.records.length === 1 && skipped.length === 0;
}

describe('one verdict for a record on every path', () => {
  it('one-line, guided and BIND accept or refuse alike; line and form name the same field', () => {
    fc.assert(
      fc.property(records, (record) => {
        const line = parseDnsLine(formatDnsLine(record));
        const form = guided(record);
        const valid = validateRecord(record) === undefined;
        expect(line.ok).toBe(valid);
        expect(form.ok).toBe(valid);
        expect(bind(record)).toBe(valid);
        if (!line.ok && !form.ok) expect(line.field).toBe(form.field);
      }),
      { numRuns: 400 },
    );
  });

  it('decides a null MX once: `.` with priority 0 accepted, with another priority refused', () => {
    const mx = { type: 'MX' as const, host: 'noreply', ttl: 3600, mail_server: '.', priority: 0 };
    for (const record of [mx, { ...mx, priority: 10 }]) {
      const valid = record.priority === 0;
      expect(validateRecord(record)).toEqual(valid ? undefined : { field: 'priority', reason: 'nullMx' });
      expect(parseDnsLine(formatDnsLine(record))).toMatchObject(
        valid ? { ok: true, record } : { ok: false, field: 'priority', reason: 'nullMx' },
      );
      expect(guided(record)).toEqual(valid ? { ok: true } : { ok: false, field: 'priority' });
      expect(bind(record)).toBe(valid);
    }
  });

  it('decides SRV service `-sip` (refused) and target `.` (accepted) once', () => {
    const srv = {
      type: 'SRV' as const,
      host: '@',
      ttl: 3600,
      service: '_sip',
      protocol: '_tcp',
      target: 'sip.example.by',
      port: 5060,
      priority: 10,
      weight: 60,
    };
    for (const record of [
      { ...srv, service: '-sip' },
      { ...srv, target: '.' },
    ]) {
      const valid = record.target === '.';
      expect(parseDnsLine(formatDnsLine(record)).ok).toBe(valid);
      expect(guided(record).ok).toBe(valid);
      expect(bind(record)).toBe(valid);
    }
  });
});
