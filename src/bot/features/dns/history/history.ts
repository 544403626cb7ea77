import { Markup } from 'telegraf';
import type { PartnerApi } from '../../../../api/index.js';
import { orderCalls } from '../../../../core/dns-change.js';
import {
  type HistoryChange,
  type HistoryEntry,
  planUndo,
  type UndoResult,
  undoBlockOf,
} from '../../../../core/dns-history.js';
import { type ListedRecord, readListedRecords } from '../../../../core/dns-plan.js';
import { toUnicodeDomain } from '../../../../core/domain-names.js';
import { escapeHtml } from '../../../../core/format.js';
import type { BotContext } from '../../../context.js';
import { UserInputError } from '../../../errors.js';
import { styled } from '../../../kit/bot-api-today.js';
import type { PagedLists } from '../../../kit/paged-list.js';
import type { CallbackRegistrar } from '../../../registry.js';
import { encodeCallback } from '../../../registry.js';
import { announce } from '../../team/announce.js';
import { applyChanges, describeFailure } from '../apply.js';
import { type DomainRef, refOfOrder } from '../domain.js';
import { checkChangeLive } from '../live-check/live-check.js';
import type { DnsPorts } from '../ports.js';
import { undoButtons } from './record.js';
import { renderHistoryEntry, renderUndoPreview, renderUndoRefusal, renderUndoReport } from './views.js';

/** How many of the latest changes `/dns <domain> history` shows. */
export const HISTORY_SHOWN = 20;

/** The records as listed now, read into the model (a record the bot cannot read is never matched). */
async function currentRecords(api: PartnerApi, orderId: number): Promise<ListedRecord[]> {
  return readListedRecords(await api.listDnsRecords(orderId));
}

/**
 * What the undos of `entries` are planned against: the records as listed now, and the name
 * servers where an entry changed them — each asked once, and only when needed.
 */
async function undoBasis(api: PartnerApi, orderId: number, entries: readonly HistoryEntry[]) {
  const needs = (kind: 'records' | 'nameServers') => entries.some((e) => kind in e.change);
  const [records, nameServers] = await Promise.all([
    needs('records') ? currentRecords(api, orderId) : undefined,
    needs('nameServers') ? api.listNameServers(orderId, { fresh: true }) : undefined,
  ]);
  return { ...(records ? { records } : {}), ...(nameServers ? { nameServers } : {}) };
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
  ports: DnsPorts;
}) {
  const { router, lists, showRecords, ports } = deps;

  const list = lists.register({
    id: 'dnsh',
    perPage: 5,
    buttonsPerRow: 1,
    async load(ctx, filter) {
      const ref = await refOfOrder(ctx, Number(filter));
      const all = await ports.journal.list(ctx, ref.orderId);
      const entries = all.slice(0, HISTORY_SHOWN);
      const now = await undoBasis(await ctx.partnerApi(), ref.orderId, entries);
      const domain = escapeHtml(toUnicodeDomain(ref.domain));
      return {
        title: ctx.t('dnshistory:title', { domain }),
        empty: ctx.t('dnshistory:empty', { domain }),
        // «↩ Отменить №n» only where the undo applies cleanly now; elsewhere the entry says why not.
        rows: entries.map((entry, i) => {
          const html = renderHistoryEntry(ctx.t, ctx.locale, entry, i + 1);
          const block = undoBlockOf(all, entry, now);
          if (block !== undefined)
            return { html: `${html}\n<i>${ctx.t(`dnshistory:cannotUndo.${block}`)}</i>` };
          return {
            html,
            button: Markup.button.callback(
              ctx.t('dnshistory:undoRowButton', { n: i + 1 }),
              encodeCallback('dnsUndo', ref.orderId, entry.id),
            ),
          };
        }),
        footer: [Markup.button.callback(ctx.t('dnschange:backButton'), encodeCallback('dns', ref.orderId))],
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
    const entries = await ports.journal.list(ctx, orderId);
    const entry = entries.find((e) => e.id === entryId);
    if (entry === undefined) throw new UserInputError('dnshistory:notFound');
    const api = await ctx.partnerApi();
    const result =
      'nameServers' in entry.change
        ? planUndo(entry.change, { nameServers: await api.listNameServers(orderId, { fresh: true }) })
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
    // "No" keeps the change: the answer says so, not that something was cancelled.
    const topic = 'undo';
    // An undo is no success to colour green: it takes back what the partner once asked for. Red
    // when it deletes (what was added) or replaces the name servers; plain when it only puts back.
    const { plan: undo } = result;
    const destroys = undo.type === 'nameServers' || undo.remove.length > 0;
    await ctx.reply(renderUndoPreview(ctx.t, ctx.locale, ref.domain, entry, undo), {
      parse_mode: 'HTML',
      ...Markup.inlineKeyboard([
        styled(
          Markup.button.callback(ctx.t('dnshistory:undoYes'), encodeCallback('dnsUndoYes', orderId, entryId)),
          destroys ? 'danger' : undefined,
        ),
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
        // Gap-free, as the change itself was: the records come back before the others go (a
        // CNAME's delete first), with no message of their own.
        const { remove, add } = result.plan;
        const changes = orderCalls(remove, add);
        total = changes.length;
        const outcome = await applyChanges(ctx, orderId, changes);
        failures.push(...outcome.failures.map((failure) => describeFailure(ctx, failure)));
        done = { records: outcome.applied };
      }
      const undo = await ports.journal.record(ctx, orderId, 'undo', done, entry.id);
      const html = renderUndoReport(ctx.t, done, total, failures);
      const keyboard = undo ? Markup.inlineKeyboard([undoButtons(ctx.t, orderId, undo)]) : undefined;
      const sent = await ctx.reply(html, { parse_mode: 'HTML', ...keyboard });
      // The report turns ✅ when the name servers answer with the records as the undo left them.
      if ('records' in done) {
        await checkChangeLive(
          ports.liveChecks,
          ctx,
          sent,
          { html, keyboard: keyboard?.reply_markup },
          orderId,
          {
            added: done.records.filter((c) => c.op === 'add').map((c) => c.record),
            removed: done.records.filter((c) => c.op === 'delete').map((c) => c.record),
          },
        );
      }
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
