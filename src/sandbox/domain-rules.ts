/**
 * Deterministic domain rules of the sandbox: name syntax, zone lookup by longest suffix
 * (IDN zones in Unicode or punycode), and the availability answer of `POST /v1/domains/check`.
 *
 * Check rules, in this order:
 * 1. not a valid domain name, or not exactly one label in front of a known zone → `Invalid`;
 * 2. a valid name in a zone the provider does not serve → `UnsupportedZone`;
 * 3. taken → `NotAvailable`: the first label starts with `taken`, or the name is in the seeded
 *    list of registered names, or a domain order for it exists in this sandbox;
 * 4. otherwise available → `Available`.
 * Independently, `is_premium` is true when the first label starts with `premium` or has at most
 * two characters. Premium names that are not taken are available.
 */

import { domainToASCII, domainToUnicode } from 'node:url';
import type { SandboxState, Zone } from './state.js';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

export interface DomainCheckResult {
  domain: string;
  is_available: boolean;
  is_premium: boolean;
  state: 'Available' | 'NotAvailable' | 'Invalid' | 'UnsupportedZone';
}

/** Punycode lower-case form of a host name, or undefined when it is not a valid name. */
export function asciiName(input: string): string | undefined {
  const trimmed = input.trim().toLowerCase();
  if (trimmed === '' || trimmed.length > 253 || /\s/.test(trimmed)) return undefined;
  const ascii = domainToASCII(trimmed);
  if (ascii === '' || ascii.length > 253) return undefined;
  const labels = ascii.split('.');
  if (labels.length < 2) return undefined;
  if (!labels.every((label) => LABEL.test(label))) return undefined;
  // A purely numeric top label would be an IP address, not a domain.
  if (/^\d+$/.test(labels[labels.length - 1] ?? '')) return undefined;
  return ascii;
}

/** True for a valid host name, optionally a wildcard `*.name` (SSL certificates). */
export function isHostName(input: string, allowWildcard = false): boolean {
  const name = allowWildcard && input.startsWith('*.') ? input.slice(2) : input;
  return asciiName(name) !== undefined;
}

/** The zone of an ASCII domain name by longest matching suffix. */
export function findZone(ascii: string, zones: readonly Zone[]): Zone | undefined {
  let best: Zone | undefined;
  let bestLength = -1;
  for (const zone of zones) {
    const suffix = domainToASCII(zone.name);
    if ((ascii === suffix || ascii.endsWith(`.${suffix}`)) && suffix.length > bestLength) {
      best = zone;
      bestLength = suffix.length;
    }
  }
  return best;
}

/** The label in front of the zone when the name is registrable in it (exactly one label). */
function registrableLabel(ascii: string, zone: Zone): string | undefined {
  const suffix = domainToASCII(zone.name);
  if (!ascii.endsWith(`.${suffix}`)) return undefined;
  const label = ascii.slice(0, -(suffix.length + 1));
  return label !== '' && !label.includes('.') ? label : undefined;
}

/** The other partners' states of the same sandbox, by state (see `sharePartners`). */
const otherPartners = new WeakMap<SandboxState, readonly SandboxState[]>();

/**
 * Tells the domain rules that these states are the partners of one sandbox: a domain one of them
 * ordered is taken for every other.
 */
export function sharePartners(states: readonly SandboxState[]): void {
  for (const state of states) {
    otherPartners.set(
      state,
      states.filter((other) => other !== state),
    );
  }
}

/** Domains already ordered in this sandbox (any partner), ASCII. */
function orderedDomains(state: SandboxState): Set<string> {
  const names = new Set<string>();
  for (const order of [state, ...(otherPartners.get(state) ?? [])].flatMap((s) => s.orders)) {
    if (order.details.kind === 'domain') {
      const ascii = asciiName(order.details.domain);
      if (ascii !== undefined) names.add(ascii);
    }
  }
  return names;
}

export function isTaken(ascii: string, state: SandboxState): boolean {
  const first = ascii.split('.')[0] ?? '';
  return first.startsWith('taken') || state.takenDomains.includes(ascii) || orderedDomains(state).has(ascii);
}

export function isPremium(ascii: string): boolean {
  const first = domainToUnicode(ascii.split('.')[0] ?? '');
  return first.startsWith('premium') || [...first].length <= 2;
}

export type Registrable =
  | { ok: true; ascii: string; zone: Zone }
  | { ok: false; reason: 'Invalid' | 'UnsupportedZone' };

/** Whether the name can be registered as a domain in one of the zones (taken or not). */
export function registrable(input: string, zones: readonly Zone[]): Registrable {
  const ascii = asciiName(input);
  if (ascii === undefined) return { ok: false, reason: 'Invalid' };
  const zone = findZone(ascii, zones);
  if (zone === undefined) return { ok: false, reason: 'UnsupportedZone' };
  if (registrableLabel(ascii, zone) === undefined) return { ok: false, reason: 'Invalid' };
  return { ok: true, ascii, zone };
}

export function checkDomain(input: string, state: SandboxState): DomainCheckResult {
  const domain = input.trim().toLowerCase();
  const result = registrable(input, state.zones);
  if (!result.ok) {
    return { domain, is_available: false, is_premium: false, state: result.reason };
  }
  const premium = isPremium(result.ascii);
  if (isTaken(result.ascii, state)) {
    return { domain, is_available: false, is_premium: premium, state: 'NotAvailable' };
  }
  return { domain, is_available: true, is_premium: premium, state: 'Available' };
}
