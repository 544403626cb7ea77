/**
 * The sandbox: a local stand-in for the provider's partner REST API (see partner-api.md),
 * with seeded data, fault injection and a record of every request it received.
 */

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, forbidden, messages } from './api-errors.js';
import {
  type CreatedInvoice,
  completeOrder,
  controlId,
  createInvoice,
  openItems,
  type PaidInvoice,
  payInvoice,
  sandboxNow,
  setClock,
} from './control.js';
import { createControlRoutes } from './control-routes.js';
import { formatDateTime } from './dates.js';
import { type SandboxDns, startSandboxDns } from './dns-server.js';
import { applyFault, FaultBook, type FaultRule } from './faults.js';
import {
  headerValues,
  hostForUrl,
  parseMaybeJson,
  readBody,
  sendEmpty,
  sendError,
  sendJson,
  sendRaw,
} from './http-io.js';
import { renderLink } from './links.js';
import { createPartnerWorlds, type PartnerOptions } from './partners.js';
import type { RecordedRequest } from './request-log.js';
import { matchRoute } from './router.js';
import type { SandboxState } from './state.js';

export type { CreatedInvoice, PaidInvoice } from './control.js';
export { ControlError } from './control.js';
export type { DnsQueryLog, SandboxDns } from './dns-server.js';
export type { Fault, FaultRule } from './faults.js';
export type { PartnerOptions } from './partners.js';
export type { RecordedRequest } from './request-log.js';

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
  /**
   * More partners on the same sandbox, each with its own token and its own world (orders,
   * invoices, payments, statements, DNS): partner 2 is `partners[0]`, partner 3 `partners[1]`…
   * (the first partner, number 1, is `token`/`state`). Their seed ids and domains differ from every
   * other partner's (see SECOND_PARTNER in seed.ts). Default: none.
   */
  partners?: PartnerOptions[];
  /**
   * Called with each partner's data (and its number, 1 = the first) after every request that may
   * have changed it (any method but GET).
   */
  onChange?: (state: SandboxState, partner: number) => void;
  /**
   * Also answer DNS (UDP and TCP) as the authoritative server of the domain orders' zones, on this
   * port (0 = a free one) and host (default the API's); absent = no DNS server.
   */
  dns?: { port?: number; host?: string };
}

/** One partner of the sandbox: its token, and the control calls acting on its world. */
export interface SandboxPartner {
  /** 1 = the first (`token`), 2 = `partners[0]`, … */
  n: number;
  token: string;
  /** The requests made with its token (a filter of `Sandbox.requests`). */
  requests(): RecordedRequest[];
  payInvoice(invoiceId: number): PaidInvoice;
  completeOrder(orderId: number): void;
  createInvoice(orderId: number): CreatedInvoice;
  openItems(): ReturnType<typeof openItems>;
}

export interface Sandbox {
  /** The API base URL, e.g. `http://127.0.0.1:40123` (paths start with `/v1/`). */
  url: string;
  /** The first partner's token. */
  token: string;
  /** Every partner, the first one first (`partners[0].token === token`). */
  partners: SandboxPartner[];
  /** Partner number `n` (1 = the first); throws for a number the sandbox does not have. */
  partner(n: number): SandboxPartner;
  /** Every request received, in order (control endpoints excluded); `partner` says whose token. */
  requests: RecordedRequest[];
  addFault(rule: FaultRule): void;
  clearFaults(): void;
  /**
   * Control calls (also over HTTP under `/__sandbox/`, no token), on the first partner's world
   * (`partner(n)` has them for the others). Each throws a ControlError (status 400, 404 or 409 and
   * an English message) when it cannot be done.
   * Pays what is left of an unpaid invoice today: a payment appears, the invoice becomes `Paid`.
   */
  payInvoice(invoiceId: number): PaidInvoice;
  /** The order becomes `Active`, completed today, expiring one period later. */
  completeOrder(orderId: number): void;
  /** A new `WaitingForPayment` invoice for the order, as a renewal makes it. */
  createInvoice(orderId: number): CreatedInvoice;
  /**
   * Moves the sandbox's now to `DD.MM.YYYY HH:MM` (Minsk time); it keeps running from there. One
   * clock for every partner.
   */
  setClock(now: string): void;
  /** The sandbox's now, `DD.MM.YYYY HH:MM` in Minsk time. */
  now(): string;
  /** The same now, to the millisecond (the playground's messages are dated by it). */
  instant(): Date;
  /** What the control calls can act on now in the first partner's world (unpaid invoices, orders to complete or renew). */
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
  const partnerWorlds = createPartnerWorlds(options, options.partners);
  const { worlds, first, worldOf, syncClock, ownedByAnother } = partnerWorlds;
  const token = first.token;
  const state = first.state;
  const faults = new FaultBook();
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let linkBase = '';
  const handleControlCall = createControlRoutes({
    partners: partnerWorlds,
    faults,
    requests,
    linkBase: () => linkBase,
  });

