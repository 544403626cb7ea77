import type { DnsRecord, NameServer } from '../../../api/index.js';
import type { ChangeLine } from '../../../core/dns-change.js';
import { problemMessage } from '../../../core/dns-fields.js';
import {
  type DnsRecordData,
  parseListedRecord,
  recordDataText,
  recordNote,
} from '../../../core/dns-records.js';
import { fieldName } from '../../../core/dns-words.js';
import { toUnicodeDomain } from '../../../core/domain-names.js';
import { escapeHtml } from '../../../core/format.js';
import { cutGraphemes } from '../../../core/text.js';
import type { SkipReason } from '../../../core/zone-reader.js';
import { copyTextButton } from '../../kit/bot-api-today.js';
import type { Translate } from '../../kit/i18n.js';

/** Long TXT values (DKIM) are shortened in lists only; they are sent and exported whole. */
const SHOWN_DATA = 120;
/** How much of a value a copy button's label shows. */
const COPY_LABEL = 40;

/** What a record means beyond its data, after it: ` (домен не принимает почту)` for a null MX; '' mostly. */
function noteOf(t: Translate, record: DnsRecordData | undefined): string {
  const note = record ? recordNote(record) : undefined;
  return note === undefined ? '' : ` (${escapeHtml(t(`dns:note.${note}`))})`;
}

/** One record line: `#30001 A www → 192.0.2.1 · 3600 s`. */
export function renderRecord(t: Translate, listed: DnsRecord): string {
  const record = parseListedRecord(listed);
  const data = record ? recordDataText(record) : listed.value;
  const shown = cutGraphemes(data, SHOWN_DATA);
  return t('dns:recordRow', {
    id: listed.record_id,
    type: escapeHtml(listed.type),
    host: escapeHtml(record?.host ?? ''),
    data: escapeHtml(shown),
    note: noteOf(t, record),
    ttl: listed.ttl,
  });
}

/** A record as a row of the records table: type, host, value (with its note), TTL. */
export function recordCells(t: Translate, listed: DnsRecord): string[] {
  const record = parseListedRecord(listed);
  if (record) return recordDataCells(t, record);
  return [
    `<b>${escapeHtml(listed.type)}</b>`,
    '',
    `<code>${escapeHtml(cutGraphemes(listed.value, SHOWN_DATA))}</code>`,
    String(listed.ttl),
  ];
}

/** A record (read, or planned) as the cells of a table: type, host, value (with its note), TTL. */
export function recordDataCells(t: Translate, record: DnsRecordData): string[] {
  const data = cutGraphemes(recordDataText(record), SHOWN_DATA);
  return [
    `<b>${escapeHtml(record.type)}</b>`,
    escapeHtml(record.host),
    `<code>${escapeHtml(data)}</code>${noteOf(t, record)}`,
    String(record.ttl),
  ];
}

/** The records table's header. */
export const recordColumns = (t: Translate): string[] =>
  ['type', 'host', 'value', 'ttl'].map((column) => t(`dns:column.${column}`));

/** A record described for a confirmation: type, host, data (and what it means, if told), ttl. */
export function describeRecord(t: Translate, record: DnsRecordData): string {
  return t('dns:recordLine', {
    type: record.type,
    host: escapeHtml(record.host),
    data: escapeHtml(recordDataText(record)),
    note: noteOf(t, record),
    ttl: record.ttl,
  });
}

/**
 * How much of a record a button's label shows (a list of records, each a button, one to a row):
 * what a full-width button of a 390 px phone holds, so the bot's own «…» cuts it, not the app's.
 */
const BUTTON_LABEL = 32;

/** A record as a button's label (plain text): `A www → 192.0.2.1`, cut to fit. */
export function recordLabel(record: DnsRecordData): string {
  return cutGraphemes(`${record.type} ${record.host} → ${recordDataText(record)}`, BUTTON_LABEL);
}

/** A record that became another: `A www: 192.0.2.1 → 192.0.2.9`, with the TTL when it changed. */
export function describeRecordChange(t: Translate, before: DnsRecordData, after: DnsRecordData): string {
  const [was, now] = [recordDataText(before), recordDataText(after)];
  const common = { type: after.type, host: escapeHtml(after.host) };
  if (before.ttl === after.ttl || was !== now) {
    return before.ttl === after.ttl
      ? t('dnschange:line', { ...common, before: escapeHtml(was), after: escapeHtml(now) })
      : t('dnschange:lineBoth', {
          ...common,
          before: escapeHtml(was),
          after: escapeHtml(now),
          ttlBefore: before.ttl,
          ttlAfter: after.ttl,
        });
  }
  return t('dnschange:lineTtl', { ...common, data: escapeHtml(now), before: before.ttl, after: after.ttl });
}

/** A change's lines: a record that became another, `+` an added one, `−` a deleted one. */
export function describeChangeLines(t: Translate, lines: readonly ChangeLine[]): string[] {
  return lines.map((line) =>
    line.op === 'change'
      ? describeRecordChange(t, line.before, line.after)
      : `${line.op === 'add' ? '+' : '−'} ${describeRecord(t, line.record)}`,
  );
}

/**
 * A button that copies a record's value (an address, a target, a TXT such as a verification code or
 * a DKIM key) to paste at another host; none when Telegram cannot copy that much.
 */
export function copyValueButton(t: Translate, record: DnsRecordData, named = false) {
  // A TXT is copied as the service gave it, without the zone file's quotes.
  const value = record.type === 'TXT' ? record.text : recordDataText(record);
  // Beside other copy buttons, each names its value (a button label is plain text, not HTML).
  const label = named
    ? t('dns:copyNamed', { value: cutGraphemes(value, COPY_LABEL) })
    : t('dns:copyValue', { type: record.type });
  return copyTextButton(label, value);
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

/**
 * A one-line form in the chat's language: `A <host> <ipv4> [ttl]` reads «A <хост> <IPv4-адрес>
 * [TTL]» (the registry's forms name the fields; their names are the locale's).
 */
export function localLineForm(t: Translate, form: string): string {
  return form
    .replace(/<([a-z0-9_]+)>/g, (_, field: string) => `<${fieldName(t, field)}>`)
    .replace('[ttl]', '[TTL]');
}

/** The parameters of `dns:badLine`: the field, why, and the form of the line in words. */
export function describeLineProblem(
  t: Translate,
  read: { field: string; reason: string; form: string | undefined },
): Record<string, string> {
  const reason = problemMessage(read);
  return {
    field: escapeHtml(fieldName(t, read.field)),
    reason: escapeHtml(t(reason.key, reason.params)),
    form: escapeHtml(read.form === undefined ? t('dns:anyForm') : localLineForm(t, read.form)),
  };
}

/** A zone-file line the import skipped, and why. */
export interface SkippedLine {
  line: number;
  text: string;
  reason: SkipReason;
}
