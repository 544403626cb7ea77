/*
 * The editing API's shapes (issue 33, slice 3), as the server answers them. Types only, no DOM:
 * the pending-plan logic and its unit test (run under Node) import them too.
 */

/** A record as the app edits it: the chat's one-line form in fields. */
export interface Row {
  type: string;
  host: string;
  /** Everything of the one-line form after the host and before the TTL (`10 mx.example.by`). */
  data: string;
  ttl: number;
}

export type Edit =
  | { op: 'change'; id: number; row: Row }
  | { op: 'add'; row: Row }
  | { op: 'delete'; id: number };

/** What stops an edit; `edit` is its index in the edits sent. */
export interface Problem {
  edit: number;
  field?: string;
  message: string;
}

export type PlanLine =
  | { op: 'add'; row: Row; text: string }
  | { op: 'delete'; row: Row; text: string }
  | { op: 'change'; before: Row; after: Row; text: string };

/** `POST api/zone/plan`: what Apply would do; nothing is written. */
export interface Plan {
  domain: string;
  domainUnicode: string;
  orderId: number;
  existing: number;
  lines: PlanLine[];
  problems: Problem[];
  needsForce: boolean;
  forceQuestion?: string;
  summary: string;
}

/**
 * `POST api/zone/paste`: the rows not yet in the zone, and the lines it could not read. The server
 * also names, beyond the contract, listed records the paste gives another TTL (`changes`).
 */
export interface Pasted {
  rows: Row[];
  changes?: Array<{ id: number; row: Row }>;
  skipped: Array<{ line: number; message: string }>;
}

/** `POST api/zone/apply`'s 200. */
export interface Applied {
  applied: number;
  failed: number;
  total: number;
  failures: Array<{ text: string; reason: string }>;
  message: string;
}

/** The record types a row may have. */
export const ROW_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'SRV', 'NS'] as const;
