/**
 * What Telegram's servers do when a client opens a Mini App: sign the launch. The page asks with
 * the person, the chat and the button's URL; the answer is the URL to load in the panel, with the
 * launch data a Telegram client puts in its hash (`tgWebAppData` — initData signed with the bot's
 * token by @tma.js/init-data-node —, `tgWebAppVersion`, `tgWebAppPlatform`,
 * `tgWebAppThemeParams`). The token stays here; the page only ever sees the signed string.
 *
 * Three ways in, as in Telegram:
 * - a `web_app` button: its own URL, with a `query_id` in initData (answerWebAppQuery's);
 * - the menu button by the input (setChatMenuButton's MenuButtonWebApp): its URL, signed as a
 *   `web_app` button's launch; the app is opened with no screen named (its home);
 * - a direct link `https://t.me/<bot>/<short name>?startapp=<param>`: the app's URL (what
 *   @BotFather holds: MINI_APP_URL), with `start_param` in initData and `tgWebAppStartParam` in the
 *   query.
 * The panel opens only apps on 127.0.0.1 or localhost: nothing leaves the machine.
 */
import { createHash, randomBytes } from 'node:crypto';
import { sign } from '@tma.js/init-data-node';
import type { PlaygroundChat, PlaygroundPerson } from './people.js';

/** Where the bot's Mini App is, as the bot is told (MINI_APP_URL, MINI_APP_SHORT_NAME). */
export interface PlaygroundMiniApp {
  url: string;
  shortName: string | undefined;
}

/**
 * The Mini Apps version the panel says it speaks. @tma.js/sdk 3.3.0 checks each method against it:
 * 9.1 has everything up to the safe areas and 8.0's shareMessage, downloadFile, addToHomeScreen and
 * checkHomeScreenStatus, and `web_app_hide_keyboard`; only the buttons'
 * `icon_custom_emoji_id` (9.5) is missing, which the panel could not draw anyway.
 */
export const MINI_APP_VERSION = '9.1';

/** Telegram Web's platform name (Web A). */
export const MINI_APP_PLATFORM = 'weba';

/** A light theme, in Telegram's theme keys, in the page's own colours. */
export const LIGHT_THEME: Readonly<Record<string, string>> = {
  bg_color: '#ffffff',
  text_color: '#1f2328',
  hint_color: '#707579',
  link_color: '#3390ec',
  button_color: '#3390ec',
  button_text_color: '#ffffff',
  secondary_bg_color: '#f4f4f5',
  header_bg_color: '#ffffff',
  bottom_bar_bg_color: '#ffffff',
  accent_text_color: '#3390ec',
  section_bg_color: '#ffffff',
  section_header_text_color: '#3390ec',
  section_separator_color: '#e7e7e7',
  subtitle_text_color: '#707579',
  destructive_text_color: '#e53935',
};

/** A launch the page asks for: who taps, in which chat, on what. */
export interface LaunchRequest {
  userId: number;
  chatId: number;
  /** The `web_app` button's or menu button's URL, or the `url` button's direct link. */
  url: string;
  kind: 'web_app' | 'url' | 'menu';
  lang: 'ru' | 'en';
}

/** The URL the panel loads, and the theme it answers `web_app_request_theme` with. */
export interface Launch {
  url: string;
  theme: Readonly<Record<string, string>>;
}

/** A launch the panel does not make; the message is the page's to show. */
export class LaunchRefused extends Error {}

/** `startapp`: up to 512 of A-Z, a-z, 0-9, _ and - (Telegram's rule). */
const START_PARAM = /^[A-Za-z0-9_-]{1,512}$/;

export function createMiniAppLauncher(options: {
  app: PlaygroundMiniApp;
  botToken: string;
  botUsername: string;
  people: readonly PlaygroundPerson[];
  chats: readonly PlaygroundChat[];
  now?: () => Date;
}): (request: LaunchRequest) => Launch {
  const now = options.now ?? (() => new Date());
  return (request) => {
    const person = options.people.find((p) => p.id === request.userId);
    if (person === undefined) throw new LaunchRefused(`no such person: ${request.userId}`);
    const chat = options.chats.find((c) => c.id === request.chatId);
    if (chat === undefined) throw new LaunchRefused(`no such chat: ${request.chatId}`);
    const direct = request.kind === 'url' ? startParamOf(request.url, options) : undefined;
    const target = loopbackUrl(direct === undefined ? request.url : options.app.url);
    const initData = sign(
      {
        user: {
          id: person.id,
          first_name: person.first_name,
          ...(person.last_name === undefined ? {} : { last_name: person.last_name }),
          ...(person.username === undefined ? {} : { username: person.username }),
          language_code: request.lang,
          allows_write_to_pm: true,
        },
        chat_type: chatType(chat, person.id),
        chat_instance: chatInstance(options.botToken, chat.id),
        ...(direct === undefined
          ? { query_id: randomBytes(18).toString('base64url') }
          : direct.startParam === undefined
            ? {}
            : { start_param: direct.startParam }),
      },
      options.botToken,
      now(),
    );
    if (direct?.startParam !== undefined) target.searchParams.set('tgWebAppStartParam', direct.startParam);
    target.hash = new URLSearchParams({
      tgWebAppData: initData,
      tgWebAppVersion: MINI_APP_VERSION,
      tgWebAppPlatform: MINI_APP_PLATFORM,
      tgWebAppThemeParams: JSON.stringify(LIGHT_THEME),
    }).toString();
    return { url: target.href, theme: LIGHT_THEME };
  };
}

/**
 * The `startapp` of a direct link to this bot's app; refused for any other link (the page opens
 * those in a tab, as before).
 */
function startParamOf(
  link: string,
  options: { app: PlaygroundMiniApp; botUsername: string },
): { startParam: string | undefined } {
  const url = URL.canParse(link) ? new URL(link) : undefined;
  const [username, shortName, ...rest] = (url?.pathname ?? '').split('/').filter((part) => part !== '');
  if (
    url === undefined ||
    url.protocol !== 'https:' ||
    url.hostname !== 't.me' ||
    rest.length > 0 ||
    username?.toLowerCase() !== options.botUsername.toLowerCase() ||
    options.app.shortName === undefined ||
    shortName?.toLowerCase() !== options.app.shortName.toLowerCase()
  ) {
    throw new LaunchRefused(`not a link to this bot's Mini App: ${link}`);
  }
  const startParam = url.searchParams.get('startapp') ?? undefined;
  if (startParam !== undefined && !START_PARAM.test(startParam)) {
    throw new LaunchRefused(`startapp must be 1–512 of A-Z, a-z, 0-9, _ and -: ${startParam}`);
  }
  return { startParam };
}

/** The app's URL, if it is on this machine: the panel loads nothing from elsewhere. */
function loopbackUrl(value: string): URL {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (
    url === undefined ||
    !['http:', 'https:'].includes(url.protocol) ||
    !['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)
  ) {
    throw new LaunchRefused(`the playground opens Mini Apps on 127.0.0.1 only, not ${value}`);
  }
  return url;
}

/**
 * Telegram's `chat_type`: `sender` in the user's private chat with the bot, `private` in a chat with
 * someone else, else the group's type.
 */
function chatType(chat: PlaygroundChat, userId: number): string {
  if (chat.kind === 'group') return 'group';
  return chat.id === userId ? 'sender' : 'private';
}

/** Telegram's `chat_instance`: a stable 64-bit number for the chat, the same at every launch. */
function chatInstance(botToken: string, chatId: number): string {
  const digest = createHash('sha256').update(`${botToken}:${chatId}`).digest();
  return digest.readBigInt64BE(0).toString();
}
