import { comparableValue, isIpv4, isIpv6 } from './dns-fields.js';
import { relativeHost, toAsciiHostName } from './dns-host-names.js';
import { DEFAULT_TTL, type DnsRecordData } from './dns-records.js';

/**
 * What the provider keeps for a domain outside its records: the SOA and the apex NS records (the
 * domain's name servers). An export writes them so that the file is a zone BIND loads; an import
 * skips them again (the name servers change with `/ns`).
 */
export interface ProviderPart {
  /**
   * The domain's name servers, in the provider's order (the first is the SOA's primary), with the
   * address of one inside the domain (its glue: a zone must give the address of such a server).
   */
  readonly nameServers: readonly ProviderNameServer[];
  /** The export's moment: the SOA serial is its UTC date, `YYYYMMDD01`. */
  readonly at: Date;
}

/** One of the domain's name servers as the provider lists it, with its address when it has one. */
export interface ProviderNameServer {
  readonly ns: string;
  readonly ip?: string | null | undefined;
}

/** A name server inside the domain with its address: the A or AAAA record that glues it. */
export function glueOf(server: ProviderNameServer, ascii: string): DnsRecordData | undefined {
  const host = relativeHost(toAsciiHostName(server.ns.trim().replace(/\.$/, '')), ascii);
  const ip = server.ip?.trim() ?? '';
  if (host === undefined || host === '@') return undefined;
  if (isIpv4(ip)) return { type: 'A', host, ttl: DEFAULT_TTL, ipv4: ip };
  if (isIpv6(ip)) return { type: 'AAAA', host, ttl: DEFAULT_TTL, ipv6: ip };
  return undefined;
}

/**
 * An NS record at the apex: one of the domain's name servers, which the provider keeps and /ns
 * sets. No import adds or deletes one, whoever's servers a file names.
 */
export function isApexNs(record: DnsRecordData): boolean {
  return record.type === 'NS' && comparableValue('host', record.host) === '@';
}
