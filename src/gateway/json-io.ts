/*
 * The JSON bodies of the ACME protocols (httpreq, acme-dns): small, read with a limit whatever
 * the content type says (clients differ in what they send), and answered as JSON. A body is never
 * logged: it carries the challenge value, and acme-dns clients put nothing secret there, but a
 * confused client might.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A challenge's body is a name and a 43-character value: 4 KiB is plenty. */
export const JSON_BODY_LIMIT = 4096;

/** The body as JSON, or undefined when it is not JSON or longer than `limit`. */
export async function readJson(req: IncomingMessage, limit = JSON_BODY_LIMIT): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    // Past the limit the rest is read and dropped (bounded), so the client still reads the answer.
    if (size > 64 * limit) break;
    if (size <= limit) chunks.push(chunk);
  }
  if (size > limit) return undefined;
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** The string fields of a JSON object; undefined for anything else or a field that is not a string. */
export function stringFields<K extends string>(
  value: unknown,
  keys: readonly K[],
): Record<K, string> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const fields = {} as Record<K, string>;
  for (const key of keys) {
    const field = (value as Record<string, unknown>)[key];
    if (typeof field !== 'string') return undefined;
    fields[key] = field;
  }
  return fields;
}

/** Answers `status` with `body` as JSON; no caching anywhere on the way. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(JSON.stringify(body));
}
