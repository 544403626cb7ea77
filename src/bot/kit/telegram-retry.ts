import { setTimeout as sleep } from 'node:timers/promises';
import { type Telegram, TelegramError } from 'telegraf';
import type { Logger } from '../../logger.js';

/** How long one 429 may make the bot wait, and how many times in a row. */
const MAX_WAIT_S = 60;
const MAX_RETRIES = 5;

/**
 * Puts `around` around every Bot API request: it gets the method's name and the request to make
 * (as many times as it likes). telegraf builds a new Telegram object per update, so the wrapper
 * sits on the prototype; main.ts installs each once.
 */
export function aroundTelegramCalls(
  proto: Pick<Telegram, 'callApi'>,
  around: <T>(method: string, request: () => Promise<T>) => Promise<T>,
): void {
  const original = proto.callApi;
  // The Bot API method names (typegram's), as `callApi` takes them.
  type Method = Parameters<Telegram['callApi']>[0];
  function wrapped<M extends Method>(
    this: Telegram,
    ...args: Parameters<typeof original<M>>
  ): ReturnType<typeof original<M>> {
    const call = original<M>;
    return around(args[0], () => call.apply(this, args));
  }
  proto.callApi = wrapped;
}

/** Makes every Bot API call wait `retry_after` and try again when Telegram answers 429, so a burst loses no message. */
export function installTelegramRetry(proto: Pick<Telegram, 'callApi'>, logger: Logger): void {
  aroundTelegramCalls(proto, async (method, request) => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await request();
      } catch (error) {
        if (!(error instanceof TelegramError) || error.code !== 429 || attempt >= MAX_RETRIES) throw error;
        const seconds = Math.min(Number(error.parameters?.retry_after ?? 1), MAX_WAIT_S);
        logger.warn({ method, retryAfter: seconds, attempt: attempt + 1 }, 'telegram rate limit; waiting');
        await sleep(seconds * 1000);
      }
    }
  });
}

/**
 * Tells `record` how every Bot API request ended: "ok", Telegram's error code (429 included) or
 * "network". Installed under the retry, so each attempt counts.
 */
export function observeTelegramCalls(
  proto: Pick<Telegram, 'callApi'>,
  record: (method: string, status: string) => void,
): void {
  aroundTelegramCalls(proto, async (method, request) => {
    try {
      const result = await request();
      record(method, 'ok');
      return result;
    } catch (error) {
      record(method, error instanceof TelegramError ? String(error.code) : 'network');
      throw error;
    }
  });
}
