import { type FieldKind, isIpv4, isIpv6 } from './dns-fields.js';
import { asciiDomain, relativeHost, toAsciiHostName } from './dns-host-names.js';
import { type DnsLineReason, parseDnsLine } from './dns-line.js';
import {
  DEFAULT_TTL,
  DNS_RECORD_TYPES,
  type DnsRecordData,
  type DnsType,
  fieldValues,
  isDnsType,
  sameRecord,
  sameRecordKey,
  validateRecord,
} from './dns-records.js';
import {
  readTtl,
  readZoneText,
  scanEntry,
  withoutComment,
  type ZoneEntry,
  type ZoneToken,
} from './zone-entries.js';
import { glueOf, isApexNs, type ProviderNameServer } from './zone-provider.js';

/*
 * Reading a BIND zone file (RFC 1035 master file format) or pasted lines for import: $ORIGIN and
 * $TTL, parentheses over lines, owners relative and absolute; lines that cannot be imported are
 * reported with their reason. The entries and their words come from zone-entries.ts;
 * zone-writer.ts writes what this reads.
 */

/** Types that exist beyond the seven, so that a line of one is named, not called unreadable. */
const OTHER_TYPES = new Set(
  (
    'SOA CAA PTR SPF DS DNSKEY CDS CDNSKEY TLSA SMIMEA SSHFP HINFO NAPTR LOC RP AFSDB CERT DNAME ' +
    'HTTPS SVCB URI OPENPGPKEY NSEC NSEC3 NSEC3PARAM RRSIG KEY KX APL DHCID IPSECKEY HIP NULL WKS ' +
    'MB MG MR MINFO X25 ISDN RT NSAP PX GPOS A6 EUI48 EUI64 ZONEMD ALIAS ANAME TKEY TSIG'
  ).split(' '),
);
const CLASSES = new Set(['IN', 'CH', 'CS', 'HS']);

const isKnownType = (word: string): boolean =>
  isDnsType(word) || OTHER_TYPES.has(word) || /^TYPE\d+$/.test(word);

/** A name of the file made absolute (no trailing dot): '@' is the origin, others relative to it. */
function absoluteName(word: string, origin: string): string {
  if (word === '@') return origin;
  if (word.endsWith('.')) return word.slice(0, -1);
  return origin === '' ? word : `${word}.${origin}`;
}

/** Why a field of a zone-file line was refused: a check, or its value was quoted where a word belongs. */
export type ZoneFieldReason = DnsLineReason | 'quoted';

/**
 * Why a zone-file line was skipped, as an i18n key under `dns:skip.` and its parameters; a field
 * problem carries the field and its `dns:reason.` code for the view to put into words.
 */
export type SkipReason =
  | { key: 'field'; params: { field: string; reason: ZoneFieldReason } }
  | { key: 'type'; params: { type: string } }
  | { key: 'class'; params: { class: string } }
  | { key: 'outside'; params: { owner: string; domain: string } }
  | { key: 'directive'; params: { directive: string } }
  /**
   * A TXT whose text holds a byte of no UTF-8 character (`\255`: see readZoneText), as BIND writes
   * it: the provider takes a TXT as a string of characters, so it could not be carried over unchanged.
   */
  | { key: 'notText'; params: { byte: string } }
  /** The same record as an earlier line's (BIND keeps one): the line it repeats. */
  | { key: 'duplicate'; params: { line: number } }
  | {
      key:
        | 'soa'
        | 'apexNs'
        | 'nsGlue'
        | 'noOwner'
        | 'srvOwner'
        | 'originArgument'
        | 'ttlArgument'
        | 'quote'
        | 'parentheses'
        | 'notRecord';
      params: Record<string, never>;
    };

/** The reasons without parameters. */
type BareSkipKey = Extract<SkipReason, { params: Record<string, never> }>['key'];
const bare = (key: BareSkipKey): SkipReason => ({ key, params: {} });

/** The owner (a full name, no trailing dot) and type a record line names. */
export interface NamedRecord {
  owner: string;
  type: string;
}

type BindRead =
  | { kind: 'record'; record: DnsRecordData }
  /** A record line of the file that cannot be imported, and why; what it names, once known. */
  | { kind: 'problem'; reason: SkipReason; named?: NamedRecord }
  /** Not a record line of a zone file at all. */
  | { kind: 'unreadable' };

interface ReadState {
  domain: string;
  /** The domain as the caller wrote it, for messages. */
  shownDomain: string;
  origin: string;
  /** The default ttl of lines without one: `$TTL`, or an SOA's minimum (see recordTtl). */
  defaultTtl: number | undefined;
  /** The last ttl a record line stated, which lines without one take while there is no default. */
  lastTtl: number | undefined;
  previousOwner: string | undefined;
}

