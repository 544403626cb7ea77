import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  appendBounded,
  type HistoryChange,
  type HistoryEntry,
  planUndo,
  type RecordChange,
  sameNameServers,
  type UndoPlan,
  undoBlockOf,
} from '../../src/core/dns-history.js';
import type { ListedRecord } from '../../src/core/dns-plan.js';
import { type DnsRecordData, sameRecord } from '../../src/core/dns-records.js';
import { hostArbitrary, recordArbitrary, relativeName } from '../helpers/dns-arbitraries.js';

/*
 * The undo of a recorded change, computed against the records as they are now: it reverses
 * exactly what the change did, or refuses — never touching a record the change did not make.
 */

// Few hosts and values, so that equal records (the hard case for "find the added one") happen.
const record = recordArbitrary({
  host: hostArbitrary(fc.constantFrom('www', 'mail')),
  srvHost: fc.oneof(fc.constant('@'), relativeName),
  text: fc.constantFrom('v=spf1 -all', 'hello', 'v=DMARC1; p=none'),
});
const zoneArb = fc.array(record, { maxLength: 12 });

/** A zone as the provider lists it: ids increase, as the sandbox's do. */
class Zone {
  private nextId = 1;
  records: ListedRecord[];
  constructor(records: readonly DnsRecordData[]) {
    this.records = records.map((r) => ({ id: this.nextId++, record: r }));
  }
  add(record: DnsRecordData) {
    this.records.push({ id: this.nextId++, record });
  }
  delete(id: number) {
    this.records = this.records.filter((r) => r.id !== id);
  }
  apply(plan: UndoPlan) {
    if (plan.type !== 'records') throw new Error('a records plan expected');
    for (const r of plan.remove) {
      expect(this.records.some((c) => c.id === r.id)).toBe(true);
      this.delete(r.id);
    }
    for (const r of plan.add) this.add(r);
  }
  contents() {
    return this.records.map((r) => r.record);
  }
}

/** Whether two record lists hold the same records, each as many times (as the diff compares them). */
function sameMultiset(a: readonly DnsRecordData[], b: readonly DnsRecordData[]): boolean {
  if (a.length !== b.length) return false;
  const left = [...b];
  return a.every((r) => {
    const i = left.findIndex((o) => sameRecord(o, r));
    if (i < 0) return false;
    left.splice(i, 1);
    return true;
  });
}

const count = (records: readonly DnsRecordData[], r: DnsRecordData) =>
  records.filter((o) => sameRecord(o, r)).length;

/** A change: records to add, and indexes of zone records to delete. */
const changeArb = fc.record({
  adds: fc.array(record, { maxLength: 3 }),
  deletes: fc.array(fc.nat(), { maxLength: 3 }),
});

/** Makes the change the way the bot does (delete by id, then add) and returns what it recorded. */
function change(zone: Zone, spec: { adds: DnsRecordData[]; deletes: number[] }): RecordChange[] {
  const changes: RecordChange[] = [];
  const ids = [...new Set(spec.deletes.map((i) => zone.records[i % Math.max(zone.records.length, 1)]?.id))];
  for (const id of ids) {
    const listed = zone.records.find((r) => r.id === id);
    if (!listed) continue;
    zone.delete(listed.id);
    changes.push({ op: 'delete', record: listed.record });
  }
  for (const r of spec.adds) {
    zone.add(r);
    changes.push({ op: 'add', record: r });
  }
  return changes;
}

