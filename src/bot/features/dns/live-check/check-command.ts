import { expectListed, fullName, isDelegation } from '../../../../core/dns-check.js';
import { checkField, problemMessage } from '../../../../core/dns-fields.js';
import { DNS_TYPES, type DnsRecordData, isDnsType, parseListedRecord } from '../../../../core/dns-records.js';
import { toUnicodeDomain } from '../../../../core/domain-names.js';
import { escapeHtml } from '../../../../core/format.js';
import { echoInput } from '../../../../core/text.js';
import type { BotContext } from '../../../context.js';
import { UserInputError } from '../../../errors.js';
import type { DomainRef } from '../domain.js';
import type { LiveCheckPort } from './live-check.js';

const usage = { usageKey: 'dnscheck:usage' };

/**
 * `/dns <domain> check <host> <TYPE>`: what the domain's name servers answer for that name and
 * type, against what the provider lists. The question is answered at once ("asking…"); the live
 * check asks the servers in the background and edits that message, again until they agree or two
 * minutes pass.
 */
export async function checkOnDemand(
  port: LiveCheckPort | undefined,
  ctx: BotContext,
  ref: DomainRef,
  words: readonly string[],
) {
  const [host, typeWord] = words;
  if (host === undefined || typeWord === undefined)
    throw new UserInputError('dnscheck:needHostAndType', usage);
  const type = typeWord.toUpperCase();
  if (!isDnsType(type)) {
    throw new UserInputError('dnscheck:badType', {
      ...usage,
      type: escapeHtml(echoInput(typeWord)),
      types: DNS_TYPES.join(', '),
    });
  }
  const problem = checkField('host', 'host', host);
  if (problem) {
    const reason = problemMessage(problem);
    throw new UserInputError('dnscheck:badHost', {
      ...usage,
      host: escapeHtml(echoInput(host)),
      reason: escapeHtml(ctx.t(reason.key, reason.params)),
    });
  }
  if (isDelegation({ type, host })) throw new UserInputError('dnscheck:delegation');
  if (!port) throw new UserInputError('dnscheck:off');
  const api = await ctx.partnerApi();
  const html = ctx.t('dnscheck:asking', {
    name: escapeHtml(toUnicodeDomain(fullName(host, ref.domain))),
    type,
  });
  const sent = await ctx.reply(`${html}\n\n${ctx.t('dnscheck:askingServers')}`, { parse_mode: 'HTML' });
  port.start({
    chatId: sent.chat.id,
    messageId: sent.message_id,
    html,
    t: ctx.t,
    api,
    orderId: ref.orderId,
    style: 'report',
    async expect(domain) {
      const listed = (await api.listDnsRecords(ref.orderId))
        .map(parseListedRecord)
        .filter((r): r is DnsRecordData => r !== undefined);
      return [expectListed(domain, host, type, listed)];
    },
  });
}
