/*
 * The Mini App's pending plan (app/src/pending.ts): the edits the zone editor sends to
 * `api/zone/plan` and `api/zone/apply`, one change per record, undoable; a cell's typed text
 * (fields.ts); and Apply's key, one per request (apply-key.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64url, keyFor } from '../../app/src/apply-key.js';
import { cellOf, patchOf } from '../../app/src/fields.js';
import {
  addRows,
  changeAdded,
  changeRecord,
  currentRow,
  deleteRecord,
  editsOf,
  pasteInto,
  pendingCount,
  rebase,
  removeAdded,
  restoreRecord,
  startPending,
} from '../../app/src/pending.js';
import type { Row } from '../../src/mini-app/contract.js';

const www: Row = { type: 'A', host: 'www', data: '93.125.99.10', ttl: 3600 };
const mx: Row = { type: 'MX', host: '@', data: '10 mx.example.by', ttl: 3600 };
const records = [
  { id: 11, row: www },
  { id: 12, row: mx },
  { id: 13, row: null },
];

describe('the pending plan', () => {
  it('starts empty over the readable records only', () => {
    const p = startPending(records);
    expect(editsOf(p)).toEqual({ edits: [], targets: [] });
    expect(pendingCount(p)).toBe(0);
    expect([...p.base.keys()]).toEqual([11, 12]);
    expect(changeRecord(p, 13, { data: 'x' })).toBe(p);
    expect(deleteRecord(p, 13)).toBe(p);
  });

  it('merges successive edits of one record into one change', () => {
    let p = startPending(records);
    p = changeRecord(p, 11, { data: '93.125.99.11' });
    p = changeRecord(p, 11, { ttl: 300 });
    p = changeRecord(p, 11, { host: 'web' });
    expect(editsOf(p).edits).toEqual([
      { op: 'change', id: 11, row: { type: 'A', host: 'web', data: '93.125.99.11', ttl: 300 } },
    ]);
    expect(currentRow(p, 11)?.ttl).toBe(300);
    expect(pendingCount(p)).toBe(1);
  });

  it('drops the change when the record is edited back to what was loaded', () => {
    let p = startPending(records);
    p = changeRecord(p, 11, { data: '1.1.1.1', ttl: 60 });
    p = changeRecord(p, 11, { data: www.data });
    expect(pendingCount(p)).toBe(1);
    p = changeRecord(p, 11, { ttl: www.ttl });
    expect(editsOf(p).edits).toEqual([]);
    expect(p.changed.size).toBe(0);
  });

  it('returns the same state for an edit that changes nothing', () => {
    const p = startPending(records);
    expect(changeRecord(p, 11, { data: www.data })).toBe(p);
  });

  it('deletes and restores a record; a change survives the delete and its undo', () => {
    let p = startPending(records);
    p = changeRecord(p, 12, { ttl: 600 });
    p = deleteRecord(p, 12);
    expect(editsOf(p).edits).toEqual([{ op: 'delete', id: 12 }]);
    expect(pendingCount(p)).toBe(1);
    p = restoreRecord(p, 12);
    expect(editsOf(p).edits).toEqual([{ op: 'change', id: 12, row: { ...mx, ttl: 600 } }]);
    expect(restoreRecord(p, 12)).toBe(p);
  });

  it('adds rows once each, edits and removes them by their key', () => {
    let p = startPending(records);
    const txt: Row = { type: 'TXT', host: '@', data: '"v=spf1 -all"', ttl: 3600 };
    p = addRows(p, [txt, txt]);
    expect(p.added).toHaveLength(1);
    expect(addRows(p, [txt])).toBe(p);
    const key = p.added[0]?.key ?? -1;
    p = changeAdded(p, key, { ttl: 300 });
    expect(editsOf(p)).toEqual({
      edits: [{ op: 'add', row: { ...txt, ttl: 300 } }],
      targets: [{ kind: 'added', key }],
    });
    p = removeAdded(p, key);
    expect(pendingCount(p)).toBe(0);
  });

  it('takes a pasted zone: its rows added, its listed records changed, counting what is new', () => {
    const txt: Row = { type: 'TXT', host: '@', data: '"x"', ttl: 3600 };
    const first = pasteInto(startPending(records), [txt], [{ id: 12, row: { ...mx, ttl: 600 } }]);
    expect(first).toMatchObject({ added: 1, changed: 1 });
    expect(editsOf(first.pending).edits.map((e) => e.op)).toEqual(['change', 'add']);
    const again = pasteInto(first.pending, [txt], [{ id: 12, row: { ...mx, ttl: 600 } }]);
    expect(again).toMatchObject({ added: 0, changed: 0 });
    expect(again.pending).toBe(first.pending);
  });

  it('lists edits in the table order, each with its row for the server’s problems', () => {
    let p = startPending(records);
    p = addRows(p, [{ type: 'A', host: 'new', data: '192.0.2.1', ttl: 3600 }]);
    p = deleteRecord(p, 12);
    p = changeRecord(p, 11, { ttl: 60 });
    const { edits, targets } = editsOf(p);
    expect(edits.map((e) => e.op)).toEqual(['change', 'delete', 'add']);
    expect(targets).toEqual([
      { kind: 'record', id: 11 },
      { kind: 'record', id: 12 },
      { kind: 'added', key: 1 },
    ]);
    expect(pendingCount(p)).toBe(3);
  });

  it('keeps over a reloaded zone only what is not stale', () => {
    let p = startPending(records);
    p = changeRecord(p, 11, { ttl: 60 });
    p = deleteRecord(p, 12);
    p = addRows(p, [{ type: 'A', host: 'new', data: '192.0.2.1', ttl: 3600 }]);
    // Someone changed the MX meanwhile; the A record is as it was.
    const reloaded = rebase(p, [
      { id: 11, row: www },
      { id: 12, row: { ...mx, ttl: 7200 } },
    ]);
    expect(editsOf(reloaded).edits.map((e) => e.op)).toEqual(['change', 'add']);
    expect(rebase(p, []).changed.size).toBe(0);
  });
});

describe('a cell’s typed text', () => {
  it('becomes a patch of its field, trimmed; a TTL only as whole seconds', () => {
    expect(patchOf('host', ' www ')).toEqual({ host: 'www' });
    expect(patchOf('data', ' 10 mx.example.by ')).toEqual({ data: '10 mx.example.by' });
    expect(patchOf('ttl', ' 300 ')).toEqual({ ttl: 300 });
    for (const bad of ['', '3e3', '-1', '1.5', '300s', '12345678901'])
      expect(patchOf('ttl', bad)).toBeUndefined();
    expect(patchOf('host', '  ')).toBeUndefined();
    expect(patchOf('data', '')).toEqual({ data: '' });
  });

  it('finds the cell a server’s problem names: the type’s own fields live in the value', () => {
    expect(cellOf('host')).toBe('host');
    expect(cellOf('ttl')).toBe('ttl');
    for (const field of ['ipv4', 'priority', 'target', 'text', 'extra']) expect(cellOf(field)).toBe('data');
    expect(cellOf('type')).toBeUndefined();
    expect(cellOf(undefined)).toBeUndefined();
  });
});

describe('the Apply key', () => {
  const edits = [{ op: 'delete' as const, id: 12 }];
  let n = 0;
  const fresh = () => `key-${++n}-0123456789abcdef`;

  it('is the same for the same request (a retry, a double tap) and new once the plan changes', () => {
    const first = keyFor(undefined, edits, false, fresh);
    expect(keyFor(first, [...edits], false, fresh)).toBe(first);
    const changed = keyFor(first, [{ op: 'delete', id: 11 }], false, fresh);
    expect(changed.key).not.toBe(first.key);
    const forced = keyFor(changed, [{ op: 'delete', id: 11 }], true, fresh);
    expect(forced.key).not.toBe(changed.key);
  });

  it('is base64url of the random bytes, 16 bytes making 22 characters of [A-Za-z0-9_-]', () => {
    expect(base64url(new Uint8Array([0xfb, 0xff, 0xbf]))).toBe('-_-_');
    expect(base64url(new TextEncoder().encode('hi'))).toBe('aGk');
    expect(base64url(new TextEncoder().encode('hello'))).toBe(Buffer.from('hello').toString('base64url'));
    const bytes = Uint8Array.from({ length: 16 }, (_, i) => i * 17);
    const key = base64url(bytes);
    expect(key).toBe(Buffer.from(bytes).toString('base64url'));
    expect(key).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
  });

  it('encodes any bytes as Node does', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        expect(base64url(bytes)).toBe(Buffer.from(bytes).toString('base64url'));
      }),
    );
  });
});
