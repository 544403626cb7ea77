import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  countChanges,
  heldBackBy,
  matchRecords,
  orderCalls,
  pairChanges,
  planRecordChange,
  planRecordSet,
  planValueReplace,
  valueField,
} from '../../src/core/dns-change.js';
import type { ListedRecord } from '../../src/core/dns-plan.js';
import type { DnsRecordData } from '../../src/core/dns-records.js';
import { sameRecord } from '../../src/core/dns-records.js';

const a = (host: string, ipv4: string, ttl = 3600): DnsRecordData => ({ type: 'A', host, ttl, ipv4 });
const cname = (host: string, canonical: string): DnsRecordData => ({
  type: 'CNAME',
  host,
  ttl: 3600,
  canonical,
});
const txt = (host: string, text: string): DnsRecordData => ({ type: 'TXT', host, ttl: 3600, text });
const listed = (records: DnsRecordData[]): ListedRecord[] =>
  records.map((record, i) => ({ id: 30001 + i, record }));

/** What the zone holds after the calls, made one at a time; `holds` sees every moment. */
function replay(
  records: ListedRecord[],
  calls: ReturnType<typeof orderCalls>,
  holds: (now: DnsRecordData[]) => void,
) {
  let now = records.map((r) => ({ ...r }));
  let next = 90000;
  for (const call of calls) {
    if (call.op === 'add') now.push({ id: next++, record: call.record });
    else now = now.filter((r) => r.id !== call.id);
    holds(now.map((r) => r.record));
  }
  return now.map((r) => r.record);
}

describe('a change of a record', () => {
  const zone = listed([a('www', '93.125.99.10'), a('@', '93.125.99.10'), txt('@', 'v=spf1 -all')]);

  it('adds the new value first, then deletes the old one: www answers at every moment', () => {
    const result = planRecordChange(zone, zone[0] as ListedRecord, a('www', '192.0.2.55'));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const calls = orderCalls(result.plan.remove, result.plan.add);
    expect(calls.map((c) => c.op)).toEqual(['add', 'delete']);
    const after = replay(zone, calls, (now) =>
      expect(now.filter((r) => r.type === 'A' && r.host === 'www').length).toBeGreaterThan(0),
    );
    expect(after.filter((r) => r.host === 'www')).toEqual([a('www', '192.0.2.55')]);
  });

  it('counts a new TTL with the same value as a change, and the same record as nothing to do', () => {
    const ttlOnly = planRecordChange(zone, zone[0] as ListedRecord, a('www', '93.125.99.10', 300));
    expect(ttlOnly.ok && ttlOnly.plan.add).toEqual([a('www', '93.125.99.10', 300)]);
    expect(planRecordChange(zone, zone[0] as ListedRecord, a('www', '93.125.99.10'))).toEqual({
      ok: false,
      reason: 'same',
    });
  });

  it('deletes a CNAME first (two CNAMEs of one name cannot stand together), and says so in the plan', () => {
    const cnames = listed([cname('shop', 'old.example.net.'), a('@', '192.0.2.1')]);
    const result = planRecordChange(cnames, cnames[0] as ListedRecord, cname('shop', 'new.example.net.'));
    expect(result.ok && result.plan.deleteFirst).toBe(true);
    if (result.ok)
      expect(orderCalls(result.plan.remove, result.plan.add).map((c) => c.op)).toEqual(['delete', 'add']);
  });

  it('refuses a CNAME beside records of its name that stay, naming their types, and never at the apex', () => {
    const withSrv = listed([
      a('www', '192.0.2.1'),
      txt('www', 'hello'),
      {
        type: 'SRV',
        host: '@',
        ttl: 3600,
        service: '_sip',
        protocol: '_tcp',
        target: 'sip.example.by',
        port: 5060,
        priority: 10,
        weight: 5,
      },
    ]);
    // The SRV stands at _sip._tcp, not at @ or www: it is not named.
    expect(planRecordSet(withSrv, [cname('www', 'elsewhere.example.net.')])).toEqual({
      ok: false,
      reason: 'cnameBeside',
      host: 'www',
      types: ['A', 'TXT'],
    });
    expect(planRecordSet(listed([]), [cname('@', 'elsewhere.example.net.')])).toEqual({
      ok: false,
      reason: 'cnameApex',
    });
  });
});

