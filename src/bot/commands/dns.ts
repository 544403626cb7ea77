import { randomBytes } from 'node:crypto';
import { Composer, Markup } from 'telegraf';
import type { DnsRecord, NameServerInput, PartnerApi } from '../../api/index.js';
import { diffZone, exportZone, importZone } from '../../core/bind.js';
import { parseDnsLine } from '../../core/dns-line.js';
import { type DnsRecordData, isIpv4, isIpv6, parseListedRecord, toApiInput } from '../../core/dns-records.js';
import { toAsciiDomain, toUnicodeDomain } from '../../core/domain-names.js';
import { escapeHtml } from '../../core/format.js';
import { cutGraphemes, echoInput, joinLinesWithin } from '../../core/text.js';
import type { CallbackRouter } from '../callbacks.js';
import { type BotContext, UserInputError } from '../context.js';
import { encodeCallback } from '../keyboards/callback-data.js';
import { linkKeyboard } from '../keyboards/list.js';
import { describeError } from '../middlewares/errors.js';
import type { PagedLists } from '../paged-list.js';
import { AWAIT_INPUT_SCENE, type AwaitedInput, type InputHandler } from '../scenes/await-input.js';
import type { OrderEngine } from '../scenes/order/engine.js';
import { renderLink } from '../views/billing.js';
import { describeRecord, renderNameServers, renderRecord } from '../views/dns.js';
import { commandWords } from './arguments.js';

/** A domain order the DNS commands act on. */
export interface DomainRef {
  orderId: number;
  /** ASCII form. */
  domain: string;
}

/** `/dns example.by`, `/dns пример.бел` or `/dns 1006`: the partner's domain order. */
export async function resolveDomainOrder(api: PartnerApi, arg: string | undefined): Promise<DomainRef> {
  if (arg === undefined) throw new UserInputError('dns:needDomain', { usageKey: 'dns:usage' });
  if (/^\d{1,10}$/.test(arg)) {
    const [order] = await api.listDomainOrders({ order_id: Number(arg) });
    const domain = order?.advanced?.domain;
    if (!order || !domain) throw new UserInputError('dns:orderNotFound', { id: arg });
    return { orderId: order.order_id, domain: toAsciiDomain(domain) ?? domain };
  }
  const ascii = toAsciiDomain(arg);
  if (!ascii) throw new UserInputError('dns:badDomain', { value: escapeHtml(echoInput(arg)) });
  const orders = await api.listDomainOrders();
  const order = orders.find((o) => o.advanced?.domain && toAsciiDomain(o.advanced.domain) === ascii);
  if (!order) throw new UserInputError('dns:domainNotFound', { domain: escapeHtml(toUnicodeDomain(ascii)) });
  return { orderId: order.order_id, domain: ascii };
}

async function refOfOrder(api: PartnerApi, orderId: number): Promise<DomainRef> {
  return resolveDomainOrder(api, String(orderId));
}

/** Import plans wait for their Apply button here (per chat, in the session). */
interface ImportPlan {
  nonce: string;
  orderId: number;
  domain: string;
  add: DnsRecordData[];
  remove: { id: number; record: DnsRecordData }[];
  existing: number;
}

type DnsSession = {
  dnsImport?: ImportPlan | undefined;
  nsPending?: { orderId: number; servers: NameServerInput[] } | undefined;
};

/** More than this share of existing records deleted by one import needs a second confirmation. */
const MASS_DELETE_SHARE = 1 / 3;

