/**
 * The bot comes to the partner (docs/notifications.md): per connected token, a poll of the four
 * lists on a schedule, a diff against what was seen (`core/notify.ts`), and the events told to the
 * token's chats through a sender port that main.ts hands in (the bot renders and sends; the
 * watchers never import the bot). Exactly-once rules: `outbox.ts`.
 */
import { randomUUID } from 'node:crypto';
import { type ApiFactory, ApiHttpError, ApiInterruptedError } from '../api/index.js';
import { diff, type NotificationEvent, type NotifyLists } from '../core/notify.js';
import { type Delivery, groupForDelivery, isQuietHour } from '../core/notify-delivery.js';
import { errorForLog, type Logger } from '../logger.js';
import type { ChatData } from '../storage/chat-data.js';
import type { WatchData } from '../storage/watch-data.js';
import { watchIdOf } from '../storage/watch-store.js';
import {
  backoffMs,
  type ClaimResult,
  chatsWaiting,
  claim,
  enqueue,
  type Notice,
  readState,
  settle,
  type WatchState,
} from './outbox.js';
import type { WatchScheduler } from './scheduler.js';

/** What the sender is asked to tell one chat. */
export type WatcherDelivery = Delivery | { readonly kind: 'tokenRejected' };

/** `sent`; `retry`: not now (Telegram busy or down), keep it; `gone`: the chat cannot be told (blocked the bot). */
export type DeliveryOutcome = 'sent' | 'retry' | 'gone';

/** The port main.ts hands in: renders and sends a delivery to a chat (the bot implements it). */
export interface NotificationSender {
  /** `now`: when it is told (a message held by quiet hours says "tomorrow" as of then). */
  deliver(chatId: number, token: string, delivery: WatcherDelivery, now: Date): Promise<DeliveryOutcome>;
}

export interface WatchersDeps {
  watchData: WatchData;
  /** A chat's `/notify` settings are its account's: the account holding the watch's token. */
  chatData: Pick<ChatData, 'getNotifySettings' | 'findAccountByToken'>;
  /** The watchers ask with `uncached` clients: a poll must see the provider's lists as they are. */
  apiFor: Pick<ApiFactory, 'uncached'>;
  sender: NotificationSender;
  scheduler: WatchScheduler;
  logger: Logger;
  intervalMs: number;
  /** More events than this at once arrive as one digest. Default 3. */
  digestOver?: number;
  now?: () => Date;
  random?: () => number;
  /** Told how every poll ended (metrics). */
  onPoll?: (outcome: RunOutcome) => void;
}

/** How one run of a watch ended (for logs and tests). */
export type RunOutcome = 'polled' | 'backoff' | 'failed' | 'rejected' | 'gone' | 'raced';

