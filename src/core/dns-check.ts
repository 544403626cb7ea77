/*
 * The live check's rules, without the network: which name and type a change is seen at, what
 * each name server is expected to answer, how an answer compares (case, trailing dots, TXT
 * strings joined, MX priority, IPv6 spelling), what one round over every server amounts to, and
 * when to ask again. The network part (asking a server) comes in through `DnsProbe`.
 */

import { comparableValue } from './dns-fields.js';
import { toAsciiHostName } from './dns-host-names.js';
import { type DnsRecordData, type DnsType, recordDataText } from './dns-records.js';

/** How long a live check keeps asking after a change before it says "not visible yet" for good. */
export const LIVE_CHECK_LIMIT_MS = 120_000;

/** Pauses between two rounds: quick at first (most changes show within seconds), then every 30 s. */
export const LIVE_CHECK_DELAYS_MS: readonly number[] = [2_000, 4_000, 8_000, 16_000, 30_000];

/** The pause before round `attempt + 1` (attempt 0 = after the first round). */
export function retryDelay(attempt: number): number {
  return LIVE_CHECK_DELAYS_MS[Math.min(attempt, LIVE_CHECK_DELAYS_MS.length - 1)] ?? 30_000;
}

/** A name lower-cased, ASCII (punycode), without its trailing dot. */
export function comparableName(name: string): string {
  const bare = name.trim().replace(/\.$/, '');
  return (toAsciiHostName(bare) || bare).toLowerCase();
}

/** The full ASCII name a host of the domain stands for: '@' the domain, 'www' → www.<domain>. */
export function fullName(host: string, domain: string): string {
  const apex = comparableName(domain);
  const bare = host.trim();
  if (bare === '@' || bare === '') return apex;
  if (bare.endsWith('.')) return comparableName(bare);
  return comparableName(`${bare}.${apex}`);
}

/** Where a record is seen in DNS: its owner name (SRV's `_service._protocol.host`) and type. */
export function recordOwner(record: DnsRecordData, domain: string): { name: string; type: DnsType } {
  const owner = fullName(record.host, domain);
  if (record.type !== 'SRV') return { name: owner, type: record.type };
  const label = (text: string) => (text.startsWith('_') ? text : `_${text}`);
  return { name: comparableName(`${label(record.service)}.${label(record.protocol)}.${owner}`), type: 'SRV' };
}

/** What a resolver gives back for one record of a type, before comparison. */
export type RawAnswer =
  | string
  | string[]
  | { priority: number; exchange: string }
  | { priority: number; weight: number; port: number; name: string };

/** One answer in the one form both sides are compared in. */
export function comparableAnswer(type: DnsType, raw: RawAnswer): string {
  if (Array.isArray(raw)) return raw.join('');
  if (typeof raw === 'object') {
    if ('exchange' in raw) return `${raw.priority} ${comparableName(raw.exchange)}`;
    return `${raw.priority} ${raw.weight} ${raw.port} ${comparableName(raw.name) || '.'}`;
  }
  switch (type) {
    case 'AAAA':
      return comparableValue('ipv6', raw);
    case 'CNAME':
    case 'NS':
      return comparableName(raw);
    case 'TXT':
      return raw;
    default:
      return raw.trim();
  }
}

/** A record's data in the form a server's answer is compared with. */
export function comparableRecord(record: DnsRecordData): string {
  switch (record.type) {
    case 'A':
      return record.ipv4;
    case 'AAAA':
      return comparableValue('ipv6', record.ipv6);
    case 'CNAME':
      return comparableName(record.canonical);
    case 'NS':
      return comparableName(record.ns);
    case 'MX':
      return `${record.priority} ${comparableName(record.mail_server)}`;
    case 'TXT':
      return record.text;
    case 'SRV':
      return `${record.priority} ${record.weight} ${record.port} ${comparableName(record.target) || '.'}`;
  }
}

/**
 * What every name server should answer for one name and type: the values that must be there and
 * those that must be gone; `exact` when nothing else may be there either (an on-demand check
 * compares with what the provider lists).
 */
export interface Expectation {
  name: string;
  type: DnsType;
  present: string[];
  absent: string[];
  exact: boolean;
  /** The present values as a person reads them (for the report). */
  shown: string[];
}

/** At most this many names and types are checked after one change (a large import checks its first ones). */
export const MAX_EXPECTATIONS = 5;

/**
 * Whether a record below the apex delegates its name (an NS record at `shop`): the domain's servers
 * answer a question about it with a referral, not with the record, so it is not checked there.
 */
