import { Markup } from 'telegraf';
import { dnsRecordKindOf, type PartnerApi, toDnsRecordBody } from '../../api/index.js';
import {
  type HistoryChange,
  type HistoryEntry,
  planUndo,
  type RecordChange,
  type UndoResult,
} from '../../core/dns-history.js';
import type { ListedRecord } from '../../core/dns-plan.js';
import { parseListedRecord } from '../../core/dns-records.js';
import { toUnicodeDomain } from '../../core/domain-names.js';
import { escapeHtml } from '../../core/format.js';
import { type BotContext, UserInputError } from '../context.js';
import { undoButtons } from '../dns-history-record.js';
import type { CallbackRegistrar } from '../feature.js';
import { encodeCallback } from '../keyboards/callback-data.js';
import { describeError } from '../middlewares/errors.js';
import type { PagedLists } from '../paged-list.js';
import { announce } from '../team-announce.js';
import { describeRecord } from '../views/dns.js';
import {
  renderHistoryEntry,
  renderUndoPreview,
  renderUndoRefusal,
  renderUndoReport,
} from '../views/dns-history.js';
import { type DomainRef, refOfOrder } from './dns-domain.js';

/** How many of the latest changes `/dns <domain> history` shows. */
export const HISTORY_SHOWN = 20;

/** The records as listed now, read into the model (a record the bot cannot read is never matched). */
async function currentRecords(api: PartnerApi, orderId: number): Promise<ListedRecord[]> {
  return (await api.listDnsRecords(orderId)).flatMap((l) => {
    const record = parseListedRecord(l);
    return record ? [{ id: l.record_id, record }] : [];
  });
}

/**
 * `/dns <domain> history` and "↩ Undo": the history screen (the latest 20, paged), the undo
 * preview against the records as they are now, and the confirmed undo — itself recorded (kind
 * `undo`, so it can be undone in turn) and announced in a team group.
 */