export interface Watchers {
  /** A token the provider just accepted in this chat: watched from now on (a stopped watch resumes). */
  connect(chatId: number, token: string): Promise<void>;
  /** A token stored before (e.g. by an older version): watched if it is not yet; a stopped watch stays stopped. */
  ensureWatched(chatId: number, token: string): Promise<void>;
  /** The chat forgot the token: it is told nothing more about it. */
  disconnect(chatId: number, token: string): Promise<void>;
  /** An invoice the bot itself created: never announced as "new". */
  noteCreatedInvoice(token: string, invoiceId: number): Promise<void>;
  /** Whether the provider rejected the token and its polling stopped (until it is connected again). */
  isStopped(token: string): Promise<boolean>;
  /** One poll of a watch and the delivery of what waits (the scheduler calls it). */
  runWatch(id: string): Promise<RunOutcome>;
  /** How far the oldest due poll is behind its schedule, in ms. */
  lagMs(): Promise<number>;
  /** Schedules every stored watch and starts the scheduler. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

const isEvent = (notice: Notice): notice is NotificationEvent => notice.kind !== 'tokenRejected';

/** The notice ids a delivery carries. */
function idsOf(delivery: WatcherDelivery, rejectedIds: readonly string[]): string[] {
  if (delivery.kind === 'tokenRejected') return [...rejectedIds];
  if (delivery.kind === 'single') return [delivery.event.id];
  return delivery.events.map((e) => e.id);
}

export function createWatchers(deps: WatchersDeps): Watchers {
  const { watchData, chatData, apiFor, sender, scheduler, logger, intervalMs } = deps;
  const now = deps.now ?? (() => new Date());
  const random = deps.random ?? Math.random;
  const digestOver = deps.digestOver ?? 3;

  async function pollLists(token: string): Promise<NotifyLists> {
    const api = apiFor.uncached(token);
    // One call per list: the budget per token and poll.
    const [invoices, payments, orders, domainOrders] = await Promise.all([
      api.listInvoices(),
      api.listPayments(),
      api.listOrders(),
      api.listDomainOrders(),
    ]);
    return { invoices, payments, orders, domainOrders };
  }

  async function deliverChat(id: string, token: string, chat: number): Promise<void> {
    // The settings of the chat's account that holds this token (a chat may hold several); a chat
    // that no longer holds it gets the defaults here, and the sender answers `gone`.
    const account = await chatData.findAccountByToken(chat, token);
    const settings = account === undefined ? {} : await chatData.getNotifySettings(chat, account.n);
    const at = now();
    if (settings.quiet && isQuietHour(at, settings.quiet)) return;
    const run = randomUUID();
    let claimed: ClaimResult | undefined;
    const watch = await watchData.changeState(id, (w) => {
      const state = readState(w.state);
      claimed = claim(state.outbox, chat, run, at.getTime(), {
        off: new Set(settings.off ?? []),
        createdByBot: new Set(w.createdByBot),
        attached: w.chats.includes(chat),
      });
      const changed = claimed.claimed.length + claimed.abandoned.length + claimed.unwanted.length > 0;
      return changed ? { state: { ...state, outbox: claimed.outbox } } : undefined;
    });
    if (watch === undefined || claimed === undefined) return;
    for (const entry of claimed.abandoned) {
      logger.warn(
        { watchId: id, chatId: chat, notice: entry.notice.id },
        'a notification claimed by a run that died is dropped (at most once: it may not have been sent)',
      );
    }
    if (claimed.claimed.length === 0) return;

    const notices = claimed.claimed.map((e) => e.notice);
    const rejectedIds = notices.filter((n) => n.kind === 'tokenRejected').map((n) => n.id);
    const deliveries: WatcherDelivery[] = [
      ...(rejectedIds.length > 0 ? [{ kind: 'tokenRejected' as const }] : []),
      ...groupForDelivery(notices.filter(isEvent), { digestOver }),
    ];
    const done = new Set<string>();
    for (const delivery of deliveries) {
      const outcome = await sender.deliver(chat, watch.token, delivery, at).catch((error: unknown) => {
        logger.warn(
          { watchId: id, chatId: chat, err: errorForLog(error) },
          'notification not sent; will retry',
        );
        return 'retry' as const;
      });
      if (outcome === 'retry') break;
      if (outcome === 'gone') {
        // The chat blocked the bot or is gone: nothing of its queue can be told.
        for (const n of notices) done.add(n.id);
        logger.info({ watchId: id, chatId: chat }, 'chat cannot be told; its notifications are dropped');
        break;
      }
      for (const noticeId of idsOf(delivery, rejectedIds)) done.add(noticeId);
    }
    await watchData.changeState(id, (w) => {
      const state = readState(w.state);
      return { state: { ...state, outbox: settle(state.outbox, run, done) } };
    });
  }

  async function deliverAll(id: string): Promise<void> {
    const watch = await watchData.get(id);
    if (watch === undefined) return;
    // Chats one after another: a watch has a handful, and each claim is its own atomic write.
    for (const chat of chatsWaiting(readState(watch.state).outbox)) await deliverChat(id, watch.token, chat);
  }

  async function failed(id: string, seq: number, error: unknown): Promise<RunOutcome> {
    // Stopping: not the provider's failure; the next run asks again.
    if (error instanceof ApiInterruptedError) return 'failed';
    const at = now().getTime();
    if (error instanceof ApiHttpError && error.isTokenRejected) {
      await watchData.changeState(id, (w) => {
        const state = readState(w.state);
        if (state.rejected) return undefined;
        const notice: Notice = { kind: 'tokenRejected', id: `tokenRejected:${state.seq}:${at}` };
        return { state: { ...state, rejected: true, outbox: enqueue(state.outbox, w.chats, [notice]) } };
      });
      await scheduler.remove(id);
      logger.warn(
        { watchId: id, status: error.status },
        'the provider rejected a watched token; its polling stopped',
      );
      await deliverAll(id);
      return 'rejected';
    }
    const written = await watchData.changeState(id, (w) => {
      const state = readState(w.state);
      if (state.seq !== seq) return undefined;
      const failures = state.failures + 1;
      return { state: { ...state, failures, retryAt: at + backoffMs(intervalMs, failures, random()) } };
    });
    const state = readState(written?.state);
    logger.warn(
      {
        watchId: id,
        failures: state.failures,
        retryInS: Math.round(((state.retryAt ?? at) - at) / 1000),
        err: errorForLog(error),
      },
      'watch poll failed; backing off',
    );
    await deliverAll(id);
    return 'failed';
  }

  async function runWatch(id: string): Promise<RunOutcome> {
    const outcome = await pollWatch(id);
    deps.onPoll?.(outcome);
    return outcome;
  }

  async function pollWatch(id: string): Promise<RunOutcome> {
    const watch = await watchData.get(id);
    if (watch === undefined || watch.chats.length === 0) {
      await scheduler.remove(id);
      return 'gone';
    }
    const state: WatchState = readState(watch.state);
    if (state.rejected) {
      await deliverAll(id);
      return 'rejected';
    }
    const at = now();
    if (state.retryAt !== undefined && state.retryAt > at.getTime()) {
      await deliverAll(id);
      return 'backoff';
    }
    let lists: NotifyLists;
    try {
      lists = await pollLists(watch.token);
    } catch (error) {
      return failed(id, state.seq, error);
    }
    let found = 0;
    let outcome: RunOutcome = 'raced';
    await watchData.changeState(id, (w) => {
      const current = readState(w.state);
      // Another poll of this token wrote since this one read: its result stands.
      if (current.seq !== state.seq || current.rejected) return undefined;
      const { events, next } = diff(current.snapshot, lists, at, { createdByBot: new Set(w.createdByBot) });
      found = events.length;
      outcome = 'polled';
      // Nothing new and nothing to clear: no write (most polls; a file or key rewrite each saved).
      const unchanged =
        events.length === 0 &&
        current.failures === 0 &&
        current.retryAt === undefined &&
        JSON.stringify(next) === JSON.stringify(current.snapshot);
      if (unchanged) return undefined;
      return {
        state: {
          ...current,
          seq: current.seq + 1,
          snapshot: next,
          failures: 0,
          retryAt: undefined,
          outbox: enqueue(current.outbox, w.chats, events),
        },
      };
    });
    logger.debug({ watchId: id, events: found, outcome }, 'watch polled');
    await deliverAll(id);
    return outcome;
  }

  return {
    async connect(chatId, token) {
      const watch = await watchData.attach(chatId, token);
      const state = readState(watch.state);
      if (state.rejected) {
        await watchData.changeState(watch.id, (w) => ({
          state: { ...readState(w.state), rejected: false, failures: 0, retryAt: undefined },
        }));
      }
      // A new watch polls at once, silently: what happens from now on is told.
      await scheduler.ensure(watch.id, { soon: state.snapshot === undefined || state.rejected === true });
    },

    async ensureWatched(chatId, token) {
      const known = await watchData.get(watchIdOf(token));
      if (known?.chats.includes(chatId)) return;
      const watch = await watchData.attach(chatId, token);
      const state = readState(watch.state);
      if (!state.rejected) await scheduler.ensure(watch.id, { soon: state.snapshot === undefined });
    },

    async disconnect(chatId, token) {
      const left = await watchData.detach(chatId, token);
      if (left === undefined) await scheduler.remove(watchIdOf(token));
    },

    noteCreatedInvoice: (token, invoiceId) => watchData.noteCreatedInvoice(token, invoiceId),

    async isStopped(token) {
      const watch = await watchData.get(watchIdOf(token));
      return watch !== undefined && readState(watch.state).rejected === true;
    },

    runWatch: (id) =>
      runWatch(id).catch((error: unknown) => {
        logger.error({ watchId: id, err: errorForLog(error) }, 'watch run failed');
        return 'failed' as const;
      }),

    async start() {
      const ids = await watchData.ids();
      // Scheduling is idempotent; a few at a time keeps a large start from flooding Redis.
      for (let i = 0; i < ids.length; i += 50) {
        await Promise.all(
          ids.slice(i, i + 50).map(async (id) => {
            const watch = await watchData.get(id);
            if (watch !== undefined && !readState(watch.state).rejected) await scheduler.ensure(id);
          }),
        );
      }
      await scheduler.start((id) => runWatch(id).then(() => undefined));
      logger.info({ watches: ids.length, intervalS: intervalMs / 1000 }, 'watchers started');
    },

    lagMs: () => scheduler.lagMs(),

    stop: () => scheduler.stop(),
  };
}

/** A delivery's kind for metrics: the event's own kind, or digest / tokenRejected. */
export function deliveryKind(delivery: WatcherDelivery): string {
  return delivery.kind === 'single' ? delivery.event.kind : delivery.kind;
}
