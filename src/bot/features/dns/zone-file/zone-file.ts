import { randomBytes } from 'node:crypto';
import { Markup } from 'telegraf';
import { type ImportMode, isEmptyPlan, planImport, readListedRecords } from '../../../../core/dns-plan.js';
import { type DnsRecordData, parseListedRecord } from '../../../../core/dns-records.js';
import { toUnicodeDomain } from '../../../../core/domain-names.js';
import { importZone } from '../../../../core/zone-reader.js';
import { exportZone } from '../../../../core/zone-writer.js';
import type { BotContext } from '../../../context.js';
import { UserInputError } from '../../../errors.js';
import { AWAIT_INPUT_SCENE, type AwaitedInput, type InputHandler } from '../../../kit/await-input.js';
import { styled } from '../../../kit/bot-api-today.js';
import { askMember } from '../../../kit/group-question.js';
import type { CallbackRegistrar } from '../../../registry.js';
import { encodeCallback } from '../../../registry.js';
import { announce } from '../../team/announce.js';
import { type ApplyPlan, applyButton } from '../apply.js';
import { type DomainRef, refOfOrder } from '../domain.js';
import { importPreviewScreen } from '../plan-views.js';
import type { SkippedLine } from '../views.js';

/** Zone files: export as BIND, import with a previewed plan, Apply (with force for mass deletes). */
export function createDnsZoneFile(deps: { router: CallbackRegistrar; applyPlan: ApplyPlan }) {
  const { router, applyPlan } = deps;

  const exportRecords = async (ctx: BotContext, ref: DomainRef) => {
    const api = await ctx.partnerApi();
    const [listed, servers] = await Promise.all([
      api.listDnsRecords(ref.orderId),
      api.listNameServers(ref.orderId, { fresh: true }),
    ]);
    const parsed = listed.map(parseListedRecord).filter((r): r is DnsRecordData => r !== undefined);
    // With the SOA and the name servers, the file is a zone BIND loads (named-checkzone accepts it).
    const zone = exportZone(ref.domain, parsed, { nameServers: servers, at: new Date() });
    await ctx.replyWithDocument(
      { source: Buffer.from(zone, 'utf8'), filename: `${ref.domain}.zone` },
      { caption: ctx.t('dns:exported', { count: parsed.length, domain: toUnicodeDomain(ref.domain) }) },
    );
  };

  const askImport = async (ctx: BotContext, orderId: number) => {
    await ctx.scene.enter(AWAIT_INPUT_SCENE, { purpose: 'dnsImport', orderId } satisfies AwaitedInput, true);
    await askMember(ctx, ctx.t('dns:importAsk'));
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
    const current = readListedRecords(listed);
    const nonce = randomBytes(6).toString('base64url');
    const { plan, unchanged } = planImport({ nonce, ...ref }, current, wanted, listed.length, mode);
    ctx.session.dnsImport = plan;
    const note = ctx.t(mode === 'merge' ? 'dns:importMergeNote' : 'dns:importReplaceNote');
    const empty = isEmptyPlan(plan);
    // A merge can always become a replace; a replace deletes what the file does not list.
    const replace = styled(
      Markup.button.callback(
        ctx.t('dns:replaceZoneButton'),
        encodeCallback('dnsApply', plan.nonce, 'replace'),
      ),
      'danger',
    );
    const no = Markup.button.callback(ctx.t('dns:no'), encodeCallback('dismiss', 'zone'));
    // The file's name servers are not carried over: they are set with /ns, one tap away.
    const nameServers = skipped.some((line) => line.reason.key === 'apexNs' || line.reason.key === 'nsGlue')
      ? [[Markup.button.callback(ctx.t('dns:nsButton'), encodeCallback('nameServers', ref.orderId))]]
      : [];
    const apply = applyButton(
      ctx.t('dns:applyButton'),
      encodeCallback('dnsApply', plan.nonce, 'ask'),
      plan.remove.length,
    );
    const keyboard = empty
      ? mode === 'merge'
        ? [[replace], [no], ...nameServers]
        : undefined
      : mode === 'merge'
        ? [[apply, no], [replace], ...nameServers]
        : [[apply, no]];
    const notes = empty ? [note, ctx.t('dns:importNothing')] : [note];
    await ctx.screens.send(ctx, (rich) => ({
      ...importPreviewScreen(ctx.t, { plan, unchanged, skipped, notes }, rich),
      ...(keyboard ? { keyboard } : {}),
    }));
  };

  const previewImport: InputHandler = async (ctx, input, text) => {
    const ref = await refOfOrder(ctx, input.orderId);
    // The file's apex NS records are skipped whoever's they are; the glue of the domain's own
    // name servers (as an export writes it) is the provider's too.
    const servers = await (await ctx.partnerApi()).listNameServers(ref.orderId).catch(() => []);
    const parsed = importZone(text, ref.domain, { providerNameServers: servers });
    // Text with no record at all is no zone: planning it would offer to replace the zone by nothing.
    // An exported zone of a domain without records is one (its SOA says so), and changes nothing.
    const isZone = parsed.unsupported.some(
      (line) => line.reason.key === 'soa' || line.reason.key === 'apexNs',
    );
    if (parsed.records.length === 0 && !isZone) throw new UserInputError('dns:importEmpty');
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
      await applyPlan(ctx, {
        plan,
        force: mode === 'force',
        ask: { ns: 'dns', forceData: encodeCallback('dnsApply', plan.nonce, 'force'), topic: 'zone' },
        kind: 'import',
        settle: () => {
          ctx.session.dnsImport = undefined;
        },
        announce: ({ ok, total }) => announce(ctx, 'zoneImported', { orderId: plan.orderId, ok, total }),
      });
    },
    { selfAnswer: true },
  );

  return { exportRecords, askImport, inputHandlers: { dnsImport: previewImport } };
}
