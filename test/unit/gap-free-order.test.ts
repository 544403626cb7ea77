/*
 * The one gap-free order of a plan's provider calls (orderCalls), over random plans: random
 * listed records and random deletes and adds over a few names and the types A, AAAA, CNAME, MX
 * and TXT, CNAMEs coming, going and changing among them. Each plan is ordered by every face — the
 * chat's record change (`set`, ✏️ Change, replace: what the change runner makes), the chat's
 * plans applied through the one gate (imports, presets, bulk: changesToApply) and the Mini App's
 * table (planZoneEdits) — and the calls are replayed one at a time.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { changesToApply, checkPlan, deletesFirst, orderCalls } from '../../src/core/dns-change.js';
import { comparableValue } from '../../src/core/dns-fields.js';
import type { ListedRecord, PlannedChange } from '../../src/core/dns-plan.js';
import { type DnsRecordData, ownerName, sameRecord, sameRecordKey } from '../../src/core/dns-records.js';
import { planZoneEdits, rowOfRecord, type ZoneEdit } from '../../src/core/zone-edits.js';

// 'WWW' is 'www' as sameHost compares names: one name, two spellings.
const hostArb = fc.constantFrom('@', 'www', 'WWW', 'mail', 'shop');
const ttlArb = fc.constantFrom(300, 3600);
const recordArb: fc.Arbitrary<DnsRecordData> = fc.oneof(
  fc.record({
    type: fc.constant('A' as const),
    host: hostArb,
    ttl: ttlArb,
    ipv4: fc.constantFrom('192.0.2.1', '192.0.2.2'),
  }),
  fc.record({
    type: fc.constant('AAAA' as const),
    host: hostArb,
    ttl: ttlArb,
    ipv6: fc.constantFrom('2001:db8::1', '2001:db8::2'),
  }),
  fc.record({
    type: fc.constant('CNAME' as const),
    host: hostArb.filter((h) => h !== '@'),
    ttl: ttlArb,
    canonical: fc.constantFrom('one.example.net', 'two.example.net'),
  }),
  fc.record({
    type: fc.constant('MX' as const),
    host: hostArb,
    ttl: ttlArb,
    mail_server: fc.constantFrom('mx1.example.net', 'mx2.example.net'),
    priority: fc.constantFrom(10, 20),
  }),
  fc.record({
    type: fc.constant('TXT' as const),
    host: hostArb,
    ttl: ttlArb,
    text: fc.constantFrom('v=spf1 -all', 'hello'),
  }),
);

const nameOf = (record: DnsRecordData) => comparableValue('host', ownerName(record));

/** A zone as a provider holds it: no record twice, no CNAME beside another record of its name. */
function validZone(records: readonly DnsRecordData[]): ListedRecord[] {
  const kept: DnsRecordData[] = [];
  for (const record of records) {
    const here = kept.filter((k) => nameOf(k) === nameOf(record));
    if (here.some((k) => sameRecord(k, record))) continue;
    if (record.type === 'CNAME' ? here.length > 0 : here.some((k) => k.type === 'CNAME')) continue;
    kept.push(record);
  }
  return kept.map((record, i) => ({ id: 1001 + i, record }));
}

/**
 * A zone, and a plan over it the chat's rules accept (checkPlan: no CNAME beside another record),
 * adding no record the zone keeps or the plan adds already (every face plans such a plan so).
 */
const planArb = fc
  .array(recordArb, { maxLength: 8 })
  .map(validZone)
  .chain((current) =>
    fc.record({
      current: fc.constant(current),
      remove: fc.subarray(current),
      add: fc.array(recordArb, { maxLength: 4 }),
    }),
  )
  .map(({ current, remove, add }) => {
    const kept = current.filter((c) => !remove.includes(c)).map((c) => c.record);
    const fresh = add.filter(
      (a, i) => !kept.some((k) => sameRecord(k, a)) && add.findIndex((o) => sameRecord(o, a)) === i,
    );
    return { current, remove, add: fresh };
  })
  .filter(({ current, remove, add }) => checkPlan(current, remove, add).ok);

/** The zone after each call, made one at a time. */
function moments(current: readonly ListedRecord[], calls: readonly PlannedChange[]): DnsRecordData[][] {
  let now = [...current];
  let next = 90_000;
  const seen: DnsRecordData[][] = [];
  for (const call of calls) {
    if (call.op === 'add') now = [...now, { id: next++, record: call.record }];
    else now = now.filter((r) => r.id !== call.id);
    seen.push(now.map((r) => r.record));
  }
  return seen;
}

/** A call as the provider receives it, comparable across faces (an add by its record's content). */
function callKey(call: PlannedChange): string {
  const record = sameRecordKey(call.record);
  return call.op === 'delete' ? `delete #${call.id} ${record}` : `add ${record}`;
}