const fieldProblem = (field: string, reason: ZoneFieldReason): BindRead => ({
  kind: 'problem',
  reason: { key: 'field', params: { field, reason } },
});

/** The owner labels `_a._b` a type's zone layout asks for, then the host ('@' when none follows). */
function splitOwner(host: string, count: number): { labels: string[]; host: string } | undefined {
  if (count === 0) return { labels: [], host };
  const pattern = new RegExp(`^${Array<string>(count).fill('(_[^.]+)').join('\\.')}(?:\\.(.+))?$`);
  const match = pattern.exec(host);
  if (!match) return undefined;
  return { labels: match.slice(1, count + 1).map((label) => label ?? ''), host: match[count + 1] ?? '@' };
}

/**
 * The record of one of the seven types from its owner and rdata tokens, read in its type's zone
 * layout, each field as its kind is written; or the problem. A text field takes every token.
 */
function readRdata(
  type: DnsType,
  owner: string,
  ttl: number,
  rdata: readonly ZoneToken[],
  origin: string,
): DnsRecordData | BindRead {
  const descriptor = DNS_RECORD_TYPES[type];
  const kindOf = (name: string): FieldKind | undefined =>
    descriptor.fields.find((f) => f.name === name)?.kind;
  const wanted = descriptor.zone.rdata;
  const textField = wanted.find((name) => kindOf(name) === 'text');
  if (textField !== undefined) {
    if (rdata.length === 0) return fieldProblem(textField, 'missing');
    // Unquoted words are separate strings in BIND; joined with spaces they read as the user meant.
    const joined = rdata.every((token) => !token.quoted)
      ? rdata.map((token) => token.text).join(' ')
      : rdata.map((token) => token.text).join('');
    // The provider takes a TXT as a string of characters: a byte that is none is not carried over changed.
    const text = readZoneText(joined);
    if (!text.ok) return { kind: 'problem', reason: { key: 'notText', params: { byte: text.byte } } };
    return descriptor.build(owner, ttl, { [textField]: text.text });
  }
  const missing = wanted[rdata.length];
  if (missing !== undefined) return fieldProblem(missing, 'missing');
  if (rdata.length > wanted.length) return fieldProblem('extra', 'extra');
  const quoted = rdata.findIndex((token) => token.quoted);
  if (quoted >= 0) return fieldProblem(wanted[quoted] ?? 'extra', 'quoted');

  const split = splitOwner(owner, descriptor.zone.owner.length);
  if (!split) return { kind: 'problem', reason: bare('srvOwner') };
  const values: Record<string, string | number> = {};
  descriptor.zone.owner.forEach((name, i) => {
    values[name] = split.labels[i] ?? '';
  });
  for (const [at, name] of wanted.entries()) {
    const text = rdata[at]?.text ?? '';
    const kind = kindOf(name);
    if (kind === 'uint16') {
      if (!/^\d+$/.test(text)) return fieldProblem(name, 'integer');
      values[name] = Number(text);
    } else if (kind === 'name' || kind === 'target') {
      // An address where a name belongs is refused rather than read as a relative name.
      if (text !== '.' && (isIpv4(text) || isIpv6(text))) return fieldProblem(name, 'domain');
      values[name] = text === '.' ? text : absoluteName(text, origin);
    } else {
      values[name] = text;
    }
  }
  return descriptor.build(split.host, ttl, values);
}

/**
 * The ttl of a record line, and what it leaves for the lines after it, as BIND's loader decides: a
 * stated ttl is the record's and, until a default exists, the next lines' too (RFC 1035 §5.1);
 * `$TTL` is the default once given; with no ttl known yet an SOA takes its minimum, which then
 * becomes the default. A line before any of these gets DEFAULT_TTL (BIND refuses such a zone).
 */
function recordTtl(
  stated: number | undefined,
  rdata: readonly ZoneToken[],
  type: string,
  state: ReadState,
): number {
  if (stated !== undefined) {
    state.lastTtl = stated;
    return stated;
  }
  const known = state.defaultTtl ?? state.lastTtl;
  if (known !== undefined) return known;
  const minimum = type === 'SOA' && !rdata[6]?.quoted ? readTtl(rdata[6]?.text ?? '') : undefined;
  if (minimum === undefined) return DEFAULT_TTL;
  state.defaultTtl = minimum;
  return minimum;
}

/** The parts of a record line before its rdata is read. */
interface LineHead {
  /** Full, without the trailing dot; undefined for a blank owner with no line before it. */
  owner: string | undefined;
  /** Upper-case. */
  type: string;
  recordClass: string | undefined;
  ttl: number;
  rdata: ZoneToken[];
}

