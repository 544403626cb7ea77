import { setTimeout as sleep } from 'node:timers/promises';
import { type Telegram, TelegramError } from 'telegraf';
import type { Logger } from '../../logger.js';

/** How long one 429 may make the bot wait, and how many times in a row. */
const MAX_WAIT_S = 60;
const MAX_RETRIES = 5;

/**
 * Makes every Bot API call wait `retry_after` and try again when Telegram answers 429, so a
 * burst loses no message. telegraf builds a new Telegram object per update, so the wrapper sits
 * on the prototype; main.ts installs it once.
 */
export function installTelegramRetry(proto: Pick<Telegram, 'callApi'>, logger: Logger): void {
  const original = proto.callApi;
  // The Bot API method names (typegram's), as `callApi` takes them.
  type Method = Parameters<Telegram['callApi']>[0];
  async function retrying<M extends Method>(
    this: Telegram,
    ...args: Parameters<typeof original<M>>
  ): ReturnType<typeof original<M>> {
    const call = original<M>;
    for (let attempt = 0; ; attempt++) {
      try {
        return await call.apply(this, args);
      } catch (error) {
        if (!(error instanceof TelegramError) || error.code !== 429 || attempt >= MAX_RETRIES) throw error;
        const seconds = Math.min(Number(error.parameters?.retry_after ?? 1), MAX_WAIT_S);
        logger.warn(
          { method: args[0], retryAfter: seconds, attempt: attempt + 1 },
          'telegram rate limit; waiting',
        );
        await sleep(seconds * 1000);
      }
    }
  }
  proto.callApi = retrying;
}
