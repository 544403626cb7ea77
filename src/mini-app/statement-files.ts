/*
 * Statement files for the app's `downloadFile`: Telegram's client fetches the address itself,
 * with no initData, so the address is the credential — `<app path>files/statement/<token>`, the
 * token an HMAC-signed claim (chat, account, statement, user, file name, expiry: 5 minutes). The
 * key is derived from the bot token (as initData's is), never the token itself. A forged or
 * tampered token is refused 403, an expired one 410, each with a short page in words. A good one
 * is checked again against the account (the user may still see its billing; the statement is
 * still the account's), then the provider's public document is fetched here (undici, a timeout)
 * and streamed with its content type and `Content-Disposition: attachment`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { request } from 'undici';
import type { PartnerApi } from '../api/index.js';
import type { WordsOf } from '../core/dns-words.js';
import { can } from '../core/team.js';
import type { Logger } from '../logger.js';
import { errorForLog } from '../logger.js';
import type { Locale } from '../storage/chat-store.js';
import type { AccessDeps } from './access.js';
import { PAGE_CSP, securityHeaders } from './http-io.js';

/** How long a file's address works. */
export const STATEMENT_FILE_TTL_MS = 5 * 60_000;
/** How long the provider's document server is waited for. */
const DOCUMENT_TIMEOUT_MS = 15_000;

/** What an address allows: one statement of one account, for one user, until `expiresAt` (ms). */
export interface StatementFileClaim {
  chatId: number;
  n: number;
  statementId: number;
  userId: number;
  fileName: string;
}

/** A document of the provider, opened: its status, content type and body. */
export interface OpenedDocument {
  status: number;
  contentType: string | undefined;
  body: Readable;
}

/** Opens a public document (main: undici with a timeout; tests may hand another). */
export type DocumentOpener = (url: string) => Promise<OpenedDocument>;

/** The provider's document over undici, bounded by a timeout; only http(s) addresses. */
export const openDocument: DocumentOpener = async (url) => {
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error('not an http(s) document');
  const response = await request(parsed, {
    method: 'GET',
    headersTimeout: DOCUMENT_TIMEOUT_MS,
    bodyTimeout: DOCUMENT_TIMEOUT_MS,
  });
  const type = response.headers['content-type'];
  return {
    status: response.statusCode,
    contentType: Array.isArray(type) ? type[0] : type,
    body: response.body,
  };
};

/** A file's extension from its content type: html, pdf, else bin. */
export function extensionOf(contentType: string | undefined): string {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type === 'application/pdf') return 'pdf';
  return 'bin';
}

/** `Акт-сверки-<number>.<ext>` in the user's words; the number kept to letters, digits and dashes. */
export function statementFileName(t: WordsOf, number: string, contentType: string | undefined): string {
  const safe = number.replace(/[^\p{L}\p{N}_-]+/gu, '-').replace(/^-+|-+$/g, '') || 'statement';
  return `${t('miniapp:money.statementFile', { number: safe })}.${extensionOf(contentType)}`;
}

/** Drops a body not read; the abort it reports (undici's) is expected, not a failure. */
const discard = (body: Readable) => body.once('error', () => undefined).destroy();

const b64 = (data: Buffer | string) => Buffer.from(data).toString('base64url');

/** The signing key: derived from the bot token for this one use (as initData's is). */
const keyOf = (botToken: string) => createHmac('sha256', 'StatementFile').update(botToken).digest();

/** Why an address is refused: not signed by this bot (403), or past its time (410). */
export type FileRefusal = 'forged' | 'expired';

