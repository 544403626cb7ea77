/**
 * The record of the API requests the sandbox received (control calls excluded), as tests read it
 * (`sandbox.requests`, `GET /__sandbox/requests`).
 */

import { TOKEN_HEADERS } from './http-io.js';

export interface RecordedRequest {
  /**
   * The number of the partner whose token the request carried (1 = the first, 2 = `partners[0]`…),
   * absent when it carried none of them. The token itself is only in the raw `headers`.
   */
  partner?: number;
  method: string;
  /** Without the query. */
  path: string;
  query: Record<string, string>;
  /** Lower-cased names. */
  headers: Record<string, string | undefined>;
  /** Parsed JSON, or the raw string when not JSON, or undefined when there was no body. */
  body: unknown;
}

/** Recorded headers with the token values masked, for the HTTP control endpoint. */
export function redacted(recorded: RecordedRequest, isToken: (value: string) => boolean): RecordedRequest {
  const headers = { ...recorded.headers };
  for (const name of TOKEN_HEADERS) {
    const value = headers[name];
    if (value !== undefined) headers[name] = isToken(value) ? '[valid token]' : '[redacted]';
  }
  return { ...recorded, headers };
}
