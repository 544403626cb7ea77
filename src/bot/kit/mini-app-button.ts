/*
 * The button that opens the bot's Mini App. Telegram opens a `web_app` button in private chats
 * only; in a group the button is a link to the app's direct link (t.me/<bot>/<short name>), whose
 * `startapp` parameter reaches the app as initData's `start_param`, signed — so the app's server
 * knows which group's account the member opened it for.
 */
import { Markup } from 'telegraf';
import type { InlineKeyboardButton } from 'telegraf/types';
import { type AppScreen, formatGroupStartParam } from '../../core/mini-app-launch.js';
import type { BotContext } from '../context.js';

/** Where the bot's Mini App is (MINI_APP_URL) and its short name with @BotFather (for groups). */
export interface MiniAppLinks {
  readonly url: string;
  readonly shortName: string | undefined;
}

/**
 * A button opening the app at `screen`: in a private chat a `web_app` button at `url` with the
 * screen and `query` added (the page reads them; Telegram puts its launch data in the hash), in a
 * group a link to the direct link for the group, the screen in its signed start parameter (a
 * group's link carries nothing else). `group`: a bound group's account shown in a private chat
 * (its saved customers after a hand-over) — its direct link too, since a `web_app` button would
 * open the user's own account. Undefined where the app cannot open: no app, a group without a
 * short name, a channel.
 */
export function miniAppButton(
  ctx: BotContext,
  links: MiniAppLinks | undefined,
  label: string,
  screen: AppScreen,
  query: Record<string, string> = {},
  group?: number,
): InlineKeyboardButton | undefined {
  if (links === undefined || ctx.chat === undefined || ctx.chat.type === 'channel') return undefined;
  const forGroup = group ?? (ctx.chat.type === 'private' ? undefined : ctx.chat.id);
  if (forGroup === undefined) {
    const url = new URL(links.url);
    url.searchParams.set('screen', screen);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    return Markup.button.webApp(label, url.href);
  }
  if (links.shortName === undefined) return undefined;
  const startParam = formatGroupStartParam(forGroup, screen);
  return Markup.button.url(
    label,
    `https://t.me/${ctx.botInfo.username}/${links.shortName}?startapp=${encodeURIComponent(startParam)}`,
  );
}
