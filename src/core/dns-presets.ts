import type { PresetConflict, PresetDefinition } from './dns-preset-plan.js';
import { DEFAULT_TTL, type DnsRecordData } from './dns-records.js';

/*
 * The DNS presets, one entry each (docs/dns.md, "Presets", says how to add one): the parameters it asks
 * for, the records it makes (hosts relative to the domain, '@' is the apex) and the records it
 * replaces. Its name, description and questions are `dnspresets:preset.<id>.*` and
 * `dnspresets:ask.<id>.<param>` in locales/{ru,en}/dnspresets.json. Values are the providers'
 * published ones.
 */

const ttl = DEFAULT_TTL;
const mx = (mail_server: string, priority: number, host = '@'): DnsRecordData => ({
  type: 'MX',
  host,
  ttl,
  mail_server,
  priority,
});
const txt = (text: string, host = '@'): DnsRecordData => ({ type: 'TXT', host, ttl, text });
const a = (ipv4: string, host = '@'): DnsRecordData => ({ type: 'A', host, ttl, ipv4 });
const aaaa = (ipv6: string, host = '@'): DnsRecordData => ({ type: 'AAAA', host, ttl, ipv6 });
const cname = (host: string, canonical: string): DnsRecordData => ({ type: 'CNAME', host, ttl, canonical });
/** A verification TXT at the apex, when the partner gave the code. */
const verification = (prefix: string, code: string | undefined): DnsRecordData[] =>
  code === undefined ? [] : [txt(`${prefix}${code}`)];

/** Mail at the domain: another provider's MX and another SPF at the apex go. */
const MAIL_CONFLICTS: readonly PresetConflict[] = [
  { host: '@', types: ['MX'] },
  { host: '@', types: ['TXT'], textPrefix: 'v=spf1' },
];
/** A site at the apex and www: other addresses at the apex, anything beside the www CNAME. */
const SITE_CONFLICTS: readonly PresetConflict[] = [
  { host: '@', types: ['A', 'AAAA', 'CNAME'] },
  { host: 'www', types: 'any' },
];

export const DNS_PRESETS = {
  /** Yandex 360 for business: mail on mx.yandex.net. */
  yandex360: {
    params: [{ name: 'verification', kind: 'token', optional: true, prefix: 'yandex-verification:' }],
    records: (p) => [
      mx('mx.yandex.net', 10),
      txt('v=spf1 include:_spf.yandex.net ~all'),
      ...verification('yandex-verification: ', p.verification),
    ],
    conflicts: MAIL_CONFLICTS,
  },
  /** Google Workspace: the single MX smtp.google.com (Google's current setup). */
  googleWorkspace: {
    params: [{ name: 'verification', kind: 'token', optional: true, prefix: 'google-site-verification=' }],
    records: (p) => [
      mx('smtp.google.com', 1),
      txt('v=spf1 include:_spf.google.com ~all'),
      ...verification('google-site-verification=', p.verification),
    ],
    conflicts: MAIL_CONFLICTS,
  },
  /** Microsoft 365: MX <domain-with-dashes>.mail.protection.outlook.com, autodiscover for Outlook. */
  microsoft365: {
    params: [{ name: 'verification', kind: 'token', optional: true, prefix: 'MS=' }],
    records: (p, domain) => [
      mx(`${domain.replaceAll('.', '-')}.mail.protection.outlook.com`, 0),
      txt('v=spf1 include:spf.protection.outlook.com -all'),
      cname('autodiscover', 'autodiscover.outlook.com'),
      ...verification('MS=', p.verification),
    ],
    conflicts: [...MAIL_CONFLICTS, { host: 'autodiscover', types: 'any' }],
  },
  /** Mail.ru for business (VK WorkSpace mail): emx.mail.ru. */
  mailRu: {
    params: [{ name: 'verification', kind: 'token', optional: true, prefix: 'mailru-verification:' }],
    records: (p) => [
      mx('emx.mail.ru', 10),
      txt('v=spf1 include:_spf.mail.ru ~all'),
      ...verification('mailru-verification: ', p.verification),
    ],
    conflicts: MAIL_CONFLICTS,
  },
  /** A Tilda site: the apex on Tilda's address, www a CNAME to tilda.ws. */
  tilda: {
    params: [],
    records: () => [a('185.165.123.36'), cname('www', 'tilda.ws')],
    conflicts: SITE_CONFLICTS,
  },
  /** GitHub Pages: the apex on GitHub's four addresses (v4 and v6), www a CNAME to <user>.github.io. */
  githubPages: {
    params: [{ name: 'user', kind: 'githubUser' }],
    records: (p) => [
      ...[108, 109, 110, 111].map((n) => a(`185.199.${n}.153`)),
      ...[8000, 8001, 8002, 8003].map((n) => aaaa(`2606:50c0:${n}::153`)),
      cname('www', `${(p.user ?? '').toLowerCase()}.github.io`),
    ],
    conflicts: SITE_CONFLICTS,
  },
  /** Basic SPF (the domain's own MX may send) and DMARC (monitoring, reports when an address is given). */
  spfDmarc: {
    params: [{ name: 'reportEmail', kind: 'email', optional: true, prefix: 'mailto:' }],
    records: (p) => [
      txt('v=spf1 mx ~all'),
      txt(`v=DMARC1; p=none${p.reportEmail === undefined ? '' : `; rua=mailto:${p.reportEmail}`}`, '_dmarc'),
    ],
    conflicts: [
      { host: '@', types: ['TXT'], textPrefix: 'v=spf1' },
      { host: '_dmarc', types: ['TXT'], textPrefix: 'v=DMARC1' },
    ],
  },
} as const satisfies Record<string, PresetDefinition>;

/** A preset's id: a key of DNS_PRESETS (also its button's data and its locale key). */
export type PresetId = keyof typeof DNS_PRESETS;

/** The presets in the order the partner sees them. */
export const PRESET_IDS = Object.keys(DNS_PRESETS) as PresetId[];

export function isPresetId(text: string): text is PresetId {
  return Object.hasOwn(DNS_PRESETS, text);
}

/** A preset's definition (one cast-free lookup for the union of entries). */
export function presetOf(id: PresetId): PresetDefinition {
  return DNS_PRESETS[id];
}
