import {
  checkField,
  comparableValue,
  type FieldKind,
  isIpv4,
  isIpv6,
  type RecordProblem,
} from './dns-fields.js';
import { unquoteZoneStrings } from './zone-entries.js';

/*
 * DNS records as the bot handles them: the seven types the partner API can add, in one registry
 * (DNS_RECORD_TYPES): their fields and checks, reading the provider's listed values back, and
 * record equality for the zone diff. The one-line grammar (dns-line.ts) and the zone files
 * (zone-reader.ts, zone-writer.ts) read and write every type from its entry. Hosts are relative
 * to the domain ('@' is the apex); targets are full names.
 */

/** The record types the partner API can add and delete. */
export const DNS_TYPES = ['A', 'AAAA', 'CNAME', 'NS', 'MX', 'TXT', 'SRV'] as const;
/** One of the seven record types of the partner API. */
export type DnsType = (typeof DNS_TYPES)[number];
/** The ttl of a record when the user gives none (one hour, the provider's own default in listings). */
export const DEFAULT_TTL = 3600;

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
 * layout (whose order the one-line form also accepts), and how the provider lists it.
 */
export interface RecordTypeDescriptor<T extends DnsType> {
  /** In the order of the one-line form and the guided form. */
  fields: readonly FieldSpec[];
  /** The one-line form, shown with any error in a line. */
  form: string;
  /** The record from its host, ttl and field values (numbers already read). */
  build(host: string, ttl: number, values: Readonly<Record<string, string | number>>): RecordOf<T>;
  /**
   * The data part as the chat and the Mini App's editor both write it, BIND's order (`10
   * mx.example.by`, `_sip _tcp 10 60 5060 sip.example.by`, `"v=spf1 -all"`); the one-line form
   * reads it back (`formOrderWords` in dns-line.ts).
   */
  data(record: RecordOf<T>): string;
  /**
   * The zone-file layout: the fields the owner name carries before the host (SRV's `_sip._tcp`),
   * then the rdata fields in their zone-file order.
   */
  zone: { owner: readonly string[]; rdata: readonly string[] };
  /** The record from a listed value's host and data; undefined when not understood. */
  fromListed(host: string, ttl: number, data: ListedData): RecordOf<T> | undefined;
  /**
   * A rule over several fields, on the values answered so far (the guided form asks them one by
   * one): the problem once every field it needs is there; each field's own check comes first.
   */
  checkTogether?(values: FieldAnswers): RecordProblem | undefined;
  /** What the record means beyond its data, when it says something a person should be told. */
  note?(record: RecordOf<T>): RecordNote | undefined;
}

/** The field values of a record, or those answered so far, by field name. */
export type FieldAnswers = Readonly<Record<string, string | number | undefined>>;

/**
 * What a record means beyond its data, for a person reading it (`dns:note.<note>`): a null MX
 * says the domain accepts no mail.
 */
export type RecordNote = 'nullMx';

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
    // A 'target': '.' is a null MX, "this domain takes no mail" (RFC 7505).
    fields: [
      { name: 'mail_server', kind: 'target' },
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
    // RFC 7505 defines the null MX with priority 0; '.' with another priority means nothing.
    checkTogether: ({ mail_server, priority }) =>
      mail_server === '.' && priority !== undefined && priority !== 0
        ? { field: 'priority', reason: 'nullMx' }
        : undefined,
    note: (r) => (r.mail_server === '.' ? 'nullMx' : undefined),
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
    // Quoted as the one-line form reads a quoted text back: `\"` and `\\` escaped.
    data: (r) => `"${r.text.replace(/[\\"]/g, '\\$&')}"`,
    zone: { owner: [], rdata: ['text'] },
    // Verbatim, unless wholly in double quotes (one or more strings), which are then removed.
    fromListed: (host, ttl, d) => ({
      type: 'TXT',
      host,
      ttl,
      text: unquoteZoneStrings(d.rdata) ?? d.verbatim,
    }),
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

/** The data part of a record as the chat and the editor write it, BIND's order (the descriptor's `data`). */
export function recordDataText<T extends DnsType>(record: RecordOf<T>): string {
  const descriptor: RecordTypeDescriptor<T> = descriptorOf(record.type);
  return descriptor.data(record);
}

/** What a record means beyond its data (the descriptor's `note`), e.g. a null MX; usually none. */
export function recordNote<T extends DnsType>(record: RecordOf<T>): RecordNote | undefined {
  const descriptor: RecordTypeDescriptor<T> = descriptorOf(record.type);
  return descriptor.note?.(record);
}

/** The problem of a type's rule over several fields (a null MX's priority), on the answers so far. */
export function checkTogether(type: DnsType, values: FieldAnswers): RecordProblem | undefined {
  return DNS_RECORD_TYPES[type].checkTogether?.(values);
}

/**
 * Checks every field in the order of the one-line form (host, the type's fields, ttl) and returns
 * the first problem, or undefined. ttl 0..2147483647 (0: answered, never cached; RFC 1035 §3.2.1); priority, weight, port 0..65535; TXT
 * non-empty and at most 4000 characters; SRV service and protocol start with '_'; an SRV target
 * may be '.' ("no such service", RFC 2782), an MX mail server too, with priority 0 ("no mail",
 * RFC 7505). The rules over several fields come after each field's own check.
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
  return checkTogether(record.type, Object.fromEntries(fieldValues(record).map(([f, v]) => [f.name, v])));
}

/** The kind of a field of a type, host and ttl included; undefined for a field the type lacks. */
export function fieldKind(type: DnsType, field: string): FieldKind | undefined {
  if (field === 'host' || field === 'ttl') return field;
  return DNS_RECORD_TYPES[type].fields.find((f) => f.name === field)?.kind;
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

/**
 * A key two records share exactly when sameRecord calls them the same: for finding a record among
 * many (the duplicates of a zone file) without comparing each pair.
 */
export function sameRecordKey(record: DnsRecordData): string {
  const fields = fieldValues(record).map(([field, value]) => comparableValue(field.kind, value));
  return JSON.stringify([record.type, record.ttl, comparableValue('host', record.host), ...fields]);
}

/**
 * The name a record stands at: an SRV's is `_service._proto.<host>` (its labels are fields here),
 * every other's its host. Record sets, and a CNAME's "nothing beside it", are per this name.
 */
export function ownerName(record: DnsRecordData): string {
  return record.type === 'SRV'
    ? `${record.service}.${record.protocol}${record.host === '@' ? '' : `.${record.host}`}`
    : record.host;
}
