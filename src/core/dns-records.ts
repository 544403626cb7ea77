import { isIPv6 } from 'node:net';
import { domainToASCII } from 'node:url';

/*
 * DNS records as the bot handles them: the seven types the partner API can add, in one registry
 * (DNS_RECORD_TYPES): their fields and checks, reading the provider's listed values back, and
 * record equality for the zone diff. The one-line grammar (dns-line.ts) and the zone files
 * (bind.ts) read and write every type from its entry. Hosts are relative to the domain ('@' is
 * the apex); targets are full names.
 */

/** The record types the partner API can add and delete. */
export const DNS_TYPES = ['A', 'AAAA', 'CNAME', 'NS', 'MX', 'TXT', 'SRV'] as const;
/** One of the seven record types of the partner API. */
export type DnsType = (typeof DNS_TYPES)[number];
/** The ttl of a record when the user gives none (one hour, the provider's own default in listings). */
export const DEFAULT_TTL = 3600;
/** Largest ttl: a signed 32-bit number of seconds (RFC 2181). */
export const MAX_TTL = 2_147_483_647;
/** Longest TXT text the bot sends; DKIM keys of 4096 bits fit. */
export const MAX_TXT_LENGTH = 4000;

/** A record as the bot handles it; host is relative to the domain: '@' for the apex, 'www', '_dmarc', '*'. */
export type DnsRecordData =
  | { type: 'A'; host: string; ttl: number; ipv4: string }
  | { type: 'AAAA'; host: string; ttl: number; ipv6: string }
  | { type: 'CNAME'; host: string; ttl: number; canonical: string }
  | { type: 'NS'; host: string; ttl: number; ns: string }
  | { type: 'MX'; host: string; ttl: number; mail_server: string; priority: number }
  | { type: 'TXT'; host: string; ttl: number; text: string }
  | {
      type: 'SRV';
      host: string;
      ttl: number;
      service: string;
      protocol: string;
      target: string;
      port: number;
      priority: number;
      weight: number;
    };

/** Whether an upper-case string names one of the seven types. */
export function isDnsType(text: string): text is DnsType {
  return (DNS_TYPES as readonly string[]).includes(text);
}

// ---- names ------------------------------------------------------------------------------------

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
function comparableName(name: string): string {
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

// ---- validators -------------------------------------------------------------------------------

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
  | 'tooLong';

/** The first problem of a record: the field it is in and why. */
export type RecordProblem = { field: string; reason: RecordReason };

type Problem = RecordProblem | undefined;

/** What a field holds, and so how it is checked and read from typed text. */
export type FieldKind = 'host' | 'ttl' | 'ipv4' | 'ipv6' | 'name' | 'target' | 'service' | 'uint16' | 'text';

/** Integer bounds of the numeric kinds (shown to the partner with a range problem). */
const BOUNDS = { ttl: { min: 1, max: MAX_TTL }, uint16: { min: 0, max: 65_535 } } as const;

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
      // '.' is "no such service here" (RFC 2782), decided once for every path.
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

// ---- zone-file text ---------------------------------------------------------------------------

const utf8 = new TextDecoder('utf-8');
const utf8Encoder = new TextEncoder();

/**
 * Decodes the content of zone-file character strings (quotes already removed): `\DDD` is a byte,
 * `\X` is X, everything else stands for its UTF-8 bytes; the bytes are then read as UTF-8, so a
 * BIND dump of Cyrillic text (`\208\159…`) comes back as text.
 */
export function decodeZoneText(raw: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const char = raw[i] ?? '';
    if (char === '\\' && i + 1 < raw.length) {
      const digits = /^\d{3}/.exec(raw.slice(i + 1, i + 4));
      if (digits && Number(digits[0]) <= 255) {
        bytes.push(Number(digits[0]));
        i += 3;
        continue;
      }
      i++;
    }
    const codePoint = raw.codePointAt(i) ?? 0;
    const piece = String.fromCodePoint(codePoint);
    if (piece.length === 2) i++;
    bytes.push(...utf8Encoder.encode(piece));
  }
  return utf8.decode(new Uint8Array(bytes));
}

