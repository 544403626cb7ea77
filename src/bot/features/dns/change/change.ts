import { randomBytes } from 'node:crypto';
import { Markup } from 'telegraf';
import { keptTtl, matchRecords, planRecordSet, recordsAt } from '../../../../core/dns-change.js';
import { parseDnsLine } from '../../../../core/dns-line.js';
import { readListedRecords } from '../../../../core/dns-plan.js';
import { type DnsRecordData, isDnsType, parseListedRecord } from '../../../../core/dns-records.js';
import { toUnicodeDomain } from '../../../../core/domain-names.js';
import { escapeHtml } from '../../../../core/format.js';
import { ACME_LABEL, type KeyKind } from '../../../../core/robot-keys.js';
import { joinLinesWithin } from '../../../../core/text.js';
import type { BotContext } from '../../../context.js';
import { UserInputError } from '../../../errors.js';
import type { OrderEngine } from '../../../forms/engine.js';
import { styled } from '../../../kit/bot-api-today.js';
import type { CallbackRegistrar } from '../../../registry.js';
import { encodeCallback } from '../../../registry.js';
import { type DomainRef, refOfOrder } from '../domain.js';
import { checkOnDemand } from '../live-check/check-command.js';
import type { DnsPorts } from '../ports.js';
import { copyValueButton, describeLineProblem, describeRecord, recordLabel } from '../views.js';
import { startRecordChange } from './change-flow.js';
import type { ChangeRunner } from './runner.js';
import { describeRefusal, listButton, renderCard } from './views.js';

/** The kind of robot key a record's card offers: an address for A/AAAA, a certificate for its challenge. */
function keyKindFor(record: DnsRecordData): KeyKind | undefined {
  if ((record.type === 'A' || record.type === 'AAAA') && !record.host.includes('*')) return 'address';
  const challenge = record.host === ACME_LABEL || record.host.startsWith(`${ACME_LABEL}.`);
  return record.type === 'TXT' && challenge ? 'certificate' : undefined;
}

/**
 * A record as a thing you tap: its card (✏️ Change, 🗑 Delete, 📋 Copy, 🔎 Check, back to the list),
 * `/dns <domain> set …` (the record set of a type and host made exactly the one given), and `del`
 * by the record as typed. Every change goes through the change runner: gap-free, recorded once.
 */
