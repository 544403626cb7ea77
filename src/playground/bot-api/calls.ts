/**
 * The calls the local Bot API server received, in arrival order, with what it answered: the record
 * tests read (`calls`, `waitForCall`), and the list a failed wait prints, so a test that times out
 * shows what the bot did instead.
 */
import type { ServerResponse } from 'node:http';
import { type ApiResponse, type Json, RecordedFile, writeJson } from './wire.js';

/**
 * One Bot API request the server received.
 *
 * `params` is the JSON body as sent, or — for `application/x-www-form-urlencoded`, multipart and
 * query-string requests — the fields decoded the way Telegram reads them:
 * - file parts become `RecordedFile` instances (`params.document instanceof RecordedFile`);
 * - fields that carry JSON (`reply_markup`, `entities`, `caption_entities`, `reply_parameters`,
 *   `link_preview_options`, `allowed_updates`, `commands`, `scope`, `media`, …) are parsed;
 * - integer fields (`chat_id`, `message_id`, `user_id`, `offset`, `limit`, `timeout`, …) become numbers
 *   when they look like integers, and known flags ('true'/'false') become booleans;
 * - everything else stays a string;
 * - the `method` field telegraf adds to every multipart body is dropped (the URL names the method).
 */
export interface RecordedCall {
  method: string;
  params: Record<string, unknown>;
  /** `Date.now()` when the request was received. */
  at: number;
  /** Position in `calls`; pass `index + 1` as `since` to wait for a later call. */
  index: number;
  /** 'request': an HTTP request to the API; 'webhook-reply': a method in a webhook's response body. */
  via: 'request' | 'webhook-reply';
  /** What the server answered; absent while a long poll is still waiting. */
  response?: ApiResponse;
}

interface CallWaiter {
  matches: (c: RecordedCall) => boolean;
  since: number;
  resolve: (c: RecordedCall) => void;
  reject: (error: Error) => void;
}

/** Every call made with the right token, and the waits for calls still to come. */
export class CallLog {
  readonly calls: RecordedCall[] = [];
  private readonly waiters = new Set<CallWaiter>();

  /** Record a call and hand it to the waits it matches, before it is answered. */
  record(method: string, params: Json, via: RecordedCall['via']): RecordedCall {
    const call: RecordedCall = { method, params, at: Date.now(), index: this.calls.length, via };
    this.calls.push(call);
    for (const waiter of [...this.waiters]) {
      if (call.index >= waiter.since && waiter.matches(call)) waiter.resolve(call);
    }
    return call;
  }

  waitForCall(
    match: string | ((c: RecordedCall) => boolean),
    opts: { timeoutMs?: number; since?: number } = {},
  ): Promise<RecordedCall> {
    const matches = typeof match === 'string' ? (c: RecordedCall) => c.method === match : match;
    const since = opts.since ?? 0;
    const timeoutMs = opts.timeoutMs ?? 5000;
    const found = this.calls.find((c) => c.index >= since && matches(c));
    if (found) return Promise.resolve(found);
    return new Promise<RecordedCall>((resolve, reject) => {
      const waiter: CallWaiter = {
        matches,
        since,
        resolve: (c) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(c);
        },
        reject: (error) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          reject(error);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        const wanted = typeof match === 'string' ? match : 'a call matching the predicate';
        reject(
          new Error(
            `Timed out after ${timeoutMs} ms waiting for ${wanted} (since #${since}).\n${this.describeCalls()}`,
          ),
        );
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  /** Fail every wait still open: the server is closing, so no call will come. */
  rejectWaiters(): void {
    for (const waiter of [...this.waiters]) {
      waiter.reject(
        new Error(`The local Bot API server was closed while waiting for a call.\n${this.describeCalls()}`),
      );
    }
  }

  private describeCalls(): string {
    if (this.calls.length === 0) return 'No calls were made.';
    const lines = this.calls.slice(-40).map((c) => {
      const params = c.method === 'getUpdates' ? '' : ` ${truncate(describe(c.params), 300)}`;
      const outcome =
        c.response === undefined
          ? ' → (waiting)'
          : c.response.ok
            ? ''
            : ` → ${c.response.error_code} ${c.response.description}`;
      return `  #${c.index} ${c.method}${c.via === 'webhook-reply' ? ' (webhook reply)' : ''}${params}${outcome}`;
    });
    return `Calls seen (${this.calls.length}${this.calls.length > 40 ? ', last 40 shown' : ''}):\n${lines.join('\n')}`;
  }
}

/** Answer a call: the answer is kept with it, and written out when the call came over HTTP. */
export function respond(res: ServerResponse | undefined, call: RecordedCall, body: ApiResponse): void {
  call.response = body;
  if (res) writeJson(res, body);
}

/** Narrow a recorded param to a file; throws naming the field when it is not one. */
export function fileParam(call: RecordedCall, field: string): RecordedFile {
  const value = call.params[field];
  if (!(value instanceof RecordedFile)) {
    throw new Error(`${call.method}.${field} is not a file: ${describe(value)}`);
  }
  return value;
}

function describe(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v instanceof RecordedFile ? `<file ${v.filename}, ${v.size} bytes>` : v,
  );
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
