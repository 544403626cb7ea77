import { type Telegram, TelegramError } from 'telegraf';

/**
 * Tells `record` how every Bot API request ended: "ok", Telegram's error code (429 included) or
 * "network". Installed on `Telegram.prototype` under the retry (`installTelegramRetry`), so each
 * attempt counts: telegraf makes a new `Telegram` per update, which an instance patch would miss.
 */
export function observeTelegramCalls(
  proto: Pick<Telegram, 'callApi'>,
  record: (method: string, status: string) => void,
): void {
  const original = proto.callApi;
  type Method = Parameters<Telegram['callApi']>[0];
  async function observed<M extends Method>(
    this: Telegram,
    ...args: Parameters<typeof original<M>>
  ): ReturnType<typeof original<M>> {
    const call = original<M>;
    try {
      const result = await call.apply(this, args);
      record(args[0], 'ok');
      return result;
    } catch (error) {
      record(args[0], error instanceof TelegramError ? String(error.code) : 'network');
      throw error;
    }
  }
  proto.callApi = observed;
}
