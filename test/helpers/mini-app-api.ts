/*
 * Calling the Mini App's API as the app does, in the integration tests: initData signed as
 * Telegram signs it for the bot, and JSON calls below the app's address, each answer's text kept
 * so a test can search them all for a token at the end.
 */
import { sign } from '@tma.js/init-data-node';

/** initData for `user` (Russian unless said), opened privately or by a group's `start_param`. */
export function signLaunch(
  botToken: string,
  user: { id: number; first_name: string; language_code?: string },
  startParam?: string,
): string {
  return sign(
    {
      user: { language_code: 'ru', ...user },
      ...(startParam === undefined ? {} : { start_param: startParam }),
    },
    botToken,
    new Date(),
  );
}

/** A caller of `api/…` below `base()`: a GET, or a POST of `body`; every answer's text goes to `bodies`. */
export function apiCaller(base: () => string, bodies: string[]) {
  return async (path: string, auth: string, body?: unknown) => {
    const response = await fetch(new URL(path, base()), {
      headers: {
        authorization: `tma ${auth}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) }),
    });
    const text = await response.text();
    bodies.push(text);
    return { status: response.status, json: JSON.parse(text) as Record<string, unknown> };
  };
}
