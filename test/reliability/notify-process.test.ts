import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Invoice } from '../../src/api/index.js';
import {
  type BotApiServer,
  type RecordedCall,
  startBotApiServer,
} from '../../src/playground/bot-api/index.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { generateKeySpec } from '../../src/storage/crypto.js';
import { type BotProcess, eventually, startBotProcess } from '../helpers/bot-process.js';
import { namesInvoice } from '../helpers/notify.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { deleteKeys } from '../helpers/two-instances.js';

/*
 * The watchers in the real program (`node dist/main.js`, long polling the local Bot API double, the
 * sandbox as provider, a poll every second): a payment is told once across a SIGTERM restart and a
 * kill -9; and with STORAGE=redis two processes share the BullMQ schedule, one is killed mid-poll,
 * the other takes the token over, and every payment is told once.
 */

const KEYS = generateKeySpec('t1');

let sandbox: Sandbox;
let telegram: BotApiServer;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  telegram = await startBotApiServer({ port: 0 });
});

afterAll(async () => {
  await telegram.close();
  await sandbox.close();
});

async function say(chat: number, text: string): Promise<RecordedCall> {
  const since = telegram.calls.length;
  telegram.sendText(text, { chatId: chat, userId: chat, languageCode: 'ru' });
  return telegram.waitForCall((c) => c.method === 'sendMessage' && c.params.chat_id === chat, {
    since,
    timeoutMs: 20_000,
  });
}

/** Messages to the chat that tell a payment of this invoice. */
function paidTold(chat: number, invoice: Invoice): RecordedCall[] {
  return telegram.calls.filter(
    (c) =>
      c.method === 'sendMessage' &&
      c.params.chat_id === chat &&
      namesInvoice(String(c.params.text), invoice.invoice_number),
  );
}

async function unpaid(): Promise<Invoice[]> {
  const response = await fetch(`${sandbox.url}/v1/billing/invoices?version=1.0`, {
    headers: { 'x-api-token': sandbox.token },
  });
  const body = (await response.json()) as { invoices: Invoice[] };
  return body.invoices.filter((i) => i.state === 'WaitingForPayment');
}

/** Polls of the four lists the sandbox has answered so far. */
const polls = () => sandbox.requests.filter((r) => r.path === '/v1/orders/domains').length;

async function connect(chat: number): Promise<void> {
  await say(chat, '/token');
  const saved = await say(chat, sandbox.token);
  expect(String(saved.params.text)).toContain('Токен проверен');
}

describe('one process on lowdb', () => {
  let dataDir: string;
  const CHAT = 830_001;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'partner-bot-notify-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  function startBot(): BotProcess {
    return startBotProcess({
      BOT_TOKEN: telegram.token,
      TELEGRAM_API_ROOT: telegram.apiRoot,
      PARTNER_API_URL: sandbox.url,
      DATA_DIR: dataDir,
      ENCRYPTION_KEYS: KEYS,
      PORT: '0',
      NOTIFY_INTERVAL_S: '1',
      LOG_LEVEL: 'warn',
    });
  }

  it('tells a payment once, marks the link message, and stays exactly once across SIGTERM and kill -9', async () => {
    let bot = startBot();
    await connect(CHAT);
    // The first poll records silently.
    const after = polls();
    await eventually(() => polls() > after + 1, 20_000);
    const [first, second, third] = await unpaid();
    if (!first || !second || !third) throw new Error('the seed has fewer than 3 unpaid invoices');

    const link = await say(CHAT, `/invoice ${first.invoice_id}`);
    const linkMessageId = (link.response as { result: { message_id: number } }).result.message_id;
    sandbox.payInvoice(first.invoice_id);
    await eventually(() => paidTold(CHAT, first).length > 0, 20_000);
    await eventually(
      () =>
        telegram.calls.some(
          (c) =>
            c.method === 'editMessageText' &&
            c.params.message_id === linkMessageId &&
            String(c.params.text).includes('✅ оплачен'),
        ),
      20_000,
    );

    // Stopped between the payment and the poll: told once after the restart.
    expect((await bot.stop()).code).toBe(0);
    sandbox.payInvoice(second.invoice_id);
    bot = startBot();
    await eventually(() => paidTold(CHAT, second).length > 0, 20_000);

    // Killed right after the payment, whatever it was doing.
    sandbox.payInvoice(third.invoice_id);
    bot.child.kill('SIGKILL');
    await bot.exited;
    bot = startBot();
    await eventually(() => paidTold(CHAT, third).length > 0, 20_000);

    // Several more polls: nothing is told again.
    const settled = polls();
    await eventually(() => polls() > settled + 3, 20_000);
    expect((await bot.stop()).code).toBe(0);
    for (const invoice of [first, second, third]) expect(paidTold(CHAT, invoice)).toHaveLength(1);
    expect(bot.output()).not.toContain(sandbox.token);
  }, 90_000);

  it('a poll hanging at the provider holds up no chat, and SIGTERM still exits 0 in time', async () => {
    const bot = startBot();
    const hung = polls();
    sandbox.addFault({ path: '/v1/orders/domains', fault: { kind: 'delay', ms: 70_000 } });
    // The chat connected in the story above: its token is watched again from the bot's start.
    await eventually(() => polls() > hung, 20_000);
    const asked = Date.now();
    expect(String((await say(CHAT, '/help')).params.text)).toContain('/notify');
    expect(Date.now() - asked).toBeLessThan(2_000);
    const stopped = await bot.stop();
    sandbox.clearFaults();
    expect(stopped.code).toBe(0);
    expect(stopped.ms).toBeLessThan(10_000);
  }, 60_000);
});

