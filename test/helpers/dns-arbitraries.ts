/** fast-check building blocks for valid DNS records, shared by the BIND and one-line format tests. */

import fc from 'fast-check';
import { MAX_TTL } from '../../src/core/dns-fields.js';
import type { DnsRecordData } from '../../src/core/dns-records.js';

const asciiLabel = fc
  .stringMatching(/^[a-z0-9_](?:[a-z0-9_-]{0,14}[a-z0-9_])?$/)
  .filter((label) => !/^xn--/.test(label));
const label = fc.oneof(
  { weight: 5, arbitrary: fc.mixedCase(asciiLabel) },
  { weight: 1, arbitrary: fc.constantFrom('почта', 'пример', 'мой-сайт', 'ПОЧТА', 'xn--80a1acny') },
);
const tld = fc.oneof(fc.stringMatching(/^[a-z]{2,6}$/), fc.constantFrom('бел', 'рф', 'xn--90ais'));

/** One to three labels, ASCII in mixed case or Cyrillic (also in punycode), without a trailing dot. */
export const relativeName = fc.array(label, { minLength: 1, maxLength: 3 }).map((labels) => labels.join('.'));

/** An owner: `@`, `*`, a wildcard or plain relative name, or one of the given extra hosts. */
export function hostArbitrary(extraHosts: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constant('@'),
    fc.constant('*'),
    relativeName.map((name) => `*.${name}`),
    relativeName,
    extraHosts,
  );
}

/** A full domain name with a top-level label, with or without the trailing dot. */
export const domainNameArb = fc
  .tuple(fc.array(label, { minLength: 1, maxLength: 3 }), tld, fc.boolean())
  .map(([labels, top, dot]) => `${[...labels, top].join('.')}${dot ? '.' : ''}`);
export const ttlArb = fc.oneof(fc.constant(3600), fc.constant(0), fc.integer({ min: 0, max: MAX_TTL }));
export const uint16 = fc.integer({ min: 0, max: 65_535 });
/** A 2048-bit DKIM key record: one long word of base64 after the tags. */
export const dkimArb = fc
  .stringMatching(/^[A-Za-z0-9+/]{2000,2600}$/)
  .map((key) => `v=DKIM1; k=rsa; p=${key}`);

export interface RecordArbitraryOptions {
  /** Owner of every record but SRV. */
  host: fc.Arbitrary<string>;
  /** Owner of SRV records. */
  srvHost: fc.Arbitrary<string>;
  /** Text of TXT records. */
  text: fc.Arbitrary<string>;
}

/** A valid record of any of the seven kinds. */
export function recordArbitrary({
  host,
  srvHost,
  text,
}: RecordArbitraryOptions): fc.Arbitrary<DnsRecordData> {
  return fc.oneof(
    fc.record({ type: fc.constant('A' as const), host, ttl: ttlArb, ipv4: fc.ipV4() }),
    fc.record({ type: fc.constant('AAAA' as const), host, ttl: ttlArb, ipv6: fc.ipV6() }),
    fc.record({ type: fc.constant('CNAME' as const), host, ttl: ttlArb, canonical: domainNameArb }),
    fc.record({ type: fc.constant('NS' as const), host, ttl: ttlArb, ns: domainNameArb }),
    fc.record({
      type: fc.constant('MX' as const),
      host,
      ttl: ttlArb,
      mail_server: domainNameArb,
      priority: uint16,
    }),
    // A null MX: the domain accepts no mail (RFC 7505).
    fc.record({
      type: fc.constant('MX' as const),
      host,
      ttl: ttlArb,
      mail_server: fc.constant('.'),
      priority: fc.constant(0),
    }),
    fc.record({ type: fc.constant('TXT' as const), host, ttl: ttlArb, text }),
    fc.record({
      type: fc.constant('SRV' as const),
      host: srvHost,
      ttl: ttlArb,
      service: fc.stringMatching(/^_[a-z][a-z0-9-]{0,8}[a-z0-9]$/),
      protocol: fc.constantFrom('_tcp', '_udp', '_TCP', '_tls'),
      target: fc.oneof(domainNameArb, fc.constant('.')),
      port: uint16,
      priority: uint16,
      weight: uint16,
    }),
  );
}
