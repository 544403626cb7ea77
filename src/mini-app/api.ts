/*
 * The Mini App's server: everything under its path (`/app/` of MINI_APP_URL). `api/…` is the JSON
 * API — each call checked in this order: JSON only for a body (415), the signed initData (401),
 * the account and the member's role (403), the body's size (413) and shape (400) — and every
 * other path a file of the built app. Refusals are `{error, message}`, the message in the user's
 * language. Nothing logged or answered carries the bot token, a partner token or the initData.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import { ApiError, ApiHttpError } from '../api/errors.js';
import { rolesAllowed } from '../core/team.js';
import type { Logger } from '../logger.js';
import { errorForLog } from '../logger.js';
import type { Locale } from '../storage/chat-store.js';
import {
  type AccessDeps,
  type AccessRefusal,
  accountsOf,
  askedAccount,
  mayDo,
  resolveAccess,
} from './access.js';
import {
  type AccountHeader,
  type AnswerOf,
  CONTRACT,
  type EndpointName,
  type ParsedRequestOf,
} from './contract.js';
import {
  type EndpointCall,
  EndpointError,
  type MiniAppPartnerApi,
  type MiniAppServices,
} from './endpoint-types.js';
import { ENDPOINTS } from './endpoints.js';
import { isJsonRequest, PAGE_CSP, readJsonBody, securityHeaders, sendJson } from './http-io.js';
import { checkInitData, type InitDataRefusal, initDataOfHeader } from './init-data.js';
import {
  createStatementFileLinks,
  createStatementFileRoute,
  type DocumentOpener,
} from './statement-files.js';
import { isAppBuilt, locateAppFile, sendAppFile, sendNotBuiltPage } from './static-files.js';

/** Translates a key in a language (main passes the bot's loaded translations). */
export type MiniAppTranslate = (locale: Locale, key: string, options?: Record<string, unknown>) => string;

export interface MiniAppServerDeps {
  /** The path the app is served under, with a trailing `/` (`/app/`). */
  basePath: string;
  /** The key initData is signed with. */
  botToken: string;
  /** How long after Telegram signed it initData is taken (MINI_APP_INIT_DATA_MAX_AGE_S). */
  maxAgeS: number;
  access: AccessDeps;
  apiFor: (token: string) => MiniAppPartnerApi;
  services: MiniAppServices;
  translate: MiniAppTranslate;
  defaultLocale: Locale;
  logger: Logger;
  /** The built app (dist/app); absent or empty = only the API answers. */
  appDir?: string | undefined;
  /** The largest JSON body taken, in bytes; default 16 KiB. */
  bodyLimit?: number;
  /** The app's address (MINI_APP_URL): statement files' addresses are below it. */
  appUrl?: string;
  /** Opens the provider's public documents (default: undici with a timeout). */
  openDocument?: DocumentOpener;
  /** The clock of statement files' addresses (tests move it). */
  now?: () => number;
  /** Today, for invoices' and domains' days (`npm run dev`: its sandbox's clock). */
  clock?: () => Date;
}

const STATUS_OF_ACCESS = {
  notAllowed: 403,
  noToken: 403,
  groupNotBound: 403,
  notMember: 403,
  roleTooLow: 403,
  accountUnknown: 403,
  badStartParam: 400,
} satisfies Record<AccessRefusal, number>;

/** The header a call names its account in, as Node reads it (lower-case). */
const ACCOUNT_HEADER: Lowercase<AccountHeader> = 'x-account';

const isLocale = (value: string | undefined): value is Locale => value === 'ru' || value === 'en';

/** The first of Telegram's language, the browser's, and the bot's default that the bot speaks. */
function localeOf(req: IncomingMessage, languageCode: string | undefined, fallback: Locale): Locale {
  const fromTelegram = languageCode?.toLowerCase().split('-')[0];
  if (isLocale(fromTelegram)) return fromTelegram;
  const fromBrowser = req.headers['accept-language']?.split(',')[0]?.trim().toLowerCase().split(/[-;]/)[0];
  return isLocale(fromBrowser) ? fromBrowser : fallback;
}

const isEndpointName = (name: string): name is EndpointName => Object.hasOwn(CONTRACT, name);

/** The contract's request schemas, each seen as the parser of its own endpoint's request. */
const REQUESTS: { [N in EndpointName]: { request: z.ZodType<ParsedRequestOf<N>> } } = CONTRACT;

/** Runs an endpoint on its request parsed by the contract; a request of another shape is `badJson`. */
async function runEndpoint<N extends EndpointName>(
  name: N,
  call: Omit<EndpointCall, 'input'>,
  raw: unknown,
): Promise<AnswerOf<N>> {
  const parsed = REQUESTS[name].request.safeParse(raw);
  if (!parsed.success) throw new EndpointError(400, 'badJson');
  return ENDPOINTS[name].run({ ...call, input: parsed.data });
}

