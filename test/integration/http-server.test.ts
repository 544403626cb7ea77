/*
 * The bot's HTTP endpoint over real HTTP on 127.0.0.1: oversized bodies get a 413 the client can
 * read (not a connection reset), and a flood of refused requests costs a few log lines, not one
 * line each.
 */
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Update } from 'telegraf/types';
import { afterEach, describe, expect, it } from 'vitest';
import { type BotServer, type HttpRoute, startBotServer } from '../../src/http-server.js';
import { createLogger } from '../../src/logger.js';
import { eventually } from '../helpers/bot-process.js';

const SECRET = 'webhook-secret-for-tests_0123456789';
const PATH = '/tg/hook';
const MIB = 1024 * 1024;

let server: BotServer | undefined;
let lines: string[];
let updates: Update[];

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(refusalLogIntervalMs = 60_000, routes: HttpRoute[] = []): Promise<string> {
  lines = [];
  updates = [];
  server = await startBotServer({
    port: 0,
    host: '127.0.0.1',
    webhook: { path: PATH, secret: SECRET },
    logger: createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(line) } }),
    health: () => ({}),
    onUpdate: (update) => void updates.push(update),
    refusalLogIntervalMs,
    routes,
  });
  return `http://127.0.0.1:${server.port}${PATH}`;
}

const warnings = () =>
  lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry.level === 40);

const post = (
  url: string,
  body: string | Uint8Array | ReadableStream<Uint8Array>,
  secret = SECRET,
  init: RequestInit = {},
) =>
  fetch(url, {
    method: 'POST',
    headers: { 'x-telegram-bot-api-secret-token': secret, 'content-type': 'application/json' },
    body,
    ...init,
  });

const update = (id: number) => JSON.stringify({ update_id: id, message: { message_id: 1 } });

describe('webhook bodies over 1 MiB', () => {
  it('answers 413 with connection: close as soon as Content-Length says so, before any body', async () => {
    const url = new URL(await start());
    const socket = connect(Number(url.port), url.hostname);
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.write(
      `POST ${PATH} HTTP/1.1\r\nhost: ${url.host}\r\nx-telegram-bot-api-secret-token: ${SECRET}\r\n` +
        `content-type: application/json\r\ncontent-length: ${10 * MIB}\r\n\r\n`,
    );
    // Not one byte of the declared 10 MiB is sent: the headers alone must be enough.
    await eventually(() => answer.includes('\r\n\r\n'), 3_000);
    socket.destroy();
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer.toLowerCase()).toContain('connection: close');
  });

  it('answers 413, never a reset, to a client that sends the whole body anyway', async () => {
    const url = await start();
    const big = Buffer.alloc(8 * MIB, 'a');
    for (let i = 0; i < 10; i++) {
      const response = await post(url, big);
      expect(response.status).toBe(413);
      expect(response.headers.get('connection')).toBe('close');
      await response.arrayBuffer();
    }
    expect(updates).toEqual([]);
  });

  it('answers 413 that a client sending the whole 10 MB before it reads can read: no broken pipe, no reset', async () => {
    const url = new URL(await start());
    const cases = [
      { chunked: false, secret: SECRET, status: 413, text: 'Request body over 1 MiB refused' },
      { chunked: true, secret: SECRET, status: 413, text: 'Request body over 1 MiB refused' },
      // Every refusal reads the same way: the wrong secret's 403 too.
      { chunked: false, secret: 'wrong-secret-0123456789', status: 403, text: '' },
    ];
    for (const { chunked, secret, status, text } of cases) {
      const socket = connect(Number(url.port), url.hostname);
      let answer = '';
      const errors: string[] = [];
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        answer += chunk;
      });
      socket.on('error', (error: NodeJS.ErrnoException) => errors.push(error.code ?? String(error)));
      const length = chunked ? 'transfer-encoding: chunked' : `content-length: ${10 * MIB}`;
      const head =
        `POST ${PATH} HTTP/1.1\r\nhost: ${url.host}\r\nx-telegram-bot-api-secret-token: ${secret}\r\n` +
        `content-type: application/json\r\n${length}\r\n\r\n`;
      const body = Buffer.alloc(10 * MIB, 'a');
      const payload = chunked
        ? Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')])
        : body;
      // Like a blocking client: everything is written before the answer is looked at.
      await new Promise<void>((resolve) => {
        socket.write(head);
        socket.write(payload, () => resolve());
        socket.once('error', () => resolve());
      });
      await eventually(() => answer.includes('\r\n\r\n') || errors.length > 0, 5_000);
      socket.destroy();
      expect(errors).toEqual([]);
      expect(answer).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      await eventually(() => answer.includes(text), 2_000);
    }
    expect(updates).toEqual([]);
  });

  it('answers 413 to a chunked body (no Content-Length) once it passes 1 MiB', async () => {
    const url = await start();
    const chunk = new Uint8Array(64 * 1024).fill(97);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 4 * MIB) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const response = await post(url, body, SECRET, { duplex: 'half' } as RequestInit);
    expect(response.status).toBe(413);
    await response.arrayBuffer();
    expect(updates).toEqual([]);
  });

  it('still takes a normal update after refusing big ones', async () => {
    const url = await start();
    await (await post(url, Buffer.alloc(2 * MIB, 'a'))).arrayBuffer();
    const response = await post(url, update(7));
    expect(response.status).toBe(200);
    expect(updates.map((u) => u.update_id)).toEqual([7]);
  });
});