const url = process.env.REDIS_URL;
if (!url) console.warn('REDIS_URL is not set: the BullMQ takeover test is skipped');

describe.skipIf(!url)('two processes on Redis (BullMQ)', () => {
  const prefix = `pb-notify-proc-${process.pid}-${Date.now()}:`;
  const CHAT = 830_101;
  const dataDirs: string[] = [];
  let worker: BotApiServer;
  let proxy: TcpProxy;

  beforeAll(async () => {
    // The second instance talks to Telegram through a double of its own (two processes cannot
    // long-poll one bot token) and to the provider through a proxy, so its calls can be told apart.
    worker = await startBotApiServer({ port: 0, token: telegram.token });
    const target = new URL(sandbox.url);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port) });
  });

  afterAll(async () => {
    await worker.close();
    await proxy.close();
    await deleteKeys(url as string, prefix);
    for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
  });

  async function startInstance(api: BotApiServer, providerUrl: string): Promise<BotProcess> {
    const dataDir = await mkdtemp(join(tmpdir(), 'partner-bot-notify-redis-'));
    dataDirs.push(dataDir);
    const bot = startBotProcess({
      BOT_TOKEN: api.token,
      TELEGRAM_API_ROOT: api.apiRoot,
      PARTNER_API_URL: providerUrl,
      DATA_DIR: dataDir,
      ENCRYPTION_KEYS: KEYS,
      STORAGE: 'redis',
      REDIS_URL: url as string,
      REDIS_PREFIX: prefix,
      PORT: '0',
      NOTIFY_INTERVAL_S: '1',
      NOTIFY_JOB_LOCK_S: '3',
      // A poll may wait on the hanging provider longer than its lock lasts.
      PARTNER_API_TIMEOUT_MS: '60000',
      LOG_LEVEL: 'warn',
    });
    await api.waitForCall('getUpdates', { timeoutMs: 20_000 });
    return bot;
  }

  /** Payment messages to the chat across both instances' Telegram. */
  const toldAnywhere = (invoice: Invoice) =>
    [...telegram.calls, ...worker.calls].filter(
      (c) =>
        c.method === 'sendMessage' &&
        c.params.chat_id === CHAT &&
        namesInvoice(String(c.params.text), invoice.invoice_number),
    );

  it('the instance holding a poll is killed mid-poll; the other takes the token over; each payment told once', async () => {
    const a = await startInstance(telegram, sandbox.url);
    const b = await startInstance(worker, `http://127.0.0.1:${proxy.port}`);
    await connect(CHAT);
    const after = polls();
    await eventually(() => polls() > after + 2, 30_000);
    const [first, second] = await unpaid();
    if (!first || !second) throw new Error('the seed has fewer than 2 unpaid invoices');

    sandbox.payInvoice(first.invoice_id);
    await eventually(() => toldAnywhere(first).length > 0, 30_000);

    // The next poll's payments call hangs at the provider: kill the instance that made it.
    const payments = () => sandbox.requests.filter((r) => r.path === '/v1/billing/payments');
    const before = payments().length;
    sandbox.addFault({ path: '/v1/billing/payments', fault: { kind: 'hang' }, times: 1 });
    await eventually(() => payments().length > before, 30_000);
    const hung = payments()[before];
    const holder = hung?.headers.host === `127.0.0.1:${proxy.port}` ? b : a;
    const survivor = holder === a ? b : a;
    sandbox.payInvoice(second.invoice_id);
    holder.child.kill('SIGKILL');
    await holder.exited;
    await eventually(() => toldAnywhere(second).length > 0, 45_000);

    const settled = polls();
    await eventually(() => polls() > settled + 3, 30_000);
    expect((await survivor.stop()).code).toBe(0);
    expect(toldAnywhere(first)).toHaveLength(1);
    expect(toldAnywhere(second)).toHaveLength(1);
  }, 120_000);
});
