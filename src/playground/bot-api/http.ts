/**
 * The HTTP side of the local Bot API server, on 127.0.0.1 only: `/bot<token>/<method>` calls go to
 * the dispatcher (another token gets 401, its body drained first), `/file/bot<token>/<path>` is a
 * download (files.ts), anything else 404; an error while answering becomes a 500.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Dispatcher } from './dispatch.js';
import { serveFile } from './files.js';
import type { BotApiState } from './state.js';
import { type Json, parseParams, readBody, writeJson } from './wire.js';

/** The HTTP server for one state and its dispatcher; not listening yet. */
export function createBotApiHttpServer(state: BotApiState, dispatcher: Dispatcher): Server {
  return createServer((req, res) => {
    onRequest(state, dispatcher, req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        writeJson(res, {
          ok: false,
          error_code: 500,
          description: `Internal Server Error: ${String(error)}`,
        });
      } else {
        res.destroy();
      }
    });
  });
}

/** Listen on 127.0.0.1 (port 0: any free port); resolves with the API root for telegraf. */
export async function listenOnLoopback(server: Server, port: number): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  return `http://127.0.0.1:${address.port}`;
}

async function onRequest(
  state: BotApiState,
  dispatcher: Dispatcher,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const fileRoute = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname);
  if (fileRoute && (req.method === 'GET' || req.method === 'HEAD')) {
    serveFile(state, res, decodeURIComponent(fileRoute[1] ?? ''), decodeURIComponent(fileRoute[2] ?? ''));
    return;
  }
  const apiRoute = /^\/bot([^/]+)\/([A-Za-z0-9_]+)\/?$/.exec(url.pathname);
  if (!apiRoute) {
    writeJson(res, { ok: false, error_code: 404, description: 'Not Found' });
    return;
  }
  if (decodeURIComponent(apiRoute[1] ?? '') !== state.token) {
    // Drain the body so the client sees the answer rather than a reset connection.
    await readBody(req);
    writeJson(res, { ok: false, error_code: 401, description: 'Unauthorized' });
    return;
  }
  const body = await readBody(req);
  let params: Json;
  try {
    params = await parseParams(req.headers['content-type'], body, url.searchParams);
  } catch (error) {
    writeJson(res, { ok: false, error_code: 400, description: `Bad Request: ${String(error)}` });
    return;
  }
  dispatcher.dispatch(apiRoute[2] ?? '', params, 'request', res);
}
