/** What an API operation handler gets, and what it answers. */

import type { SandboxState } from './state.js';

export interface RouteContext {
  state: SandboxState;
  /** Raw path parameters by name (`id`, `orderId`, `number`, `kind`). */
  params: Record<string, string>;
  query: URLSearchParams;
  /** Parsed JSON body, or undefined when the request had none. */
  body: unknown;
  /** Base of public short links, without a trailing slash. */
  linkBase: string;
  now: Date;
}

/** A JSON body for 200, or undefined for 200 with an empty body. Errors are thrown as ApiError. */
export type Handler = (ctx: RouteContext) => object | undefined;