/**
 * When the whole rdata is one or more zone-file quoted strings (`"a" "b"`), their decoded
 * concatenation; otherwise undefined (the text is verbatim).
 */
function unquoteTxt(rdata: string): string | undefined {
  const parts: string[] = [];
  const quoted = /\s*"((?:[^"\\]|\\[\s\S])*)"\s*/y;
  let position = 0;
  while (position < rdata.length) {
    quoted.lastIndex = position;
    const match = quoted.exec(rdata);
    if (!match) return undefined;
    parts.push(match[1] ?? '');
    position = quoted.lastIndex;
  }
  return parts.length > 0 ? decodeZoneText(parts.join('')) : undefined;
}

// ---- listed values ----------------------------------------------------------------------------

const UINT16 = /^\d{1,5}$/;
const toUint16 = (text: string): number | undefined =>
  UINT16.test(text) && Number(text) <= 65_535 ? Number(text) : undefined;

/** SRV rdata after host, service and protocol, in either order the provider might use. */
function srvNumbers(
  parts: readonly string[],
): { priority: number; weight: number; port: number; target: string } | undefined {
  const [a = '', b = '', c = '', d = ''] = parts;
  if (parts.length !== 4) return undefined;
  // The sandbox and BIND: priority weight port target.
  const [priority, weight, port] = [toUint16(a), toUint16(b), toUint16(c)];
  if (priority !== undefined && weight !== undefined && port !== undefined && toUint16(d) === undefined) {
    return { priority, weight, port, target: d };
  }
  // The add call's order: target port priority weight.
  const [port2, priority2, weight2] = [toUint16(b), toUint16(c), toUint16(d)];
  if (toUint16(a) === undefined && port2 !== undefined && priority2 !== undefined && weight2 !== undefined) {
    return { priority: priority2, weight: weight2, port: port2, target: a };
  }
  return undefined;
}

/** `_sip._tcp.www` → service, protocol and host ('@' when nothing follows the two labels). */
function splitSrvOwner(owner: string): { service: string; protocol: string; host: string } | undefined {
  const match = /^(_[^.]+)\.(_[^.]+)(?:\.(.+))?$/.exec(owner);
  if (!match) return undefined;
  return { service: match[1] ?? '', protocol: match[2] ?? '', host: match[3] ?? '@' };
}

/** The data part of a listed value: its words, and the text after the host's one blank as it is. */
export interface ListedData {
  /** The words of the data. */
  parts: readonly string[];
  /** Trimmed data. */
  rdata: string;
  /** Everything after the host and one blank, spaces kept (a TXT text as the sandbox stores it). */
  verbatim: string;
}

/** The single word of a one-word listed value, or undefined. */
const single = (data: ListedData): string | undefined =>
  data.parts.length === 1 ? data.parts[0] : undefined;

// ---- the registry -----------------------------------------------------------------------------

/** One field of a record type: its name in the record and the API body, and its kind. */
export interface FieldSpec {
  name: string;
  kind: FieldKind;
}

/**
 * A record type in one place (octoDNS keeps parse, validate and render of a type together). The
 * fields (name and kind) drive what is common to every type: the checks (checkField), the guided
 * form, equality (comparableValue), the one-line form (words in field order, a `text` field free
 * text to the end of the line) and the zone-file codecs (by kind). What is particular to a type
 * sits here: its one-line form, how it is built, how its data reads to a person, its zone-file
 * layout, the other word order its one-line form accepts, and how the provider lists it.
 */