/**
 * The owner, ttl, class and type of a record line as BIND reads them: [owner] [ttl] [class] type
 * rdata (ttl and class in either order); undefined when the line is no record line. A record line,
 * readable or not, sets the owner blank-owner lines after it inherit, and its ttl may be theirs.
 */
function readLineHead(entry: ZoneEntry, state: ReadState): LineHead | undefined {
  const { tokens } = entry;
  let index = 0;
  let owner = state.previousOwner;
  if (!entry.blankOwner) {
    const first = tokens[0];
    if (!first || first.quoted) return undefined;
    owner = absoluteName(first.text, state.origin);
    index = 1;
  }
  let ttl: number | undefined;
  let recordClass: string | undefined;
  for (let token = tokens[index]; token && !token.quoted; token = tokens[index]) {
    const seconds = ttl === undefined ? readTtl(token.text) : undefined;
    if (seconds !== undefined) ttl = seconds;
    else if (recordClass === undefined && CLASSES.has(token.text.toUpperCase()))
      recordClass = token.text.toUpperCase();
    else break;
    index++;
  }
  const typeToken = tokens[index];
  const type = typeToken?.text.toUpperCase() ?? '';
  if (!typeToken || typeToken.quoted || !isKnownType(type)) return undefined;
  if (!entry.blankOwner) state.previousOwner = owner;
  const rdata = tokens.slice(index + 1);
  return { owner, type, recordClass, ttl: recordTtl(ttl, rdata, type, state), rdata };
}

/** Reads a record line as BIND does (see readLineHead); a problem names the owner and type once known. */
function readBindLine(entry: ZoneEntry, state: ReadState): BindRead {
  const head = readLineHead(entry, state);
  if (head === undefined) return { kind: 'unreadable' };
  const { owner, type } = head;
  if (owner === undefined) return { kind: 'problem', reason: bare('noOwner') };
  const read = readLineRecord({ ...head, owner }, state);
  return read.kind === 'problem' ? { ...read, named: { owner, type } } : read;
}

/** The record of a line whose owner, ttl, class and type are read, or why it cannot be imported. */
function readLineRecord(head: LineHead & { owner: string }, state: ReadState): BindRead {
  const { owner, type, recordClass } = head;
  if (recordClass !== undefined && recordClass !== 'IN') {
    return { kind: 'problem', reason: { key: 'class', params: { class: recordClass } } };
  }
  if (type === 'SOA') return { kind: 'problem', reason: bare('soa') };
  if (!isDnsType(type)) return { kind: 'problem', reason: { key: 'type', params: { type } } };
  const host = relativeHost(owner, state.domain);
  if (host === undefined) {
    return {
      kind: 'problem',
      reason: { key: 'outside', params: { owner: `${owner}.`, domain: state.shownDomain } },
    };
  }
  const read = readRdata(type, host, head.ttl, head.rdata, state.origin);
  if ('kind' in read) return read;
  const problem = validateRecord(read);
  return problem ? fieldProblem(problem.field, problem.reason) : { kind: 'record', record: read };
}

/** Reads a `$` directive; undefined when it was applied, else the reason it was not. */
function readDirective(entry: ZoneEntry, state: ReadState): SkipReason | undefined {
  const [directive, argument] = entry.tokens;
  const name = directive?.text.toUpperCase() ?? '';
  if (name === '$ORIGIN') {
    if (!argument || argument.quoted) return bare('originArgument');
    state.origin = toAsciiHostName(absoluteName(argument.text, state.origin)).toLowerCase();
    return undefined;
  }
  if (name === '$TTL') {
    const seconds = argument && !argument.quoted ? readTtl(argument.text) : undefined;
    if (seconds === undefined) return bare('ttlArgument');
    state.defaultTtl = seconds;
    return undefined;
  }
  return { key: 'directive', params: { directive: name } };
}

/** A line that could not be imported: its 1-based number, its text, why, and what it names. */
export interface SkippedZoneLine {
  line: number;
  text: string;
  reason: SkipReason;
  /** The owner and type of a record line (none for a directive or text that is no record). */
  named?: NamedRecord;
}

/** The records and the lines that could not be imported. */
export interface ZoneImport {
  records: DnsRecordData[];
  unsupported: SkippedZoneLine[];
}

/** The owner and type a record of the domain is served at (SRV's `_service._protocol.host`). */
function namedBy(record: DnsRecordData, domain: string): NamedRecord {
  const labels = DNS_RECORD_TYPES[record.type].zone.owner.map((name) =>
    String(fieldValues(record).find(([field]) => field.name === name)?.[1] ?? ''),
  );
  const host = record.host === '@' ? [] : [record.host];
  return { owner: [...labels, ...host, domain].join('.'), type: record.type };
}

