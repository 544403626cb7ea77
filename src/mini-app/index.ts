/*
 * The Mini App's routes for the bot's HTTP server, built from the configuration: none without
 * MINI_APP_URL; else everything under its path (GET and POST), and the path without its slash
 * sent to the path with it.
 */
import { fileURLToPath } from 'node:url';
import type { Config } from '../config.js';
import { miniAppPath } from '../config.js';
import type { HttpRoute } from '../http-server.js';
import type { Logger } from '../logger.js';
import type { AccessDeps, MembershipCheck } from './access.js';
import { createMiniAppServer, type MiniAppTranslate } from './api.js';
import type { MiniAppPartnerApi, MiniAppServices } from './endpoint-types.js';
import { PAGE_CSP, securityHeaders } from './http-io.js';
import type { DocumentOpener } from './statement-files.js';

/** The built app: `dist/app` at the project root, from both `src/mini-app` and `dist/mini-app`. */
export const APP_DIR = fileURLToPath(new URL('../../dist/app/', import.meta.url));

export interface MiniAppRoutesDeps {
  config: Pick<
    Config,
    'MINI_APP_URL' | 'MINI_APP_INIT_DATA_MAX_AGE_S' | 'BOT_TOKEN' | 'ALLOWED_USER_IDS' | 'DEFAULT_LOCALE'
  >;
  chatData: AccessDeps['chatData'];
  apiFor: (token: string) => MiniAppPartnerApi;
  /** What the endpoints run below both faces (applying a zone's edits). */
  services: MiniAppServices;
  translate: MiniAppTranslate;
  logger: Logger;
  /** Telegram's word on a group member (main: over `getChatMember`). */
  isGroupMember?: MembershipCheck | undefined;
  /** Default APP_DIR. */
  appDir?: string;
  /** Opens the provider's public documents (default: undici with a timeout). */
  openDocument?: DocumentOpener;
  /** The clock of statement files' addresses (tests move it). */
  now?: () => number;
  /** Today, for invoices' and domains' days (`npm run dev`: its sandbox's clock). */
  clock?: () => Date;
}

/** The app's routes; none when MINI_APP_URL is not set. */
export function miniAppRoutes(deps: MiniAppRoutesDeps): HttpRoute[] {
  const { config } = deps;
  if (config.MINI_APP_URL === undefined) return [];
  const basePath = miniAppPath(config.MINI_APP_URL);
  const server = createMiniAppServer({
    basePath,
    botToken: config.BOT_TOKEN,
    maxAgeS: config.MINI_APP_INIT_DATA_MAX_AGE_S,
    access: {
      chatData: deps.chatData,
      allowedUserIds: config.ALLOWED_USER_IDS,
      isGroupMember: deps.isGroupMember,
    },
    apiFor: deps.apiFor,
    services: deps.services,
    translate: deps.translate,
    defaultLocale: config.DEFAULT_LOCALE,
    logger: deps.logger,
    appDir: deps.appDir ?? APP_DIR,
    appUrl: config.MINI_APP_URL,
    ...(deps.openDocument === undefined ? {} : { openDocument: deps.openDocument }),
    ...(deps.now === undefined ? {} : { now: deps.now }),
    ...(deps.clock === undefined ? {} : { clock: deps.clock }),
  });
  const bare = basePath.slice(0, -1);
  return [
    { method: 'GET', path: basePath, handle: server.handle },
    { method: 'POST', path: basePath, handle: server.handle },
    {
      method: 'GET',
      path: bare,
      handle: (req, res) => {
        const query = (req.url ?? '').split('?')[1];
        res
          .writeHead(301, {
            ...securityHeaders(PAGE_CSP),
            location: query ? `${basePath}?${query}` : basePath,
          })
          .end();
      },
    },
  ];
}
