import { domainToUnicode } from 'node:url';
import type { FieldKind } from './dns-fields.js';
import { asciiDomain, isDomainName, toAsciiHostName } from './dns-host-names.js';
import { DEFAULT_TTL, DNS_RECORD_TYPES, type DnsRecordData, fieldValues, sameRecord } from './dns-records.js';
import { glueOf, type ProviderPart } from './zone-provider.js';

/*
 * Writing a BIND zone file (RFC 1035 master file format) for export: the provider's SOA and NS
 * block, then each record in its type's zone layout. zone-reader.ts reads such a file back.
 */

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

/** The field values of a record by name, with their kinds. */
function valuesByName(record: DnsRecordData): Map<string, { kind: FieldKind; value: string | number }> {
  return new Map(fieldValues(record).map(([field, value]) => [field.name, { kind: field.kind, value }]));
}

/** The owner: the host, after the labels its type's zone layout puts there (SRV `_sip._tcp`). */
function zoneOwner(record: DnsRecordData): string {
  const host = record.host === '' ? '@' : toAsciiHostName(record.host);
  const values = valuesByName(record);
  const labels = DNS_RECORD_TYPES[record.type].zone.owner.map((name) =>
    underscored(String(values.get(name)?.value ?? '')),
  );
  if (labels.length === 0) return host;
  return host === '@' ? labels.join('.') : `${labels.join('.')}.${host}`;
}

/**
 * The rdata pieces of a record in its type's zone layout, each field written as its kind is:
 * names absolute, numbers and addresses as they are, a text as quoted strings (one piece each).
 */
function zoneRdata(record: DnsRecordData): string[] {
  const values = valuesByName(record);
  const words: string[] = [];
  const strings: string[] = [];
  for (const name of DNS_RECORD_TYPES[record.type].zone.rdata) {
    const field = values.get(name);
    const value = String(field?.value ?? '');
    if (field?.kind === 'text') strings.push(...txtChunks(value).map(quoteZoneText));
    else words.push(field?.kind === 'name' || field?.kind === 'target' ? zoneTarget(value) : value);
  }
  return words.length > 0 ? [words.join(' '), ...strings] : strings;
}

/** One line of an exported zone before it is laid out. */
interface ZoneRow {
  owner: string;
  ttl: string;
  type: string;
  rdata: string[];
}

/** SOA timers (refresh, retry, expire, negative-answer ttl), RIPE-203's recommendations. */
const SOA_TIMERS = '7200 3600 1209600 3600';

/** The SOA, apex NS and glue lines of a zone (the glue the records do not have already). */
function providerRows(ascii: string, part: ProviderPart, records: readonly DnsRecordData[]): ZoneRow[] {
  const ttl = String(DEFAULT_TTL);
  const servers = part.nameServers.map((server) => zoneTarget(server.ns.trim().replace(/\.$/, '')));
  const primary = servers[0] ?? `ns.${ascii}.`;
  const serial = `${part.at.toISOString().slice(0, 10).replaceAll('-', '')}01`;
  const glue = part.nameServers.flatMap((server) => {
    const record = glueOf(server, ascii);
    return record && !records.some((r) => sameRecord(r, record)) ? [record] : [];
  });
  return [
    { owner: '@', ttl, type: 'SOA', rdata: [`${primary} hostmaster.${ascii}. ${serial} ${SOA_TIMERS}`] },
    ...servers.map((server) => ({ owner: '@', ttl, type: 'NS', rdata: [server] })),
    ...glue.map((record) => ({ owner: zoneOwner(record), ttl, type: record.type, rdata: zoneRdata(record) })),
  ];
}

/**
 * A BIND-style zone file: header comment, $ORIGIN <domain>., $TTL, then (with `provider`) the SOA
 * and the apex NS records under a comment that says they are the provider's, then one line per
 * record with its own ttl, owners relative ('@' apex), TXT quoted and split into strings of at
 * most 255 bytes (several strings in parentheses over lines), SRV owner `_service._protocol.host`
 * (host '@' → `_sip._tcp`) with priority weight port target, targets absolute with a trailing dot
 * when they are full names. IDN domains and hosts are written in punycode.
 */
export function exportZone(
  domain: string,
  records: readonly DnsRecordData[],
  provider?: ProviderPart,
): string {
  const ascii = asciiDomain(domain);
  const unicode = domainToUnicode(ascii) || ascii;
  const managed = provider ? providerRows(ascii, provider, records) : [];
  const rows: ZoneRow[] = records.map((record) => ({
    owner: zoneOwner(record),
    ttl: String(record.ttl),
    type: record.type,
    rdata: zoneRdata(record),
  }));
  const width = (pick: (row: ZoneRow) => string): number =>
    Math.max(0, ...[...managed, ...rows].map((row) => pick(row).length));
  const ownerWidth = width((row) => row.owner);
  const ttlWidth = width((row) => row.ttl);
  const lines = [
    `; Zone file of ${unicode === ascii ? ascii : `${unicode} (${ascii})`}: ${records.length} ${records.length === 1 ? 'record' : 'records'}`,
    `$ORIGIN ${ascii}.`,
    `$TTL ${DEFAULT_TTL}`,
  ];
  const write = (row: ZoneRow) => {
    const prefix = `${row.owner.padEnd(ownerWidth)} ${row.ttl.padStart(ttlWidth)} IN ${row.type.padEnd(5)} `;
    const [first = '', ...more] = row.rdata;
    if (more.length === 0) {
      lines.push(`${prefix}${first}`);
      return;
    }
    const indent = ' '.repeat(prefix.length + 2);
    lines.push(`${prefix}( ${first}`, ...more.map((piece) => `${indent}${piece}`));
    lines[lines.length - 1] += ' )';
  };
  if (managed.length > 0) {
    lines.push('; Managed by the provider: the SOA and the name servers (/ns). An import skips these lines.');
    for (const row of managed) write(row);
    lines.push('; The records:');
  } else {
    lines.push('; SOA and name servers are managed by the provider and are not included.');
  }
  for (const row of rows) write(row);
  return `${lines.join('\n')}\n`;
}
