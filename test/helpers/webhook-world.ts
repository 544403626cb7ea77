import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { type BotApiServer, startBotApiServer } from '../../src/playground/bot-api/index.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import type { Locale } from '../../src/storage/chat-store.js';
import { generateKeySpec } from '../../src/storage/crypto.js';
import { type BotProcess, freePort, seedConnectedChats, startBotProcess } from './bot-process.js';

/** What a webhook-mode process story runs against; set in its `beforeAll`. */
export interface WebhookWorld {
  sandbox: Sandbox;
  telegram: BotApiServer;
  dataDir: string;
  /** Starts the built bot in webhook mode and waits until it has set its webhook. */
  startBot(): Promise<BotProcess>;
}

/**
 * The world of a kill story on the real process: a sandbox, a local Bot API server, a data dir
 * whose `chats` have a token already (the story is what happens after, not /token), and the built
 * bot in webhook mode against them — started and killed as often as the story needs.
 */
export function useWebhookWorld(options: {
  name: string;
  chats: readonly number[];
  locale?: Locale;
}): WebhookWorld {
  const keys = generateKeySpec('t1');
  const secret = `${options.name}-secret_0123456789`;
  let port = 0;
  const world = {} as WebhookWorld;
  beforeAll(async () => {
    world.sandbox = await startSandbox({ port: 0 });
    world.telegram = await startBotApiServer({ port: 0 });
    world.dataDir = await mkdtemp(join(tmpdir(), `partner-bot-${options.name}-`));
    port = await freePort();
    await seedConnectedChats({
      dataDir: world.dataDir,
      encryptionKeys: keys,
      token: world.sandbox.token,
      chats: options.chats,
      ...(options.locale ? { locale: options.locale } : {}),
    });
  });
  afterAll(async () => {
    await world.telegram.close();
    await world.sandbox.close();
    await rm(world.dataDir, { recursive: true, force: true });
  });
  world.startBot = async () => {
    const { telegram, sandbox } = world;
    const since = telegram.calls.length;
    const bot = startBotProcess({
      BOT_TOKEN: telegram.token,
      TELEGRAM_API_ROOT: telegram.apiRoot,
      PARTNER_API_URL: sandbox.url,
      DATA_DIR: world.dataDir,
      ENCRYPTION_KEYS: keys,
      PORT: String(port),
      WEBHOOK_URL: `https://127.0.0.1:${port}/hook`,
      WEBHOOK_SECRET: secret,
      PARTNER_API_TIMEOUT_MS: '60000',
      LOG_LEVEL: 'warn',
    });
    await telegram.waitForCall('setWebhook', { since, timeoutMs: 20_000 });
    return bot;
  };
  return world;
}
