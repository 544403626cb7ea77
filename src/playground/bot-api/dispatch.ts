/**
 * How a call reaches its method: the name is matched case-insensitively and recorded as
 * documented; a failure a test injected with `failNext` is answered first; getUpdates over HTTP
 * goes to the long poll; anything else to its handler in the method table (or one a test set with
 * `handle`), whose result or BotApiFailure is the answer — later, when it returns a promise.
 */
import type { ServerResponse } from 'node:http';
import { type CallLog, type RecordedCall, respond } from './calls.js';
import { BotApiFailure, type TelegramErrorBody } from './failures.js';
import type { LongPoll } from './long-poll.js';
import { BOT_API_METHODS } from './methods.js';
import type { BotApiState } from './state.js';
import type { Json } from './wire.js';

/**
 * A custom method implementation: return the result (or a promise of it, to hold the answer back),
 * or throw (reject with) `BotApiFailure` for an error.
 */
export type MethodHandler = (params: Record<string, unknown>) => unknown;

/** The methods by lower-case name, the failures tests injected, and the routing of each call. */
export class Dispatcher {
  private readonly handlers = new Map<string, { name: string; run: MethodHandler }>();
  private readonly failures = new Map<string, TelegramErrorBody[]>();

  constructor(
    state: BotApiState,
    private readonly log: CallLog,
    private readonly longPoll: LongPoll,
  ) {
    for (const [name, run] of Object.entries(BOT_API_METHODS)) {
      this.handlers.set(name.toLowerCase(), { name, run: (params) => run(state, params) });
    }
  }

  handle(method: string, handler: MethodHandler): void {
    this.handlers.set(method.toLowerCase(), { name: this.canonicalName(method), run: handler });
  }

  failNext(method: string, error: TelegramErrorBody, times: number): void {
    const name = this.canonicalName(method);
    const list = this.failures.get(name) ?? [];
    for (let i = 0; i < times; i += 1) list.push(structuredClone(error));
    this.failures.set(name, list);
  }

  /** Record a call and answer it: over `res` for a request, only in the record for a webhook reply. */
  dispatch(rawMethod: string, params: Json, via: RecordedCall['via'], res: ServerResponse | undefined): void {
    const method = this.canonicalName(rawMethod);
    if (
      via === 'request' &&
      typeof params.method === 'string' &&
      params.method.toLowerCase() === method.toLowerCase()
    ) {
      delete params.method;
    }
    const call = this.log.record(method, params, via);

    // An injected failure is for the bot to see, so it is not spent on webhook replies it can't see.
    const injected = via === 'request' ? this.failures.get(method)?.shift() : undefined;
    if (injected) {
      respond(res, call, { ok: false, ...injected });
      return;
    }
    if (method === 'getUpdates' && res) {
      this.longPoll.getUpdates(call, res);
      return;
    }
    const handler = this.handlers.get(method.toLowerCase());
    if (!handler) {
      respond(res, call, { ok: false, error_code: 404, description: 'Not Found: method not found' });
      return;
    }
    const fail = (error: unknown) => {
      if (!(error instanceof BotApiFailure)) throw error;
      respond(res, call, { ok: false, ...error.body });
    };
    try {
      const result = handler.run(params);
      if (result instanceof Promise) {
        result.then(
          (value: unknown) => respond(res, call, { ok: true, result: value }),
          (error: unknown) =>
            respond(
              res,
              call,
              error instanceof BotApiFailure
                ? { ok: false, ...error.body }
                : { ok: false, error_code: 500, description: `Internal Server Error: ${String(error)}` },
            ),
        );
        return;
      }
      respond(res, call, { ok: true, result });
    } catch (error) {
      fail(error);
    }
  }

  /** Telegram method names are case-insensitive; record them as documented. */
  private canonicalName(method: string): string {
    return this.handlers.get(method.toLowerCase())?.name ?? method;
  }
}
