import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Update } from 'telegraf/types';
import type { Logger } from './logger.js';

/** Telegram's webhook bodies are small; anything larger is not an update. */
const MAX_BODY_BYTES = 1024 * 1024;
/** After a 413, how much more of the body is read (and dropped) before the connection closes. */
const DRAIN_BYTES = 64 * 1024 * 1024;
/** After a 413, how long the client may take to finish sending before the connection closes. */
const DRAIN_MS = 15_000;

/** A route beside the built-in ones: its method and path, and what answers it. */
export interface HttpRoute {
  method: 'GET' | 'POST';
  /** The exact path, or a prefix ending in `/` that takes every path below it. */
  path: string;
  /** Answers the request; a throw is logged and answered 500. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void> | void;
}

/** Whether a route takes a request for `path` with `method`. */
function routeTakes(route: HttpRoute, method: string | undefined, path: string): boolean {
  if (route.method !== method) return false;
  return route.path.endsWith('/') ? path.startsWith(route.path) : path === route.path;
}

export interface BotServerOptions {
  port: number;
  host?: string;
  /**
   * Webhook mode: the path Telegram posts updates to, and the `X-Telegram-Bot-Api-Secret-Token`
   * every post must carry; absent in polling mode.
   */
  webhook?: { path: string; secret: string } | undefined;
  /** Takes an update after the request was answered; must not throw. */
  onUpdate(update: Update): void;
  logger: Logger;
  /** Extra fields of the health answer (mode, uptime…). */
  health(): Record<string, unknown>;
  /** Refused requests of one kind make at most one log line per this interval; default a minute. */
  refusalLogIntervalMs?: number;
  /** `GET /metrics`: the Prometheus text format; absent = 404. */
  metrics?: () => Promise<{ contentType: string; body: string }>;
  /** `Authorization: Bearer …` that `/metrics` requires; without it, only loopback callers get it. */
  metricsToken?: string | undefined;
  /** `GET /readyz`: why the bot cannot serve now, in words (empty = ready). */
  readiness?: () => Promise<string[]>;
  /** More routes (the composition root lists them), asked after the built-in ones. */
  routes?: readonly HttpRoute[];
}

export interface BotServer {
  port: number;
  close(): Promise<void>;
}

/** Loopback addresses, IPv4-mapped included: who may scrape `/metrics` without a token. */
function isLoopback(address: string | undefined): boolean {
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}

function sameSecret(given: string | string[] | undefined, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The body, or `undefined` once it passes MAX_BODY_BYTES (then `tooLarge` reads and drops the rest,
 * so that the client can read the 413).
 */
function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.off('data', onData);
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Why a webhook request was refused; each kind is counted and logged on its own. */
type RefusalKind = 'wrongSecret' | 'tooLarge' | 'notAnUpdate';

const REFUSAL_MESSAGES = {
  wrongSecret: 'webhook requests without the right secret token refused',
  tooLarge: 'webhook requests with a body over 1 MiB refused',
  notAnUpdate: 'webhook requests without an update in the body refused',
} satisfies Record<RefusalKind, string>;

/**
 * At most one warning line per kind and interval, whatever the rate of refusals: the first
 * refusal is logged at once, the ones after it are counted and reported when the interval ends.
 * A scanner or a misconfigured proxy must not be able to fill the disk with log lines.
 */
function createRefusalLog(logger: Logger, intervalMs: number) {
  const windows = new Map<RefusalKind, { counted: number; timer: NodeJS.Timeout }>();
  const report = (kind: RefusalKind, refused: number) =>
    logger.warn({ kind, refused }, REFUSAL_MESSAGES[kind]);
  const openWindow = (kind: RefusalKind) => {
    const timer = setTimeout(() => {
      const window = windows.get(kind);
      windows.delete(kind);
      if (window && window.counted > 0) {
        report(kind, window.counted);
        openWindow(kind);
      }
    }, intervalMs);
    timer.unref();
    windows.set(kind, { counted: 0, timer });
  };
  return {
    refuse(kind: RefusalKind) {
      const window = windows.get(kind);
      if (window) {
        window.counted += 1;
        return;
      }
      report(kind, 1);
      openWindow(kind);
    },
    /** Reports what was counted since the last line and stops the timers. */
    flush() {
      for (const [kind, window] of windows) {
        clearTimeout(window.timer);
        if (window.counted > 0) report(kind, window.counted);
      }
      windows.clear();
    },
  };
}

/**
 * The bot's HTTP endpoint on PORT, in both modes: `GET /healthz` for the platform's health
 * check, and in webhook mode `POST <path>` for Telegram. A webhook request without the right
 * secret gets 403 and is not processed; a good one is answered 200 at once and the update is
 * handled afterwards, so a slow provider never makes Telegram wait (or re-send).
 */
export async function startBotServer(options: BotServerOptions): Promise<BotServer> {
  const refusals = createRefusalLog(options.logger, options.refusalLogIntervalMs ?? 60_000);
  /**
   * Refuses a body over 1 MiB so that the client can read why. The answer goes out at once, but
   * the connection closes only once the client has sent what it was sending (read and dropped, up
   * to DRAIN_BYTES or DRAIN_MS): closing with its bytes unread would reset the connection, and a
   * client that sends the whole body before it reads would see the reset, never the 413.
   */
  const tooLarge = (req: IncomingMessage, res: ServerResponse) => {
    refusals.refuse('tooLarge');
    const text = 'Request body over 1 MiB refused\n';
    res.writeHead(413, {
      connection: 'close',
      'content-type': 'text/plain; charset=utf-8',
      'content-length': Buffer.byteLength(text),
    });
    res.write(text);
    let drained = 0;
    const close = () => {
      clearTimeout(timer);
      req.off('data', onData);
      if (!res.writableEnded) res.end();
    };
    const onData = (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > DRAIN_BYTES) {
        close();
        req.destroy();
      }
    };
    const timer = setTimeout(() => {
      close();
      req.destroy();
    }, DRAIN_MS);
    timer.unref();
    if (req.readableEnded) return close();
    req.on('data', onData);
    req.once('end', close);
    req.once('error', close);
    req.resume();
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && (path === '/healthz' || path === '/health')) {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ status: 'ok', ...options.health() }));
      return;
    }
    if (req.method === 'GET' && path === '/readyz' && options.readiness) {
      const reasons = await options.readiness();
      res
        .writeHead(reasons.length === 0 ? 200 : 503, { 'content-type': 'application/json' })
        .end(JSON.stringify({ ready: reasons.length === 0, reasons }));
      return;
    }
    if (req.method === 'GET' && path === '/metrics' && options.metrics) {
      const token = options.metricsToken;
      const allowed =
        token === undefined
          ? isLoopback(req.socket.remoteAddress)
          : sameSecret(req.headers.authorization, `Bearer ${token}`);
      if (!allowed) {
        res.writeHead(token === undefined ? 403 : 401).end();
        return;
      }
      const { contentType, body } = await options.metrics();
      res.writeHead(200, { 'content-type': contentType }).end(body);
      return;
    }
    const route = options.routes?.find((candidate) => routeTakes(candidate, req.method, path ?? '/'));
    if (route) {
      await route.handle(req, res);
      return;
    }
    const { webhook } = options;
    if (webhook === undefined || path !== webhook.path || req.method !== 'POST') {
      res.writeHead(404).end();
      return;
    }
    if (!sameSecret(req.headers['x-telegram-bot-api-secret-token'], webhook.secret)) {
      refusals.refuse('wrongSecret');
      res.writeHead(403).end();
      return;
    }
    if (Number(req.headers['content-length']) > MAX_BODY_BYTES) {
      tooLarge(req, res);
      return;
    }
    const body = await readBody(req);
    if (body === undefined) {
      tooLarge(req, res);
      return;
    }
    let update: Update;
    try {
      update = JSON.parse(body.toString('utf8')) as Update;
      if (typeof update !== 'object' || update === null || typeof update.update_id !== 'number')
        throw new Error();
    } catch {
      refusals.refuse('notAnUpdate');
      res.writeHead(400).end();
      return;
    }
    res.writeHead(200).end();
    options.onUpdate(update);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      options.logger.error({ err: String(error) }, 'http handler failed');
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          refusals.flush();
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