export function isDelegation(record: { type: DnsType; host: string }): boolean {
  const host = record.host.trim();
  return record.type === 'NS' && host !== '@' && host !== '';
}

/**
 * What a change should look like in DNS: added records answered, removed ones not, per name and
 * type (delegations aside).
 */
export function expectChange(
  domain: string,
  change: { added?: readonly DnsRecordData[]; removed?: readonly DnsRecordData[] },
): Expectation[] {
  const byTarget = new Map<string, Expectation>();
  const at = (record: DnsRecordData) => {
    const { name, type } = recordOwner(record, domain);
    const key = `${name} ${type}`;
    let expectation = byTarget.get(key);
    if (!expectation) {
      expectation = { name, type, present: [], absent: [], exact: false, shown: [] };
      byTarget.set(key, expectation);
    }
    return expectation;
  };
  for (const record of (change.added ?? []).filter((r) => !isDelegation(r))) {
    const expectation = at(record);
    expectation.present.push(comparableRecord(record));
    expectation.shown.push(recordDataText(record));
  }
  for (const record of (change.removed ?? []).filter((r) => !isDelegation(r))) {
    const value = comparableRecord(record);
    const expectation = at(record);
    // Removed and added again (an import changing a ttl): it must be there.
    if (!expectation.present.includes(value)) expectation.absent.push(value);
  }
  return [...byTarget.values()].slice(0, MAX_EXPECTATIONS);
}

/**
 * An on-demand check of `host` and `type`: the servers should answer exactly the records the
 * provider lists there (those of `listed` seen at that name).
 */
export function expectListed(
  domain: string,
  host: string,
  type: DnsType,
  listed: readonly DnsRecordData[],
): Expectation {
  const name = fullName(host, domain);
  const there = listed.filter((r) => r.type === type && recordOwner(r, domain).name === name);
  return {
    name,
    type,
    present: there.map(comparableRecord),
    absent: [],
    exact: true,
    shown: there.map((r) => recordDataText(r)),
  };
}

/** Why a server gave no usable answer. */
export type ProbeFailure = 'timeout' | 'refused' | 'servfail' | 'unreachable' | 'noAddress';

/** What one server said for one name and type: its values (none for NXDOMAIN or NODATA), or why not. */
export type ProbeResult = { kind: 'answer'; values: string[] } | { kind: 'failed'; reason: ProbeFailure };

/**
 * Asks name servers over DNS (the network part, given to the bot by main.ts; tests give the
 * sandbox's DNS server, or a fake).
 */
export interface DnsProbe {
  /** Where a name server is asked: the address the list gives, else its name resolved. */
  addressesOf(
    server: { ns: string; ip?: string | null | undefined },
    signal?: AbortSignal,
  ): Promise<string[]>;
  /** One question to the server at `address`; answers compared with `comparableAnswer`. */
  ask(address: string, name: string, type: DnsType, signal?: AbortSignal): Promise<ProbeResult>;
}

/** A server's state for one expectation. */
export type Sighting = 'visible' | 'notYet' | ProbeFailure;

/** Whether one answer shows what is expected. */
export function judge(expectation: Expectation, result: ProbeResult): Sighting {
  if (result.kind === 'failed') return result.reason;
  const values = new Set(result.values);
  if (!expectation.present.every((v) => values.has(v))) return 'notYet';
  if (expectation.absent.some((v) => values.has(v))) return 'notYet';
  if (expectation.exact && values.size !== new Set(expectation.present).size) return 'notYet';
  return 'visible';
}

/** A server's state over every expectation: the first failure, else not yet when any is, else visible. */
export function serverSighting(sightings: readonly Sighting[]): Sighting {
  const failure = sightings.find((s) => s !== 'visible' && s !== 'notYet');
  if (failure) return failure;
  return sightings.includes('notYet') ? 'notYet' : 'visible';
}

/** One round over every server: who shows the change, who not yet, who did not answer (and why). */
export interface RoundOutcome {
  visible: string[];
  notYet: string[];
  failed: { server: string; reason: ProbeFailure }[];
  /** Every server shows the change. */
  done: boolean;
}

export function summarizeRound(servers: readonly { server: string; sighting: Sighting }[]): RoundOutcome {
  const visible = servers.filter((s) => s.sighting === 'visible').map((s) => s.server);
  const notYet = servers.filter((s) => s.sighting === 'notYet').map((s) => s.server);
  const failed = servers.flatMap((s) =>
    s.sighting === 'visible' || s.sighting === 'notYet' ? [] : [{ server: s.server, reason: s.sighting }],
  );
  return { visible, notYet, failed, done: servers.length > 0 && visible.length === servers.length };
}
