import { domainToUnicode } from 'node:url';
import { parseDnsLine } from './dns-line.js';
import {
  DEFAULT_TTL,
  type DnsRecordData,
  decodeZoneText,
  isDnsType,
  isDomainName,
  isIpv4,
  isIpv6,
  relativeHost,
  sameRecord,
  toAsciiHostName,
  validateRecord,
} from './dns-records.js';

/*
 * BIND zone files (RFC 1035 master file format) for export and import, and the diff that turns
 * the current records of a domain into the wanted ones.
 */

// ---- export -----------------------------------------------------------------------------------

const utf8 = new TextEncoder();
/** A character-string of DNS holds at most 255 bytes (RFC 1035 §3.3). */
const MAX_STRING_BYTES = 255;

/** The text cut into pieces of at most 255 UTF-8 bytes, never inside a character. */
function txtChunks(text: string): string[] {
  const chunks: string[] = [];
  let chunk = '';
  let bytes = 0;
  for (const char of text) {
    const size = utf8.encode(char).length;
    if (bytes + size > MAX_STRING_BYTES) {
      chunks.push(chunk);
      chunk = '';
      bytes = 0;
    }
    chunk += char;
    bytes += size;
  }
  chunks.push(chunk);
  return chunks;
}

/** A quoted character-string: `"` and `\` escaped, control characters as `\DDD`, UTF-8 as is. */
function quoteZoneText(text: string): string {
  let quoted = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (char === '"' || char === '\\') quoted += `\\${char}`;
    else if (code < 0x20 || code === 0x7f) quoted += `\\${String(code).padStart(3, '0')}`;
    else quoted += char;
  }
  return `"${quoted}"`;
}

/** A target as the zone file writes it: absolute with a trailing dot when it is a full name. */
function zoneTarget(name: string): string {
  if (name === '.') return name;
  const ascii = toAsciiHostName(name);
  return ascii.endsWith('.') || !isDomainName(name) ? ascii : `${ascii}.`;
}

const underscored = (label: string): string => (label.startsWith('_') ? label : `_${label}`);

function zoneOwner(record: DnsRecordData): string {
  const host = record.host === '' ? '@' : toAsciiHostName(record.host);
  if (record.type !== 'SRV') return host;
  const prefix = `${underscored(record.service)}.${underscored(record.protocol)}`;
  return host === '@' ? prefix : `${prefix}.${host}`;
}

/** The rdata pieces of a record; TXT gives one piece per character-string. */
function zoneRdata(record: DnsRecordData): string[] {
  switch (record.type) {
    case 'A':
      return [record.ipv4];
    case 'AAAA':
      return [record.ipv6];
    case 'CNAME':
      return [zoneTarget(record.canonical)];
    case 'NS':
      return [zoneTarget(record.ns)];
    case 'MX':
      return [`${record.priority} ${zoneTarget(record.mail_server)}`];
    case 'TXT':
      return txtChunks(record.text).map(quoteZoneText);
    case 'SRV':
      return [`${record.priority} ${record.weight} ${record.port} ${zoneTarget(record.target)}`];
  }
}

/** The ASCII form of a domain without its trailing dot, lower-case. */
function asciiDomain(domain: string): string {
  return toAsciiHostName(domain.trim().replace(/\.$/, '')).toLowerCase();
}

/**
 * A BIND-style zone file: header comment, $ORIGIN <domain>., $TTL, one line per record with its
 * own ttl, owners relative ('@' apex), TXT quoted and split into strings of at most 255 bytes
 * (several strings in parentheses over lines), SRV owner `_service._protocol.host` (host '@' →
 * `_sip._tcp`) with priority weight port target, targets absolute with a trailing dot when they
 * are full names. IDN domains and hosts are written in punycode.
 */
export function exportZone(domain: string, records: readonly DnsRecordData[]): string {
  const ascii = asciiDomain(domain);
  const unicode = domainToUnicode(ascii) || ascii;
  const rows = records.map((record) => ({
    owner: zoneOwner(record),
    ttl: String(record.ttl),
    type: record.type,
    rdata: zoneRdata(record),
  }));
  const width = (pick: (row: (typeof rows)[number]) => string): number =>
    Math.max(0, ...rows.map((row) => pick(row).length));
  const ownerWidth = width((row) => row.owner);
  const ttlWidth = width((row) => row.ttl);
  const lines = [
    `; Zone file of ${unicode === ascii ? ascii : `${unicode} (${ascii})`}: ${records.length} ${records.length === 1 ? 'record' : 'records'}`,
    '; SOA is managed by the provider and is not included.',
    `$ORIGIN ${ascii}.`,
    `$TTL ${DEFAULT_TTL}`,
  ];
  for (const row of rows) {
    const prefix = `${row.owner.padEnd(ownerWidth)} ${row.ttl.padStart(ttlWidth)} IN ${row.type.padEnd(5)} `;
    const [first = '', ...more] = row.rdata;
    if (more.length === 0) {
      lines.push(`${prefix}${first}`);
      continue;
    }
    const indent = ' '.repeat(prefix.length + 2);
    lines.push(`${prefix}( ${first}`, ...more.map((piece) => `${indent}${piece}`));
    lines[lines.length - 1] += ' )';
  }
  return `${lines.join('\n')}\n`;
}

