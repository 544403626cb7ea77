import { BlockList, isIPv4, isIPv6 } from 'node:net';
import { isIpv4, isIpv6 } from './dns-fields.js';
import { asciiDomain, comparableName, isDomainName } from './dns-host-names.js';

/*
 * Keys for robots (routers, certificate clients): what a key is, what it may touch, and the
 * checks of what a robot sends, with no storage and no HTTP. A key does one thing on one name:
 * - `address`: the A and AAAA records of exactly one host (dyndns2, `/nic/update`);
 * - `certificate`: the TXT records at `_acme-challenge.<domain>` and at `_acme-challenge` of its
 *   subdomains (lego's httpreq, acme-dns), and nothing else.
 */

export const KEY_KINDS = ['address', 'certificate'] as const;
/** What a key may change: one host's addresses, or one domain's ACME challenges. */
export type KeyKind = (typeof KEY_KINDS)[number];

/** The limits of keys and of what a robot may ask at once. */
export const KEY_LIMITS = {
  /** Keys one chat may hold (revoked ones are gone, not counted). */
  perChat: 20,
  /** Hosts in one dyndns2 `hostname` list (more: `numhost`). */
  hostsPerRequest: 20,
  /** Source networks one key may be bound to. */
  networks: 10,
  /** A key's name, in characters. */
  nameLength: 40,
  /** TXT values of one challenge name standing at once (apex and wildcard, a retry). */
  challengeValues: 4,
} as const;

/** The label every DNS-01 challenge is asked at (RFC 8555 §8.4). */
export const ACME_LABEL = '_acme-challenge';

/** A key's public id, the login robots send: `k` and 12 lower-case base32 characters. */
const KEY_ID = /^k[a-z2-7]{12}$/;
/** A key's secret, the password robots send: 32 random bytes in base64url (43 characters). */
const KEY_SECRET = /^[A-Za-z0-9_-]{43}$/;

/** Whether a login has the shape of a key id (anything else is refused before storage is asked). */
export function isKeyId(text: string): boolean {
  return KEY_ID.test(text);
}

/** Whether a password has the shape of a key's secret. */
export function isKeySecret(text: string): boolean {
  return KEY_SECRET.test(text);
}

/** What a key may change: its kind and its name (ASCII, lower-case, no trailing dot). */
export interface KeyScope {
  kind: KeyKind;
  /** address: the host (`office.client.by`); certificate: the domain (`client.by`, `shop.client.by`). */
  name: string;
}

/**
 * Whether a full name (as a robot sends it: any case, Unicode or punycode, a trailing dot or not)
 * is inside the key's scope: for an address key the host itself; for a certificate key
 * `_acme-challenge.` followed by the domain or one of its subdomains.
 */
export function inKeyScope(scope: KeyScope, fqdn: string): boolean {
  const name = comparableName(fqdn);
  if (scope.kind === 'address') return name === scope.name;
  const prefix = `${ACME_LABEL}.`;
  if (!name.startsWith(prefix)) return false;
  const rest = name.slice(prefix.length);
  // One challenge label, at its start only: `_acme-challenge._acme-challenge.x` is not a challenge.
  if (rest.split('.').includes(ACME_LABEL)) return false;
  return rest === scope.name || rest.endsWith(`.${scope.name}`);
}

/** The scope a name typed in the chat gives, or why it cannot be one. */
export type ScopeReading = { ok: true; name: string } | { ok: false; reason: 'name' };

/** Reads the host or domain a key is made for: a full name of two labels or more, no wildcard. */
export function readScopeName(text: string): ScopeReading {
  const trimmed = text.trim();
  if (trimmed.includes('*') || trimmed.includes('_') || !isDomainName(trimmed))
    return { ok: false, reason: 'name' };
  return { ok: true, name: asciiDomain(trimmed) };
}

/** An address a robot sent, read: its family, or why it is refused. */
export type AddressReading = { ok: true; family: 4 | 6; address: string } | { ok: false };

/**
 * An address for an A or AAAA record: a public-looking IPv4 or IPv6 address as the record
 * fields accept it (no zone index, no leading zeros). IPv4-mapped IPv6 (`::ffff:1.2.3.4`, the
 * way a dual-stack socket names an IPv4 caller) is read as the IPv4 address.
 */
