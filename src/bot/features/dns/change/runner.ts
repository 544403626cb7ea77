import { randomBytes } from 'node:crypto';
import { Markup, type MiddlewareFn } from 'telegraf';
import { ApiInterruptedError, type PartnerApi } from '../../../../api/index.js';
import {
  deletesFirst,
  orderCalls,
  type PendingChange,
  pairChanges,
  type RecordChangePlan,
} from '../../../../core/dns-change.js';
import type { RecordChange } from '../../../../core/dns-history.js';
import type { PlannedChange } from '../../../../core/dns-plan.js';
import { parseListedRecord, sameRecord } from '../../../../core/dns-records.js';
import { joinLinesWithin } from '../../../../core/text.js';
import type { Logger } from '../../../../logger.js';
import { errorForLog } from '../../../../logger.js';
import { makeCall } from '../../../../services/dns-apply.js';
import type { BotContext } from '../../../context.js';
import { styled } from '../../../kit/bot-api-today.js';
import { describeError } from '../../../middlewares/errors.js';
import { encodeCallback } from '../../../registry.js';
import { undoButtons } from '../history/record.js';
import type { DnsPorts } from '../ports.js';
import { endRecordChange } from '../record-change-end.js';
import { copyValueButton, describeChangeLines, describeRecord } from '../views.js';

/** How a change run ended: made (and reported), or stopped and reported with what stands now. */
export type ChangeOutcome = 'changed' | 'notChanged' | 'stalled';

/**
 * Runs record changes so that a name never answers nothing and a change is never left half-made
 * unsaid: the calls go in the plan's order (the add first, but a CNAME's delete), the change is
 * written to the session before each call, and whatever stops it — a refusal, a kill between the
 * calls — is finished or told. One change is one history entry, one report, one announcement.
 */