// ---- import: reading entries --------------------------------------------------------------------

interface ZoneToken {
  /** The token as written, escapes kept, quotes removed. */
  text: string;
  quoted: boolean;
}

/** One logical line of a zone file: physical lines joined by parentheses, comments dropped. */
interface ZoneEntry {
  /** 1-based number of its first physical line. */
  line: number;
  /** 1-based number of its last physical line. */
  lastLine: number;
  /** Starts with a blank: the owner is the previous one. */
  blankOwner: boolean;
  tokens: ZoneToken[];
  error: 'quote' | 'parentheses' | undefined;
}

const BLANK = /[ \t]/;
/** Characters that end an unquoted token. */
const DELIMITER = /[\s;()"]/;

/**
 * The entry starting at `start` (0-based) and the index of the line after it. An unclosed quote or
 * parenthesis gives an entry of the first line alone with the error, so a stray '(' in a pasted
 * line cannot swallow the lines after it.
 */
function scanEntry(lines: readonly string[], start: number): { entry: ZoneEntry; next: number } {
  const tokens: ZoneToken[] = [];
  const blankOwner = BLANK.test(lines[start]?.[0] ?? '');
  const alone = (error: ZoneEntry['error']) => ({
    entry: { line: start + 1, lastLine: start + 1, blankOwner, tokens: [], error },
    next: start + 1,
  });
  let depth = 0;
  for (let index = start; index < lines.length; index++) {
    const line = lines[index] ?? '';
    let position = 0;
    while (position < line.length) {
      const char = line[position] ?? '';
      if (char === ';') break;
      if (/\s/.test(char)) {
        position++;
      } else if (char === '(') {
        depth++;
        position++;
      } else if (char === ')') {
        depth--;
        if (depth < 0) return alone('parentheses');
        position++;
      } else if (char === '"') {
        const match = /"((?:[^"\\]|\\.)*)"/y;
        match.lastIndex = position;
        const quoted = match.exec(line);
        if (!quoted) return alone('quote');
        tokens.push({ text: quoted[1] ?? '', quoted: true });
        position = match.lastIndex;
      } else {
        let text = '';
        while (position < line.length) {
          const next = line[position] ?? '';
          if (next === '\\' && position + 1 < line.length) {
            text += line.slice(position, position + 2);
            position += 2;
            continue;
          }
          if (DELIMITER.test(next)) break;
          text += next;
          position++;
        }
        tokens.push({ text, quoted: false });
      }
    }
    if (depth === 0) {
      return {
        entry: { line: start + 1, lastLine: index + 1, blankOwner, tokens, error: undefined },
        next: index + 1,
      };
    }
  }
  return alone('parentheses');
}

