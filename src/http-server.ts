import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Update } from 'telegraf/types';
import type { Logger } from './logger.js';

/** Telegram's webhook bodies are small; anything larger is not an update. */
const MAX_BODY_BYTES = 1024 * 1024;

export interface BotServerOptions {
  port: number;
  host?: string;
  /** Path Telegram posts updates to (webhook mode); absent in polling mode. */
  webhookPath?: string | undefined;
  /** `X-Telegram-Bot-Api-Secret-Token` every webhook request must carry. */
  secret?: string | undefined;
  /** Takes an update after the request was answered; must not throw. */
  onUpdate(update: Update): void;
  logger: Logger;
  /** Extra fields of the health answer (mode, uptime…). */
  health(): Record<string, unknown>;
}

export interface BotServer {
  port: number;
  close(): Promise<void>;
}

function sameSecret(given: string | string[] | undefined, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve(undefined);
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * The bot's HTTP endpoint on PORT, in both modes: `GET /healthz` for the platform's health
 * check, and in webhook mode `POST <path>` for Telegram. A webhook request without the right
 * secret gets 403 and is not processed; a good one is answered 200 at once and the update is
 * handled afterwards, so a slow provider never makes Telegram wait (or re-send).
 */
export async function startBotServer(options: BotServerOptions): Promise<BotServer> {
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && (path === '/healthz' || path === '/health')) {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ status: 'ok', ...options.health() }));
      return;
    }
    if (options.webhookPath === undefined || path !== options.webhookPath || req.method !== 'POST') {
      res.writeHead(404).end();
      return;
    }
    if (
      options.secret !== undefined &&
      !sameSecret(req.headers['x-telegram-bot-api-secret-token'], options.secret)
    ) {
      options.logger.warn({ path }, 'webhook request without the right secret token refused');
      res.writeHead(403).end();
      return;
    }
    const body = await readBody(req);
    let update: Update;
    try {
      update = JSON.parse(body?.toString('utf8') ?? '') as Update;
      if (typeof update !== 'object' || update === null || typeof update.update_id !== 'number')
        throw new Error();
    } catch {
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
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