describe('planUndo of record changes', () => {
  it('undo(change(zone)) = zone, for any record set and change', () => {
    fc.assert(
      fc.property(zoneArb, changeArb, (records, spec) => {
        const zone = new Zone(records);
        const changes = change(zone, spec);
        const deleted = changes.filter((c) => c.op === 'delete').map((c) => c.record);
        const added = changes.filter((c) => c.op === 'add').map((c) => c.record);
        // Undoable: what was added is told apart from what was there, and what was deleted is gone.
        fc.pre(added.every((r) => count(zone.contents(), r) === count(added, r)));
        fc.pre(deleted.every((r) => count(zone.contents(), r) === 0));
        const result = planUndo({ records: changes }, { records: zone.records });
        if (changes.length === 0) {
          expect(result).toEqual({ ok: false, reason: 'empty' });
          return;
        }
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        zone.apply(result.plan);
        expect(sameMultiset(zone.contents(), records)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('never touches a record the change did not make: it restores the zone or refuses', () => {
    fc.assert(
      fc.property(zoneArb, changeArb, zoneArb, (records, spec, meanwhile) => {
        const zone = new Zone(records);
        const changes = change(zone, spec);
        // Others change the zone meanwhile: records added elsewhere.
        for (const r of meanwhile) zone.add(r);
        const result = planUndo({ records: changes }, { records: zone.records });
        if (!result.ok) return;
        zone.apply(result.plan);
        // Exactly the change's records went and came back; the others' additions are all there.
        const expected = [...records, ...meanwhile];
        expect(sameMultiset(zone.contents(), expected)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  const a = (host: string, ipv4: string, ttl = 3600): DnsRecordData => ({ type: 'A', host, ttl, ipv4 });

  it('refuses with a reason and the record it is about', () => {
    const www = a('www', '192.0.2.1');
    expect(planUndo({ records: [{ op: 'add', record: www }] }, { records: [] })).toEqual({
      ok: false,
      reason: 'gone',
      record: www,
    });
    // Changed meanwhile (another ttl): not the record that was added.
    expect(
      planUndo(
        { records: [{ op: 'add', record: www }] },
        { records: [{ id: 1, record: a('www', '192.0.2.1', 300) }] },
      ).ok,
    ).toBe(false);
    expect(
      planUndo(
        { records: [{ op: 'add', record: www }] },
        {
          records: [
            { id: 1, record: www },
            { id: 2, record: a('WWW', '192.0.2.1') },
          ],
        },
      ),
    ).toMatchObject({ ok: false, reason: 'ambiguous' });
    expect(
      planUndo({ records: [{ op: 'delete', record: www }] }, { records: [{ id: 5, record: www }] }),
    ).toMatchObject({
      ok: false,
      reason: 'present',
    });
    expect(planUndo({ records: [] }, { records: [] })).toEqual({ ok: false, reason: 'empty' });
  });

  it('deletes an added record by the id it has now, and re-adds a deleted one with the same content', () => {
    const www = a('www', '192.0.2.1');
    const mail = a('mail', '192.0.2.2');
    const result = planUndo(
      {
        records: [
          { op: 'delete', record: mail },
          { op: 'add', record: www },
        ],
      },
      { records: [{ id: 42, record: www }] },
    );
    expect(result).toEqual({
      ok: true,
      plan: { type: 'records', remove: [{ id: 42, record: www }], add: [mail] },
      change: {
        records: [
          { op: 'delete', record: www },
          { op: 'add', record: mail },
        ],
      },
    });
  });
});

describe('planUndo of name servers', () => {
  const before = [{ ns: 'ns1.hoster.by' }, { ns: 'ns2.hoster.by' }];
  const after = [{ ns: 'ns1.mine.by', ip: '192.0.2.1' }];
  const ns: HistoryChange = { nameServers: { before, after } };

  it('restores the earlier servers when the current ones are the change’s result', () => {
    expect(planUndo(ns, { nameServers: [{ ns: 'NS1.mine.by.', ip: '192.0.2.1' }] })).toEqual({
      ok: true,
      plan: { type: 'nameServers', servers: before },
      change: { nameServers: { before: after, after: before } },
    });
  });

  it('refuses when they were changed since', () => {
    expect(planUndo(ns, { nameServers: before })).toEqual({ ok: false, reason: 'nsChanged' });
    expect(planUndo(ns, { nameServers: [] })).toEqual({ ok: false, reason: 'nsChanged' });
  });

  it('compares server lists as sets', () => {
    expect(sameNameServers([{ ns: 'a.by' }, { ns: 'b.by' }], [{ ns: 'B.BY.' }, { ns: 'a.by' }])).toBe(true);
    expect(sameNameServers([{ ns: 'a.by', ip: '192.0.2.1' }], [{ ns: 'a.by' }])).toBe(false);
  });
});

describe('appendBounded', () => {
  it('keeps the latest entries up to the limit', () => {
    let list: number[] = [];
    for (let i = 0; i < 130; i++) list = appendBounded(list, i);
    expect(list).toHaveLength(100);
    expect(list[0]).toBe(30);
    expect(list.at(-1)).toBe(129);
  });
});

describe('undoBlockOf: whether the history offers an undo', () => {
  const www: DnsRecordData = { type: 'A', host: 'www', ttl: 3600, ipv4: '192.0.2.1' };
  const entry = (id: string, change: HistoryChange, undoes?: string): HistoryEntry => ({
    id,
    at: '2026-11-28T10:00:00.000Z',
    who: { chatId: 1, userId: 1, name: 'Анна' },
    kind: undoes ? 'undo' : 'add',
    change,
    ...(undoes ? { undoes } : {}),
  });
  const added = entry('e1', { records: [{ op: 'add', record: www }] });

  it('offers it where the plan applies cleanly against what stands now', () => {
    expect(undoBlockOf([added], added, { records: [{ id: 7, record: www }] })).toBeUndefined();
  });

  it('says why not: the record gone, or an undo of the entry already made', () => {
    expect(undoBlockOf([added], added, { records: [] })).toBe('gone');
    const undo = entry('e2', { records: [{ op: 'delete', record: www }] }, 'e1');
    // Undone already, even where the record stands again (added once more since).
    expect(undoBlockOf([undo, added], added, { records: [{ id: 8, record: www }] })).toBe('alreadyUndone');
    expect(undoBlockOf([undo, added], undo, { records: [] })).toBeUndefined();
  });
});
