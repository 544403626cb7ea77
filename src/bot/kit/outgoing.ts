/**
 * Passes over what the bot sends while it answers one update (each update has its own Telegram
 * client, so wrapping it touches that update's calls only): the role keyboards of team chats and
 * the account stamp of several-account chats are such passes.
 */
import type { Telegram } from 'telegraf';
import type { InlineKeyboardButton } from 'telegraf/types';

/** A client's `callApi`, as a pass sees it: a method, its payload, telegraf's options. */
export type CallApi = (
  method: string,
  payload: Record<string, unknown>,
  options?: object,
) => Promise<unknown>;

/** Runs every call of `telegram` through `pass` before it goes out. */
export function passOutgoing(
  telegram: Telegram,
  pass: (
    method: string,
    payload: Record<string, unknown>,
  ) => Record<string, unknown> | Promise<Record<string, unknown>>,
): void {
  const callApi = telegram.callApi.bind(telegram) as CallApi;
  const passed: CallApi = async (method, payload, options) =>
    callApi(method, await pass(method, payload), options);
  telegram.callApi = passed as typeof telegram.callApi;
}

/**
 * The payload with every inline button `lock` returns a replacement for replaced; the same
 * payload when none is (the caller's objects are never changed: a keyboard may be reused).
 */
export function gateKeyboard(
  payload: Record<string, unknown>,
  lock: (button: InlineKeyboardButton) => InlineKeyboardButton | undefined,
): Record<string, unknown> {
  const markup = payload.reply_markup;
  if (typeof markup !== 'object' || markup === null || !('inline_keyboard' in markup)) return payload;
  const rows = markup.inline_keyboard;
  if (!Array.isArray(rows)) return payload;
  let changed = false;
  const gatedRows = rows.map((row: InlineKeyboardButton[]) =>
    row.map((button) => {
      const locked = lock(button);
      if (locked === undefined) return button;
      changed = true;
      return locked;
    }),
  );
  return changed ? { ...payload, reply_markup: { ...markup, inline_keyboard: gatedRows } } : payload;
}