export function readAddress(text: string): AddressReading {
  const trimmed = text.trim();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  const value = mapped?.[1] ?? trimmed;
  if (isIpv4(value)) return { ok: true, family: 4, address: value };
  if (isIpv6(value)) return { ok: true, family: 6, address: value.toLowerCase() };
  return { ok: false };
}

/** A source network a key is bound to: an address with a prefix length, as typed. */
export interface SourceNetwork {
  address: string;
  prefix: number;
  family: 4 | 6;
}

/** Networks typed in the chat (commas, spaces or lines), read; the first piece that is not one. */
export type NetworksReading =
  | { ok: true; networks: string[] }
  | { ok: false; bad: string }
  | { ok: false; tooMany: true };

function readNetwork(piece: string): SourceNetwork | undefined {
  const [address = '', prefixText, ...rest] = piece.split('/');
  if (rest.length > 0) return undefined;
  const family = isIPv4(address) && isIpv4(address) ? 4 : isIPv6(address) && isIpv6(address) ? 6 : undefined;
  if (family === undefined) return undefined;
  const max = family === 4 ? 32 : 128;
  if (prefixText === undefined) return { address, prefix: max, family };
  if (!/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = Number(prefixText);
  return prefix <= max ? { address, prefix, family } : undefined;
}

/** Reads a list of networks (`198.51.100.0/24, 2001:db8::/32`; an address alone is itself). */
export function readNetworks(text: string): NetworksReading {
  const pieces = text
    .split(/[\s,;]+/)
    .map((piece) => piece.trim())
    .filter((piece) => piece !== '');
  if (pieces.length > KEY_LIMITS.networks) return { ok: false, tooMany: true };
  const networks: string[] = [];
  for (const piece of pieces) {
    const network = readNetwork(piece);
    if (!network) return { ok: false, bad: piece };
    networks.push(`${network.address}/${network.prefix}`);
  }
  return { ok: true, networks };
}

/**
 * Whether a request's source address is inside one of the key's networks; a key with none is
 * usable from anywhere. An IPv4 caller seen as `::ffff:a.b.c.d` is matched as IPv4.
 */
export function fromKeyNetworks(networks: readonly string[], source: string): boolean {
  if (networks.length === 0) return true;
  const reading = readAddress(source);
  if (!reading.ok) return false;
  const list = new BlockList();
  for (const text of networks) {
    const network = readNetwork(text);
    if (network) list.addSubnet(network.address, network.prefix, network.family === 4 ? 'ipv4' : 'ipv6');
  }
  return list.check(reading.address, reading.family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * The answers of the dyndns2 protocol, one line per host, as ddclient and inadyn read them:
 * `good <ip>` changed, `nochg <ip>` already so; the rest change nothing.
 */
export const DYNDNS_ANSWERS = [
  'good',
  'nochg',
  'badauth',
  'nohost',
  'notfqdn',
  'numhost',
  'abuse',
  'dnserr',
  '911',
] as const;
export type DyndnsAnswer = (typeof DYNDNS_ANSWERS)[number];

/**
 * What a robot last did with a key, as the key's list words it: a dyndns2 answer for its host
 * (with the addresses), or an ACME value presented, cleaned up or updated (with the name).
 */
export const KEY_USE_ACTIONS = [...DYNDNS_ANSWERS, 'present', 'cleanup', 'update'] as const;
export type KeyUseAction = (typeof KEY_USE_ACTIONS)[number];

/** A dyndns2 `hostname` parameter read: its hosts (ASCII, lower-case), or the answer refusing it. */
export type HostListReading = { ok: true; hosts: string[] } | { ok: false; answer: 'notfqdn' | 'numhost' };

/** Reads `hostname=a.client.by,b.client.by`: a list of full names, at most `hostsPerRequest`. */
export function readHostList(text: string | undefined): HostListReading {
  const hosts = (text ?? '')
    .split(',')
    .map((piece) => piece.trim())
    .filter((piece) => piece !== '');
  if (hosts.length === 0) return { ok: false, answer: 'notfqdn' };
  if (hosts.length > KEY_LIMITS.hostsPerRequest) return { ok: false, answer: 'numhost' };
  if (hosts.some((host) => !isDomainName(host) || host.includes('*')))
    return { ok: false, answer: 'notfqdn' };
  return { ok: true, hosts: hosts.map((host) => asciiDomain(host)) };
}

/** A value of a DNS-01 challenge: base64url of a SHA-256 digest, 43 characters (RFC 8555 §8.4). */
export function isChallengeValue(text: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(text);
}