describe('set: the records of a type and host become exactly the ones given', () => {
  it('replaces every A of www by the one given and leaves other hosts alone', () => {
    const zone = listed([a('www', '192.0.2.1'), a('www', '192.0.2.2'), a('@', '192.0.2.1')]);
    const result = planRecordSet(zone, [a('WWW', '192.0.2.9')]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.plan.remove.map((r) => r.id)).toEqual([30001, 30002]);
    const after = replay(zone, orderCalls(result.plan.remove, result.plan.add), () => undefined);
    expect(after).toEqual([a('@', '192.0.2.1'), a('WWW', '192.0.2.9')]);
  });

  it('keeps a record already so and says "same" when nothing differs', () => {
    const zone = listed([a('www', '192.0.2.1')]);
    expect(planRecordSet(zone, [a('www', '192.0.2.1'), a('www', '192.0.2.1')])).toEqual({
      ok: false,
      reason: 'same',
    });
  });

  it('holds for any zone and any wanted set: the result is the wanted set, and the name never empties', () => {
    const ip = fc.constantFrom('192.0.2.1', '192.0.2.2', '192.0.2.3', '198.51.100.7');
    const host = fc.constantFrom('@', 'www', 'mail');
    const record = fc.tuple(host, ip, fc.constantFrom(300, 3600)).map(([h, v, t]) => a(h, v, t));
    fc.assert(
      fc.property(
        fc.array(record, { maxLength: 8 }),
        fc.array(fc.tuple(ip, fc.constantFrom(300, 3600)), { minLength: 1, maxLength: 3 }),
        (zoneRecords, wantedValues) => {
          const zone = listed(zoneRecords);
          const wanted = wantedValues.map(([v, t]) => a('www', v, t));
          const result = planRecordSet(zone, wanted);
          if (!result.ok) {
            expect(result.reason).toBe('same');
            return;
          }
          const hadWww = zoneRecords.some((r) => r.host === 'www');
          const after = replay(zone, orderCalls(result.plan.remove, result.plan.add), (now) => {
            if (hadWww) expect(now.some((r) => r.host === 'www')).toBe(true);
          });
          const www = after.filter((r) => r.host === 'www');
          expect(wanted.every((w) => www.some((r) => sameRecord(r, w)))).toBe(true);
          expect(www.every((r) => wanted.some((w) => sameRecord(r, w)))).toBe(true);
          expect(after.filter((r) => r.host !== 'www')).toEqual(zoneRecords.filter((r) => r.host !== 'www'));
        },
      ),
    );
  });
});

describe('del by what the partner typed', () => {
  const zone = listed([a('www', '192.0.2.1', 300), a('www', '192.0.2.2'), txt('www', 'hello')]);

  it('matches a type and host, and the value without its TTL', () => {
    expect(matchRecords(zone, 'A', 'WWW').map((r) => r.id)).toEqual([30001, 30002]);
    expect(matchRecords(zone, 'A', 'www', a('www', '192.0.2.1')).map((r) => r.id)).toEqual([30001]);
    expect(matchRecords(zone, 'A', 'www', a('www', '203.0.113.1'))).toEqual([]);
  });
});