export interface RecordTypeDescriptor<T extends DnsType> {
  /** In the order of the one-line form and the guided form. */
  fields: readonly FieldSpec[];
  /** The one-line form, shown with any error in a line. */
  form: string;
  /** The record from its host, ttl and field values (numbers already read). */
  build(host: string, ttl: number, values: Readonly<Record<string, string | number>>): RecordOf<T>;
  /** The data part as a person reads it: `10 mx.example.by`, `"v=spf1 -all"`. */
  data(record: RecordOf<T>): string;
  /**
   * The zone-file layout: the fields the owner name carries before the host (SRV's `_sip._tcp`),
   * then the rdata fields in their zone-file order.
   */
  zone: { owner: readonly string[]; rdata: readonly string[] };
  /** The one-line field words in form order, when written in another order the form accepts. */
  lineWords?(words: readonly string[]): readonly string[];
  /** The record from a listed value's host and data; undefined when not understood. */
  fromListed(host: string, ttl: number, data: ListedData): RecordOf<T> | undefined;
}

/** The record of one type. */
export type RecordOf<T extends DnsType> = Extract<DnsRecordData, { type: T }>;

const str = (values: Readonly<Record<string, string | number>>, name: string): string =>
  String(values[name] ?? '');
const num = (values: Readonly<Record<string, string | number>>, name: string): number => {
  const value = values[name];
  return typeof value === 'number' ? value : Number.NaN;
};