export function createChangeRunner(deps: { ports: DnsPorts; logger: Logger }) {
  const { ports, logger } = deps;
  /** Chats with a change running in this process: one stored for any other chat was cut off by a kill. */
  const running = new Set<string>();
  const chatKey = (ctx: BotContext) => String(ctx.chat?.id ?? '');

  const save = async (ctx: BotContext, pending: PendingChange | undefined) => {
    ctx.session.dnsChange = pending;
    await ports.persistSession(ctx);
  };

  /** Makes the calls from `pending.done` on; the session learns of each one before the next. */
  const carryOut = async (
    ctx: BotContext,
    api: PartnerApi,
    pending: PendingChange,
  ): Promise<{ failed: PlannedChange; error: unknown } | undefined> => {
    for (const call of pending.calls.slice(pending.done)) {
      try {
        await makeCall(api, pending.orderId, call);
      } catch (error) {
        // Cut off by a stop: the call's outcome is unknown; the next update settles it.
        if (error instanceof ApiInterruptedError) throw error;
        return { failed: call, error };
      }
      pending.done += 1;
      await save(ctx, pending);
    }
    return undefined;
  };

  /** What the change did, told once: the report with Undo and copy, history, the team, the live check. */
  const report = async (ctx: BotContext, pending: PendingChange, resumed: boolean) => {
    const records: RecordChange[] = [
      ...pending.calls
        .filter((c) => c.op === 'delete')
        .map((c) => ({ op: 'delete' as const, record: c.record })),
      ...pending.calls.filter((c) => c.op === 'add').map((c) => ({ op: 'add' as const, record: c.record })),
    ];
    const lines = describeChangeLines(ctx.t, pairChanges(records));
    const entry = await ports.journal.record(ctx, pending.orderId, 'change', { records });
    const added = records.filter((r) => r.op === 'add').map((r) => r.record);
    const removed = records.filter((r) => r.op === 'delete').map((r) => r.record);
    const text = joinLinesWithin(
      [
        ...(resumed ? [ctx.t('dnschange:resumed')] : []),
        // A set on a name that had none adds, and says so.
        lines.length === 1
          ? ctx.t(removed.length === 0 ? 'dnschange:added' : 'dnschange:changed', { lines: lines[0] })
          : ctx.t('dnschange:changedMany'),
        ...(lines.length === 1 ? [] : lines),
        ...(deletesFirst(pending.calls) ? [ctx.t('dnschange:deletedFirst')] : []),
      ],
      4000,
    );
    const copy = added.length === 1 && added[0] ? copyValueButton(ctx.t, added[0]) : undefined;
    const keyboard = Markup.inlineKeyboard(
      [
        undoButtons(ctx.t, pending.orderId, entry),
        copy ? [copy] : [],
        [Markup.button.callback(ctx.t('dnschange:backButton'), encodeCallback('dns', pending.orderId))],
      ].filter((row) => row.length > 0),
    );
    await endRecordChange(ctx, ports.liveChecks, {
      orderId: pending.orderId,
      html: text,
      keyboard,
      announce: 'dnsChanged',
      record: lines.join('; '),
      notes: [
        ...(resumed ? [ctx.t('dnschange:resumed')] : []),
        ...(deletesFirst(pending.calls) ? [ctx.t('dnschange:deletedFirst')] : []),
      ],
      change: { added, removed },
    });
  };

  /** A call was refused: nothing changed, or what stands now and the button to finish. */
  const reportStop = async (
    ctx: BotContext,
    pending: PendingChange,
    stop: { failed: PlannedChange; error: unknown },
  ): Promise<ChangeOutcome> => {
    const reason = describeError(stop.error, ctx.t) ?? '';
    if (pending.done === 0) {
      await save(ctx, undefined);
      await ctx.reply(ctx.t('dnschange:notChanged', { reason }), { parse_mode: 'HTML' });
      return 'notChanged';
    }
    await save(ctx, { ...pending, stalled: true });
    const made = pending.calls.slice(0, pending.done);
    const text =
      stop.failed.op === 'delete'
        ? ctx.t('dnschange:stalledBoth', {
            reason,
            records: [...made.filter((c) => c.op === 'add'), stop.failed]
              .map((c) => describeRecord(ctx.t, c.record))
              .join('; '),
          })
        : ctx.t('dnschange:stalledNone', {
            reason,
            host: stop.failed.record.host,
            type: stop.failed.record.type,
          });
    // Finishing makes the calls left: red when one of them deletes (the old record), else green.
    const finishDeletes = pending.calls.slice(pending.done).some((call) => call.op === 'delete');
    await ctx.reply(text, {
      parse_mode: 'HTML',
      ...Markup.inlineKeyboard([
        styled(
          Markup.button.callback(ctx.t('dnschange:finishButton'), encodeCallback('dnsFinish', pending.id)),
          finishDeletes ? 'danger' : 'success',
        ),
      ]),
    });
    return 'stalled';
  };

  /**
   * Where a change that was cut off stands: a call whose effect is already there (the add listed,
   * the delete's id gone) counts as made, so nothing is done twice.
   */
  const catchUp = async (api: PartnerApi, pending: PendingChange) => {
    const listed = await api.listDnsRecords(pending.orderId);
    while (pending.done < pending.calls.length) {
      const call = pending.calls[pending.done];
      if (call === undefined) break;
      const made =
        call.op === 'delete'
          ? !listed.some((l) => l.record_id === call.id)
          : listed.some((l) => {
              const record = parseListedRecord(l);
              return record !== undefined && sameRecord(record, call.record);
            });
      if (!made) break;
      pending.done += 1;
    }
  };

  /** Runs a change from where it stands and reports it, once. */
  const proceed = async (
    ctx: BotContext,
    pending: PendingChange,
    resumed: boolean,
  ): Promise<ChangeOutcome> => {
    const key = chatKey(ctx);
    running.add(key);
    try {
      const api = await ctx.partnerApi();
      await save(ctx, pending);
      const stop = await carryOut(ctx, api, pending);
      if (stop) return await reportStop(ctx, pending, stop);
      await save(ctx, undefined);
      await report(ctx, pending, resumed);
      return 'changed';
    } finally {
      running.delete(key);
    }
  };

  return {
    /** Makes a planned change now. */
    run(ctx: BotContext, orderId: number, plan: RecordChangePlan): Promise<ChangeOutcome> {
      const pending: PendingChange = {
        id: randomBytes(4).toString('base64url'),
        orderId,
        calls: orderCalls(plan.remove, plan.add),
        done: 0,
      };
      return proceed(ctx, pending, false);
    },

    /** The finish button of a change that stopped half-way: where it stands, then the rest. */
    async finish(ctx: BotContext, id: string): Promise<void> {
      const pending = ctx.session.dnsChange;
      if (pending?.id !== id) {
        await ctx.reply(ctx.t('dnschange:finishGone'));
        return;
      }
      await catchUp(await ctx.partnerApi(), pending);
      await proceed(ctx, { ...pending, stalled: undefined }, false);
    },

    /**
     * Before anything else of an update: a change stored mid-way while no change of this chat runs
     * here was cut off by a kill. It is finished (or told why not) first; then the update goes on.
     */
    settle: (async (ctx, next) => {
      const pending = ctx.session?.dnsChange;
      if (pending === undefined || pending.stalled || running.has(chatKey(ctx))) return next();
      try {
        await catchUp(await ctx.partnerApi(), pending);
        logger.info(
          { chatId: ctx.chat?.id, orderId: pending.orderId, done: pending.done },
          'interrupted dns change resumed',
        );
        await proceed(ctx, pending, true);
      } catch (error) {
        if (error instanceof ApiInterruptedError) throw error;
        logger.warn({ chatId: ctx.chat?.id, err: errorForLog(error) }, 'interrupted dns change not settled');
      }
      return next();
    }) satisfies MiddlewareFn<BotContext>,
  };
}

/** The change runner the DNS parts and the guided change share. */
export type ChangeRunner = ReturnType<typeof createChangeRunner>;