/** Every face's calls for one plan. */
function facesOrder(current: readonly ListedRecord[], remove: ListedRecord[], add: DnsRecordData[]) {
  const checked = checkPlan(current, remove, add);
  if (!checked.ok) throw new Error('planArb gives accepted plans only');
  // What the chat's change runner makes of a record change's plan (runner.ts: run).
  const chat = orderCalls(checked.plan.remove, checked.plan.add);
  const gate = changesToApply({ remove, add, existing: current.length }, { force: true });
  if (gate === 'needsForce') throw new Error('force was given');
  const edits: ZoneEdit[] = [
    ...remove.map((r): ZoneEdit => ({ op: 'delete', id: r.id })),
    ...add.map((record): ZoneEdit => ({ op: 'add', row: rowOfRecord(record) })),
  ];
  const app = planZoneEdits(current, edits);
  expect(app.problems).toEqual([]);
  return { chat, gate, app: app.calls, deleteFirst: checked.plan.deleteFirst };
}

describe('one gap-free order for every plan (properties)', () => {
  it('a name that answers before and after answers at every moment between, and no CNAME stands beside another record', () => {
    fc.assert(
      fc.property(planArb, ({ current, remove, add }) => {
        const { chat } = facesOrder(current, remove, add);
        const before = new Set(current.map((r) => nameOf(r.record)));
        const removed = new Set(remove.map((r) => r.id));
        const after = new Set([
          ...current.filter((r) => !removed.has(r.id)).map((r) => nameOf(r.record)),
          ...add.map(nameOf),
        ]);
        // The one exception, and it is the rule's own: where a CNAME comes or goes beside other
        // records of its name (old and new at one name, a CNAME on either side), old and new
        // cannot stand together even for a moment (RFC 1034 §3.6.2). The delete goes first, that
        // name answers nothing for a moment, and the partner is told (`deleteFirst`).
        const cnameSwap = new Set(
          remove
            .filter((r) =>
              add.some(
                (a) => nameOf(a) === nameOf(r.record) && (a.type === 'CNAME' || r.record.type === 'CNAME'),
              ),
            )
            .map((r) => nameOf(r.record)),
        );
        const answering = [...before].filter((name) => after.has(name) && !cnameSwap.has(name));
        for (const zone of moments(current, chat)) {
          for (const name of answering) expect(zone.some((r) => nameOf(r) === name)).toBe(true);
          for (const record of zone.filter((r) => r.type === 'CNAME')) {
            expect(zone.filter((r) => nameOf(r) === nameOf(record))).toEqual([record]);
          }
        }
        // The partner is told exactly when a delete went before an add of its name.
        expect(deletesFirst(chat)).toBe(cnameSwap.size > 0);
      }),
      { numRuns: 500 },
    );
  });

  it('the chat and the Mini App order one plan the same way', () => {
    fc.assert(
      fc.property(planArb, ({ current, remove, add }) => {
        const { chat, gate, app } = facesOrder(current, remove, add);
        expect(gate.map(callKey)).toEqual(chat.map(callKey));
        expect(app.map(callKey)).toEqual(chat.map(callKey));
      }),
      { numRuns: 500 },
    );
  });
});

describe('a change stored before the one order', () => {
  it('is told as it was made: the old whole-plan order, deletes first, says a name answered nothing', () => {
    const current: ListedRecord[] = [
      { id: 1, record: { type: 'CNAME', host: 'shop', ttl: 3600, canonical: 'one.example.net' } },
      { id: 2, record: { type: 'A', host: 'www', ttl: 3600, ipv4: '192.0.2.1' } },
    ];
    const [shop, www] = current as [ListedRecord, ListedRecord];
    const add: DnsRecordData[] = [
      { type: 'CNAME', host: 'shop', ttl: 3600, canonical: 'two.example.net' },
      { type: 'A', host: 'www', ttl: 3600, ipv4: '192.0.2.2' },
    ];
    // What an older version stored for this plan: every delete first, for the whole plan.
    const stored: PlannedChange[] = [
      { op: 'delete', id: shop.id, record: shop.record },
      { op: 'delete', id: www.id, record: www.record },
      ...add.map((record): PlannedChange => ({ op: 'add', record })),
    ];
    expect(deletesFirst(stored)).toBe(true);
    // Today's order: only shop's CNAME goes first; www gets its new address before the old goes.
    const today = orderCalls(current, add);
    expect(today.map((c) => `${c.op} ${c.record.type} ${c.record.host}`)).toEqual([
      'delete CNAME shop',
      'add CNAME shop',
      'add A www',
      'delete A www',
    ]);
    expect(deletesFirst(today)).toBe(true);
    expect(deletesFirst(orderCalls([www], [add[1] as DnsRecordData]))).toBe(false);
  });
});