/** The registry of the seven record types. */
export const DNS_RECORD_TYPES: { [T in DnsType]: RecordTypeDescriptor<T> } = {
  A: {
    fields: [{ name: 'ipv4', kind: 'ipv4' }],
    form: 'A <host> <ipv4> [ttl]',
    build: (host, ttl, v) => ({ type: 'A', host, ttl, ipv4: str(v, 'ipv4') }),
    data: (r) => r.ipv4,
    zone: { owner: [], rdata: ['ipv4'] },
    fromListed: (host, ttl, d) => {
      const ipv4 = single(d);
      return ipv4 !== undefined && isIpv4(ipv4) ? { type: 'A', host, ttl, ipv4 } : undefined;
    },
  },
  AAAA: {
    fields: [{ name: 'ipv6', kind: 'ipv6' }],
    form: 'AAAA <host> <ipv6> [ttl]',
    build: (host, ttl, v) => ({ type: 'AAAA', host, ttl, ipv6: str(v, 'ipv6') }),
    data: (r) => r.ipv6,
    zone: { owner: [], rdata: ['ipv6'] },
    fromListed: (host, ttl, d) => {
      const ipv6 = single(d);
      return ipv6 !== undefined && isIpv6(ipv6) ? { type: 'AAAA', host, ttl, ipv6 } : undefined;
    },
  },
  CNAME: {
    fields: [{ name: 'canonical', kind: 'name' }],
    form: 'CNAME <host> <canonical> [ttl]',
    build: (host, ttl, v) => ({ type: 'CNAME', host, ttl, canonical: str(v, 'canonical') }),
    data: (r) => r.canonical,
    zone: { owner: [], rdata: ['canonical'] },
    fromListed: (host, ttl, d) => {
      const canonical = single(d);
      return canonical === undefined ? undefined : { type: 'CNAME', host, ttl, canonical };
    },
  },
  NS: {
    fields: [{ name: 'ns', kind: 'name' }],
    form: 'NS <host> <ns> [ttl]',
    build: (host, ttl, v) => ({ type: 'NS', host, ttl, ns: str(v, 'ns') }),
    data: (r) => r.ns,
    zone: { owner: [], rdata: ['ns'] },
    fromListed: (host, ttl, d) => {
      const ns = single(d);
      return ns === undefined ? undefined : { type: 'NS', host, ttl, ns };
    },
  },
  MX: {
    fields: [
      { name: 'mail_server', kind: 'name' },
      { name: 'priority', kind: 'uint16' },
    ],
    form: 'MX <host> <mail_server> <priority> [ttl]',
    build: (host, ttl, v) => ({
      type: 'MX',
      host,
      ttl,
      mail_server: str(v, 'mail_server'),
      priority: num(v, 'priority'),
    }),
    data: (r) => `${r.priority} ${r.mail_server}`,
    zone: { owner: [], rdata: ['priority', 'mail_server'] },
    // Zone files put the priority first; a number where the server belongs means that order.
    lineWords: ([server = '', priority = '', ...rest]) =>
      /^\d+$/.test(server) && !/^[+-]?\d+$/.test(priority)
        ? [priority, server, ...rest]
        : [server, priority, ...rest],
    // The sandbox lists `<priority> <server>`; `<server> <priority>` is read too.
    fromListed: (host, ttl, { parts }) => {
      const [first = '', second = ''] = parts;
      if (parts.length !== 2) return undefined;
      const priorityFirst = toUint16(first);
      if (priorityFirst !== undefined)
        return { type: 'MX', host, ttl, mail_server: second, priority: priorityFirst };
      const prioritySecond = toUint16(second);
      return prioritySecond === undefined
        ? undefined
        : { type: 'MX', host, ttl, mail_server: first, priority: prioritySecond };
    },
  },
  TXT: {
    fields: [{ name: 'text', kind: 'text' }],
    form: 'TXT <host> <text…> [ttl=<n>]',
    build: (host, ttl, v) => ({ type: 'TXT', host, ttl, text: str(v, 'text') }),
    data: (r) => `"${r.text}"`,
    zone: { owner: [], rdata: ['text'] },
    // Verbatim, unless wholly in double quotes (one or more strings), which are then removed.
    fromListed: (host, ttl, d) => ({ type: 'TXT', host, ttl, text: unquoteTxt(d.rdata) ?? d.verbatim }),
  },
  SRV: {
    fields: [
      { name: 'service', kind: 'service' },
      { name: 'protocol', kind: 'service' },
      { name: 'target', kind: 'target' },
      { name: 'port', kind: 'uint16' },
      { name: 'priority', kind: 'uint16' },
      { name: 'weight', kind: 'uint16' },
    ],
    form: 'SRV <host> <service> <protocol> <target> <port> <priority> <weight> [ttl]',
    build: (host, ttl, v) => ({
      type: 'SRV',
      host,
      ttl,
      service: str(v, 'service'),
      protocol: str(v, 'protocol'),
      target: str(v, 'target'),
      port: num(v, 'port'),
      priority: num(v, 'priority'),
      weight: num(v, 'weight'),
    }),
    data: (r) => `${r.service} ${r.protocol} ${r.priority} ${r.weight} ${r.port} ${r.target}`,
    zone: { owner: ['service', 'protocol'], rdata: ['priority', 'weight', 'port', 'target'] },
    // A BIND owner `_sip._tcp.www <priority> <weight> <port> <target>`, or `<host> <service>
    // <protocol>` and the numbers in the sandbox's order or the add call's.
    fromListed: (host, ttl, { parts }) => {
      const owner = splitSrvOwner(host);
      if (owner && parts.length === 4) {
        const numbers = srvNumbers(parts);
        return numbers ? { type: 'SRV', ttl, ...owner, ...numbers } : undefined;
      }
      const [service = '', protocol = ''] = parts;
      if (parts.length !== 6) return undefined;
      const numbers = srvNumbers(parts.slice(2));
      return numbers ? { type: 'SRV', host, ttl, service, protocol, ...numbers } : undefined;
    },
  },
};

/** The descriptor of a record's own type (one cast-free lookup for the union). */
export function descriptorOf<T extends DnsType>(type: T): RecordTypeDescriptor<T> {
  return DNS_RECORD_TYPES[type];
}

/** The field values of a record, by name, in the order of its type's fields. */
export function fieldValues(record: DnsRecordData): [FieldSpec, string | number][] {
  const values: Readonly<Record<string, unknown>> = record;
  return descriptorOf(record.type).fields.map((field) => {
    const value = values[field.name];
    return [field, typeof value === 'number' ? value : String(value ?? '')];
  });
}

