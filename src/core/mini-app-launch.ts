/*
 * The Mini App's launch parameter (`startapp` in a t.me link, `start_param` in initData): what the
 * bot writes into a button and what the app's server reads back. Telegram allows up to 512
 * characters of A-Z, a-z, 0-9, _ and -; a group's id is negative, so `g-1001234567890`, and the
 * screen the button opens follows it: `g-1001234567890_order`.
 */

/**
 * The screens a button opens: the home (the app opened with no screen named), the DNS editor, the
 * order form, the saved customers, the invoices («Счета»).
 */
export const APP_SCREENS = ['home', 'dns', 'order', 'customers', 'invoices'] as const;
export type AppScreen = (typeof APP_SCREENS)[number];

export const isAppScreen = (value: unknown): value is AppScreen =>
  APP_SCREENS.some((screen) => screen === value);

/** What a launch parameter asks for: a bound group's account (none: the user's own), a screen. */
export interface LaunchTarget {
  kind: 'group';
  chatId: number;
  screen?: AppScreen;
}

const GROUP_PARAM = /^g(-\d{1,16})(?:_([a-z]{1,16}))?$/;

/** The launch parameter that opens the app for a bound group, at `screen` when given. */
export function formatGroupStartParam(chatId: number, screen?: AppScreen): string {
  return screen === undefined ? `g${chatId}` : `g${chatId}_${screen}`;
}

/** The target a launch parameter names; undefined when it names none this version knows. */
export function parseStartParam(value: string): LaunchTarget | undefined {
  const match = GROUP_PARAM.exec(value);
  const chatId = match ? Number(match[1]) : Number.NaN;
  if (!Number.isSafeInteger(chatId)) return undefined;
  const screen = match?.[2];
  if (screen === undefined) return { kind: 'group', chatId };
  return isAppScreen(screen) ? { kind: 'group', chatId, screen } : undefined;
}