  /** Keeps every partner's data (after a change; the clock is everyone's). */
  const changed = (): void => {
    for (const world of worlds) options.onChange?.(world.state, world.n);
  };

  function handleShortLink(method: string, path: string, res: ServerResponse): void {
    const code = path.slice('/s/'.length);
    // Ids are disjoint between partners, so the first world that knows the code renders it.
    const html =
      method === 'GET'
        ? worlds.map((world) => renderLink(code, world.state)).find((page) => page !== undefined)
        : undefined;
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
      const world = worldOf(req);
      if (!world) throw new ApiError(401, messages.unauthorized);
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
      if (ownedByAnother(world, match.route.pattern, match.params)) throw forbidden();
      const answer = match.route.handler({
        state: world.state,
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
    if (onChange && method !== 'GET') res.once('close', changed);
    if (bodyText === undefined) {
      sendJson(res, 413, { message: 'Слишком большой запрос' });
      return;
    }
    if (path.startsWith('/__sandbox/')) {
      handleControlCall(method, path, url.searchParams, bodyText, req, res);
      return;
    }
    const headers: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    const world = worldOf(req);
    requests.push({
      ...(world ? { partner: world.n } : {}),
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
    const fault = faults.take(method, path, world?.n);
    if (fault) applyFault(fault, req, res, proceed, timers);
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
    ? await startSandboxDns(partnerWorlds.dnsView, {
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
    changed();
    return result;
  };

  const partners: SandboxPartner[] = worlds.map((world) => ({
    n: world.n,
    token: world.token,
    requests: () => requests.filter((r) => r.partner === world.n),
    payInvoice: (invoiceId) =>
      changing(() => payInvoice(world.state, controlId(invoiceId, 'invoice id'), sandboxNow(state))),
    completeOrder: (orderId) => {
      changing(() => completeOrder(world.state, controlId(orderId, 'order id'), sandboxNow(state)));
    },
    createInvoice: (orderId) =>
      changing(() => createInvoice(world.state, controlId(orderId, 'order_id'), sandboxNow(state), linkBase)),
    openItems: () => openItems(world.state),
  }));
  const firstPartner = partners[0] as SandboxPartner;

  let closing: Promise<void> | undefined;
  return {
    url,
    token,
    partners,
    partner: (n) => {
      const found = partners.find((p) => p.n === n);
      if (!found) throw new Error(`the sandbox has no partner ${n} (it has 1–${partners.length})`);
      return found;
    },
    requests,
    addFault: (rule) => faults.add(rule),
    clearFaults: () => faults.clear(),
    payInvoice: firstPartner.payInvoice,
    completeOrder: firstPartner.completeOrder,
    createInvoice: firstPartner.createInvoice,
    setClock: (now) => {
      changing(() => {
        setClock(state, now);
        syncClock();
      });
    },
    now: () => formatDateTime(sandboxNow(state)),
    instant: () => sandboxNow(state),
    openItems: firstPartner.openItems,
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