/** A value for each record type, computed from the registry (exhaustive by construction). */
export function perRecordType<V>(of: (type: DnsType) => V): Record<DnsType, V> {
  return {
    A: of('A'),
    AAAA: of('AAAA'),
    CNAME: of('CNAME'),
    NS: of('NS'),
    MX: of('MX'),
    TXT: of('TXT'),
    SRV: of('SRV'),
  };
}

/** The data fields of each type (host and ttl aside), in the order of the one-line form. */
export const DNS_FIELDS: Record<DnsType, readonly string[]> = perRecordType((type) =>
  DNS_RECORD_TYPES[type].fields.map((f) => f.name),
);

/** The data part of a record as a person reads it (the descriptor's `data`). */
export function recordDataText<T extends DnsType>(record: RecordOf<T>): string {
  const descriptor: RecordTypeDescriptor<T> = descriptorOf(record.type);
  return descriptor.data(record);
}

/**
 * Checks every field in the order of the one-line form (host, the type's fields, ttl) and returns
 * the first problem, or undefined. ttl 1..2147483647; priority, weight, port 0..65535; TXT
 * non-empty and at most 4000 characters; SRV service and protocol start with '_'; an SRV target
 * may be '.' ("no such service", RFC 2782).
 */
export function validateRecord(record: DnsRecordData): RecordProblem | undefined {
  const checks: [string, FieldKind, string | number][] = [
    ['host', 'host', record.host],
    ...fieldValues(record).map(([f, v]): [string, FieldKind, string | number] => [f.name, f.kind, v]),
    ['ttl', 'ttl', record.ttl],
  ];
  for (const [field, kind, value] of checks) {
    const problem = checkField(field, kind, value);
    if (problem) return problem;
  }
  return undefined;
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

/** The kind of a field of a type, host and ttl included; undefined for a field the type lacks. */
export function fieldKind(type: DnsType, field: string): FieldKind | undefined {
  if (field === 'host' || field === 'ttl') return field;
  return DNS_RECORD_TYPES[type].fields.find((f) => f.name === field)?.kind;
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

// ---- listed records and equality ---------------------------------------------------------------

/**
 * Reads a listed record (type + value "<host> <rdata>") back into fields; undefined when not
 * understood. The data is what follows the host and one blank (a TXT text keeps its spaces, as
 * the sandbox stores it); each type reads it in its descriptor's `fromListed`, tolerant of forms
 * other than the sandbox's.
 */
export function parseListedRecord(listed: {
  type: string;
  ttl: number;
  value: string;
}): DnsRecordData | undefined {
  const type = listed.type.trim().toUpperCase();
  // One separator after the host: the sandbox writes `${host} ${text}` and a TXT text keeps its spaces.
  const match = /^\s*(\S+)\s([\s\S]*)$/.exec(listed.value);
  if (!match || !isDnsType(type)) return undefined;
  const verbatim = match[2] ?? '';
  const rdata = verbatim.trim();
  if (rdata === '') return undefined;
  return DNS_RECORD_TYPES[type].fromListed(match[1] ?? '', listed.ttl, {
    parts: rdata.split(/\s+/),
    rdata,
    verbatim,
  });
}

/**
 * Whether two records are the same for the diff: same type and ttl, and host and every field equal
 * as their kinds compare them (names case-insensitive without a trailing dot, IPv6 in any
 * spelling, SRV labels with or without '_').
 */
export function sameRecord(a: DnsRecordData, b: DnsRecordData): boolean {
  if (a.type !== b.type || a.ttl !== b.ttl) return false;
  if (comparableValue('host', a.host) !== comparableValue('host', b.host)) return false;
  const other = fieldValues(b);
  return fieldValues(a).every(
    ([field, value], i) =>
      comparableValue(field.kind, value) === comparableValue(field.kind, other[i]?.[1] ?? ''),
  );
}
