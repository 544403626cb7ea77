/**
 * The sandbox's control calls over HTTP, under `/__sandbox/`: the tokenless ones (pay an invoice,
 * complete an order, make a renewal invoice, the clock; from 127.0.0.1 only, `?partner=n`) and the
 * ones that take a partner's token (fault rules, the recorded requests).
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { messages } from './api-errors.js';
import {
  ControlError,
  completeOrder,
  controlBody,
  controlId,
  createInvoice,
  payInvoice,
  sandboxNow,
  setClock,
} from './control.js';
import { formatDateTime } from './dates.js';
import { type FaultBook, parseFaultRule } from './faults.js';
import { isLoopback, parseMaybeJson, sendEmpty, sendJson } from './http-io.js';
import type { PartnerWorlds } from './partners.js';
import { type RecordedRequest, redacted } from './request-log.js';

/** What the control calls act on: the server's partners, fault rules and request record. */
export interface ControlRoutesDeps {
  partners: PartnerWorlds;
  faults: FaultBook;
  requests: RecordedRequest[];
  /** The base of short links, known once the server listens. */
  linkBase(): string;
}

/** Answers a request whose path starts with `/__sandbox/`. */
export type ControlCallHandler = (
  method: string,
  path: string,
  query: URLSearchParams,
  bodyText: string,
  req: IncomingMessage,
  res: ServerResponse,
) => void;

export function createControlRoutes({
  partners,
  faults,
  requests,
  linkBase,
}: ControlRoutesDeps): ControlCallHandler {
  const { worldOf, worldOfToken, controlWorld, syncClock } = partners;
  const state = partners.first.state;
  const isToken = (value: string): boolean => worldOfToken(value) !== undefined;
  const authorized = (req: IncomingMessage): boolean => worldOf(req) !== undefined;

  /** A tokenless control call's answer, or undefined when the path is none of them. */
  function openControl(
    method: string,
    path: string,
    query: URLSearchParams,
    bodyText: string,
  ): (() => object) | undefined {
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
      return () => payInvoice(controlWorld(query).state, controlId(id, 'invoice id'), sandboxNow(state));
    }
    match = /^\/__sandbox\/orders\/([^/]*)\/complete$/.exec(path);
    if (match && method === 'POST') {
      const id = match[1] ?? '';
      return () => {
        const order = completeOrder(controlWorld(query).state, controlId(id, 'order id'), sandboxNow(state));
        return {
          order_id: order.order_id,
          state: order.state,
          complete_date: order.complete_date,
          expiration_date: order.expiration_date,
        };
      };
    }
    if (path === '/__sandbox/invoices' && method === 'POST') {
      return () =>
        createInvoice(
          controlWorld(query).state,
          controlId(body('order_id'), 'order_id'),
          sandboxNow(state),
          linkBase(),
        );
    }
    if (path === '/__sandbox/clock' && method === 'POST') {
      return () => {
        const answer = setClock(state, body('now'));
        syncClock();
        return answer;
      };
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
      const named = new URL(req.url ?? '/', 'http://sandbox.invalid').searchParams.get('partner');
      const shown = named === null ? requests : requests.filter((r) => String(r.partner) === named);
      sendJson(res, 200, { requests: shown.map((recorded) => redacted(recorded, isToken)) });
    } else if (path === '/__sandbox/requests' && method === 'DELETE') {
      requests.length = 0;
      sendEmpty(res, 200);
    } else {
      sendEmpty(res, 404);
    }
  }

  return (method, path, query, bodyText, req, res) => {
    const open = openControl(method, path, query, bodyText);
    if (open) handleOpenControl(req, res, open);
    else handleControl(method, path, bodyText, req, res);
  };
}
