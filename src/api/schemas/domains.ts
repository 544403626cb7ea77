import { z } from 'zod';
import { optional, text } from './common.js';

export const domainCheckRequest = z.strictObject({ domains: z.array(text).min(1) });

export const domainCheckResult = z.object({
  domain: z.string(),
  is_available: z.boolean(),
  is_premium: z.boolean(),
  state: z.string(),
});
export const domainCheckResponse = z.object({ results: z.array(domainCheckResult) });

export const nameServer = z.object({ ns: z.string().min(1), ip: optional(z.string()) });
export const nameServersResponse = z.object({ servers: z.array(nameServer) });

export const nameServerInput = z.strictObject({ ns: text, ip: text.nullish() });
export const customNameServersRequest = z.strictObject({ servers: z.array(nameServerInput).min(1) });

export const dnsRecord = z.object({
  record_id: z.int(),
  type: z.string().min(1),
  ttl: z.int(),
  value: z.string().min(1),
});
export const dnsRecordsResponse = z.object({ records: z.array(dnsRecord) });

// 0 is a legal ttl (never cached); the provider's own range is not described, so it decides.
const ttl = z.int().min(0);
const port16 = z.int().min(0).max(65_535);

/** Bodies of the seven add-record operations, keyed by the `kind` path segment. */
export const dnsRecordInput = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('ns'), ttl, host: text, ns: text }),
  z.strictObject({ kind: z.literal('a'), ttl, host: text, ipv4: z.ipv4() }),
  z.strictObject({ kind: z.literal('aaaa'), ttl, host: text, ipv6: z.ipv6() }),
  z.strictObject({ kind: z.literal('cname'), ttl, host: text, canonical: text }),
  z.strictObject({ kind: z.literal('mx'), ttl, host: text, mail_server: text, priority: port16 }),
  // TXT text is sent as given: leading/trailing spaces of a DKIM value are the user's.
  z.strictObject({ kind: z.literal('txt'), ttl, host: text, text: z.string().min(1) }),
  z.strictObject({
    kind: z.literal('srv'),
    ttl,
    host: text,
    service: text,
    protocol: text,
    target: text,
    port: port16,
    priority: port16,
    weight: port16,
  }),
]);

export const DNS_RECORD_KINDS = ['ns', 'a', 'aaaa', 'cname', 'mx', 'txt', 'srv'] as const;
export const dnsRecordKind = z.enum(DNS_RECORD_KINDS);

export type DomainCheckResult = z.output<typeof domainCheckResult>;
export type NameServer = z.output<typeof nameServer>;
export type NameServerInput = z.input<typeof nameServerInput>;
export type DnsRecord = z.output<typeof dnsRecord>;
export type DnsRecordInput = z.input<typeof dnsRecordInput>;
export type DnsRecordKind = z.output<typeof dnsRecordKind>;
