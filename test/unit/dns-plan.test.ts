import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { changesToApply, sameHost } from '../../src/core/dns-change.js';
import { comparableValue } from '../../src/core/dns-fields.js';
import { isEmptyPlan, type ListedRecord, needsForce, planImport } from '../../src/core/dns-plan.js';
import { type DnsRecordData, ownerName, sameRecord } from '../../src/core/dns-records.js';
import { isApexNs } from '../../src/core/zone-provider.js';
import { recordArbitrary } from '../helpers/dns-arbitraries.js';

const a = (host: string, ipv4 = '192.0.2.1'): DnsRecordData => ({ type: 'A', host, ttl: 3600, ipv4 });
const listed = (records: DnsRecordData[]): ListedRecord[] =>
  records.map((record, i) => ({ id: i + 1, record }));
const target = { nonce: 'n', orderId: 1, domain: 'example.by' };

describe('planImport', () => {
  it('merges by default: a fragment adds and changes its own names and types, deletes nothing else', () => {
    const current = listed([a('www'), a('ftp'), a('@', '192.0.2.7')]);
    const { plan, unchanged } = planImport(target, current, [a('@'), a('shop')]);
    expect(plan.mode).toBe('merge');
    expect(plan.add).toEqual([a('@'), a('shop')]);
    // The @ A set is changed (its old address goes); www and ftp are not in the fragment and stay.
    expect(plan.remove).toEqual([{ id: 3, record: a('@', '192.0.2.7') }]);
    expect(unchanged.map((u) => u.id).sort()).toEqual([1, 2]);
  });

  it('a merge takes an SRV set by its service and protocol: another service at @ is left alone', () => {
    const srv = (service: string, target: string): DnsRecordData => ({
      type: 'SRV',
      host: '@',
      ttl: 3600,
      service,
      protocol: '_tcp',
      target,
      port: 5060,
      priority: 10,
      weight: 5,
    });
    const current = listed([srv('_sip', 'sip.example.by'), srv('_xmpp-client', 'old.example.by')]);
    const { plan, unchanged } = planImport(target, current, [srv('_xmpp-client', 'xmpp.example.by')]);
    expect(plan.add).toEqual([srv('_xmpp-client', 'xmpp.example.by')]);
    expect(plan.remove.map((r) => r.id)).toEqual([2]);
    expect(unchanged.map((u) => u.id)).toEqual([1]);
  });

  it('replacing the whole zone adds what is new, deletes what is gone and keeps the rest', () => {
    const current = listed([a('www'), a('ftp'), a('@')]);
    const { plan, unchanged } = planImport(target, current, [a('www'), a('@'), a('shop')], 3, 'replace');
    expect(plan.add).toEqual([a('shop')]);
    expect(plan.remove).toEqual([{ id: 2, record: a('ftp') }]);
    expect(unchanged.map((u) => u.id)).toEqual([1, 3]);
    expect(plan.existing).toBe(3);
    expect(isEmptyPlan(plan)).toBe(false);
  });

  it('changes nothing when the zone is the same', () => {
    const records = [a('www'), a('@')];
    expect(isEmptyPlan(planImport(target, listed(records), records).plan)).toBe(true);
  });

  it('never deletes the domain’s own apex NS records, not even replacing the whole zone', () => {
    const ns = (name: string): DnsRecordData => ({ type: 'NS', host: '@', ttl: 86_400, ns: name });
    const delegation: DnsRecordData = { type: 'NS', host: 'shop', ttl: 86_400, ns: 'ns1.other-dns.by' };
    const current = listed([ns('ns1.provider.by'), a('www'), delegation, ns('ns2.provider.by')]);
    // The file's own apex NS lines were skipped by the import; a file may still carry one.
    const file = [a('www'), ns('lana.ns.cloudflare.com')];
    for (const mode of ['merge', 'replace'] as const) {
      const { plan, unchanged } = planImport(target, current, file, current.length, mode);
      expect(plan.add, mode).toEqual([]);
      expect(plan.wanted, mode).toEqual([a('www')]);
      expect(unchanged.map((u) => u.id).sort(), mode).toEqual(mode === 'replace' ? [1, 2, 4] : [1, 2, 3, 4]);
      // A delegation below the apex is an ordinary record: a replace without it deletes it.
      expect(plan.remove, mode).toEqual(mode === 'replace' ? [{ id: 3, record: delegation }] : []);
    }
  });

  it('treats a changed record as a delete and an add', () => {
    const { plan } = planImport(target, listed([a('www')]), [a('www', '192.0.2.9')]);
    expect(plan.add).toHaveLength(1);
    expect(plan.remove).toHaveLength(1);
  });
});