describe('refused webhook requests in the log', () => {
  it('writes one line for 200 refusals at once, then one line with the count of the rest', {
    timeout: 20_000,
  }, async () => {
    // Long enough for the burst to end inside the first interval on a busy machine.
    const interval = 2_500;
    const url = await start(interval);
    const statuses = await Promise.all(
      Array.from({ length: 200 }, async () => {
        const response = await post(url, update(1), 'wrong-secret-0123456789');
        await response.arrayBuffer();
        return response.status;
      }),
    );
    expect(new Set(statuses)).toEqual(new Set([403]));
    expect(updates).toEqual([]);
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toMatchObject({ kind: 'wrongSecret', refused: 1 });

    await eventually(() => warnings().length === 2, interval + 1_000);
    expect(warnings()[1]).toMatchObject({ kind: 'wrongSecret', refused: 199 });
    // Quiet afterwards: nothing more to report, so no more lines.
    await sleep(interval + 500);
    expect(warnings()).toHaveLength(2);
    // The next refusal after a quiet window is reported at once again.
    await (await post(url, update(1), 'wrong-secret-0123456789')).arrayBuffer();
    expect(warnings()).toHaveLength(3);
    expect(warnings()[2]).toMatchObject({ kind: 'wrongSecret', refused: 1 });
  });

  it('counts each kind of refusal on its own', async () => {
    const url = await start();
    for (let i = 0; i < 5; i++) {
      await (await post(url, update(1), 'wrong-secret-0123456789')).arrayBuffer();
      await (await post(url, Buffer.alloc(2 * MIB, 'a'))).arrayBuffer();
      await (await post(url, '{"not":"an update"}')).arrayBuffer();
    }
    expect(warnings().map((w) => [w.kind, w.refused])).toEqual([
      ['wrongSecret', 1],
      ['tooLarge', 1],
      ['notAnUpdate', 1],
    ]);
    // A stop reports what was counted since the last line, so no refusal goes unmentioned.
    await server?.close();
    server = undefined;
    expect(warnings().map((w) => [w.kind, w.refused])).toEqual([
      ['wrongSecret', 1],
      ['tooLarge', 1],
      ['notAnUpdate', 1],
      ['wrongSecret', 4],
      ['tooLarge', 4],
      ['notAnUpdate', 4],
    ]);
  });
});

describe('routes beside the webhook', () => {
  it('answers an exact route and a prefix route by method, and leaves the webhook and 404s as they were', async () => {
    const seen: string[] = [];
    const hook = await start(60_000, [
      {
        method: 'GET',
        path: '/app/ping',
        handle: (_req, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('pong'),
      },
      {
        method: 'POST',
        path: '/app/api/',
        handle: (req, res) => {
          seen.push(req.url ?? '');
          res.writeHead(204).end();
        },
      },
    ]);
    const base = hook.slice(0, -PATH.length);
    const ping = await fetch(`${base}/app/ping`);
    expect(ping.status).toBe(200);
    expect(await ping.text()).toBe('pong');
    expect((await fetch(`${base}/app/api/records?x=1`, { method: 'POST' })).status).toBe(204);
    expect(seen).toEqual(['/app/api/records?x=1']);
    expect((await fetch(`${base}/app/api/records`)).status).toBe(404);
    expect((await fetch(`${base}/app/pingx`)).status).toBe(404);
    expect((await post(hook, update(7))).status).toBe(200);
    await eventually(() => updates.length > 0);
    expect(updates.map((u) => u.update_id)).toEqual([7]);
  });
});
