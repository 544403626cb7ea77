import { domainToASCII } from 'node:url';

/*
 * Host-name rules of DNS records: the syntax of a label, of a host relative to the domain and of
 * a full target name; names in their ASCII (punycode) form; full names made relative to the
 * domain, and names reduced for comparison. The record types (dns-records.ts) and the field
 * checks (dns-fields.ts) hold names to these rules.
 */

/** A label of a host or target: letters, digits, '_' (service labels like _dmarc) and inner '-'. */
const LABEL = /^[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?$/;
const NON_ASCII = /[^\p{ASCII}]/u;

/**
 * The ASCII form of one label, or undefined when it is not a valid label. Labels are converted one
 * by one because domainToASCII reads an all-numeric name as an IPv4 address ('1' → '0.0.0.1').
 */
function labelToAscii(label: string): string | undefined {
  const ascii = NON_ASCII.test(label) ? domainToASCII(label) : label;
  if (!LABEL.test(ascii)) return undefined;
  // A label that claims to be punycode must decode; domainToASCII answers '' when it does not.
  if (/^xn--/i.test(ascii) && domainToASCII(ascii) === '') return undefined;
  return ascii;
}

/** The ASCII labels of a relative or full name without its trailing dot, or undefined. */
function asciiLabels(name: string): string[] | undefined {
  if (name === '') return undefined;
  const labels: string[] = [];
  for (const label of name.split('.')) {
    const ascii = labelToAscii(label);
    if (ascii === undefined) return undefined;
    labels.push(ascii);
  }
  return labels.join('.').length <= 253 ? labels : undefined;
}

/**
 * The name with its Unicode labels in punycode; ASCII labels, their case and a trailing dot are
 * kept. A name that cannot be converted comes back as it is, for the caller's checks to refuse.
 */
export function toAsciiHostName(name: string): string {
  if (!NON_ASCII.test(name)) return name;
  const dot = name.endsWith('.') && name !== '.';
  const bare = dot ? name.slice(0, -1) : name;
  const converted = bare.split('.').map((label) => (label === '*' ? label : labelToAscii(label)));
  if (converted.some((label) => label === undefined)) return name;
  return `${converted.join('.')}${dot ? '.' : ''}`;
}

/** A name reduced for comparison: lower-case ASCII, no trailing dot, '' for the apex read as '@'. */
export function comparableName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '.') return '.';
  const bare = trimmed.endsWith('.') ? trimmed.slice(0, -1) : trimmed;
  if (bare === '' || bare === '@') return '@';
  return bare
    .split('.')
    .map((label) => (labelToAscii(label) ?? label).toLowerCase())
    .join('.');
}

/**
 * A full name made relative to the domain: '@' for the domain itself, 'www' for www.<domain>;
 * undefined when the name is outside the domain. Either name may be Unicode or punycode, with or
 * without a trailing dot; the relative labels keep the form they were written in.
 */
export function relativeHost(name: string, domain: string): string | undefined {
  const labels = (name.endsWith('.') ? name.slice(0, -1) : name).split('.');
  const domainLabels = comparableName(domain).split('.');
  if (labels.length < domainLabels.length) return undefined;
  const tail = labels.slice(labels.length - domainLabels.length).join('.');
  if (comparableName(tail) !== domainLabels.join('.')) return undefined;
  const head = labels.slice(0, labels.length - domainLabels.length);
  return head.length === 0 ? '@' : head.join('.');
}

/** A host relative to the domain: '@', '*', '*.name' or a relative name; IDN labels allowed. */
export function isHostLabel(host: string): boolean {
  if (host === '@' || host === '*') return true;
  const name = host.startsWith('*.') ? host.slice(2) : host;
  const labels = asciiLabels(name);
  return labels !== undefined && (host === name || `*.${labels.join('.')}`.length <= 253);
}

/** A full name for a target (mail_server, ns, canonical, target): two labels or more, trailing dot allowed, IDN allowed. */
export function isDomainName(name: string): boolean {
  const bare = name.endsWith('.') ? name.slice(0, -1) : name;
  const labels = asciiLabels(bare);
  if (labels === undefined || labels.length < 2) return false;
  // An all-numeric last label makes it an IP address, which is never a target name here.
  return !/^\d+$/.test(labels.at(-1) ?? '');
}

/** The ASCII form of a domain without its trailing dot, lower-case. */
export function asciiDomain(domain: string): string {
  return toAsciiHostName(domain.trim().replace(/\.$/, '')).toLowerCase();
}
