import { randomBytes } from 'node:crypto';
import { Markup } from 'telegraf';
import { dnsRecordKindOf, toDnsRecordBody } from '../../api/index.js';
import { exportZone, importZone } from '../../core/bind.js';
import {
  type ImportMode,
  type ImportPlan,
  isEmptyPlan,
  needsForce,
  planImport,
} from '../../core/dns-plan.js';
import { type DnsRecordData, parseListedRecord } from '../../core/dns-records.js';
import { toUnicodeDomain } from '../../core/domain-names.js';
import { joinLinesWithin } from '../../core/text.js';
import { type BotContext, UserInputError } from '../context.js';
import type { CallbackRegistrar } from '../feature.js';
import { encodeCallback } from '../keyboards/callback-data.js';
import { checkChangeLive } from '../live-check.js';
import { describeError } from '../middlewares/errors.js';
import { AWAIT_INPUT_SCENE, type AwaitedInput, type InputHandler } from '../scenes/await-input.js';
import { announce } from '../team-announce.js';
import { describeRecord, renderImportPreview, type SkippedLine } from '../views/dns.js';
import { type DomainRef, refOfOrder } from './dns-domain.js';

/** Zone files: export as BIND, import with a previewed plan, Apply (with force for mass deletes). */
export function createDnsZoneFile(deps: {
  router: CallbackRegistrar;
  showRecords(ctx: BotContext, orderId: number): Promise<void>;
}) {
  const { router, showRecords } = deps;

  const exportRecords = async (ctx: BotContext, ref: DomainRef) => {
    const listed = await (await ctx.partnerApi()).listDnsRecords(ref.orderId);
    const parsed = listed.map(parseListedRecord).filter((r): r is DnsRecordData => r !== undefined);
    await ctx.replyWithDocument(
      { source: Buffer.from(exportZone(ref.domain, parsed), 'utf8'), filename: `${ref.domain}.zone` },
      { caption: ctx.t('dns:exported', { count: parsed.length, domain: toUnicodeDomain(ref.domain) }) },
    );
  };

  const askImport = async (ctx: BotContext, orderId: number) => {
    await ctx.scene.enter(AWAIT_INPUT_SCENE, { purpose: 'dnsImport', orderId } satisfies AwaitedInput, true);
    await ctx.reply(ctx.t('dns:importAsk'));
  };

  router.on('dnsExport', async (ctx, orderId) => exportRecords(ctx, await refOfOrder(ctx, orderId)));
  router.on('dnsImport', (ctx, orderId) => askImport(ctx, orderId));

  /** Plans the import against the records as listed now and shows the preview with its buttons. */
  const preview = async (
    ctx: BotContext,
    ref: DomainRef,
    wanted: DnsRecordData[],
    mode: ImportMode,
    skipped: SkippedLine[],
  ) => {
    const listed = await (await ctx.partnerApi()).listDnsRecords(ref.orderId);
    const current = listed.flatMap((l) => {
      const record = parseListedRecord(l);
      return record ? [{ id: l.record_id, record }] : [];
    });
    const nonce = randomBytes(6).toString('base64url');
    const { plan, unchanged } = planImport({ nonce, ...ref }, current, wanted, listed.length, mode);
    ctx.session.dnsImport = plan;
    const text = [
      renderImportPreview(ctx.t, plan, unchanged, skipped),
      ctx.t(mode === 'merge' ? 'dns:importMergeNote' : 'dns:importReplaceNote'),
    ].join('\n\n');
    // A merge can always become a replace; a replace deletes what the file does not list.
    const replace = Markup.button.callback(
      ctx.t('dns:replaceZoneButton'),
      encodeCallback('dnsApply', plan.nonce, 'replace'),
    );
    const no = Markup.button.callback(ctx.t('dns:no'), encodeCallback('dismiss', 'zone'));
    if (isEmptyPlan(plan)) {
      await ctx.reply(`${text}\n\n${ctx.t('dns:importNothing')}`, {
        parse_mode: 'HTML',
        ...(mode === 'merge' ? Markup.inlineKeyboard([[replace], [no]]) : {}),
      });
      return;
    }
    const apply = Markup.button.callback(
      ctx.t('dns:applyButton'),
      encodeCallback('dnsApply', plan.nonce, 'ask'),
    );
    await ctx.reply(text, {
      parse_mode: 'HTML',
      ...Markup.inlineKeyboard(mode === 'merge' ? [[apply, no], [replace]] : [[apply, no]]),
    });
  };

  const previewImport: InputHandler = async (ctx, input, text) => {
    const ref = await refOfOrder(ctx, input.orderId);
    const parsed = importZone(text, ref.domain);
    if (parsed.records.length === 0 && parsed.unsupported.length === 0)
      throw new UserInputError('dns:importEmpty');
    await preview(ctx, ref, parsed.records, 'merge', parsed.unsupported);
  };

  router.on(
    'dnsApply',
    async (ctx, nonce, mode) => {
      const plan = ctx.session.dnsImport;
      if (!plan || plan.nonce !== nonce) {
        await ctx.answerCbQuery(ctx.t('dns:applyExpired'));
        await ctx.editMessageReplyMarkup(undefined).catch(() => undefined);
        return;
      }
      await ctx.answerCbQuery(ctx.t(mode === 'replace' ? 'dns:replacePlanning' : 'dns:applyingToast'));
      await ctx.editMessageReplyMarkup(undefined).catch(() => undefined);
      if (mode === 'replace') {
        // The merge plan is settled; the replace plan gets its own preview and nonce.
        ctx.session.dnsImport = undefined;
        await preview(ctx, await refOfOrder(ctx, plan.orderId), plan.wanted, 'replace', []);
        return;
      }
      if (needsForce(plan) && mode !== 'force') {
        const count = plan.remove.length;
        await ctx.reply(ctx.t('dns:massDeleteConfirm', { count, existing: plan.existing }), {
          ...Markup.inlineKeyboard([
            Markup.button.callback(
              ctx.t('dns:massDeleteYes', { count }),
              encodeCallback('dnsApply', plan.nonce, 'force'),
            ),
            Markup.button.callback(ctx.t('dns:no'), encodeCallback('dismiss', 'zone')),
          ]),
        });
        return;
      }
      // Single use: a second tap finds no plan.
      ctx.session.dnsImport = undefined;
      await applyPlan(ctx, plan);
    },
    { selfAnswer: true },
  );

  /** One call at a time, a progress message edited in place, then a report. */
  const applyPlan = async (ctx: BotContext, plan: ImportPlan) => {
    const api = await ctx.partnerApi();
    const total = plan.add.length + plan.remove.length;
    const progress = await ctx.reply(ctx.t('dns:applying', { done: 0, total }));
    const failures: string[] = [];
    let done = 0;
    const step = async (label: string, call: () => Promise<void>): Promise<boolean> => {
      let ok = true;
      try {
        await call();
      } catch (error) {
        ok = false;
        failures.push(`${label} — ${describeError(error, ctx.t) ?? ''}`);
      }
      done += 1;
      const text = ctx.t('dns:applying', { done, total });
      await ctx.telegram
        .editMessageText(progress.chat.id, progress.message_id, undefined, text)
        .catch(() => undefined);
      return ok;
    };
    const applied: { added: DnsRecordData[]; removed: DnsRecordData[] } = { added: [], removed: [] };
    for (const r of plan.remove) {
      const done = await step(`− ${describeRecord(ctx.t, r.record)}`, async () => {
        const kind = dnsRecordKindOf(r.record.type);
        if (kind) await api.deleteDnsRecord(plan.orderId, kind, r.id);
      });
      if (done) applied.removed.push(r.record);
    }
    for (const record of plan.add) {
      const done = await step(`+ ${describeRecord(ctx.t, record)}`, () =>
        api.addDnsRecord(plan.orderId, toDnsRecordBody(record)),
      );
      if (done) applied.added.push(record);
    }
    const report = [ctx.t('dns:applied', { ok: total - failures.length, total })];
    if (failures.length > 0) report.push(ctx.t('dns:applyFailures', { count: failures.length }), ...failures);
    const html = joinLinesWithin(report, 4000);
    const sent = await ctx.reply(html, { parse_mode: 'HTML' });
    await announce(ctx, 'zoneImported', { orderId: plan.orderId, ok: total - failures.length, total });
    await checkChangeLive(ctx, sent, { html }, plan.orderId, applied);
    await showRecords(ctx, plan.orderId);
  };

  return { exportRecords, askImport, inputHandlers: { dnsImport: previewImport } };
}
