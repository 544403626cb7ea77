/*
 * Calling the Mini App's API as the app does, in the integration tests: initData signed as
 * Telegram signs it for the bot, and JSON calls below the app's address, each answer's text kept
 * so a test can search them all for a token at the end.
 */
import { sign } from '@tma.js/init-data-node';
import type { PartnerApi } from '../../src/api/index.js';
import { loadTranslations } from '../../src/bot/kit/i18n.js';
import { loadConfig } from '../../src/config.js';
import { type BotServer, startBotServer } from '../../src/http-server.js';
import { createLogger, type Logger } from '../../src/logger.js';
import type { MembershipCheck } from '../../src/mini-app/access.js';
import { CONTRACT, refusalSchema } from '../../src/mini-app/contract.js';
import type { MiniAppServices } from '../../src/mini-app/endpoint-types.js';
import { type MiniAppRoutesDeps, miniAppRoutes } from '../../src/mini-app/index.js';
import type { InvoiceCardPort } from '../../src/services/invoice-cards.js';
import { createOrderPlacing } from '../../src/services/order-placing.js';
import { createSavedCustomers } from '../../src/services/saved-customers.js';
import { createZoneEditing } from '../../src/services/zone-editing.js';
import type { ChatData } from '../../src/storage/chat-data.js';

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

/**
 * Holds an answer of the Mini App's API to the contract, strictly: a 200 to its endpoint's answer
 * schema, a refusal to the refusal schema. A field added, renamed or left out on either side
 * throws here, naming the path. `url` is the address asked (its path ends in `api/<endpoint>`).
 */
export function expectContractAnswer(url: URL, status: number, json: unknown): void {
  const name = /\/api\/(.+)$/.exec(url.pathname)?.[1] ?? '';
  const spec = Object.hasOwn(CONTRACT, name) ? CONTRACT[name as keyof typeof CONTRACT] : undefined;
  if (status === 200 && spec === undefined)
    throw new Error(`a 200 from api/${name}, which the contract lacks`);
  const checked = (status === 200 && spec ? spec.answer : refusalSchema).safeParse(json);
  if (!checked.success)
    throw new Error(`api/${name} answered ${status} off the contract: ${checked.error.message}`);
}

/**
 * A caller of `api/…` below `base()`: a GET, or a POST of `body`, with `headers` besides the
 * launch data (an `X-Account`); every answer's text goes to `bodies`.
 */
export function apiCaller(base: () => string, bodies: string[]) {
  return async (path: string, auth: string, body?: unknown, headers: Record<string, string> = {}) => {
    const url = new URL(path, base());
    const response = await fetch(url, {
      headers: {
        authorization: `tma ${auth}`,
        ...headers,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) }),
    });
    const text = await response.text();
    bodies.push(text);
    const json: unknown = JSON.parse(text);
    expectContractAnswer(url, response.status, json);
    return { status: response.status, json: json as Record<string, unknown> };
  };
}

/** A share port for tests that do not share: a call fails the test. */
export const unusedInvoiceCards: InvoiceCardPort = {
  prepare: async () => {
    throw new Error('the invoice card port was not expected to be called');
  },
};

/** The services the endpoints are handed, with nothing recorded or reported unless a test says. */
export function quietServices(
  chatData: ChatData,
  logger: Logger,
  more: Partial<MiniAppServices> = {},
): MiniAppServices {
  return {
    zoneEditing: createZoneEditing({
      recorder: { record: async () => undefined, list: async () => [] },
      reports: undefined,
      logger,
    }),
    customers: createSavedCustomers(chatData),
    orderPlacing: createOrderPlacing({ chatData, watches: undefined, report: undefined, logger }),
    invoiceCards: unusedInvoiceCards,
    dnsHistory: { list: async () => [] },
    ...more,
  };
}

/**
 * The Mini App's routes as main mounts them (`MINI_APP_URL` https://bot.example.by/app/), in the
 * bot's HTTP server on 127.0.0.1, over `chatData` and the given provider; every log line goes to
 * `lines`. Resolves with the server and the app's address on it.
 */
export async function startMiniAppApi(options: {
  botToken: string;
  partnerApiUrl: string;
  chatData: ChatData;
  apiFor: (token: string) => PartnerApi;
  lines: string[];
  services?: (logger: Logger) => Partial<MiniAppServices>;
  /** Who is still in a group (default everyone). */
  isGroupMember?: MembershipCheck;
  /** The app's files to serve (default the built app, `dist/app`). */
  appDir?: string;
  /** Clocks and the document opener of statement files, when a test moves or watches them. */
  more?: Pick<MiniAppRoutesDeps, 'clock' | 'now' | 'openDocument'>;
}): Promise<{ server: BotServer; base: string }> {
  const logger = createLogger({
    level: 'trace',
    destination: { write: (line: string) => void options.lines.push(line) },
  });
  const server = await startBotServer({
    port: 0,
    host: '127.0.0.1',
    logger,
    health: () => ({}),
    onUpdate: () => undefined,
    routes: miniAppRoutes({
      config: loadConfig({
        BOT_TOKEN: options.botToken,
        PARTNER_API_URL: options.partnerApiUrl,
        MINI_APP_URL: 'https://bot.example.by/app/',
        DEFAULT_LOCALE: 'en',
      }),
      chatData: options.chatData,
      apiFor: options.apiFor,
      services: quietServices(options.chatData, logger, options.services?.(logger)),
      translate: loadTranslations().t,
      logger,
      isGroupMember: options.isGroupMember ?? (async () => true),
      ...(options.appDir === undefined ? {} : { appDir: options.appDir }),
      ...options.more,
    }),
  });
  return { server, base: `http://127.0.0.1:${server.port}/app/` };
}
