/**
 * Fault injection: rules that make the next matching API requests fail in a chosen way, and how
 * each kind of fault acts on the request.
 * The first added rule that matches wins; each match uses up one of its `times`.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { JSON_TYPE, parseMaybeJson, sendEmpty, sendRaw } from './http-io.js';
import { isObject } from './validation.js';

export type Fault =
  | { kind: 'status'; status: number; body?: string }
  | { kind: 'hang' }
  | { kind: 'delay'; ms: number }
  | { kind: 'malformed'; body: string; status?: number }
  | { kind: 'reset' }
  /** Carry the request out, then lose the answer: the client sees a broken connection. */
  | { kind: 'drop' };

export interface FaultRule {
  method?: string;
  /** Exact path, or a prefix ending in `*`, or a RegExp tested against the path. */
  path: string | RegExp;
  /** Default 1; Infinity allowed. */
  times?: number;
  /** Only requests made with this partner's token (1 = the first); default any request. */
  partner?: number;
  fault: Fault;
}

interface ActiveRule {
  method: string | undefined;
  partner: number | undefined;
  path: string | RegExp;
  remaining: number;
  fault: Fault;
}

export class FaultBook {
  private rules: ActiveRule[] = [];

  add(rule: FaultRule): void {
    const times = rule.times ?? 1;
    if (!(times > 0) || (Number.isFinite(times) && !Number.isInteger(times))) {
      throw new TypeError('FaultRule.times must be a positive integer or Infinity');
    }
    this.rules.push({
      method: rule.method?.toUpperCase(),
      partner: rule.partner,
      path: rule.path,
      remaining: times,
      fault: rule.fault,
    });
  }

  clear(): void {
    this.rules = [];
  }

  /** The fault for this request, if any rule matches; uses one of the rule's times. */
  take(method: string, path: string, partner?: number): Fault | undefined {
    const index = this.rules.findIndex(
      (rule) => (rule.partner === undefined || rule.partner === partner) && matches(rule, method, path),
    );
    const rule = this.rules[index];
    if (rule === undefined) return undefined;
    rule.remaining -= 1;
    if (rule.remaining <= 0) this.rules.splice(index, 1);
    return rule.fault;
  }
}

function matches(rule: ActiveRule, method: string, path: string): boolean {
  if (rule.method !== undefined && rule.method !== method.toUpperCase()) return false;
  if (rule.path instanceof RegExp) {
    rule.path.lastIndex = 0;
    return rule.path.test(path);
  }
  if (rule.path.endsWith('*')) return path.startsWith(rule.path.slice(0, -1));
  return path === rule.path;
}

/**
 * Makes the request fail as the fault says; `proceed` carries the request out (for `delay` and
 * `drop`). A delay's timer is kept in `timers` so that closing the server can clear it.
 */
export function applyFault(
  fault: Fault,
  req: IncomingMessage,
  res: ServerResponse,
  proceed: () => void,
  timers: Set<NodeJS.Timeout>,
): void {
  switch (fault.kind) {
    case 'status': {
      const body = fault.body ?? '';
      if (body === '') sendEmpty(res, fault.status);
      else {
        const json = parseMaybeJson(body) !== body;
        sendRaw(res, fault.status, body, json ? JSON_TYPE : 'text/plain; charset=utf-8');
      }
      return;
    }
    case 'hang':
      // Never answer; close() (or the client giving up) ends the connection.
      return;
    case 'delay': {
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!res.destroyed) proceed();
      }, fault.ms);
      timers.add(timer);
      return;
    }
    case 'malformed':
      sendRaw(res, fault.status ?? 200, fault.body, JSON_TYPE);
      return;
    case 'reset':
      req.socket.destroy();
      return;
    case 'drop':
      // The operation takes effect; only its answer is lost, as on a broken connection.
      res.end = (() => {
        req.socket.destroy();
        return res;
      }) as typeof res.end;
      proceed();
      return;
  }
}

/** Parses a FaultRule sent as JSON to the control endpoint; an English error text on failure. */
export function parseFaultRule(input: unknown): FaultRule | string {
  if (!isObject(input)) return 'fault rule must be a JSON object';
  const { method, path, times, fault, partner } = input;
  if (typeof path !== 'string' || path === '') return '"path" must be a non-empty string';
  if (method !== undefined && method !== null && typeof method !== 'string')
    return '"method" must be a string';
  let count: number | undefined;
  if (times === 'Infinity' || times === null) count = Number.POSITIVE_INFINITY;
  else if (times === undefined) count = undefined;
  else if (typeof times === 'number' && Number.isInteger(times) && times > 0) count = times;
  else return '"times" must be a positive integer or "Infinity"';
  if (partner !== undefined && !(typeof partner === 'number' && Number.isInteger(partner) && partner > 0))
    return '"partner" must be a positive integer';
  const parsedFault = parseFault(fault);
  if (typeof parsedFault === 'string') return parsedFault;
  const rule: FaultRule = { path, fault: parsedFault };
  if (typeof method === 'string') rule.method = method;
  if (typeof partner === 'number') rule.partner = partner;
  if (count !== undefined) rule.times = count;
  return rule;
}

function parseFault(input: unknown): Fault | string {
  if (!isObject(input)) return '"fault" must be an object';
  const isStatus = (value: unknown): value is number =>
    typeof value === 'number' && Number.isInteger(value) && value >= 100 && value <= 599;
  switch (input.kind) {
    case 'status': {
      if (!isStatus(input.status)) return '"fault.status" must be an HTTP status code';
      if (input.body !== undefined && typeof input.body !== 'string') return '"fault.body" must be a string';
      return typeof input.body === 'string'
        ? { kind: 'status', status: input.status, body: input.body }
        : { kind: 'status', status: input.status };
    }
    case 'hang':
      return { kind: 'hang' };
    case 'delay':
      if (typeof input.ms !== 'number' || !(input.ms >= 0)) return '"fault.ms" must be a non-negative number';
      return { kind: 'delay', ms: input.ms };
    case 'malformed': {
      if (typeof input.body !== 'string') return '"fault.body" must be a string';
      if (input.status === undefined) return { kind: 'malformed', body: input.body };
      if (!isStatus(input.status)) return '"fault.status" must be an HTTP status code';
      return { kind: 'malformed', body: input.body, status: input.status };
    }
    case 'reset':
      return { kind: 'reset' };
    case 'drop':
      return { kind: 'drop' };
    default:
      return '"fault.kind" must be one of status, hang, delay, malformed, reset, drop';
  }
}
