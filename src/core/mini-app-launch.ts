/*
 * The Mini App's launch parameter (`startapp` in a t.me link, `start_param` in initData): what the
 * bot writes into a button and what the app's server reads back. Telegram allows up to 512
 * characters of A-Z, a-z, 0-9, _ and -; a group's id is negative, so `g-1001234567890`.
 */

/** What a launch parameter asks for: a bound group's account (none: the user's own). */
export type LaunchTarget = { kind: 'group'; chatId: number };

const GROUP_PARAM = /^g(-\d{1,16})$/;

/** The launch parameter that opens the app for a bound group. */
export function formatGroupStartParam(chatId: number): string {
  return `g${chatId}`;
}

/** The target a launch parameter names; undefined when it names none this version knows. */
export function parseStartParam(value: string): LaunchTarget | undefined {
  const match = GROUP_PARAM.exec(value);
  const chatId = match ? Number(match[1]) : Number.NaN;
  return Number.isSafeInteger(chatId) ? { kind: 'group', chatId } : undefined;
}
