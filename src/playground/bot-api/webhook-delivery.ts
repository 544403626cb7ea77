/**
 * Delivery to the webhook setWebhook set: queued updates are POSTed one at a time, like Telegram
 * with max_connections 1, each confirmed by a 2xx answer and retried with a growing pause after
 * anything else. Only loopback targets are contacted, over plain HTTP even when the URL says https
 * (telegraf always registers https://, and a local test has no certificate); for any other host
 * the updates stay queued and getWebhookInfo reports why.
 */
import { Buffer } from 'node:buffer';
import { setTimeout as sleep } from 'node:timers/promises';
import { unixTime } from './state.js';
import type { UpdateQueue, Webhook } from './update-queue.js';
import { type Json, parseParams } from './wire.js';

/** The one delivery loop; a second start while it runs does nothing. */
export class WebhookDelivery {
  private delivering = false;

  constructor(
    private readonly updates: UpdateQueue,
    /** Aborted when the server closes: the loop stops and a POST under way is cut. */
    private readonly closing: AbortSignal,
    /** Runs a method telegraf put in a webhook's answer (a "webhook reply"). */
    private readonly runReply: (method: string, params: Json) => void,
  ) {}

  async deliver(): Promise<void> {
    if (this.delivering) return;
    this.delivering = true;
    let backoffMs = 100;
    try {
      const updates = this.updates;
      while (!this.closing.aborted && updates.webhook) {
        const hook = updates.webhook;
        const target = loopbackTarget(hook.url);
        if (!target) {
          hook.lastErrorDate = unixTime();
          hook.lastErrorMessage = 'The local server delivers only to 127.0.0.1 or localhost';
          return;
        }
        const update = updates.deliverable(1)[0];
        if (!update) return;
        const delivered = await this.postUpdate(target, hook, update);
        if (delivered) {
          backoffMs = 100;
          updates.confirmDelivered(update);
        } else {
          await sleep(backoffMs, undefined, { signal: this.closing }).catch(() => undefined);
          backoffMs = Math.min(backoffMs * 2, 2000);
        }
      }
    } finally {
      this.delivering = false;
    }
  }

  private async postUpdate(target: string, hook: Webhook, update: Json): Promise<boolean> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (hook.secretToken !== undefined) headers['x-telegram-bot-api-secret-token'] = hook.secretToken;
    try {
      const res = await fetch(target, {
        method: 'POST',
        headers,
        body: JSON.stringify(update),
        signal: AbortSignal.any([this.closing, AbortSignal.timeout(30_000)]),
      });
      const body = Buffer.from(await res.arrayBuffer());
      if (!res.ok) {
        hook.lastErrorDate = unixTime();
        hook.lastErrorMessage = `Wrong response from the webhook: ${res.status} ${res.statusText}`;
        return false;
      }
      // telegraf may answer with a method call in the response body ("webhook reply").
      const contentType = res.headers.get('content-type') ?? undefined;
      if (body.length > 0 && contentType !== undefined) {
        const reply = await parseParams(contentType, body, new URLSearchParams()).catch(() => undefined);
        if (reply && typeof reply.method === 'string') {
          const { method, ...params } = reply;
          this.runReply(method, params);
        }
      }
      return true;
    } catch (error) {
      hook.lastErrorDate = unixTime();
      hook.lastErrorMessage = `Connection failed: ${String(error)}`;
      return false;
    }
  }
}

/** The URL to POST to: loopback only, always plain HTTP on 127.0.0.1. */
function loopbackTarget(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.hostname !== '127.0.0.1' && parsed.hostname !== 'localhost') return undefined;
  parsed.protocol = 'http:';
  parsed.hostname = '127.0.0.1';
  return parsed.toString();
}
