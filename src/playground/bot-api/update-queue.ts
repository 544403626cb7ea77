/**
 * The updates waiting for the bot: queued in order with their update_id, confirmed (and forgotten)
 * by a later getUpdates offset or a webhook's 2xx answer, filtered by allowed_updates, and the
 * webhook they go to instead of a long poll. What moves them to the bot (long-poll.ts,
 * webhook-delivery.ts) is told through `UpdateTransport` when there is something to move.
 */
import type { Json } from './wire.js';

/** Update types Telegram leaves out when allowed_updates is empty or never set. */
const OPT_IN_UPDATE_TYPES = new Set(['chat_member', 'message_reaction', 'message_reaction_count']);

/** A webhook set by setWebhook, with the last delivery error getWebhookInfo reports. */
export interface Webhook {
  url: string;
  secretToken: string | undefined;
  maxConnections: number;
  ipAddress: string | undefined;
  lastErrorDate: number | undefined;
  lastErrorMessage: string | undefined;
}

/** What moves queued updates to the bot; the server connects it when it starts. */
export interface UpdateTransport {
  /** Answer a waiting long poll if it has updates to take now. */
  wakePoll(): void;
  /** Answer a waiting long poll with 409 and this description: its updates go elsewhere now. */
  endPoll(description: string): void;
  /** POST queued updates to the webhook, when one is set and no delivery is running. */
  deliver(): void;
}

/** The update queue, its confirmations, allowed_updates and the webhook: the bot's side of updates. */
export class UpdateQueue {
  /** Queued and not yet confirmed, oldest first. */
  readonly queued: Json[] = [];
  /** As last sent to getUpdates or setWebhook: kept by the server until a call sends it again. */
  allowedUpdates: string[] = [];
  webhook: Webhook | undefined;
  transport: UpdateTransport = {
    wakePoll: () => undefined,
    endPoll: () => undefined,
    deliver: () => undefined,
  };
  private readonly confirmed: number[] = [];
  private nextUpdateId = 600_000_001;

  /** Queue an update (assigning update_id unless given) and tell the transport. */
  push(update: Json): Json {
    const given = update.update_id;
    let stored: Json;
    if (typeof given === 'number') {
      this.nextUpdateId = Math.max(this.nextUpdateId, given + 1);
      stored = update;
    } else {
      stored = { update_id: this.nextUpdateId++, ...update };
    }
    this.queued.push(stored);
    this.transport.wakePoll();
    this.transport.deliver();
    return stored;
  }

  /** Confirm every update below a getUpdates `offset`, as Telegram does. */
  forgetBefore(offset: number): void {
    if (offset < 0) {
      // A negative offset keeps the last -offset updates and forgets the rest.
      const keep = Math.min(-offset, this.queued.length);
      this.confirm(this.queued.length - keep);
      return;
    }
    let count = 0;
    while (count < this.queued.length && Number(this.queued[count]?.update_id) < offset) count += 1;
    this.confirm(count);
  }

  /** Confirm one update the webhook took (a 2xx answer). */
  confirmDelivered(update: Json): void {
    const at = this.queued.findIndex((u) => u.update_id === update.update_id);
    if (at >= 0) {
      this.queued.splice(at, 1);
      this.confirmed.push(Number(update.update_id));
    }
  }

  /** Up to `limit` queued updates of allowed types; updates of other types are dropped for good. */
  deliverable(limit: number): Json[] {
    for (let i = this.queued.length - 1; i >= 0; i -= 1) {
      const update = this.queued[i];
      if (update && !this.isAllowed(update)) this.queued.splice(i, 1);
    }
    return structuredClone(this.queued.slice(0, limit));
  }

  /** Forget every queued update unconfirmed (drop_pending_updates). */
  dropPending(): void {
    this.queued.splice(0);
  }

  confirmedIds(): number[] {
    return [...this.confirmed];
  }

  pending(): Json[] {
    return structuredClone(this.queued);
  }

  private confirm(count: number): void {
    for (const update of this.queued.splice(0, count)) this.confirmed.push(Number(update.update_id));
  }

  private isAllowed(update: Json): boolean {
    const type = Object.keys(update).find((key) => key !== 'update_id');
    if (type === undefined) return false;
    const allowed = this.allowedUpdates;
    return allowed.length === 0 ? !OPT_IN_UPDATE_TYPES.has(type) : allowed.includes(type);
  }
}
