/**
 * What an operator sees, on the real process (`node dist/main.js`): `/metrics` after updates,
 * provider calls and watcher polls (and `promtool check metrics` accepting it), who may scrape it,
 * and `/readyz` before start-up completes, while Telegram's getUpdates fails and with Redis gone.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type BotApiServer, startBotApiServer } from '../../src/playground/bot-api/index.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { type BotProcess, eventually, freePort, startBotProcess } from '../helpers/bot-process.js';
import { startTcpProxy } from '../helpers/tcp-proxy.js';

const USER = 556_001;
const PROMTOOL = '/usr/bin/promtool';
const KEYS = `k1:${Buffer.alloc(32, 7).toString('base64')}`;

let sandbox: Sandbox;
let dataDir: string;
const running: BotProcess[] = [];
const servers: BotApiServer[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  dataDir = await mkdtemp(join(tmpdir(), 'partner-bot-ops-'));
});

afterEach(async () => {
  for (const bot of running.splice(0)) await bot.stop();
  for (const server of servers.splice(0)) await server.close();
});

afterAll(async () => {
  await sandbox.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function start(extra: Record<string, string> = {}) {
  const telegram = await startBotApiServer({ port: 0 });
  servers.push(telegram);
  const port = await freePort();
  const launch = () => {
    const bot = startBotProcess({
      BOT_TOKEN: telegram.token,
      TELEGRAM_API_ROOT: telegram.apiRoot,
      PARTNER_API_URL: sandbox.url,
      DATA_DIR: join(dataDir, String(port)),
      PORT: String(port),
      LOG_LEVEL: 'warn',
      ...extra,
    });
    running.push(bot);
    return bot;
  };
  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`http://127.0.0.1:${port}${path}`, { headers });
  return { telegram, port, launch, get };
}

async function ready(
  get: (path: string) => Promise<Response>,
): Promise<{ status: number; reasons: string[] }> {
  const res = await get('/readyz');
  const body = (await res.json()) as { reasons: string[] };
  return { status: res.status, reasons: body.reasons };
}

/** The value of one sample line, e.g. `partner_bot_updates_total{type="message"}`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  it('moves with updates, provider calls and watcher polls; promtool accepts it; no chat or token in it', async () => {
    const { telegram, launch, get } = await start({ NOTIFY_INTERVAL_S: '1' });
    launch();
    await telegram.waitForCall((c) => c.method === 'getUpdates' && c.params.timeout === 50, {
      timeoutMs: 15_000,
    });
    telegram.sendText('/start', { chatId: USER, userId: USER });
    telegram.sendText('/token', { chatId: USER, userId: USER });
    await telegram.waitForCall((c) => c.method === 'sendMessage' && String(c.params.text).includes('токен'), {
      timeoutMs: 10_000,
    });
    telegram.sendText(sandbox.token, { chatId: USER, userId: USER });
    await telegram.waitForCall(
      (c) => c.method === 'sendMessage' && String(c.params.text).includes('сохранён'),
      {
        timeoutMs: 10_000,
      },
    );
    let text = '';
    await eventually(async () => {
      text = await (await get('/metrics')).text();
      return (sample(text, 'partner_bot_watch_polls_total{outcome="polled"}') ?? 0) >= 1;
    }, 20_000);

    expect(sample(text, 'partner_bot_updates_total{type="message"}')).toBeGreaterThanOrEqual(3);
    expect(sample(text, 'partner_bot_update_duration_seconds_count')).toBeGreaterThanOrEqual(3);
    expect(sample(text, 'partner_bot_updates_in_flight')).toBe(0);
    expect(
      sample(text, 'partner_bot_telegram_requests_total{method="sendMessage",status="ok"}'),
    ).toBeGreaterThanOrEqual(3);
    expect(sample(text, 'partner_bot_telegram_requests_total{method="getMe",status="ok"}')).toBe(1);
    expect(text).toMatch(/partner_bot_provider_requests_total\{operation="listInvoices",status="200"\} \d+/);
    expect(text).toMatch(
      /partner_bot_provider_request_duration_seconds_count\{operation="listInvoices"\} \d+/,
    );
    expect(sample(text, 'partner_bot_chats')).toBe(1);
    expect(sample(text, 'partner_bot_live_checks_running')).toBe(0);
    expect(sample(text, 'partner_bot_watch_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(text).toContain('process_cpu_seconds_total');
    // Low cardinality, nothing personal: no chat or user id, no token.
    expect(text).not.toContain(String(USER));
    expect(text).not.toContain(sandbox.token);
    expect(text).not.toContain(telegram.token);

    if (existsSync(PROMTOOL)) {
      // promtool reads the exposition from stdin; lint problems make it exit non-zero.
      execFileSync(PROMTOOL, ['check', 'metrics'], { input: text });
    } else {
      console.warn('promtool is not installed (Debian package prometheus): the format check is skipped');
    }
  }, 60_000);

  it('answers only loopback without METRICS_TOKEN, and only the bearer with it', async () => {
    const open = await start();
    open.launch();
    await eventually(async () => (await open.get('/metrics').catch(() => undefined))?.status === 200);
    const outside = Object.values(networkInterfaces())
      .flat()
      .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
    if (outside) {
      const res = await fetch(`http://${outside}:${open.port}/metrics`);
      expect(res.status).toBe(403);
    }

    const token = 'metrics-token-0123456789';
    const locked = await start({ METRICS_TOKEN: token });
    locked.launch();
    await eventually(async () => (await locked.get('/healthz').catch(() => undefined))?.status === 200);
    expect((await locked.get('/metrics')).status).toBe(401);
    expect((await locked.get('/metrics', { authorization: 'Bearer wrong-token-0123456789' })).status).toBe(
      401,
    );
    const res = await locked.get('/metrics', { authorization: `Bearer ${token}` });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
  }, 60_000);
});

describe('the alert rules in docs/', () => {
  it.skipIf(!existsSync(PROMTOOL))('are accepted by promtool check rules', () => {
    const out = execFileSync(PROMTOOL, ['check', 'rules', 'docs/prometheus-alerts.yml']).toString();
    expect(out).toMatch(/SUCCESS: \d+ rules found/);
  });
});

describe('GET /readyz', () => {
  it('is 503 until getMe has answered, then 200; /healthz is 200 throughout', async () => {
    const { telegram, launch, get } = await start();
    let release: (() => void) | undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    telegram.handle('getMe', async () => {
      await held;
      return telegram.botInfo;
    });
    launch();
    await eventually(async () => (await get('/healthz').catch(() => undefined))?.status === 200);
    expect(await ready(get)).toEqual({
      status: 503,
      reasons: ['starting: Telegram has not answered getMe yet'],
    });
    release?.();
    await eventually(async () => (await ready(get)).status === 200);
  }, 60_000);

  it('is 503 while Telegram keeps failing getUpdates beyond the window', async () => {
    const { telegram, launch, get } = await start({ READINESS_POLL_WINDOW_S: '2' });
    launch();
    await eventually(async () => (await ready(get).catch(() => undefined))?.status === 200);
    telegram.failNext('getUpdates', { error_code: 502, description: 'Bad Gateway' }, 1_000);
    // The poll waiting now ends (a new update wakes it); every later one fails.
    telegram.sendText('/help', { chatId: USER, userId: USER });
    await eventually(async () => (await ready(get)).status === 503, 15_000);
    expect((await ready(get)).reasons).toEqual(['Telegram has answered no getUpdates in the last 2 s']);
    expect((await get('/healthz')).status).toBe(200);
  }, 60_000);

  it.skipIf(!process.env.REDIS_URL)(
    'is 503 with Redis gone, and 200 again when it is back',
    async () => {
      const redis = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
      const proxy = await startTcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
      try {
        const { launch, get } = await start({
          STORAGE: 'redis',
          REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
          REDIS_PREFIX: `pb-readyz-${process.pid}:`,
          ENCRYPTION_KEYS: KEYS,
          NOTIFY_INTERVAL_S: '0',
        });
        launch();
        await eventually(async () => (await ready(get).catch(() => undefined))?.status === 200, 20_000);
        await proxy.cut();
        await eventually(async () => (await ready(get)).status === 503, 15_000);
        expect((await ready(get)).reasons).toContain('storage does not answer');
        await proxy.restore();
        await eventually(async () => (await ready(get)).status === 200, 20_000);
      } finally {
        await proxy.close();
      }
    },
    60_000,
  );
});
