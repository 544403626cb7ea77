/**
 * The sandbox: a local stand-in for the provider's partner REST API (see partner-api.md),
 * with seeded data, fault injection and a record of every request it received.
 */

import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, messages } from './api-errors.js';
import {
  ControlError,
  type CreatedInvoice,
  completeOrder,
  controlBody,
  controlId,
  createInvoice,
  openItems,
  type PaidInvoice,
  payInvoice,
  sandboxNow,
  setClock,
} from './control.js';
import { formatDateTime } from './dates.js';
import { type SandboxDns, startSandboxDns } from './dns-server.js';
import { type Fault, FaultBook, type FaultRule, parseFaultRule } from './faults.js';
import {
  digest,
  headerValues,
  hostForUrl,
  isLoopback,
  JSON_TYPE,
  parseMaybeJson,
  readBody,
  sendEmpty,
  sendError,
  sendJson,
  sendRaw,
  TOKEN_HEADERS,
} from './http-io.js';
import { renderLink } from './links.js';
import { matchRoute } from './router.js';
import { createSeed } from './seed.js';
import type { SandboxState } from './state.js';

export type { CreatedInvoice, PaidInvoice } from './control.js';
export { ControlError } from './control.js';
export type { DnsQueryLog, SandboxDns } from './dns-server.js';
export type { Fault, FaultRule } from './faults.js';

export interface SandboxOptions {
  /** Default 0 (a free port). */
  port?: number;
  /** Default `127.0.0.1`. */
  host?: string;
  /** Default: a random token. */
  token?: string;
  /** Base of short links; default the sandbox's own URL. */
  linkBase?: string;
  /** The data to start from (a kept snapshot); default fresh seed data. */
  state?: SandboxState;
  /** Called with the data after every request that may have changed it (any method but GET). */
  onChange?: (state: SandboxState) => void;
  /**
   * Also answer DNS (UDP and TCP) as the authoritative server of the domain orders' zones, on this
   * port (0 = a free one) and host (default the API's); absent = no DNS server.
   */
  dns?: { port?: number; host?: string };
}

export interface RecordedRequest {
  method: string;
  /** Without the query. */
  path: string;
  query: Record<string, string>;
  /** Lower-cased names. */
  headers: Record<string, string | undefined>;
  /** Parsed JSON, or the raw string when not JSON, or undefined when there was no body. */
  body: unknown;
}

export interface Sandbox {
  /** The API base URL, e.g. `http://127.0.0.1:40123` (paths start with `/v1/`). */
  url: string;
  token: string;
  /** Every request received, in order (control endpoints excluded). */
  requests: RecordedRequest[];
  addFault(rule: FaultRule): void;
  clearFaults(): void;
  /**
   * Control calls (also over HTTP under `/__sandbox/`, no token). Each throws a ControlError
   * (status 400, 404 or 409 and an English message) when it cannot be done.
   * Pays what is left of an unpaid invoice today: a payment appears, the invoice becomes `Paid`.
   */
  payInvoice(invoiceId: number): PaidInvoice;
  /** The order becomes `Active`, completed today, expiring one period later. */
  completeOrder(orderId: number): void;
  /** A new `WaitingForPayment` invoice for the order, as a renewal makes it. */
  createInvoice(orderId: number): CreatedInvoice;
  /** Moves the sandbox's now to `DD.MM.YYYY HH:MM` (Minsk time); it keeps running from there. */
  setClock(now: string): void;
  /** The sandbox's now, `DD.MM.YYYY HH:MM` in Minsk time. */
  now(): string;
  /** The same now, to the millisecond (the playground's messages are dated by it). */
  instant(): Date;
  /** What the control calls can act on now (unpaid invoices, orders to complete or renew). */
  openItems(): ReturnType<typeof openItems>;
  /** The DNS server, when `options.dns` asked for one. */
  dns?: SandboxDns;
  /** Stops the server (and the DNS server) and ends every connection, hanging and keep-alive ones included. */
  close(): Promise<void>;
}

