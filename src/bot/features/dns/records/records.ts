import { Markup } from 'telegraf';
import { type DnsRecord, dnsRecordKindOf, type PartnerApi, toDnsRecordBody } from '../../../../api/index.js';
import { parseDnsLine } from '../../../../core/dns-line.js';
import { sortRecords } from '../../../../core/dns-record-order.js';
import { type DnsRecordData, parseListedRecord, sameRecord } from '../../../../core/dns-records.js';
import { toUnicodeDomain } from '../../../../core/domain-names.js';
import { escapeHtml } from '../../../../core/format.js';
import type { BotContext } from '../../../context.js';
import { UserInputError } from '../../../errors.js';
import type { OrderEngine } from '../../../forms/engine.js';
import { styled } from '../../../kit/bot-api-today.js';
import { type MiniAppLinks, miniAppButton } from '../../../kit/mini-app-button.js';
import type { PagedLists } from '../../../kit/paged-list.js';
import type { CallbackRegistrar } from '../../../registry.js';
import { encodeCallback } from '../../../registry.js';
import { type DomainRef, refOfOrder } from '../domain.js';
import { undoButtons } from '../history/record.js';
import type { DnsPorts } from '../ports.js';
import { endRecordChange } from '../record-change-end.js';
import {
  copyValueButton,
  describeLineProblem,
  describeRecord,
  recordCells,
  recordColumns,
  recordLabel,
  renderRecord,
} from '../views.js';

/** Shows the first page of a domain order's records as a new message. */
export type ShowRecords = (ctx: BotContext, orderId: number) => Promise<void>;

/**
 * After an add: the added record itself (found in the listed records, so with its id), with
 * buttons to delete it, see the whole list and add another — never an unrelated first page.
 */
export type ShowAdded = (ctx: BotContext, orderId: number, record: DnsRecordData) => Promise<void>;

/**
 * The records of a domain as a paged list. Built from the lists alone, before the order engine:
 * the DNS feature and the guided add (a flow of the engine) both end on it, and get it as a dep.
 */
export function createDnsRecordList(deps: {
  lists: PagedLists;
  ports: DnsPorts;
  /** The Mini App (MINI_APP_URL): the list offers to open the zone there; absent, no button. */
  miniApp?: MiniAppLinks | undefined;
}): {
  showRecords: ShowRecords;
  showAdded: ShowAdded;
} {
  const { lists, ports } = deps;
  const records = lists.register({
    id: 'dns',
    perPage: 15,
    // One to a row: a record's button is its value (`A www → 93.125.99.10`), and two to a row a
    // phone's Telegram cuts it to «A www →», which tells records of one host apart by nothing.
    buttonsPerRow: 1,
    async load(ctx, filter) {
      const ref = await refOfOrder(ctx, Number(filter));
      const listed = sortRecords(await (await ctx.partnerApi()).listDnsRecords(ref.orderId));
      const domain = escapeHtml(toUnicodeDomain(ref.domain));
      const editor = miniAppButton(ctx, deps.miniApp, ctx.t('dns:openEditorButton'), 'dns', {
        domain: ref.domain,
      });
      return {
        title: ctx.t('dns:recordsTitle', { domain, count: listed.length }),
        empty: ctx.t('dns:noRecords', { domain }),
        columns: recordColumns(ctx.t),
        // Each record's button is the record itself: its card changes, deletes, copies, checks.
        rows: listed.map((r) => {
          const record = parseListedRecord(r);
          // A record the bot cannot read has no card: its button asks to delete it, so it is red.
          return {
            html: renderRecord(ctx.t, r),
            cells: recordCells(ctx.t, r),
            button: record
              ? Markup.button.callback(
                  recordLabel(record),
                  encodeCallback('dnsRecord', ref.orderId, r.record_id),
                )
              : styled(
                  Markup.button.callback(
                    ctx.t('dns:deleteButton', { id: r.record_id }),
                    encodeCallback('dnsDelete', ref.orderId, r.record_id),
                  ),
                  'danger',
                ),
          };
        }),
        footer: [
          Markup.button.callback(ctx.t('dns:addButton'), encodeCallback('dnsAdd', ref.orderId)),
          Markup.button.callback(ctx.t('dns:nsButton'), encodeCallback('nameServers', ref.orderId)),
          Markup.button.callback(ctx.t('dns:exportButton'), encodeCallback('dnsExport', ref.orderId)),
          Markup.button.callback(ctx.t('dns:importButton'), encodeCallback('dnsImport', ref.orderId)),
          Markup.button.callback(
            ctx.t('dnshistory:historyButton'),
            encodeCallback('dnsHistory', ref.orderId),
          ),
          Markup.button.callback(ctx.t('dnspresets:listButton'), encodeCallback('dnsPresets', ref.orderId)),
        ],
        below: editor ? [editor] : [],
      };
    },
  });

  const showRecords: ShowRecords = (ctx, orderId) => lists.show(ctx, records, String(orderId), 0, 'reply');

  const showAdded: ShowAdded = async (ctx, orderId, record) => {
    const listed = await (await ctx.partnerApi()).listDnsRecords(orderId);
    // The add call returns no id: the newest listed record equal to the one sent is it.
    const added = listed
      .filter((l) => {
        const parsed = parseListedRecord(l);
        return parsed !== undefined && sameRecord(parsed, record);
      })
      .sort((a, b) => b.record_id - a.record_id)[0];
    const shown = added ? renderRecord(ctx.t, added) : describeRecord(ctx.t, record);
    const copy = copyValueButton(ctx.t, record);
    // Both adds (one line and the guided form) end here, right after the add call succeeded.
    const entry = await ports.journal.record(ctx, orderId, 'add', {
      records: [{ op: 'add', record: (added && parseListedRecord(added)) ?? record }],
    });
    const rows = [
      [
        ...(added
          ? [
              styled(
                Markup.button.callback(
                  ctx.t('dns:deleteButton', { id: added.record_id }),
                  encodeCallback('dnsDelete', orderId, added.record_id),
                ),
                'danger',
              ),
            ]
          : []),
        Markup.button.callback(ctx.t('dns:addMoreButton'), encodeCallback('dnsAdd', orderId)),
      ],
      undoButtons(ctx.t, orderId, entry),
      copy ? [copy] : [],
      [
        Markup.button.callback(
          ctx.t('dns:allRecordsButton', { count: listed.length }),
          encodeCallback('dns', orderId),
        ),
      ],
    ];
    // Both adds (one line and the guided form) end here, right after the add call succeeded.
    await endRecordChange(ctx, ports.liveChecks, {
      orderId,
      html: ctx.t('dns:added', { record: shown }),
      keyboard: Markup.inlineKeyboard(rows.filter((row) => row.length > 0)),
      announce: 'dnsAdded',
      record: shown,
      change: { added: [record] },
    });
  };
  return { showRecords, showAdded };
}