/** Answers every request under the app's path; main mounts it as the app's routes. */
export function createMiniAppServer(deps: MiniAppServerDeps) {
  const apiPath = `${deps.basePath}api/`;
  const bodyLimit = deps.bodyLimit ?? 16 * 1024;
  const filesPath = `${deps.basePath}files/statement/`;
  const files = createStatementFileLinks({
    botToken: deps.botToken,
    appUrl: deps.appUrl ?? `https://mini-app.invalid${deps.basePath}`,
    ...(deps.openDocument === undefined ? {} : { open: deps.openDocument }),
    ...(deps.now === undefined ? {} : { now: deps.now }),
  });
  const answerStatementFile = createStatementFileRoute({
    links: files,
    access: deps.access,
    apiFor: deps.apiFor,
    translate: deps.translate,
    logger: deps.logger,
  });

  const refuse = (
    req: IncomingMessage,
    res: ServerResponse,
    locale: Locale,
    status: number,
    code: InitDataRefusal | AccessRefusal | string,
    vars: Record<string, string> = {},
    headers: Record<string, string> = {},
    extra: Record<string, unknown> = {},
  ) => {
    // A body not read is dropped, so that the client reads the answer rather than a reset.
    if (!req.readableEnded) req.resume();
    // Ids and codes only: never the initData, a token, or what the user typed.
    deps.logger.debug({ status, error: code }, 'mini app request refused');
    const message = deps.translate(locale, `miniapp:error.${code}`, vars);
    sendJson(res, status, { error: code, message, ...extra }, headers);
  };

  const answerApi = async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    const name = url.pathname.slice(apiPath.length);
    let locale = localeOf(req, undefined, deps.defaultLocale);
    if (!isEndpointName(name)) return refuse(req, res, locale, 404, 'notFound');
    const { method } = CONTRACT[name];
    const endpoint = ENDPOINTS[name];
    if (method !== req.method) return refuse(req, res, locale, 405, 'notFound', {}, { allow: method });
    if (req.method === 'POST' && !isJsonRequest(req)) return refuse(req, res, locale, 415, 'notJson');

    const checked = checkInitData(initDataOfHeader(req.headers.authorization), deps.botToken, {
      maxAgeS: deps.maxAgeS,
    });
    if (!checked.ok) return refuse(req, res, locale, 401, checked.reason, {}, { 'www-authenticate': 'tma' });
    const launch = checked.launch;
    locale = localeOf(req, launch.user.languageCode, deps.defaultLocale);

    // The account the call names (the app's switcher), else the chat's active one.
    const access = await resolveAccess(deps.access, launch, askedAccount(req.headers[ACCOUNT_HEADER]));
    if (!access.ok) return refuse(req, res, locale, STATUS_OF_ACCESS[access.reason], access.reason);
    const account = access.account;
    if (!mayDo(account, endpoint.need)) {
      const roles = rolesAllowed(endpoint.need)
        .map((role) => deps.translate(locale, `team:role.${role}`))
        .join(', ');
      const role = deps.translate(locale, `team:role.${account.role}`);
      return refuse(req, res, locale, 403, 'roleTooLow', { roles, role });
    }

    // A GET's request is its query; a POST's, its JSON body.
    let request: unknown = Object.fromEntries(url.searchParams);
    if (req.method === 'POST') {
      const read = await readJsonBody(req, bodyLimit);
      if (!read.ok) {
        const status = { notJson: 415, tooLarge: 413, badJson: 400 }[read.reason];
        return refuse(
          req,
          res,
          locale,
          status,
          read.reason,
          {},
          status === 413 ? { connection: 'close' } : {},
        );
      }
      request = read.value;
    }

    try {
      const answer = await runEndpoint(
        name,
        {
          launch,
          account,
          api: deps.apiFor(account.token),
          t: (key, options) => deps.translate(locale, key, options),
          locale,
          services: deps.services,
          files,
          clock: deps.clock ?? (() => new Date()),
          listAccounts: () => accountsOf(deps.access, account),
        },
        request,
      );
      sendJson(res, 200, answer);
    } catch (error) {
      if (error instanceof EndpointError)
        return refuse(req, res, locale, error.status, error.code, error.vars, {}, error.extra);
      if (error instanceof ApiHttpError && error.isTokenRejected)
        return refuse(req, res, locale, 403, 'tokenRejected');
      if (error instanceof ApiError) {
        deps.logger.warn(
          { err: errorForLog(error), chatId: account.chatId },
          'mini app: provider call failed',
        );
        return refuse(req, res, locale, 502, 'providerUnavailable');
      }
      deps.logger.error({ err: errorForLog(error), chatId: account.chatId }, 'mini app: endpoint failed');
      return refuse(req, res, locale, 500, 'internal');
    }
  };

  const answerFile = async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    const relative = url.pathname.slice(deps.basePath.length);
    const file = deps.appDir === undefined ? undefined : await locateAppFile(deps.appDir, relative);
    if (file !== undefined && (await sendAppFile(res, file))) return;
    const locale = localeOf(req, undefined, deps.defaultLocale);
    if (!(await isAppBuilt(deps.appDir))) {
      const say = (key: string) => deps.translate(locale, `miniapp:error.${key}`);
      return sendNotBuiltPage(res, locale, say('notBuiltTitle'), say('notBuilt'));
    }
    const text = deps.translate(locale, 'miniapp:error.notFound');
    res
      .writeHead(404, { ...securityHeaders(PAGE_CSP), 'content-type': 'text/plain; charset=utf-8' })
      .end(`${text}\n`);
  };

  return {
    /** Answers a request whose path starts with `basePath`. */
    async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
      const url = new URL(req.url ?? '/', 'http://mini-app.invalid');
      if (url.pathname.startsWith(apiPath)) return answerApi(req, res, url);
      // A statement file: its signed address is its only credential (Telegram's client fetches it).
      if (url.pathname.startsWith(filesPath) && req.method === 'GET') {
        const locale = localeOf(req, undefined, deps.defaultLocale);
        return answerStatementFile(req, res, url.pathname.slice(filesPath.length), locale);
      }
      if (req.method !== 'GET') {
        req.resume();
        res.writeHead(405, { ...securityHeaders(PAGE_CSP), allow: 'GET' }).end();
        return;
      }
      return answerFile(req, res, url);
    },
  };
}