/** The port of the sandbox's DNS server under `npm run sandbox` and `npm run dev`. */
export const SANDBOX_DNS_PORT = 8753;

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const host = options.host ?? '127.0.0.1';
  const token = options.token ?? randomBytes(24).toString('base64url');
  const tokenDigest = digest(token);
  const state: SandboxState = options.state ?? createSeed();
  const faults = new FaultBook();
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let linkBase = '';

  const isToken = (value: string): boolean => timingSafeEqual(digest(value), tokenDigest);
  const authorized = (req: IncomingMessage): boolean =>
    TOKEN_HEADERS.some((name) => headerValues(req, name).some(isToken));

  /** Recorded headers with the token values masked, for the HTTP control endpoint. */
  const redacted = (recorded: RecordedRequest): RecordedRequest => {
    const headers = { ...recorded.headers };
    for (const name of TOKEN_HEADERS) {
      const value = headers[name];
      if (value !== undefined) headers[name] = isToken(value) ? '[valid token]' : '[redacted]';
    }
    return { ...recorded, headers };
  };

  function applyFault(fault: Fault, req: IncomingMessage, res: ServerResponse, proceed: () => void): void {
    switch (fault.kind) {
      case 'status': {
        const body = fault.body ?? '';
        if (body === '') sendEmpty(res, fault.status);
        else {
          const json = parseMaybeJson(body) !== body;
          sendRaw(res, fault.status, body, json ? JSON_TYPE : 'text/plain; charset=utf-8');
        }
        return;
      }
      case 'hang':
        // Never answer; close() (or the client giving up) ends the connection.
        return;
      case 'delay': {
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!res.destroyed) proceed();
        }, fault.ms);
        timers.add(timer);
        return;
      }
      case 'malformed':
        sendRaw(res, fault.status ?? 200, fault.body, JSON_TYPE);
        return;
      case 'reset':
        req.socket.destroy();
        return;
      case 'drop':
        // The operation takes effect; only its answer is lost, as on a broken connection.
        res.end = (() => {
          req.socket.destroy();
          return res;
        }) as typeof res.end;
        proceed();
        return;
    }
  }

  /** A tokenless control call's answer, or undefined when the path is none of them. */
  function openControl(method: string, path: string, bodyText: string): (() => object) | undefined {
    const body = (field: string): unknown => {
      let parsed: unknown;
      try {
        parsed = bodyText.trim() === '' ? undefined : (JSON.parse(bodyText) as unknown);
      } catch {
        throw new ControlError(400, 'the body is not valid JSON');
      }
      return controlBody(parsed, field);
    };
    let match = /^\/__sandbox\/invoices\/([^/]*)\/pay$/.exec(path);
    if (match && method === 'POST') {
      const id = match[1] ?? '';
      return () => payInvoice(state, controlId(id, 'invoice id'), sandboxNow(state));
    }
    match = /^\/__sandbox\/orders\/([^/]*)\/complete$/.exec(path);
    if (match && method === 'POST') {
      const id = match[1] ?? '';
      return () => {
        const order = completeOrder(state, controlId(id, 'order id'), sandboxNow(state));
        return {
          order_id: order.order_id,
          state: order.state,
          complete_date: order.complete_date,
          expiration_date: order.expiration_date,
        };
      };
    }
    if (path === '/__sandbox/invoices' && method === 'POST') {
      return () => createInvoice(state, controlId(body('order_id'), 'order_id'), sandboxNow(state), linkBase);
    }
    if (path === '/__sandbox/clock' && method === 'POST') {
      return () => setClock(state, body('now'));
    }
    if (path === '/__sandbox/clock' && method === 'GET') {
      return () => ({ now: formatDateTime(sandboxNow(state)) });
    }
    return undefined;
  }

  function handleOpenControl(req: IncomingMessage, res: ServerResponse, run: () => object): void {
    if (!isLoopback(req.socket.remoteAddress)) {
      sendJson(res, 403, { message: 'sandbox control calls answer only to 127.0.0.1' });
      return;
    }
    try {
      sendJson(res, 200, run());
    } catch (error: unknown) {
      if (error instanceof ControlError) sendJson(res, error.status, { message: error.message });
      else {
        process.stderr.write(`sandbox: internal error on ${req.method} ${req.url}: ${String(error)}\n`);
        sendEmpty(res, 500);
      }
    }
  }

  function handleControl(
    method: string,
    path: string,
    bodyText: string,
    req: IncomingMessage,
    res: ServerResponse,
  ) {
    if (!authorized(req)) {
      sendJson(res, 401, { message: messages.unauthorized });
      return;
    }
    if (path === '/__sandbox/faults' && method === 'POST') {
      const rule = parseFaultRule(parseMaybeJson(bodyText));
      if (typeof rule === 'string') sendJson(res, 400, { message: rule });
      else {
        faults.add(rule);
        sendEmpty(res, 200);
      }
    } else if (path === '/__sandbox/faults' && method === 'DELETE') {
      faults.clear();
      sendEmpty(res, 200);
    } else if (path === '/__sandbox/requests' && method === 'GET') {
      sendJson(res, 200, { requests: requests.map(redacted) });
    } else if (path === '/__sandbox/requests' && method === 'DELETE') {
      requests.length = 0;
      sendEmpty(res, 200);
    } else {
      sendEmpty(res, 404);
    }
  }

  function handleShortLink(method: string, path: string, res: ServerResponse): void {
    const html = method === 'GET' ? renderLink(path.slice('/s/'.length), state) : undefined;
    if (html === undefined) {
      sendRaw(
        res,
        404,
        '<!doctype html><title>Не найдено</title><p>Ссылка не найдена</p>\n',
        'text/html; charset=utf-8',
      );
    } else {
      sendRaw(res, 200, html, 'text/html; charset=utf-8');
    }
  }

  function handleApi(
    method: string,
    path: string,
    query: URLSearchParams,
    bodyText: string,
    req: IncomingMessage,
    res: ServerResponse,
  ): void {
    const match = matchRoute(method, path);
    if (!match) {
      sendEmpty(res, 404);
      return;
    }
    try {
      if (!authorized(req)) throw new ApiError(401, messages.unauthorized);
      if (!query.get('version')) throw new ApiError(400, messages.versionMissing);
      let body: unknown;
      if (match.route.body && bodyText.trim() !== '') {
        const contentType = headerValues(req, 'content-type').join(',').toLowerCase();
        if (!contentType.includes('json')) throw new ApiError(400, messages.contentType);
        try {
          body = JSON.parse(bodyText) as unknown;
        } catch {
          throw new ApiError(400, messages.invalidJson);
        }
      }
      const answer = match.route.handler({
        state,
        params: match.params,
        query,
        body,
        linkBase,
        now: sandboxNow(state),
      });
      if (answer === undefined) sendEmpty(res, 200, true);
      else sendJson(res, 200, answer);
    } catch (error: unknown) {
      if (error instanceof ApiError) sendError(res, error);
      else {
        process.stderr.write(`sandbox: internal error on ${method} ${path}: ${String(error)}\n`);
        sendEmpty(res, 500);
      }
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    const path = url.pathname;
    const bodyText = await readBody(req);
    const { onChange } = options;
    if (onChange && method !== 'GET') res.once('close', () => onChange(state));
    if (bodyText === undefined) {
      sendJson(res, 413, { message: 'Слишком большой запрос' });
      return;
    }
    const open = path.startsWith('/__sandbox/') ? openControl(method, path, bodyText) : undefined;
    if (open) {
      handleOpenControl(req, res, open);
      return;
    }
    if (path.startsWith('/__sandbox/')) {
      handleControl(method, path, bodyText, req, res);
      return;
    }
    const headers: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    requests.push({
      method,
      path,
      query: Object.fromEntries(url.searchParams),
      headers,
      body: parseMaybeJson(bodyText),
    });

    const proceed = (): void => {
      if (path.startsWith('/s/')) handleShortLink(method, path, res);
      else handleApi(method, path, url.searchParams, bodyText, req, res);
    };
    const fault = faults.take(method, path);
    if (fault) applyFault(fault, req, res, proceed);
    else proceed();
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      process.stderr.write(`sandbox: failed to handle a request: ${String(error)}\n`);
      if (!res.headersSent && !res.destroyed) sendEmpty(res, 500);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const url = `http://${hostForUrl(host)}:${address.port}`;
  linkBase = (options.linkBase ?? url).replace(/\/+$/, '');

  const dns = options.dns
    ? await startSandboxDns(() => state, {
        port: options.dns.port ?? 0,
        host: options.dns.host ?? host,
      }).catch((error: unknown) => {
        server.close();
        throw error;
      })
    : undefined;

  /** Runs an in-process control call and keeps the change, as after an HTTP one. */
  const changing = <T>(run: () => T): T => {
    const result = run();
    options.onChange?.(state);
    return result;
  };

  let closing: Promise<void> | undefined;
  return {
    url,
    token,
    requests,
    addFault: (rule) => faults.add(rule),
    clearFaults: () => faults.clear(),
    payInvoice: (invoiceId) =>
      changing(() => payInvoice(state, controlId(invoiceId, 'invoice id'), sandboxNow(state))),
    completeOrder: (orderId) => {
      changing(() => completeOrder(state, controlId(orderId, 'order id'), sandboxNow(state)));
    },
    createInvoice: (orderId) =>
      changing(() => createInvoice(state, controlId(orderId, 'order_id'), sandboxNow(state), linkBase)),
    setClock: (now) => {
      changing(() => setClock(state, now));
    },
    now: () => formatDateTime(sandboxNow(state)),
    instant: () => sandboxNow(state),
    openItems: () => openItems(state),
    ...(dns ? { dns } : {}),
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        faults.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }).then(() => dns?.close());
      return closing;
    },
  };
}