/** /dns, /ns and /cert: records, name servers, the certificate link, zone export and import. */
export function createDnsCommands(router: CallbackRouter, lists: PagedLists, engine: OrderEngine) {
  const composer = new Composer<BotContext>();

  const records = lists.register({
    id: 'dns',
    perPage: 15,
    async load(ctx, filter) {
      const api = await ctx.partnerApi();
      const ref = await refOfOrder(api, Number(filter));
      const listed = await api.listDnsRecords(ref.orderId);
      return {
        title: ctx.t('dns:recordsTitle', {
          domain: escapeHtml(toUnicodeDomain(ref.domain)),
          count: listed.length,
        }),
        empty: ctx.t('dns:noRecords', { domain: escapeHtml(toUnicodeDomain(ref.domain)) }),
        rows: listed.map((r) => ({
          html: renderRecord(ctx.t, r),
          button: Markup.button.callback(
            ctx.t('dns:deleteButton', { id: r.record_id }),
            encodeCallback('dnsDelete', ref.orderId, r.record_id),
          ),
        })),
        footer: [
          Markup.button.callback(ctx.t('dns:addButton'), encodeCallback('dnsAdd', ref.orderId)),
          Markup.button.callback(ctx.t('dns:nsButton'), encodeCallback('nameServers', ref.orderId)),
          Markup.button.callback(ctx.t('dns:exportButton'), encodeCallback('dnsExport', ref.orderId)),
          Markup.button.callback(ctx.t('dns:importButton'), encodeCallback('dnsImport', ref.orderId)),
        ],
      };
    },
  });

  const showRecords = (ctx: BotContext, orderId: number) =>
    lists.show(ctx, records, String(orderId), 0, 'reply');

  const findRecord = async (api: PartnerApi, orderId: number, recordId: number): Promise<DnsRecord> => {
    const listed = (await api.listDnsRecords(orderId)).find((r) => r.record_id === recordId);
    if (!listed) throw new UserInputError('dns:recordNotFound', { id: recordId });
    return listed;
  };

  const askDelete = async (ctx: BotContext, orderId: number, recordId: number) => {
    const listed = await findRecord(await ctx.partnerApi(), orderId, recordId);
    const record = parseListedRecord(listed);
    await ctx.reply(
      ctx.t('dns:deleteConfirm', {
        record: record ? describeRecord(ctx.t, record) : escapeHtml(listed.value),
      }),
      {
        parse_mode: 'HTML',
        ...Markup.inlineKeyboard([
          Markup.button.callback(ctx.t('dns:deleteYes'), encodeCallback('dnsDeleteYes', orderId, recordId)),
          Markup.button.callback(ctx.t('dns:no'), encodeCallback('noop')),
        ]),
      },
    );
  };

  // ---- /dns ----

  composer.command('dns', async (ctx) => {
    const words = commandWords(ctx.payload);
    const api = await ctx.partnerApi();
    const ref = await resolveDomainOrder(api, words[0]);
    const action = words[1]?.toLowerCase();
    if (action === undefined) return showRecords(ctx, ref.orderId);
    if (action === 'add') {
      // The rest of the line as typed (TXT text keeps its spaces).
      const line = ctx.payload.trim().replace(/^\S+\s+add\s*/i, '');
      const parsed = parseDnsLine(line);
      if (!parsed.ok) {
        throw new UserInputError('dns:badLine', {
          field: escapeHtml(parsed.field),
          reason: escapeHtml(parsed.reason),
          form: escapeHtml(parsed.form ?? ctx.t('dns:anyForm')),
        });
      }
      await api.addDnsRecord(ref.orderId, toApiInput(parsed.record) as never);
      await ctx.reply(ctx.t('dns:added', { record: describeRecord(ctx.t, parsed.record) }), {
        parse_mode: 'HTML',
      });
      return showRecords(ctx, ref.orderId);
    }
    if (action === 'del' || action === 'delete') {
      const id = words[2];
      if (!id || !/^\d{1,10}$/.test(id))
        throw new UserInputError('dns:badRecordId', { usageKey: 'dns:usage' });
      return askDelete(ctx, ref.orderId, Number(id));
    }
    if (action === 'export') return exportRecords(ctx, ref);
    if (action === 'import') return askImport(ctx, ref.orderId);
    throw new UserInputError('dns:badAction', { usageKey: 'dns:usage' });
  });

  router.on('dns', (ctx, orderId) => showRecords(ctx, orderId));
  router.on('dnsAdd', (ctx, orderId) => engine.start(ctx, 'dnsAdd', { dnsOrder: orderId }));
  router.on('dnsDelete', (ctx, orderId, recordId) => askDelete(ctx, orderId, recordId));
  router.on('dnsDeleteYes', async (ctx, orderId, recordId) => {
    await ctx.editMessageReplyMarkup(undefined).catch(() => undefined);
    const api = await ctx.partnerApi();
    const listed = await findRecord(api, orderId, recordId);
    const kind = listed.type.toLowerCase();
    if (!['a', 'aaaa', 'cname', 'ns', 'mx', 'txt', 'srv'].includes(kind)) {
      throw new UserInputError('dns:unsupportedType', { type: escapeHtml(listed.type) });
    }
    await api.deleteDnsRecord(orderId, kind as 'a', recordId);
    await ctx.reply(ctx.t('dns:deleted', { id: recordId }));
    await showRecords(ctx, orderId);
  });

  // ---- export and import ----

  const exportRecords = async (ctx: BotContext, ref: DomainRef) => {
    const listed = await (await ctx.partnerApi()).listDnsRecords(ref.orderId);
    const parsed = listed.map(parseListedRecord).filter((r): r is DnsRecordData => r !== undefined);
    const zone = exportZone(ref.domain, parsed);
    await ctx.replyWithDocument(
      { source: Buffer.from(zone, 'utf8'), filename: `${ref.domain}.zone` },
      { caption: ctx.t('dns:exported', { count: parsed.length, domain: toUnicodeDomain(ref.domain) }) },
    );
  };

  const askImport = async (ctx: BotContext, orderId: number) => {
    await ctx.scene.enter(AWAIT_INPUT_SCENE, { purpose: 'dnsImport', orderId } satisfies AwaitedInput, true);
    await ctx.reply(ctx.t('dns:importAsk'));
  };

  router.on('dnsExport', async (ctx, orderId) =>
    exportRecords(ctx, await refOfOrder(await ctx.partnerApi(), orderId)),
  );
  router.on('dnsImport', (ctx, orderId) => askImport(ctx, orderId));

  const previewImport: InputHandler = async (ctx, input, text) => {
    const api = await ctx.partnerApi();
    const ref = await refOfOrder(api, input.orderId);
    const parsed = importZone(text, ref.domain);
    if (parsed.records.length === 0 && parsed.unsupported.length === 0)
      throw new UserInputError('dns:importEmpty');
    const listed = await api.listDnsRecords(ref.orderId);
    const current = listed.flatMap((l) => {
      const record = parseListedRecord(l);
      return record ? [{ id: l.record_id, record }] : [];
    });
    const diff = diffZone(current, parsed.records);
    const plan: ImportPlan = {
      nonce: randomBytes(6).toString('base64url'),
      orderId: ref.orderId,
      domain: ref.domain,
      add: diff.toAdd,
      remove: diff.toDelete,
      existing: listed.length,
    };
    (ctx.session as DnsSession).dnsImport = plan;
    const lines = [
      ctx.t('dns:importTitle', { domain: escapeHtml(toUnicodeDomain(ref.domain)) }),
      ctx.t('dns:importAdd', { count: diff.toAdd.length }),
      ...diff.toAdd.slice(0, 30).map((r) => `+ ${describeRecord(ctx.t, r)}`),
      ctx.t('dns:importDelete', { count: diff.toDelete.length }),
      ...diff.toDelete.slice(0, 30).map((r) => `− ${describeRecord(ctx.t, r.record)}`),
      ctx.t('dns:importUnchanged', { count: diff.unchanged.length }),
    ];
    if (parsed.unsupported.length > 0) {
      lines.push(ctx.t('dns:importUnsupported', { count: parsed.unsupported.length }));
      for (const u of parsed.unsupported.slice(0, 20)) {
        lines.push(
          `• ${ctx.t('dns:lineNo', { line: u.line })}: <code>${escapeHtml(cutGraphemes(u.text, 80))}</code> — ${escapeHtml(cutGraphemes(u.reason, 120))}`,
        );
      }
    }
    const preview = joinLinesWithin(lines, 4000);
    if (diff.toAdd.length === 0 && diff.toDelete.length === 0) {
      await ctx.reply(`${preview}\n\n${ctx.t('dns:importNothing')}`, { parse_mode: 'HTML' });
      return;
    }
    await ctx.reply(preview, {
      parse_mode: 'HTML',
      ...Markup.inlineKeyboard([
        Markup.button.callback(ctx.t('dns:applyButton'), encodeCallback('dnsApply', plan.nonce, 'ask')),
        Markup.button.callback(ctx.t('dns:no'), encodeCallback('noop')),
      ]),
    });
  };

  router.on(
    'dnsApply',
    async (ctx, nonce, mode) => {
      const session = ctx.session as DnsSession;
      const plan = session.dnsImport;
      if (!plan || plan.nonce !== nonce) {
        await ctx.answerCbQuery(ctx.t('dns:applyExpired'));
        await ctx.editMessageReplyMarkup(undefined).catch(() => undefined);
        return;
      }
      await ctx.answerCbQuery();
      await ctx.editMessageReplyMarkup(undefined).catch(() => undefined);
      const massDelete = plan.remove.length > plan.existing * MASS_DELETE_SHARE;
      if (massDelete && mode !== 'force') {
        await ctx.reply(
          ctx.t('dns:massDeleteConfirm', { count: plan.remove.length, existing: plan.existing }),
          {
            ...Markup.inlineKeyboard([
              Markup.button.callback(
                ctx.t('dns:massDeleteYes', { count: plan.remove.length }),
                encodeCallback('dnsApply', plan.nonce, 'force'),
              ),
              Markup.button.callback(ctx.t('dns:no'), encodeCallback('noop')),
            ]),
          },
        );
        return;
      }
      // Single use: a second tap finds no plan.
      session.dnsImport = undefined;
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
    const step = async (label: string, call: () => Promise<void>) => {
      try {
        await call();
      } catch (error) {
        failures.push(`${label} — ${describeError(error, ctx.t) ?? ''}`);
      }
      done += 1;
      await ctx.telegram
        .editMessageText(
          progress.chat.id,
          progress.message_id,
          undefined,
          ctx.t('dns:applying', { done, total }),
        )
        .catch(() => undefined);
    };
    for (const r of plan.remove) {
      const kind = r.record.type.toLowerCase() as 'a';
      await step(`− ${describeRecord(ctx.t, r.record)}`, () => api.deleteDnsRecord(plan.orderId, kind, r.id));
    }
    for (const record of plan.add) {
      await step(`+ ${describeRecord(ctx.t, record)}`, () =>
        api.addDnsRecord(plan.orderId, toApiInput(record) as never),
      );
    }
    const report = [ctx.t('dns:applied', { ok: total - failures.length, total })];
    if (failures.length > 0) report.push(ctx.t('dns:applyFailures', { count: failures.length }), ...failures);
    await ctx.reply(joinLinesWithin(report, 4000), { parse_mode: 'HTML' });
    await showRecords(ctx, plan.orderId);
  };

  // ---- /ns ----

  const showNameServers = async (ctx: BotContext, orderId: number) => {
    const api = await ctx.partnerApi();
    const ref = await refOfOrder(api, orderId);
    const servers = await api.listNameServers(ref.orderId);
    await ctx.reply(renderNameServers(ctx.t, ref.domain, servers), {
      parse_mode: 'HTML',
      ...Markup.inlineKeyboard([
        [
          Markup.button.callback(ctx.t('dns:nsHosting'), encodeCallback('nsAsk', ref.orderId, 'hosting')),
          Markup.button.callback(ctx.t('dns:nsEditor'), encodeCallback('nsAsk', ref.orderId, 'editor')),
        ],
        [
          Markup.button.callback(ctx.t('dns:nsCustom'), encodeCallback('nsAsk', ref.orderId, 'custom')),
          Markup.button.callback(ctx.t('dns:nsDelete'), encodeCallback('nsAsk', ref.orderId, 'delete')),
        ],
      ]),
    });
  };

  /** Replacing or deleting name servers can take a site offline: always ask first. */
  const confirmNs = async (ctx: BotContext, orderId: number, action: string, servers?: NameServerInput[]) => {
    if (servers) (ctx.session as DnsSession).nsPending = { orderId, servers };
    const what = servers
      ? servers.map((s) => escapeHtml(s.ip ? `${s.ns}=${s.ip}` : s.ns)).join(', ')
      : ctx.t(`dns:nsWhat.${action}`);
    await ctx.reply(ctx.t(action === 'delete' ? 'dns:nsDeleteConfirm' : 'dns:nsReplaceConfirm', { what }), {
      parse_mode: 'HTML',
      ...Markup.inlineKeyboard([
        Markup.button.callback(ctx.t('dns:yesApply'), encodeCallback('nsApply', orderId, action)),
        Markup.button.callback(ctx.t('dns:no'), encodeCallback('noop')),
      ]),
    });
  };

  const parseServers = (words: string[]): NameServerInput[] => {
    const servers = words.map((word) => {
      const [ns = '', ip] = word.split('=');
      const ascii = toAsciiDomain(ns);
      if (!ascii) throw new UserInputError('dns:badNs', { value: escapeHtml(echoInput(word)) });
      // The same address checks as records get: one place for what an IP looks like.
      if (ip !== undefined && !isIpv4(ip) && !isIpv6(ip))
        throw new UserInputError('dns:badNsIp', { value: escapeHtml(echoInput(ip)) });
      return ip ? { ns: ascii, ip } : { ns: ascii };
    });
    if (servers.length === 0 || servers.length > 13) throw new UserInputError('dns:nsCount');
    return servers;
  };

  composer.command('ns', async (ctx) => {
    const [target, ...rest] = commandWords(ctx.payload);
    const api = await ctx.partnerApi();
    const ref = await resolveDomainOrder(api, target);
    const first = rest[0]?.toLowerCase();
    if (first === undefined) return showNameServers(ctx, ref.orderId);
    if (first === 'hosting' || first === 'editor' || first === 'delete')
      return confirmNs(ctx, ref.orderId, first);
    return confirmNs(ctx, ref.orderId, 'custom', parseServers(rest));
  });

  router.on('nameServers', (ctx, orderId) => showNameServers(ctx, orderId));
  router.on('nsAsk', async (ctx, orderId, action) => {
    if (action === 'custom') {
      await ctx.scene.enter(AWAIT_INPUT_SCENE, { purpose: 'nsCustom', orderId } satisfies AwaitedInput, true);
      await ctx.reply(ctx.t('dns:nsCustomAsk'), { parse_mode: 'HTML' });
      return;
    }
    await confirmNs(ctx, orderId, action);
  });
  router.on('nsApply', async (ctx, orderId, action) => {
    await ctx.editMessageReplyMarkup(undefined).catch(() => undefined);
    const api = await ctx.partnerApi();
    if (action === 'hosting') await api.setHostingNameServers(orderId);
    else if (action === 'editor') await api.setEditorNameServers(orderId);
    else if (action === 'delete') await api.deleteNameServers(orderId);
    else {
      const pending = (ctx.session as DnsSession).nsPending;
      if (!pending || pending.orderId !== orderId) throw new UserInputError('dns:nsExpired');
      (ctx.session as DnsSession).nsPending = undefined;
      await api.setCustomNameServers(orderId, pending.servers);
    }
    await ctx.reply(ctx.t('dns:nsDone'));
    await showNameServers(ctx, orderId);
  });

  // ---- /cert ----

  composer.command('cert', async (ctx) => {
    const api = await ctx.partnerApi();
    const ref = await resolveDomainOrder(api, commandWords(ctx.payload)[0]);
    const url = await api.getDomainCertificateUrl(ref.orderId);
    await ctx.reply(
      renderLink(ctx.t, 'dns:certificateLink', { domain: escapeHtml(toUnicodeDomain(ref.domain)) }, url),
      {
        parse_mode: 'HTML',
        link_preview_options: { is_disabled: true },
        ...linkKeyboard(ctx.t('common:openLink'), url),
      },
    );
  });

  const inputHandlers: Record<string, InputHandler> = {
    dnsImport: previewImport,
    nsCustom: async (ctx, input, text) =>
      confirmNs(ctx, input.orderId, 'custom', parseServers(text.split(/[\s,]+/).filter(Boolean))),
  };

  return { composer, inputHandlers, showRecords };
}
