import { isIPv6 } from 'node:net';
import { comparableName, isDomainName, isHostLabel } from './dns-host-names.js';

/*
 * The kinds of the fields of DNS records (a host, a ttl, an address, a name, a text…): the one
 * check of a value of each kind, the reasons a value is refused, how a value typed alone is read,
 * and how values of a kind compare. Every path (the one-line form, the guided form, BIND) checks
 * and compares through here.
 */

/** Largest ttl: a signed 32-bit number of seconds (RFC 2181); the smallest is 0, "do not cache". */
export const MAX_TTL = 2_147_483_647;
/** Longest TXT text the bot sends; DKIM keys of 4096 bits fit. */
export const MAX_TXT_LENGTH = 4000;

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`);

/** A dotted quad of 0..255 without leading zeros (01.2.3.4 is refused: some read it as octal). */
export function isIpv4(text: string): boolean {
  return IPV4.test(text);
}

/** An IPv6 address as node:net reads it, without a zone index (fe80::1%eth0 has no place in DNS). */
export function isIpv6(text: string): boolean {
  return isIPv6(text) && !text.includes('%');
}

/** A service or protocol label of SRV (RFC 2782): `_sip`, `_tcp`; the underscore is required. */
const SERVICE_LABEL = /^_[A-Za-z0-9](?:[A-Za-z0-9-]{0,60}[A-Za-z0-9])?$/;

/** Why a field was refused; the partner reads it as `dns:reason.<reason>` with problemParams. */
export type RecordReason =
  | 'empty'
  | 'ipv4'
  | 'ipv6'
  | 'host'
  | 'domain'
  | 'service'
  | 'integer'
  | 'range'
  | 'tooLong'
  /** A mail server '.' (a null MX, "no mail here") with a priority other than 0 (RFC 7505). */
  | 'nullMx';

/** The first problem of a record: the field it is in and why. */
export type RecordProblem = { field: string; reason: RecordReason };

type Problem = RecordProblem | undefined;

/** What a field holds, and so how it is checked and read from typed text. */
export type FieldKind = 'host' | 'ttl' | 'ipv4' | 'ipv6' | 'name' | 'target' | 'service' | 'uint16' | 'text';

/** Integer bounds of the numeric kinds (shown to the partner with a range problem). */
const BOUNDS = { ttl: { min: 0, max: MAX_TTL }, uint16: { min: 0, max: 65_535 } } as const;

const isBlank = (text: string): boolean => text.trim() === '';

/** The one check of a field value of a kind: every path (line, guided form, BIND) comes here. */
export function checkField(field: string, kind: FieldKind, value: string | number): Problem {
  if (kind === 'ttl' || kind === 'uint16') {
    const { min, max } = BOUNDS[kind];
    if (typeof value !== 'number' || !Number.isInteger(value)) return { field, reason: 'integer' };
    return value < min || value > max ? { field, reason: 'range' } : undefined;
  }
  const text = String(value);
  if (isBlank(text)) return { field, reason: 'empty' };
  switch (kind) {
    case 'host':
      return isHostLabel(text) ? undefined : { field, reason: 'host' };
    case 'ipv4':
      return isIpv4(text) ? undefined : { field, reason: 'ipv4' };
    case 'ipv6':
      return isIpv6(text) ? undefined : { field, reason: 'ipv6' };
    case 'name':
      return isDomainName(text) ? undefined : { field, reason: 'domain' };
    case 'target':
      // '.' is "nothing here": no such service (SRV, RFC 2782), no mail (MX, RFC 7505); decided
      // once for every path.
      return text === '.' || isDomainName(text) ? undefined : { field, reason: 'domain' };
    case 'service':
      return SERVICE_LABEL.test(text) ? undefined : { field, reason: 'service' };
    case 'text':
      return text.length > MAX_TXT_LENGTH ? { field, reason: 'tooLong' } : undefined;
  }
}

// ---- equality of values -----------------------------------------------------------------------

/** The 8 groups of an IPv6 address (embedded IPv4 included), or undefined. */
function ipv6Groups(text: string): number[] | undefined {
  if (!isIpv6(text)) return undefined;
  let address = text.toLowerCase();
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    address = `${address.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = address.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? [] : Array<string>(8 - headGroups.length - tailGroups.length).fill('0');
  return [...headGroups, ...zeros, ...tailGroups].map((group) => Number.parseInt(group, 16));
}

/** One spelling per IPv6 address, so 2001:DB8:0::1 and 2001:db8::1 compare equal. */
function comparableIpv6(text: string): string {
  return ipv6Groups(text)?.join(':') ?? text.toLowerCase();
}

/** `_sip` and `sip`, `_TCP` and `_tcp` name the same service and protocol. */
const comparableServiceLabel = (label: string): string => label.replace(/^_/, '').toLowerCase();

/**
 * A field value reduced for comparison by its kind: names case-insensitive without a trailing dot
 * and in one (ASCII) form, IPv6 in one spelling, service labels with or without '_'; addresses,
 * numbers and text as they are.
 */
export function comparableValue(kind: FieldKind, value: string | number): string {
  switch (kind) {
    case 'host':
    case 'name':
    case 'target':
      return comparableName(String(value));
    case 'ipv6':
      return comparableIpv6(String(value));
    case 'service':
      return comparableServiceLabel(String(value));
    case 'ttl':
    case 'uint16':
    case 'ipv4':
    case 'text':
      return String(value);
  }
}

/** The i18n key and parameters that tell the partner a problem (never the internal code). */
export function problemMessage(problem: { field: string; reason: string }): {
  key: string;
  params: Record<string, string | number>;
} {
  const bounds = problem.field === 'ttl' ? BOUNDS.ttl : BOUNDS.uint16;
  const params: Record<string, string | number> =
    problem.reason === 'range' ? { ...bounds } : problem.reason === 'tooLong' ? { max: MAX_TXT_LENGTH } : {};
  return { key: `dns:reason.${problem.reason}`, params };
}

/**
 * A field typed alone (the guided form): numbers are read as whole decimal numbers, text keeps
 * its spaces, everything else is trimmed; then the same check as every other path.
 */
export function readField(
  field: string,
  kind: FieldKind,
  text: string,
): { ok: true; value: string | number } | { ok: false; problem: RecordProblem } {
  let value: string | number = kind === 'text' ? text : text.trim();
  if (kind === 'ttl' || kind === 'uint16') {
    const word = String(value);
    if (!/^[+-]?\d+$/.test(word)) return { ok: false, problem: { field, reason: 'integer' } };
    // `+ 0` turns -0 into 0, as the one-line grammar reads it.
    value = Number(word) + 0;
    if (!Number.isSafeInteger(value)) return { ok: false, problem: { field, reason: 'range' } };
  }
  const problem = checkField(field, kind, value);
  return problem ? { ok: false, problem } : { ok: true, value };
}