/** The line without its zone-file comment (a ';' outside quotes); undefined when it has none. */
function withoutComment(line: string): string | undefined {
  const kept = /^(?:[^;"\\]|\\.|"(?:[^"\\]|\\.)*")*/.exec(line)?.[0] ?? '';
  return line[kept.length] === ';' ? kept.trimEnd() : undefined;
}

// ---- import: reading records --------------------------------------------------------------------

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

const TTL_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

/** A ttl in seconds: `3600` or BIND units (`1h30m`, `2d`); undefined when not one. */
function readTtl(word: string): number | undefined {
  if (/^\d+$/.test(word)) return Number(word);
  if (!/^(?:\d+[smhdw])+$/i.test(word)) return undefined;
  let seconds = 0;
  for (const [, amount = '', unit = ''] of word.matchAll(/(\d+)([smhdw])/gi)) {
    seconds += Number(amount) * (TTL_UNITS[unit.toLowerCase()] ?? 0);
  }
  return seconds;
}

/** A name of the file made absolute (no trailing dot): '@' is the origin, others relative to it. */
function absoluteName(word: string, origin: string): string {
  if (word === '@') return origin;
  if (word.endsWith('.')) return word.slice(0, -1);
  return origin === '' ? word : `${word}.${origin}`;
}

type BindRead =
  | { kind: 'record'; record: DnsRecordData }
  /** A record line of the file that cannot be imported, and why. */
  | { kind: 'problem'; reason: string }
  /** Not a record line of a zone file at all. */
  | { kind: 'unreadable' };

interface ReadState {
  domain: string;
  /** The domain as the caller wrote it, for messages. */
  shownDomain: string;
  origin: string;
  defaultTtl: number;
  previousOwner: string | undefined;
}

const fieldProblem = (field: string, reason: string): BindRead => ({
  kind: 'problem',
  reason: `field ${field}: ${reason}`,
});

/** The fields of each type in zone-file rdata order (the owner carries SRV's service and protocol). */
const RDATA_FIELDS: Record<DnsRecordData['type'], readonly string[]> = {
  A: ['ipv4'],
  AAAA: ['ipv6'],
  CNAME: ['canonical'],
  NS: ['ns'],
  MX: ['priority', 'mail_server'],
  TXT: ['text'],
  SRV: ['priority', 'weight', 'port', 'target'],
};

/** The data of a record of one of the seven types from its rdata tokens, or the problem. */
function readRdata(
  type: DnsRecordData['type'],
  host: string,
  ttl: number,
  rdata: readonly ZoneToken[],
  origin: string,
): DnsRecordData | BindRead {
  const wanted = RDATA_FIELDS[type];
  if (type !== 'TXT') {
    const missing = wanted[rdata.length];
    if (missing !== undefined) return fieldProblem(missing, 'missing');
    if (rdata.length > wanted.length) return fieldProblem('extra', 'extra');
    const quoted = rdata.findIndex((token) => token.quoted);
    if (quoted >= 0) return fieldProblem(wanted[quoted] ?? 'extra', 'quoted');
  }
  const word = (at: number): string => rdata[at]?.text ?? '';
  const integer = (at: number): number | BindRead =>
    /^\d+$/.test(word(at)) ? Number(word(at)) : fieldProblem(wanted[at] ?? '', 'integer');
  /** A target name; an address where a name belongs is refused rather than read as a relative name. */
  const target = (at: number): string | BindRead => {
    const text = word(at);
    if (text === '.') return text;
    if (isIpv4(text) || isIpv6(text)) return fieldProblem(wanted[at] ?? '', 'domain');
    return absoluteName(text, origin);
  };
  const isRead = (value: unknown): value is BindRead => typeof value === 'object';

  switch (type) {
    case 'A':
      return { type, host, ttl, ipv4: word(0) };
    case 'AAAA':
      return { type, host, ttl, ipv6: word(0) };
    case 'CNAME': {
      const canonical = target(0);
      return isRead(canonical) ? canonical : { type, host, ttl, canonical };
    }
    case 'NS': {
      const ns = target(0);
      return isRead(ns) ? ns : { type, host, ttl, ns };
    }
    case 'MX': {
      const priority = integer(0);
      const server = target(1);
      if (isRead(priority)) return priority;
      return isRead(server) ? server : { type, host, ttl, priority, mail_server: server };
    }
    case 'TXT': {
      if (rdata.length === 0) return fieldProblem('text', 'missing');
      // Unquoted words are separate strings in BIND; joined with spaces they read as the user meant.
      const joined = rdata.every((token) => !token.quoted)
        ? rdata.map((token) => token.text).join(' ')
        : rdata.map((token) => token.text).join('');
      return { type, host, ttl, text: decodeZoneText(joined) };
    }
    case 'SRV': {
      const owner = /^(_[^.]+)\.(_[^.]+)(?:\.(.+))?$/.exec(host);
      if (!owner) return { kind: 'problem', reason: 'SRV owner is not _service._protocol.host' };
      const priority = integer(0);
      if (isRead(priority)) return priority;
      const weight = integer(1);
      if (isRead(weight)) return weight;
      const port = integer(2);
      if (isRead(port)) return port;
      const server = target(3);
      if (isRead(server)) return server;
      return {
        type,
        host: owner[3] ?? '@',
        ttl,
        service: owner[1] ?? '',
        protocol: owner[2] ?? '',
        target: server,
        port,
        priority,
        weight,
      };
    }
  }
}

/** Reads a record line as BIND does: [owner] [ttl] [class] type rdata (ttl and class in either order). */
function readBindLine(entry: ZoneEntry, state: ReadState): BindRead {
  const { tokens } = entry;
  let index = 0;
  let owner = state.previousOwner;
  if (!entry.blankOwner) {
    const first = tokens[0];
    if (!first || first.quoted) return { kind: 'unreadable' };
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
  if (!typeToken || typeToken.quoted || !isKnownType(type)) return { kind: 'unreadable' };
  // A record line, readable or not, sets the owner that blank-owner lines after it inherit.
  if (!entry.blankOwner) state.previousOwner = owner;

  if (owner === undefined) return { kind: 'problem', reason: 'no owner name on this line or before it' };
  if (recordClass !== undefined && recordClass !== 'IN') {
    return { kind: 'problem', reason: `class ${recordClass} is not supported` };
  }
  if (type === 'SOA') return { kind: 'problem', reason: 'SOA is managed by the provider' };
  if (!isDnsType(type)) return { kind: 'problem', reason: `type ${type} is not supported` };
  const host = relativeHost(owner, state.domain);
  if (host === undefined) {
    return { kind: 'problem', reason: `owner ${owner}. is outside ${state.shownDomain}` };
  }
  const read = readRdata(type, host, ttl ?? state.defaultTtl, tokens.slice(index + 1), state.origin);
  if ('kind' in read) return read;
  const problem = validateRecord(read);
  return problem ? fieldProblem(problem.field, problem.reason) : { kind: 'record', record: read };
}

/** Reads a `$` directive; undefined when it was applied, else the reason it was not. */
function readDirective(entry: ZoneEntry, state: ReadState): string | undefined {
  const [directive, argument] = entry.tokens;
  const name = directive?.text.toUpperCase() ?? '';
  if (name === '$ORIGIN') {
    if (!argument || argument.quoted) return '$ORIGIN needs a domain name';
    state.origin = toAsciiHostName(absoluteName(argument.text, state.origin)).toLowerCase();
    return undefined;
  }
  if (name === '$TTL') {
    const seconds = argument && !argument.quoted ? readTtl(argument.text) : undefined;
    if (seconds === undefined) return '$TTL needs a number of seconds';
    state.defaultTtl = seconds;
    return undefined;
  }
  return `${name} is not supported`;
}

/** The records and the lines that could not be imported (with their 1-based line number and why). */
export interface ZoneImport {
  records: DnsRecordData[];
  unsupported: { line: number; text: string; reason: string }[];
}

/**
 * Parses a zone file or pasted lines: $ORIGIN/$TTL directives, comments (;), parentheses spanning
 * lines, optional class IN, optional ttl (else $TTL or DEFAULT_TTL), blank owner = previous owner,
 * relative names under $ORIGIN, absolute owners inside the domain made relative, '@'. SOA, other
 * types (CAA, PTR, …), records failing validateRecord ('field <name>: <reason>') and owners
 * outside the domain are reported in `unsupported`. A line that does not read as BIND is tried as
 * the one-line grammar (`A www 192.0.2.1`). The domain may be given in Unicode or punycode.
 */
export function importZone(text: string, domain: string): ZoneImport {
  const ascii = asciiDomain(domain);
  const state: ReadState = {
    domain: ascii,
    shownDomain: domain.trim().replace(/\.$/, ''),
    origin: ascii,
    defaultTtl: DEFAULT_TTL,
    previousOwner: undefined,
  };
  const lines = text.split(/\r\n|\r|\n/);
  const result: ZoneImport = { records: [], unsupported: [] };
  for (let index = 0; index < lines.length; ) {
    const { entry, next } = scanEntry(lines, index);
    index = next;
    if (entry.tokens.length === 0 && entry.error === undefined) continue;
    const source = lines
      .slice(entry.line - 1, entry.lastLine)
      .join('\n')
      .trim();
    const unsupported = (reason: string) =>
      result.unsupported.push({ line: entry.line, text: source, reason });

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
      result.records.push(bind.record);
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
      result.records.push(parsed.record);
      continue;
    }
    if (bind.kind === 'problem') {
      unsupported(bind.reason);
      continue;
    }
    const word = (physical.trim().split(/\s+/)[0] ?? '').toUpperCase();
    if (parsed && isDnsType(word)) unsupported(`field ${parsed.field}: ${parsed.reason}`);
    else if (word === 'SOA') unsupported('SOA is managed by the provider');
    else if (isKnownType(word)) unsupported(`type ${word} is not supported`);
    else if (entry.error === 'quote') unsupported('a quoted string is not closed');
    else if (entry.error === 'parentheses') unsupported('parentheses are not balanced');
    else unsupported('not a DNS record');
  }
  return result;
}

// ---- diff -------------------------------------------------------------------------------------

/** What to add and delete so that the current records become the wanted ones; `unchanged` are current items kept. */
export interface ZoneDiff<T> {
  toAdd: DnsRecordData[];
  toDelete: T[];
  unchanged: T[];
}

/**
 * What to add and delete so that `current` becomes `wanted` (sameRecord); `current` items carry
 * the caller's ids. Records are matched one to one, so duplicates count: two equal wanted records
 * against one current record keep it and add one.
 */
export function diffZone<T extends { record: DnsRecordData }>(
  current: readonly T[],
  wanted: readonly DnsRecordData[],
): ZoneDiff<T> {
  const kept = new Set<number>();
  const toAdd: DnsRecordData[] = [];
  for (const record of wanted) {
    const match = current.findIndex((item, index) => !kept.has(index) && sameRecord(item.record, record));
    if (match < 0) toAdd.push(record);
    else kept.add(match);
  }
  return {
    toAdd,
    toDelete: current.filter((_, index) => !kept.has(index)),
    unchanged: current.filter((_, index) => kept.has(index)),
  };
}