export function createDnsHistoryScreens(deps: {
  router: CallbackRegistrar;
  lists: PagedLists;
  showRecords(ctx: BotContext, orderId: number): Promise<void>;
}) {
  const { router, lists, showRecords } = deps;

  const list = lists.register({
    id: 'dnsh',
    perPage: 5,
    buttonsPerRow: 1,
    async load(ctx, filter) {
      const ref = await refOfOrder(ctx, Number(filter));
      const entries = ((await ctx.dnsHistory?.list(ref.orderId)) ?? []).slice(0, HISTORY_SHOWN);
      const domain = escapeHtml(toUnicodeDomain(ref.domain));
      return {
        title: ctx.t('dnshistory:title', { domain }),
        empty: ctx.t('dnshistory:empty', { domain }),
        rows: entries.map((entry, i) => ({
          html: renderHistoryEntry(ctx.t, ctx.locale, entry, i + 1),
          button: Markup.button.callback(
            ctx.t('dnshistory:undoRowButton', { n: i + 1 }),
            encodeCallback('dnsUndo', ref.orderId, entry.id),
          ),
        })),
        footer: [
          Markup.button.callback(ctx.t('dnshistory:recordsButton'), encodeCallback('dns', ref.orderId)),
        ],
      };
    },
  });

  const showHistory = (ctx: BotContext, ref: DomainRef) =>
    lists.show(ctx, list, String(ref.orderId), 0, 'reply');

  /** The entry and its undo planned against what is there now; refusals are told here. */
  const plan = async (
    ctx: BotContext,
    orderId: number,
    entryId: string,
  ): Promise<{ ref: DomainRef; entry: HistoryEntry; result: UndoResult & { ok: true } } | undefined> => {
    const ref = await refOfOrder(ctx, orderId);
    const entries = (await ctx.dnsHistory?.list(orderId)) ?? [];
    const entry = entries.find((e) => e.id === entryId);
    if (entry === undefined) throw new UserInputError('dnshistory:notFound');
    const api = await ctx.partnerApi();
    const result =
      'nameServers' in entry.change
        ? planUndo(entry.change, { nameServers: await api.listNameServers(orderId) })
        : planUndo(entry.change, { records: await currentRecords(api, orderId) });
    if (result.ok) return { ref, entry, result };
    // Refused after an undo of it: most likely a second tap, said plainly.
    const undone = entries.some((e) => e.undoes === entry.id);
    await ctx.reply(
      renderUndoRefusal(
        ctx.t,
        undone ? { reason: 'alreadyUndone' } : { reason: result.reason, record: result.record },
      ),
      { parse_mode: 'HTML' },
    );
    return undefined;
  };

  router.on('dnsHistory', async (ctx, orderId) => showHistory(ctx, await refOfOrder(ctx, orderId)));

  router.on('dnsUndo', async (ctx, orderId, entryId) => {
    const planned = await plan(ctx, orderId, entryId);
    if (!planned) return;
    const { ref, entry, result } = planned;
    const topic = result.plan.type === 'nameServers' ? 'ns' : 'records';
    await ctx.reply(renderUndoPreview(ctx.t, ctx.locale, ref.domain, entry, result.plan), {
      parse_mode: 'HTML',
      ...Markup.inlineKeyboard([
        Markup.button.callback(ctx.t('dnshistory:undoYes'), encodeCallback('dnsUndoYes', orderId, entryId)),
        Markup.button.callback(ctx.t('dns:no'), encodeCallback('dismiss', topic)),
      ]),
    });
  });

  router.on(
    'dnsUndoYes',
    async (ctx, orderId, entryId) => {
      await ctx.answerCbQuery(ctx.t('dnshistory:undoing'));
      await ctx.editMessageReplyMarkup(undefined).catch(() => undefined);
      // Planned again: the records may have changed since the preview.
      const planned = await plan(ctx, orderId, entryId);
      if (!planned) return;
      const { entry, result } = planned;
      const api = await ctx.partnerApi();
      const failures: string[] = [];
      let done: HistoryChange;
      let total: number;
      if (result.plan.type === 'nameServers') {
        const { servers } = result.plan;
        total = 1;
        if (servers.length === 0) await api.deleteNameServers(orderId);
        else
          await api.setCustomNameServers(
            orderId,
            servers.map((s) => (s.ip ? { ns: s.ns, ip: s.ip } : { ns: s.ns })),
          );
        done = result.change;
      } else {
        const changed: RecordChange[] = [];
        const { remove, add } = result.plan;
        total = remove.length + add.length;
        const step = async (change: RecordChange, call: () => Promise<void>) => {
          try {
            await call();
            changed.push(change);
          } catch (error) {
            const sign = change.op === 'add' ? '+' : '−';
            failures.push(
              `${sign} ${describeRecord(ctx.t, change.record)} — ${describeError(error, ctx.t) ?? ''}`,
            );
          }
        };
        for (const r of remove) {
          await step({ op: 'delete', record: r.record }, async () => {
            const kind = dnsRecordKindOf(r.record.type);
            if (kind) await api.deleteDnsRecord(orderId, kind, r.id);
          });
        }
        for (const record of add) {
          await step({ op: 'add', record }, () => api.addDnsRecord(orderId, toDnsRecordBody(record)));
        }
        done = { records: changed };
      }
      const undo = await ctx.dnsHistory?.record(orderId, 'undo', done, entry.id);
      await ctx.reply(renderUndoReport(ctx.t, done, total, failures), {
        parse_mode: 'HTML',
        ...(undo ? Markup.inlineKeyboard([undoButtons(ctx, orderId, undo)]) : {}),
      });
      await announce(ctx, 'dnsUndone', {
        orderId,
        kind: ctx.t(`dnshistory:kind.${entry.kind}`),
      });
      if (result.plan.type === 'records') await showRecords(ctx, orderId);
    },
    { selfAnswer: true },
  );

  return { showHistory };
}