/** The records' buttons: the list, the one-line add, delete with a confirmation. */
export function createDnsRecords(deps: {
  router: CallbackRegistrar;
  engine: OrderEngine;
  showRecords: ShowRecords;
  showAdded: ShowAdded;
  ports: DnsPorts;
}) {
  const { router, engine, showRecords, showAdded, ports } = deps;

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
          styled(
            Markup.button.callback(ctx.t('dns:deleteYes'), encodeCallback('dnsDeleteYes', orderId, recordId)),
            'danger',
          ),
          Markup.button.callback(ctx.t('dns:no'), encodeCallback('dismiss', 'records')),
        ]),
      },
    );
  };

  /** `/dns <domain> add <line>`: checked in full before the one add call, then the list. */
  const addFromLine = async (ctx: BotContext, ref: DomainRef, line: string) => {
    const parsed = parseDnsLine(line);
    if (!parsed.ok) throw new UserInputError('dns:badLine', describeLineProblem(ctx.t, parsed));
    await (await ctx.partnerApi()).addDnsRecord(ref.orderId, toDnsRecordBody(parsed.record));
    await showAdded(ctx, ref.orderId, parsed.record);
  };

  router.on('dns', (ctx, orderId) => showRecords(ctx, orderId));
  router.on('dnsAdd', (ctx, orderId) => engine.start(ctx, 'dnsAdd', {}, { dnsOrder: orderId }));
  router.on('dnsDelete', (ctx, orderId, recordId) => askDelete(ctx, orderId, recordId));
  router.on('dnsDeleteYes', async (ctx, orderId, recordId) => {
    await ctx.editMessageReplyMarkup(undefined).catch(() => undefined);
    const api = await ctx.partnerApi();
    const listed = await findRecord(api, orderId, recordId);
    const kind = dnsRecordKindOf(listed.type);
    if (!kind) throw new UserInputError('dns:unsupportedType', { type: escapeHtml(listed.type) });
    await api.deleteDnsRecord(orderId, kind, recordId);
    const record = parseListedRecord(listed);
    const entry =
      record && (await ports.journal.record(ctx, orderId, 'delete', { records: [{ op: 'delete', record }] }));
    await endRecordChange(ctx, ports.liveChecks, {
      orderId,
      // The record itself, as the partner knows it, not its id.
      html: ctx.t('dns:deleted', {
        record: record ? describeRecord(ctx.t, record) : escapeHtml(listed.value),
      }),
      keyboard: entry ? Markup.inlineKeyboard([undoButtons(ctx.t, orderId, entry)]) : undefined,
      announce: 'dnsDeleted',
      record: renderRecord(ctx.t, listed),
      change: { removed: record ? [record] : [] },
    });
    await showRecords(ctx, orderId);
  });

  return { showRecords, addFromLine, askDelete };
}
