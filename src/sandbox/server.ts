/**
 * The sandbox: a local stand-in for the provider's partner REST API (see partner-api.md),
 * with seeded data, fault injection and a record of every request it received.
 */

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, messages } from './api-errors.js';
import { type Fault, FaultBook, type FaultRule, parseFaultRule } from './faults.js';
import { renderLink } from './links.js';
import { matchRoute } from './router.js';
import { createSeed } from './seed.js';
import type { SandboxState } from './state.js';

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
  /** Stops the server and ends every connection, hanging and keep-alive ones included. */
  close(): Promise<void>;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const MAX_BODY_BYTES = 5 * 1024 * 1024;
const TOKEN_HEADERS = ['x-api-token', 'x-auth-token'] as const;

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

function headerValues(req: IncomingMessage, name: string): string[] {
  const value = req.headers[name];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function sendEmpty(res: ServerResponse, status: number, jsonType = false): void {
  res.writeHead(
    status,
    jsonType ? { 'content-type': JSON_TYPE, 'content-length': 0 } : { 'content-length': 0 },
  );
  res.end();
}

function sendRaw(res: ServerResponse, status: number, body: string, contentType: string): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function sendError(res: ServerResponse, error: ApiError): void {
  if (error.bodyMessage === undefined) sendEmpty(res, error.status);
  else sendJson(res, error.status, { message: error.bodyMessage });
}

function parseMaybeJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? undefined : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function hostForUrl(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

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
        now: new Date(),
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

  let closing: Promise<void> | undefined;
  return {
    url,
    token,
    requests,
    addFault: (rule) => faults.add(rule),
    clearFaults: () => faults.clear(),
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        faults.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