describe('needsForce (octoDNS: more than 30% of at least 10 records)', () => {
  it('holds back deleting 4 of 10, not 3 of 10', () => {
    expect(needsForce({ existing: 10, remove: Array(4).fill(undefined) })).toBe(true);
    expect(needsForce({ existing: 10, remove: Array(3).fill(undefined) })).toBe(false);
  });

  it('never holds back a zone of fewer than 10 records', () => {
    expect(needsForce({ existing: 9, remove: Array(9).fill(undefined) })).toBe(false);
    expect(needsForce({ existing: 3, remove: Array(2).fill(undefined) })).toBe(false);
  });

  it('agrees with the rule for any sizes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 500 }), fc.integer({ min: 0, max: 500 }), (existing, deletes) => {
        const removed = Math.min(existing, deletes);
        const verdict = needsForce({ existing, remove: Array(removed).fill(undefined) });
        expect(verdict).toBe(existing >= 10 && removed * 10 > existing * 3);
      }),
    );
  });
});

/** Records over a few hosts, so the file and the zone share names and types often. */
const smallZoneRecord = recordArbitrary({
  host: fc.constantFrom('@', 'www', 'WWW', 'mail', '_dmarc'),
  srvHost: fc.constantFrom('@', 'www'),
  text: fc.constantFrom('v=spf1 -all', 'v=spf1 mx ~all', 'hello'),
});
const zoneArb = fc
  .array(smallZoneRecord, { maxLength: 40 })
  .map((records) => records.map((record, i) => ({ id: i + 1, record })));
const fileArb = fc.array(smallZoneRecord, { maxLength: 15 });
const setKey = (r: DnsRecordData) => `${r.type} ${comparableValue('host', r.host)}`;

describe('import plans for any zone and file (properties)', () => {
  it('a merge never deletes a record of a name and type the file does not mention', () => {
    fc.assert(
      fc.property(zoneArb, fileArb, (current, wanted) => {
        const { plan, unchanged } = planImport(target, current, wanted);
        const mentioned = new Set(wanted.map(setKey));
        for (const removed of plan.remove) expect(mentioned.has(setKey(removed.record))).toBe(true);
        // Every listed record is either deleted or left as it is, never both or neither.
        expect(plan.remove.length + unchanged.length).toBe(current.length);
        // After the merge, every record of the file is in the zone (its apex NS are /ns's).
        const after = [...unchanged.map((u) => u.record), ...plan.add];
        for (const record of wanted.filter((r) => !isApexNs(r)))
          expect(after.some((r) => sameRecord(r, record))).toBe(true);
        for (const removed of plan.remove) expect(isApexNs(removed.record)).toBe(false);
      }),
    );
  });

  it('neither a merge nor a replace gets past the delete limit without force', () => {
    fc.assert(
      fc.property(
        zoneArb,
        fileArb,
        fc.constantFrom('merge', 'replace') as fc.Arbitrary<'merge' | 'replace'>,
        (current, wanted, mode) => {
          const { plan } = planImport(target, current, wanted, current.length, mode);
          // The domain's name servers are /ns's: no plan deletes one.
          for (const removed of plan.remove) expect(isApexNs(removed.record)).toBe(false);
          const changes = changesToApply(plan, { force: false });
          if (changes === 'needsForce') {
            expect(needsForce(plan)).toBe(true);
            // The explicit choice applies the whole plan.
            const forced = changesToApply(plan, { force: true });
            expect(forced).not.toBe('needsForce');
            return;
          }
          const deletes = changes.filter((c) => c.op === 'delete').length;
          expect(deletes).toBe(plan.remove.length);
          expect(current.length < 10 || deletes * 100 <= current.length * 30).toBe(true);
          // The one gap-free order (orderCalls): a delete goes before an add of its name only
          // where a CNAME stands on one side; every other name gets its new records first.
          for (const [index, call] of changes.entries()) {
            if (call.op !== 'delete') continue;
            const addsAfter = changes
              .slice(index + 1)
              .filter((c) => c.op === 'add' && sameHost(ownerName(c.record), ownerName(call.record)));
            if (addsAfter.length === 0) continue;
            expect(call.record.type === 'CNAME' || addsAfter.some((c) => c.record.type === 'CNAME')).toBe(
              true,
            );
          }
        },
      ),
    );
  });
});
