/**
 * getUpdates over HTTP, as the real server answers it: every update below `offset` is confirmed
 * and forgotten; the call answers at once when updates are queued or `timeout` is 0, else it waits
 * up to `timeout` seconds and wakes when one is queued. Its refusals: 409 while a webhook is set,
 * and 409 "terminated by other getUpdates request" for a waiting poll a newer one replaces.
 */
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { type RecordedCall, respond } from './calls.js';
import type { UpdateQueue } from './update-queue.js';
import { toInteger } from './wire.js';

interface PendingPoll {
  call: RecordedCall;
  res: ServerResponse;
  limit: number;
  timer: NodeJS.Timeout;
}

/** The long poll: at most one getUpdates waits at a time, as on the real server. */
export class LongPoll {
  private pending: PendingPoll | undefined;
  private wakeScheduled = false;

  constructor(private readonly updates: UpdateQueue) {}

  getUpdates(call: RecordedCall, res: ServerResponse): void {
    const { params } = call;
    const updates = this.updates;
    if (updates.webhook) {
      respond(res, call, {
        ok: false,
        error_code: 409,
        description:
          "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
      });
      return;
    }
    const offset = toInteger(params.offset) ?? 0;
    const limit = Math.min(Math.max(toInteger(params.limit) ?? 100, 1), 100);
    const timeout = Math.max(toInteger(params.timeout) ?? 0, 0);
    if (Array.isArray(params.allowed_updates)) updates.allowedUpdates = params.allowed_updates.map(String);
    updates.forgetBefore(offset);
    const batch = updates.deliverable(limit);
    if (batch.length > 0 || timeout === 0) {
      respond(res, call, { ok: true, result: batch });
      return;
    }
    this.end(
      'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
    );
    const timer = setTimeout(() => this.answer(), timeout * 1000);
    timer.unref();
    const poll: PendingPoll = { call, res, limit, timer };
    this.pending = poll;
    res.on('close', () => {
      // The client gave up (telegraf aborts its poll on bot.stop()).
      if (this.pending === poll) {
        clearTimeout(poll.timer);
        this.pending = undefined;
      }
    });
  }

  /** Answer the waiting poll if there are updates for it. */
  wake(): void {
    if (this.wakeScheduled || !this.pending) return;
    this.wakeScheduled = true;
    // Wait a turn so updates pushed together arrive in one batch, as they would from Telegram.
    setImmediate(() => {
      this.wakeScheduled = false;
      const poll = this.pending;
      if (poll && this.updates.deliverable(poll.limit).length > 0) this.answer();
    });
  }

  /** End the waiting poll with 409 and this description. */
  end(description: string): void {
    const poll = this.pending;
    if (!poll) return;
    this.pending = undefined;
    clearTimeout(poll.timer);
    respond(poll.res, poll.call, { ok: false, error_code: 409, description });
  }

  /** On the server's close: answer the waiting poll, and give the answer a moment to leave. */
  async close(): Promise<void> {
    const poll = this.pending;
    if (!poll) return;
    // As if the poll's timeout ran out: the bot sees an empty batch, not a network error.
    this.pending = undefined;
    clearTimeout(poll.timer);
    respond(poll.res, poll.call, { ok: true, result: [] });
    // Let the answer leave before the connection is cut.
    if (!poll.res.writableFinished) {
      await Promise.race([new Promise((resolve) => poll.res.once('finish', resolve)), sleep(200)]);
    }
  }

  private answer(): void {
    const poll = this.pending;
    if (!poll) return;
    this.pending = undefined;
    clearTimeout(poll.timer);
    respond(poll.res, poll.call, { ok: true, result: this.updates.deliverable(poll.limit) });
  }
}
