import { Markup } from 'telegraf';
import type { DnsRecord } from '../../../../api/index.js';
import type { ChangeRefusal } from '../../../../core/dns-change.js';
import type { DnsRecordData } from '../../../../core/dns-records.js';
import { toUnicodeDomain } from '../../../../core/domain-names.js';
import { escapeHtml } from '../../../../core/format.js';
import type { BotContext } from '../../../context.js';
import { encodeCallback } from '../../../registry.js';
import { describeRecord, renderRecord } from '../views.js';

/** Why a change is not made, as an i18n key and its parameters (HTML-safe). */
export function describeRefusal(
  refusal: ChangeRefusal,
  domain = '',
): { key: string; params: Record<string, string> } {
  switch (refusal.reason) {
    case 'same':
      return { key: 'dnschange:same', params: {} };
    case 'cnameApex':
      return { key: 'dnschange:cnameApex', params: {} };
    case 'cnameBeside':
      return {
        key: 'dnschange:cnameBeside',
        params: { host: escapeHtml(refusal.host), types: refusal.types.join(', ') },
      };
    case 'badValue':
    case 'notFound':
      return {
        key: 'dnschange:notFound',
        params: { domain: escapeHtml(toUnicodeDomain(domain)), what: '' },
      };
  }
}

/** A record's card: the domain, the record in full (a long TXT too), its TTL. */
export function renderCard(
  ctx: BotContext,
  domain: string,
  listed: DnsRecord,
  record: DnsRecordData | undefined,
): string {
  return [
    ctx.t('dnschange:cardTitle', { domain: escapeHtml(toUnicodeDomain(domain)) }),
    record ? describeRecord(ctx.t, record) : renderRecord(ctx.t, listed),
  ].join('\n');
}

/** The way back to a domain's records, under a message that ends a step. */
export function listButton(ctx: BotContext, orderId: number) {
  return Markup.inlineKeyboard([
    Markup.button.callback(ctx.t('dnschange:backButton'), encodeCallback('dns', orderId)),
  ]);
}