export function createDnsChanges(deps: {
  router: CallbackRegistrar;
  engine: OrderEngine;
  changes: ChangeRunner;
  ports: DnsPorts;
  askDelete(ctx: BotContext, orderId: number, recordId: number): Promise<void>;
}) {
  const { router, engine, changes, ports } = deps;

  /** The record a button names; undefined (and the partner told it is gone, with the way to the list). */
  const findListed = async (ctx: BotContext, orderId: number, recordId: number) => {
    const listed = (await (await ctx.partnerApi()).listDnsRecords(orderId)).find(
      (r) => r.record_id === recordId,
    );
    if (!listed) {
      // A button of an older screen: the record was changed or deleted since (its id is gone).
      await ctx.reply(ctx.t('dnschange:recordGone'), listButton(ctx, orderId));
      return undefined;
    }
    return { listed, record: parseListedRecord(listed) };
  };

  const showCard = async (ctx: BotContext, orderId: number, recordId: number) => {
    const ref = await refOfOrder(ctx, orderId);
    const found = await findListed(ctx, orderId, recordId);
    if (!found) return;
    const { listed, record } = found;
    const copy = record ? copyValueButton(ctx.t, record) : undefined;
    const rows = [
      [
        ...(record
          ? [
              Markup.button.callback(
                ctx.t('dnschange:changeButton'),
                encodeCallback('dnsChange', orderId, recordId),
              ),
            ]
          : []),
        styled(
          Markup.button.callback(
            ctx.t('dnschange:deleteButton'),
            encodeCallback('dnsDelete', orderId, recordId),
          ),
          'danger',
        ),
      ],
      copy ? [copy] : [],
      ports.liveChecks && record
        ? [
            Markup.button.callback(
              ctx.t('dnschange:checkButton'),
              encodeCallback('dnsCheckRecord', orderId, recordId),
            ),
          ]
        : [],
      // A host's address, or a certificate's challenge, kept current by a robot with a key (/keys).
      record && keyKindFor(record) !== undefined
        ? [
            Markup.button.callback(
              ctx.t('keys:recordButton'),
              encodeCallback('keyForRecord', orderId, recordId),
            ),
          ]
        : [],
      [Markup.button.callback(ctx.t('dnschange:backButton'), encodeCallback('dns', orderId))],
    ];
    await ctx.reply(renderCard(ctx, ref.domain, listed, record), {
      parse_mode: 'HTML',
      ...Markup.inlineKeyboard(rows.filter((row) => row.length > 0)),
    });
  };

  /** `/dns <domain> set <TYPE> <host> <fields…> [ttl]`: one record replaces that type and host's. */
  const setFromLine = async (ctx: BotContext, ref: DomainRef, line: string) => {
    const domain = escapeHtml(toUnicodeDomain(ref.domain));
    if (line.trim() === '') throw new UserInputError('dnschange:badSet', { domain });
    const parsed = parseDnsLine(line);
    if (!parsed.ok) throw new UserInputError('dns:badLine', describeLineProblem(ctx.t, parsed));
    const listed = readListedRecords(await (await ctx.partnerApi()).listDnsRecords(ref.orderId));
    // A line without a TTL keeps the one the records have (a TTL lowered before a move stays low).
    const kept = keptTtl(recordsAt(listed, parsed.record.type, parsed.record.host));
    const wanted = parsed.ttlGiven || kept === undefined ? parsed.record : { ...parsed.record, ttl: kept };
    const planned = planRecordSet(listed, [wanted]);
    if (!planned.ok) {
      if (planned.reason === 'same') {
        await ctx.reply(
          ctx.t('dnschange:sameSet', { host: escapeHtml(parsed.record.host), type: parsed.record.type }),
          { parse_mode: 'HTML', ...listButton(ctx, ref.orderId) },
        );
        return;
      }
      const refusal = describeRefusal(planned, ref.domain);
      throw new UserInputError(refusal.key, refusal.params);
    }
    // Replacing more than one record is asked first, naming each one it deletes.
    if (planned.plan.remove.length > 1) {
      const id = randomBytes(4).toString('base64url');
      ctx.session.dnsSet = { id, orderId: ref.orderId, plan: planned.plan };
      const { remove, add } = planned.plan;
      const text = joinLinesWithin(
        [
          ctx.t('dnschange:setPreview', {
            domain,
            type: parsed.record.type,
            host: escapeHtml(parsed.record.host),
          }),
          ...add.map((record) => `+ ${describeRecord(ctx.t, record)}`),
          ctx.t('dnschange:setRemoves', { count: remove.length }),
          ...remove.map((r) => `− ${describeRecord(ctx.t, r.record)}`),
        ],
        4000,
      );
      await ctx.reply(text, {
        parse_mode: 'HTML',
        ...Markup.inlineKeyboard([
          // set deletes every other record of that type and host: red, as a delete is.
          styled(
            Markup.button.callback(ctx.t('dnschange:setYes'), encodeCallback('dnsSetYes', id)),
            'danger',
          ),
          Markup.button.callback(ctx.t('dns:no'), encodeCallback('dismiss', 'set')),
        ]),
      });
      return;
    }
    await changes.run(ctx, ref.orderId, planned.plan);
  };

  /**
   * `/dns <domain> del <id>`, or the record as typed: `del A www 192.0.2.1`, or `del A www` when
   * there is exactly one. Always the usual confirmation; several matches are offered as buttons.
   */
  const deleteFromWords = async (ctx: BotContext, ref: DomainRef, words: readonly string[], line: string) => {
    const domain = escapeHtml(toUnicodeDomain(ref.domain));
    const [first, host] = words;
    if (first !== undefined && /^\d{1,10}$/.test(first))
      return deps.askDelete(ctx, ref.orderId, Number(first));
    const type = first?.toUpperCase();
    if (type === undefined || host === undefined || !isDnsType(type)) {
      throw new UserInputError('dnschange:badDel', { domain });
    }
    let data: Parameters<typeof matchRecords>[3];
    if (words.length > 2) {
      const parsed = parseDnsLine(line);
      if (!parsed.ok) throw new UserInputError('dns:badLine', describeLineProblem(ctx.t, parsed));
      data = parsed.record;
    }
    const listed = readListedRecords(await (await ctx.partnerApi()).listDnsRecords(ref.orderId));
    const found = matchRecords(listed, type, host, data);
    const what = escapeHtml(line.trim());
    if (found.length === 0) throw new UserInputError('dnschange:notFound', { domain, what });
    const [only] = found;
    if (found.length === 1 && only) return deps.askDelete(ctx, ref.orderId, only.id);
    await ctx.reply(ctx.t('dnschange:manyFound', { domain, what }), {
      parse_mode: 'HTML',
      ...Markup.inlineKeyboard([
        ...found.map((r) => [
          styled(
            Markup.button.callback(
              `🗑 ${recordLabel(r.record)}`,
              encodeCallback('dnsDelete', ref.orderId, r.id),
            ),
            'danger',
          ),
        ]),
        [Markup.button.callback(ctx.t('dns:no'), encodeCallback('dismiss', 'records'))],
      ]),
    });
  };

  router.on('dnsRecord', (ctx, orderId, recordId) => showCard(ctx, orderId, recordId));
  router.on('dnsChange', async (ctx, orderId, recordId) => {
    const record = (await findListed(ctx, orderId, recordId))?.record;
    if (record) await startRecordChange(engine, ctx, orderId, recordId, record);
  });
  router.on('dnsCheckRecord', async (ctx, orderId, recordId) => {
    const record = (await findListed(ctx, orderId, recordId))?.record;
    if (record)
      await checkOnDemand(ports.liveChecks, ctx, await refOfOrder(ctx, orderId), [record.host, record.type]);
  });
  router.on('dnsFinish', async (ctx, id) => {
    await ctx.editMessageReplyMarkup(undefined).catch(() => undefined);
    await changes.finish(ctx, id);
  });
  router.on('dnsSetYes', async (ctx, id) => {
    await ctx.editMessageReplyMarkup(undefined).catch(() => undefined);
    const pending = ctx.session.dnsSet;
    if (pending?.id !== id) {
      // A second tap on a Yes that went through is told so, not that the preview is old.
      const done = ctx.session.confirmed?.nonce === id;
      await ctx.reply(ctx.t(done ? 'dnschange:setDone' : 'dnschange:setExpired'));
      return;
    }
    ctx.session.dnsSet = undefined;
    ctx.session.confirmed = { nonce: id, toast: ctx.t('dnschange:setDone') };
    await changes.run(ctx, pending.orderId, pending.plan);
  });

  return { showCard, setFromLine, deleteFromWords };
}
