/*
 * The Mini App's HTTP basics: the headers every answer carries, JSON answers, and reading a JSON
 * body within a limit. The app's pages may load only their own files (no inline script, nothing
 * from elsewhere); the API's answers are data and may load nothing at all.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The app's pages: own scripts, styles, images and API only; no inline scripts, no plugins. */
export const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "object-src 'none'; base-uri 'none'; form-action 'self'";

/** The API's answers: JSON that nothing renders as a page. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";

/** The headers of every Mini App answer, pages and API alike. */
export function securityHeaders(csp: string): Record<string, string> {
  return {
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  };
}

/** Answers JSON with the API's headers; never cached (it is one user's data). */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const text = JSON.stringify(body);
  res
    .writeHead(status, {
      ...securityHeaders(API_CSP),
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(text)),
      'cache-control': 'no-store',
      ...headers,
    })
    .end(text);
}

/** Why a body was not taken: not JSON (415), too large (413), or not parseable (400). */
export type BodyRefusal = 'notJson' | 'tooLarge' | 'badJson';

export type BodyRead = { ok: true; value: unknown } | { ok: false; reason: BodyRefusal };

/** How much of an oversized body is read and dropped so that the client can read the 413. */
const DRAIN_BYTES = 1024 * 1024;

/** Whether the request says its body is JSON (`application/json`, any parameters). */
export function isJsonRequest(req: IncomingMessage): boolean {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  return type === 'application/json';
}

/**
 * Reads a JSON body of at most `limit` bytes. An oversized body is still read (and dropped) up to
 * DRAIN_BYTES, so that a client that sends before it reads sees the 413, not a reset connection;
 * a body beyond that is cut off with its connection (leaving the iteration destroys the request).
 */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<BodyRead> {
  if (!isJsonRequest(req)) {
    req.resume();
    return { ok: false, reason: 'notJson' };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = Number(req.headers['content-length']) > limit;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) tooLarge = true;
    if (size > DRAIN_BYTES) break;
    if (!tooLarge) chunks.push(chunk);
  }
  if (tooLarge) return { ok: false, reason: 'tooLarge' };
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown };
  } catch {
    return { ok: false, reason: 'badJson' };
  }
}