/** Signing and reading the addresses; what the endpoint hands the app. */
export function createStatementFileLinks(options: {
  botToken: string;
  /** The app's address (MINI_APP_URL, with its trailing `/`). */
  appUrl: string;
  ttlMs?: number;
  now?: () => number;
  open?: DocumentOpener;
}) {
  const key = keyOf(options.botToken);
  const now = options.now ?? Date.now;
  const ttl = options.ttlMs ?? STATEMENT_FILE_TTL_MS;
  const open = options.open ?? openDocument;
  const mac = (payload: string) => createHmac('sha256', key).update(payload).digest();
  return {
    /** A signed address for the claim, and until when it works. */
    link(claim: StatementFileClaim): { url: string; expiresAt: Date } {
      const expiresAt = now() + ttl;
      const payload = b64(
        JSON.stringify({
          c: claim.chatId,
          n: claim.n,
          s: claim.statementId,
          u: claim.userId,
          f: claim.fileName,
          e: expiresAt,
        }),
      );
      const token = `${payload}.${b64(mac(payload))}`;
      return {
        url: new URL(`files/statement/${token}`, options.appUrl).href,
        expiresAt: new Date(expiresAt),
      };
    },
    /** The claim an address's token carries, or why it is refused. */
    read(token: string): { ok: true; claim: StatementFileClaim } | { ok: false; reason: FileRefusal } {
      const [payload, signature, extra] = token.split('.');
      if (payload === undefined || signature === undefined || extra !== undefined)
        return { ok: false, reason: 'forged' };
      const given = Buffer.from(signature, 'base64url');
      const wanted = mac(payload);
      if (given.length !== wanted.length || !timingSafeEqual(given, wanted))
        return { ok: false, reason: 'forged' };
      let fields: Record<string, unknown>;
      try {
        fields = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
      } catch {
        return { ok: false, reason: 'forged' };
      }
      const { c, n, s, u, f, e } = fields;
      if (
        typeof c !== 'number' ||
        typeof n !== 'number' ||
        typeof s !== 'number' ||
        typeof u !== 'number' ||
        typeof f !== 'string' ||
        typeof e !== 'number'
      )
        return { ok: false, reason: 'forged' };
      if (e <= now()) return { ok: false, reason: 'expired' };
      return { ok: true, claim: { chatId: c, n, statementId: s, userId: u, fileName: f } };
    },
    /** The content type the document at `url` is served with (its body is not read). */
    async contentTypeOf(url: string): Promise<string | undefined> {
      const opened = await open(url);
      discard(opened.body);
      return opened.contentType;
    },
    fileName: statementFileName,
    open,
  };
}

export type StatementFileLinks = ReturnType<typeof createStatementFileLinks>;

const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"]/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[char] ?? char,
  );

/** A short page in words for a refused address (never cached). */
function sendFilePage(res: ServerResponse, status: number, lang: Locale, title: string, text: string) {
  const page = `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title></head>
<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></main></body></html>
`;
  res
    .writeHead(status, {
      ...securityHeaders(PAGE_CSP),
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
    })
    .end(page);
}

/** Serves `GET <app path>files/statement/<token>`. */
export function createStatementFileRoute(deps: {
  links: StatementFileLinks;
  access: AccessDeps;
  apiFor: (token: string) => PartnerApi;
  translate: (locale: Locale, key: string, options?: Record<string, unknown>) => string;
  logger: Logger;
}) {
  return async (req: IncomingMessage, res: ServerResponse, token: string, locale: Locale): Promise<void> => {
    req.resume();
    const page = (status: number, key: string) =>
      sendFilePage(
        res,
        status,
        locale,
        deps.translate(locale, `miniapp:error.${key}Title`),
        deps.translate(locale, `miniapp:error.${key}`),
      );
    const read = deps.links.read(token);
    if (!read.ok) {
      deps.logger.debug({ reason: read.reason }, 'statement file address refused');
      return read.reason === 'expired' ? page(410, 'fileExpired') : page(403, 'fileForged');
    }
    const { claim } = read;
    // The user may still see the account's billing: their own chat, or a group's billing role.
    if (claim.chatId > 0 ? claim.chatId !== claim.userId : !(await mayBill(deps.access, claim))) {
      return page(403, 'fileForged');
    }
    const account = await deps.access.chatData.getAccount(claim.chatId, claim.n);
    if (account === undefined) return page(404, 'fileGone');
    try {
      const api = deps.apiFor(account.token);
      const statements = await api.listStatements({ statement_id: claim.statementId });
      if (!statements.some((statement) => statement.statement_id === claim.statementId))
        return page(404, 'fileGone');
      const document = await deps.links.open(await api.getStatementUrl(claim.statementId));
      if (document.status !== 200) {
        discard(document.body);
        return page(502, 'fileGone');
      }
      res.writeHead(200, {
        ...securityHeaders("default-src 'none'; sandbox"),
        'content-type': document.contentType ?? 'application/octet-stream',
        'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(claim.fileName)}`,
        'cache-control': 'private, no-store',
      });
      await pipeline(document.body, res);
    } catch (error) {
      deps.logger.warn({ err: errorForLog(error), chatId: claim.chatId }, 'statement file not served');
      if (!res.headersSent) page(502, 'fileGone');
      else res.destroy();
    }
  };
}

/** Whether the claim's user still holds a billing role in the claim's group. */
async function mayBill(access: AccessDeps, claim: StatementFileClaim): Promise<boolean> {
  const team = await access.chatData.getTeam(claim.chatId);
  if (team === undefined) return false;
  const role = claim.userId === team.owner ? 'owner' : team.members[String(claim.userId)];
  if (role === undefined || !can(role, 'billing')) return false;
  return access.isGroupMember === undefined || (await access.isGroupMember(claim.chatId, claim.userId));
}