describe('replace a value across a domain', () => {
  it('changes every record holding the old address, keeps host and TTL, and nothing else', () => {
    const zone = listed([a('@', '93.125.99.10', 300), a('www', '93.125.99.10'), a('mail', '192.0.2.8')]);
    const { changes, plan } = planValueReplace(zone, '93.125.99.10', '192.0.2.55');
    expect(changes.map((c) => c.next)).toEqual([a('@', '192.0.2.55', 300), a('www', '192.0.2.55')]);
    expect(plan.ok && plan.plan.deleteFirst).toBe(false);
  });

  it('replaces a host name in CNAME and MX targets, compared as names', () => {
    const zone = listed([
      cname('shop', 'Old.Example.net.'),
      { type: 'MX', host: '@', ttl: 3600, mail_server: 'old.example.net', priority: 10 },
    ]);
    const { changes } = planValueReplace(zone, 'old.example.net', 'mx.example.org');
    expect(changes.map((c) => c.next.type)).toEqual(['CNAME', 'MX']);
  });

  it('says the new value fits none when an address would become a word', () => {
    const zone = listed([a('www', '192.0.2.1')]);
    expect(planValueReplace(zone, '192.0.2.1', 'not-an-ip').plan).toEqual({ ok: false, reason: 'badValue' });
    expect(planValueReplace(zone, '203.0.113.9', '192.0.2.2').plan).toEqual({
      ok: false,
      reason: 'notFound',
    });
  });

  it('asks each type for the field partners change', () => {
    expect(valueField('A')).toBe('ipv4');
    expect(valueField('MX')).toBe('mail_server');
    expect(valueField('SRV')).toBe('target');
    expect(valueField('TXT')).toBe('text');
  });
});

describe('a recorded change as a partner reads it', () => {
  it('pairs a delete with the add of the same type and host, and keeps the rest as they are', () => {
    expect(
      pairChanges([
        { op: 'delete', record: a('www', '93.125.99.10') },
        { op: 'add', record: txt('@', 'v=spf1 -all') },
        { op: 'add', record: a('WWW', '192.0.2.55') },
        { op: 'delete', record: a('mail', '192.0.2.8') },
      ]),
    ).toEqual([
      { op: 'change', before: a('www', '93.125.99.10'), after: a('WWW', '192.0.2.55') },
      { op: 'delete', record: a('mail', '192.0.2.8') },
      { op: 'add', record: txt('@', 'v=spf1 -all') },
    ]);
  });
});

describe('heldBackBy', () => {
  it('holds back the other half of a record’s change once one half failed, and nothing else', () => {
    const add = { op: 'add' as const, record: a('www', '192.0.2.55') };
    const del = { op: 'delete' as const, id: 1, record: a('WWW', '93.125.99.10') };
    const other = { op: 'delete' as const, id: 2, record: a('@', '93.125.99.10') };
    expect(heldBackBy(del, [add])).toBe(true);
    expect(heldBackBy(add, [del])).toBe(true);
    expect(heldBackBy(other, [add])).toBe(false);
    expect(heldBackBy(del, [])).toBe(false);
  });
});

describe('countChanges: the partner’s changes, not the provider’s calls', () => {
  const ttl = { op: 'delete' as const, record: a('@', '192.0.2.1', 3600) };
  const ttlNew = { op: 'add' as const, record: a('@', '192.0.2.1', 300) };
  const value = { op: 'delete' as const, record: a('www', '192.0.2.2') };
  const valueNew = { op: 'add' as const, record: a('www', '192.0.2.3') };
  const gone = { op: 'delete' as const, record: txt('@', 'old') };

  it('counts a TTL change and a value change as one each, beside a delete', () => {
    expect(countChanges({ applied: [ttlNew, ttl, valueNew, value, gone], failed: [] })).toEqual({
      done: 3,
      total: 3,
    });
  });

  it('does not count a change whose delete failed after its add went through', () => {
    expect(countChanges({ applied: [ttlNew, valueNew, value, gone], failed: [ttl] })).toEqual({
      done: 2,
      total: 3,
    });
  });

  it('counts a lone add or delete that failed as one not made', () => {
    expect(countChanges({ applied: [ttlNew, ttl], failed: [gone] })).toEqual({ done: 1, total: 2 });
  });
});
