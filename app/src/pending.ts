/*
 * The pending plan: what the user has changed, deleted and added since the zone was loaded, as
 * the `Edit[]` the server takes. Pure and immutable (every step returns a new state), no DOM, so
 * it is unit-tested under Node (test/unit/mini-app-pending.test.ts).
 */
import type { Edit, Row } from '../../src/mini-app/contract.js';

/** A row the user added, with a local key the table keeps it by. */
export interface Added {
  readonly key: number;
  readonly row: Row;
}

/** Which table row an edit belongs to: a listed record, or an added row. */
export type Target = { kind: 'record'; id: number } | { kind: 'added'; key: number };

export interface Pending {
  /** The editable records as loaded, in the zone's order. */
  readonly base: ReadonlyMap<number, Row>;
  readonly changed: ReadonlyMap<number, Row>;
  readonly deleted: ReadonlySet<number>;
  readonly added: readonly Added[];
  readonly nextKey: number;
}

export const sameRow = (a: Row, b: Row): boolean =>
  a.type === b.type && a.host === b.host && a.data === b.data && a.ttl === b.ttl;

/** No edits over the zone's records (a record without a row is not editable). */
export function startPending(records: ReadonlyArray<{ id: number; row: Row | null }>): Pending {
  const base = new Map<number, Row>();
  for (const r of records) if (r.row) base.set(r.id, r.row);
  return { base, changed: new Map(), deleted: new Set(), added: [], nextKey: 1 };
}

/** A record as it would be after its pending change (its loaded row without one). */
export function currentRow(p: Pending, id: number): Row | undefined {
  return p.changed.get(id) ?? p.base.get(id);
}

/**
 * Edits one record: successive edits merge into its one change; an edit back to the loaded row
 * drops the change. An unknown id changes nothing.
 */
export function changeRecord(p: Pending, id: number, patch: Partial<Row>): Pending {
  const before = p.base.get(id);
  const now = currentRow(p, id);
  if (!before || !now) return p;
  const next = { ...now, ...patch };
  if (sameRow(next, now)) return p;
  const changed = new Map(p.changed);
  if (sameRow(next, before)) changed.delete(id);
  else changed.set(id, next);
  return { ...p, changed };
}

/** Marks a record deleted; a pending change stays, for «Вернуть» to bring back. */
export function deleteRecord(p: Pending, id: number): Pending {
  if (!p.base.has(id) || p.deleted.has(id)) return p;
  return { ...p, deleted: new Set(p.deleted).add(id) };
}

export function restoreRecord(p: Pending, id: number): Pending {
  if (!p.deleted.has(id)) return p;
  const deleted = new Set(p.deleted);
  deleted.delete(id);
  return { ...p, deleted };
}

/** Adds rows; one already pending as it is is not added twice. */
export function addRows(p: Pending, rows: readonly Row[]): Pending {
  const added = [...p.added];
  let nextKey = p.nextKey;
  for (const row of rows) {
    if (added.some((a) => sameRow(a.row, row))) continue;
    added.push({ key: nextKey++, row: { ...row } });
  }
  return added.length === p.added.length ? p : { ...p, added, nextKey };
}

/** A pasted zone: its rows added, its changes of listed records made; how many of each were new. */
export function pasteInto(
  p: Pending,
  rows: readonly Row[],
  changes: ReadonlyArray<{ id: number; row: Row }> = [],
): { pending: Pending; added: number; changed: number } {
  let next = addRows(p, rows);
  const added = next.added.length - p.added.length;
  let changed = 0;
  for (const change of changes) {
    const after = changeRecord(next, change.id, change.row);
    if (after !== next) changed++;
    next = after;
  }
  return { pending: next, added, changed };
}

export function changeAdded(p: Pending, key: number, patch: Partial<Row>): Pending {
  const at = p.added.findIndex((a) => a.key === key);
  const old = p.added[at];
  if (!old) return p;
  const row = { ...old.row, ...patch };
  if (sameRow(row, old.row)) return p;
  const added = [...p.added];
  added[at] = { key, row };
  return { ...p, added };
}

export function removeAdded(p: Pending, key: number): Pending {
  const added = p.added.filter((a) => a.key !== key);
  return added.length === p.added.length ? p : { ...p, added };
}

/**
 * The edits to send, in the table's order (records as loaded, then added rows), and for each its
 * table row, so the server's `problems[].edit` finds the row to show them by. A deleted record
 * is a `delete` whatever its change was.
 */
export function editsOf(p: Pending): { edits: Edit[]; targets: Target[] } {
  const edits: Edit[] = [];
  const targets: Target[] = [];
  for (const id of p.base.keys()) {
    const row = p.changed.get(id);
    if (p.deleted.has(id)) edits.push({ op: 'delete', id });
    else if (row) edits.push({ op: 'change', id, row });
    else continue;
    targets.push({ kind: 'record', id });
  }
  for (const a of p.added) {
    edits.push({ op: 'add', row: a.row });
    targets.push({ kind: 'added', key: a.key });
  }
  return { edits, targets };
}

/** How many edits are pending (a deleted record with a change counts once). */
export function pendingCount(p: Pending): number {
  let changedAlive = 0;
  for (const id of p.changed.keys()) if (!p.deleted.has(id)) changedAlive++;
  return changedAlive + p.deleted.size + p.added.length;
}

/**
 * The same edits over a reloaded zone: a change or delete of a record that is gone or no longer
 * as it was loaded is dropped (it would be stale); added rows stay.
 */
export function rebase(p: Pending, records: ReadonlyArray<{ id: number; row: Row | null }>): Pending {
  const fresh = startPending(records);
  const unchanged = (id: number) => {
    const was = p.base.get(id);
    const now = fresh.base.get(id);
    return was !== undefined && now !== undefined && sameRow(was, now);
  };
  const changed = new Map([...p.changed].filter(([id]) => unchanged(id)));
  const deleted = new Set([...p.deleted].filter(unchanged));
  return { ...fresh, changed, deleted, added: p.added, nextKey: p.nextKey };
}
