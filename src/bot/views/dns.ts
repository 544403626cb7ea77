import type { DnsRecord, NameServer } from '../../api/index.js';
import { type DnsRecordData, parseListedRecord } from '../../core/dns-records.js';
import { toUnicodeDomain } from '../../core/domain-names.js';
import { escapeHtml } from '../../core/format.js';
import { cutGraphemes } from '../../core/text.js';
import type { Translate } from '../i18n.js';

/** The data part of a record, as a person reads it: `10 mx.example.by`, `"v=spf1 -all"`. */
export function recordData(record: DnsRecordData): string {
  switch (record.type) {
    case 'A':
      return record.ipv4;
    case 'AAAA':
      return record.ipv6;
    case 'CNAME':
      return record.canonical;
    case 'NS':
      return record.ns;
    case 'MX':
      return `${record.priority} ${record.mail_server}`;
    case 'TXT':
      return `"${record.text}"`;
    case 'SRV':
      return `${record.service} ${record.protocol} ${record.priority} ${record.weight} ${record.port} ${record.target}`;
  }
}

/** Long TXT values (DKIM) are shortened in lists only; they are sent and exported whole. */
const SHOWN_DATA = 120;

/** One record line: `#30001 A www → 192.0.2.1 · 3600 s`. */
export function renderRecord(t: Translate, listed: DnsRecord): string {
  const record = parseListedRecord(listed);
  const data = record ? recordData(record) : listed.value;
  const shown = cutGraphemes(data, SHOWN_DATA);
  return t('dns:recordRow', {
    id: listed.record_id,
    type: escapeHtml(listed.type),
    host: escapeHtml(record?.host ?? ''),
    data: escapeHtml(shown),
    ttl: listed.ttl,
  });
}

/** A record described for a confirmation: type, host, data, ttl. */
export function describeRecord(t: Translate, record: DnsRecordData): string {
  return t('dns:recordLine', {
    type: record.type,
    host: escapeHtml(record.host),
    data: escapeHtml(recordData(record)),
    ttl: record.ttl,
  });
}

export function renderNameServers(t: Translate, domain: string, servers: readonly NameServer[]): string {
  const lines = servers.map((s) =>
    s.ip ? `• ${escapeHtml(s.ns)} (${escapeHtml(s.ip)})` : `• ${escapeHtml(s.ns)}`,
  );
  return [
    t('dns:nsTitle', { domain: escapeHtml(toUnicodeDomain(domain)) }),
    ...(lines.length > 0 ? lines : [t('dns:nsNone')]),
  ].join('\n');
}
