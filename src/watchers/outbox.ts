/**
 * The watchers' state per token and the outbox rules, pure (no clock, no I/O), so that every
 * step of "told exactly once" is a plain function with unit tests.
 *
 * Exactly once, and what a crash does:
 * - A poll writes its new snapshot and the events it found for every chat (the outbox) in one
 *   atomic write, and only if no other poll wrote since it read (`seq`): events are never lost
 *   between a poll and the send, and two polls of one token never both enqueue.
 * - Before sending, a run claims a chat's entries (one atomic write); after Telegram answered, it
 *   removes them. A claim is taken by one run only, so two instances never send one entry.
 * - A crash between the claim and the removal leaves the entry claimed. Telegram cannot be asked
 *   whether the message went out, so the entry is resolved toward at most once: after
 *   `CLAIM_TTL_MS` it is dropped unsent (and logged), never sent a second time.
 */
import { NOTIFICATION_KINDS, type NotificationEvent, type Snapshot } from '../core/notify.js';

/** Told to a token's chats once, when the provider rejects the token: polling stops. */
export interface TokenRejectedNotice {
  readonly kind: 'tokenRejected';
  readonly id: string;
}

/** Anything the watchers tell a chat. */
export type Notice = NotificationEvent | TokenRejectedNotice;

export interface OutboxEntry {
  readonly chat: number;
  readonly notice: Notice;
  /** Set while a run is sending it: that run's id and when it claimed it. */
  readonly claim?: { readonly run: string; readonly at: number };
}

/** What the watchers keep per token, sealed in its watch document. */
export interface WatchState {
  readonly version: 1;
  /** Counts the polls written; a poll writes only if the count is still what it read. */
  readonly seq: number;
  /** Undefined until the first poll (which records silently). */
  readonly snapshot?: Snapshot | undefined;
  readonly outbox: readonly OutboxEntry[];
  /** Provider failures in a row, and when the next poll may ask again (ms since the epoch). */
  readonly failures: number;
  readonly retryAt?: number | undefined;
  /** The provider rejected the token: no more polls until it is connected again. */
  readonly rejected?: boolean | undefined;
}

/** A claimed entry older than this belongs to a run that died: it is dropped, not sent again. */
export const CLAIM_TTL_MS = 5 * 60_000;

export const INITIAL_STATE: WatchState = { version: 1, seq: 0, outbox: [], failures: 0 };

/** The stored state, or the initial one when it is absent or not of this version. */
export function readState(value: unknown): WatchState {
  if (!isObject(value) || value.version !== 1 || typeof value.seq !== 'number') return INITIAL_STATE;
  if (!Array.isArray(value.outbox) || typeof value.failures !== 'number') return INITIAL_STATE;
  const snapshot = isSnapshot(value.snapshot) ? value.snapshot : undefined;
  return {
    version: 1,
    seq: value.seq,
    snapshot,
    outbox: value.outbox.filter(isOutboxEntry),
    failures: value.failures,
    retryAt: typeof value.retryAt === 'number' ? value.retryAt : undefined,
    rejected: value.rejected === true,
  };
}

/** The snapshot's lists are the rule's own output; a damaged one starts over silently. */
function isSnapshot(value: unknown): value is Snapshot {
  if (!isObject(value) || value.version !== 1) return false;
  return ['invoices', 'payments', 'orders', 'domains', 'told'].every((key) => Array.isArray(value[key]));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isOutboxEntry(value: unknown): value is OutboxEntry {
  if (!isObject(value) || !Number.isSafeInteger(value.chat) || !isObject(value.notice)) return false;
  const { kind, id } = value.notice;
  return (
    typeof id === 'string' &&
    (kind === 'tokenRejected' || (typeof kind === 'string' && kind in NOTIFICATION_KINDS))
  );
}

/** Adds each notice for each chat, unless that chat already has an entry with its id. */
export function enqueue(
  outbox: readonly OutboxEntry[],
  chats: readonly number[],
  notices: readonly Notice[],
): OutboxEntry[] {
  const present = new Set(outbox.map((e) => `${e.chat}|${e.notice.id}`));
  const added: OutboxEntry[] = [];
  for (const chat of chats) {
    for (const notice of notices) {
      const key = `${chat}|${notice.id}`;
      if (present.has(key)) continue;
      present.add(key);
      added.push({ chat, notice });
    }
  }
  return [...outbox, ...added];
}

/** What one chat wants told: its kinds turned off, and invoices the bot made (never "new"). */
export interface ChatFilter {
  readonly off: ReadonlySet<string>;
  readonly createdByBot: ReadonlySet<number>;
  /** Whether the chat is still connected to the token; a chat that left is told nothing. */
  readonly attached: boolean;
}

export function isWanted(notice: Notice, filter: ChatFilter): boolean {
  if (!filter.attached) return false;
  if (notice.kind === 'tokenRejected') return true;
  if (filter.off.has(notice.kind)) return false;
  return !(notice.kind === 'newInvoice' && filter.createdByBot.has(notice.invoiceId));
}

export interface ClaimResult {
  readonly outbox: OutboxEntry[];
  /** The entries this run now holds, in outbox order. */
  readonly claimed: OutboxEntry[];
  /** Entries whose claim expired (a run died mid-send): dropped unsent, at most once. */
  readonly abandoned: OutboxEntry[];
  /** Entries the chat does not want (a kind turned off, or it left the token): dropped. */
  readonly unwanted: OutboxEntry[];
}

/**
 * Claims the chat's unclaimed entries for `run`. Entries claimed by a live run are left alone;
 * claims older than `CLAIM_TTL_MS` are dropped.
 */
export function claim(
  outbox: readonly OutboxEntry[],
  chat: number,
  run: string,
  now: number,
  filter: ChatFilter,
): ClaimResult {
  const next: OutboxEntry[] = [];
  const claimed: OutboxEntry[] = [];
  const abandoned: OutboxEntry[] = [];
  const unwanted: OutboxEntry[] = [];
  for (const entry of outbox) {
    if (entry.chat !== chat) next.push(entry);
    else if (entry.claim !== undefined) {
      if (now - entry.claim.at >= CLAIM_TTL_MS) abandoned.push(entry);
      else next.push(entry);
    } else if (!isWanted(entry.notice, filter)) unwanted.push(entry);
    else {
      const held = { ...entry, claim: { run, at: now } };
      claimed.push(held);
      next.push(held);
    }
  }
  return { outbox: next, claimed, abandoned, unwanted };
}

/**
 * After sending: the run's entries whose ids are in `done` leave the outbox; its other entries are
 * released for a later run (Telegram was busy, or the chat is in quiet hours now).
 */
export function settle(
  outbox: readonly OutboxEntry[],
  run: string,
  done: ReadonlySet<string>,
): OutboxEntry[] {
  const next: OutboxEntry[] = [];
  for (const entry of outbox) {
    if (entry.claim?.run !== run) next.push(entry);
    else if (!done.has(entry.notice.id)) next.push({ chat: entry.chat, notice: entry.notice });
  }
  return next;
}

/** Chats with anything waiting. */
export function chatsWaiting(outbox: readonly OutboxEntry[]): number[] {
  return [...new Set(outbox.map((e) => e.chat))];
}

/**
 * When to ask again after `failures` failures in a row: the interval doubled each time, at most an
 * hour, with ±20% jitter from `random` (0..1) so tokens that failed together spread out.
 */
export function backoffMs(intervalMs: number, failures: number, random: number): number {
  const base = Math.min(intervalMs * 2 ** Math.max(0, failures - 1), 60 * 60_000);
  return Math.round(base * (0.8 + 0.4 * random));
}