/**
 * Parses a zone file or pasted lines: $ORIGIN/$TTL directives, comments (;), parentheses spanning
 * lines, optional class IN, optional ttl (else as BIND gives it: see recordTtl), blank owner =
 * previous owner, relative names under $ORIGIN, absolute owners inside the domain made relative,
 * '@'. The same record twice is taken once, as BIND keeps it. SOA, every apex NS record (the
 * domain's name servers are set with /ns, whoever's the file names), the glue of
 * `providerNameServers` (what an export writes as the provider's), other types (CAA, PTR, …),
 * records failing validateRecord and owners outside the domain are reported in `unsupported`, each
 * with a SkipReason (an i18n key and its parameters) and what it names. A line that does not read
 * as BIND is tried as the one-line grammar (`A www 192.0.2.1`). The domain may be given in Unicode
 * or punycode.
 */
export function importZone(
  text: string,
  domain: string,
  options: { providerNameServers?: readonly ProviderNameServer[] } = {},
): ZoneImport {
  const ascii = asciiDomain(domain);
  // The glue (address) of the domain's own name server inside it is the provider's too (set with
  // /ns beside the server): an export writes it, an import skips it. A file's other A records of
  // a name server's name are ordinary records.
  const glue = (options.providerNameServers ?? []).flatMap((server) => glueOf(server, ascii) ?? []);
  const isProviderGlue = (record: DnsRecordData) =>
    glue.some((g) => sameRecord(g, { ...record, ttl: g.ttl }));
  const state: ReadState = {
    domain: ascii,
    shownDomain: domain.trim().replace(/\.$/, ''),
    origin: ascii,
    defaultTtl: undefined,
    lastTtl: undefined,
    previousOwner: undefined,
  };
  const lines = text.split(/\r\n|\r|\n/);
  const result: ZoneImport = { records: [], unsupported: [] };
  /** The line of each record taken, by sameRecordKey: the same record twice is one, as in BIND. */
  const taken = new Map<string, number>();
  for (let index = 0; index < lines.length; ) {
    const { entry, next } = scanEntry(lines, index);
    index = next;
    if (entry.tokens.length === 0 && entry.error === undefined) continue;
    const source = lines
      .slice(entry.line - 1, entry.lastLine)
      .join('\n')
      .trim();
    const unsupported = (reason: SkipReason, named?: NamedRecord) =>
      result.unsupported.push({ line: entry.line, text: source, reason, ...(named ? { named } : {}) });
    const take = (record: DnsRecordData) => {
      const named = namedBy(record, ascii);
      // The file's name servers, whoever's, are not records here: the domain's are set with /ns.
      if (isApexNs(record)) return unsupported(bare('apexNs'), named);
      if (isProviderGlue(record)) return unsupported(bare('nsGlue'), named);
      const key = sameRecordKey(record);
      const earlier = taken.get(key);
      if (earlier !== undefined) return unsupported({ key: 'duplicate', params: { line: earlier } }, named);
      taken.set(key, entry.line);
      result.records.push(record);
    };

    const first = entry.tokens[0];
    if (
      entry.error === undefined &&
      !entry.blankOwner &&
      first &&
      !first.quoted &&
      first.text.startsWith('$')
    ) {
      const reason = readDirective(entry, state);
      if (reason !== undefined) unsupported(reason);
      continue;
    }
    const bind: BindRead = entry.error === undefined ? readBindLine(entry, state) : { kind: 'unreadable' };
    if (bind.kind === 'record') {
      take(bind.record);
      continue;
    }
    // The one-line grammar, for lines pasted from the bot's own form; a single physical line only.
    const physical = lines[entry.line - 1] ?? '';
    const asLine = entry.line === entry.lastLine ? parseDnsLine(physical) : undefined;
    const uncommented = withoutComment(physical);
    const asLineWithoutComment =
      asLine && !asLine.ok && uncommented !== undefined ? parseDnsLine(uncommented) : undefined;
    const parsed = asLineWithoutComment?.ok ? asLineWithoutComment : asLine;
    if (parsed?.ok) {
      take(parsed.record);
      continue;
    }
    if (bind.kind === 'problem') {
      unsupported(bind.reason, bind.named);
      continue;
    }
    const word = (physical.trim().split(/\s+/)[0] ?? '').toUpperCase();
    if (parsed && isDnsType(word))
      unsupported({ key: 'field', params: { field: parsed.field, reason: parsed.reason } });
    else if (word === 'SOA') unsupported(bare('soa'));
    else if (isKnownType(word)) unsupported({ key: 'type', params: { type: word } });
    else if (entry.error === 'quote') unsupported(bare('quote'));
    else if (entry.error === 'parentheses') unsupported(bare('parentheses'));
    else unsupported(bare('notRecord'));
  }
  return result;
}
