/*
 * A row's cells as the user types them, and which cell a server's problem is about. Pure (no
 * DOM): unit-tested under Node with the pending plan.
 */
import type { Row } from '../../src/mini-app/contract.js';

/** The cells a user edits in place. */
export type Field = 'host' | 'data' | 'ttl';

/**
 * A cell's typed text as a patch of its row, or undefined when it cannot be one: a TTL not in
 * whole seconds, an empty host (the server takes no row without one).
 */
export function patchOf(field: Field, text: string): Partial<Row> | undefined {
  const value = text.trim();
  if (field === 'ttl') return /^\d{1,10}$/.test(value) ? { ttl: Number(value) } : undefined;
  if (field === 'host') return value === '' ? undefined : { host: value };
  return { data: value };
}

/**
 * The cell a problem's `field` is about: the grammar names the host, the TTL, or one of the
 * type's own fields (ipv4, priority, target, text…), which all live in `data`; the type has none.
 */
export function cellOf(field: string | undefined): Field | undefined {
  if (field === undefined || field === 'type') return undefined;
  return field === 'host' || field === 'ttl' ? field : 'data';
}
