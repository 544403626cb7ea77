/*
 * The gateway's ACME protocols in process, for their stories: the bot's HTTP server with the
 * gateway's routes, over real stores (lowdb in a temp dir, or Redis under a prefix), the real history and partner API
 * client, the sandbox as the provider and its DNS server as every name server of the domain. A
 * fake report port records what the chat would be told; the clock of the challenges' hour is a
 * number the story moves.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { createPartnerApi, PartnerTransport } from '../../src/api/index.js';
import { createDnsProbe } from '../../src/dns-check/probe.js';
import { gatewayRoutes } from '../../src/gateway/index.js';
import { type BotServer, startBotServer } from '../../src/http-server.js';
import { createLogger } from '../../src/logger.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { createDnsRecorder } from '../../src/services/dns-journal.js';
import { createKeyChanges } from '../../src/services/key-changes.js';
import type { KeyStopReason, KeyUseReport } from '../../src/services/key-reports.js';
import { createRobotChallenges, type RobotChallenges } from '../../src/services/robot-challenges.js';
import { type ChatData, createChatData } from '../../src/storage/chat-data.js';
import { parseEncryptionKeys } from '../../src/storage/crypto.js';
import { createDnsHistory, type DnsHistory } from '../../src/storage/dns-history.js';
import type { GatewayState } from '../../src/storage/gateway-state.js';
import { createRobotKeys, type NewRobotKey, type RobotKeys } from '../../src/storage/robot-keys.js';
import { createStores } from '../../src/storage/stores.js';

export interface AcmeWorld {
  /** `http://127.0.0.1:<port>` of the bot's server. */
  url: string;
  chatData: ChatData;
  robotKeys: RobotKeys;
  state: GatewayState;
  dnsHistory: DnsHistory;
  challenges: RobotChallenges;
  uses: KeyUseReport[];
  stops: { keyId: string; reason: KeyStopReason }[];
  /** protocol/outcome of every counted request. */
  counted: string[];
  logLines: string[];
  /** The challenges' clock (epoch ms); a story moves it. */
  clock: { now: number };
  close(): Promise<void>;
}

/** A certificate key for `mysite.by` (the sandbox's order 1006) of `chatId`, with overrides. */
export function certificateKey(chatId: number, over: Partial<NewRobotKey> = {}): NewRobotKey {
  return {
    chatId,
    kind: 'certificate',
    name: 'Сертификат',
    scope: 'mysite.by',
    orderId: 1006,
    domain: 'mysite.by',
    networks: [],
    createdBy: { userId: chatId, name: 'P' },
    ...over,
  };
}

export async function startAcmeWorld(
  sandbox: Sandbox,
  options: { waitMs?: number; redis?: { client: Redis; prefix: string } } = {},
): Promise<AcmeWorld> {
  const dataDir = await mkdtemp(join(tmpdir(), 'partner-bot-acme-'));
  const keyring = parseEncryptionKeys(`k1:${Buffer.alloc(32, 7).toString('base64')}`);
  const stores = createStores({
    redis: options.redis?.client,
    prefix: options.redis?.prefix ?? 'unused:',
    dataDir,
  });
  const logLines: string[] = [];
  const logger = createLogger({
    level: 'trace',
    destination: { write: (line: string) => void logLines.push(line) },
  });
  const transport = new PartnerTransport({ baseUrl: sandbox.url, retryDelayMs: 1 });
  const chatData = createChatData({ store: stores.chats, keyring });
  const dnsHistory = createDnsHistory({ store: stores.dnsHistory, keyring });
  const robotKeys = createRobotKeys({ store: stores.robotKeys, keyring });
  const state = stores.gatewayState;
  const uses: KeyUseReport[] = [];
  const stops: { keyId: string; reason: KeyStopReason }[] = [];
  const counted: string[] = [];
  const clock = { now: Date.now() };
  const keyChanges = createKeyChanges({
    chatData,
    apiFor: (token) => createPartnerApi(transport, token),
    recorder: createDnsRecorder({ chatData, dnsHistory, logger }),
    reports: {
      reportKeyUse: async (report) => void uses.push(report),
      reportKeyStopped: async ({ key, reason }) => void stops.push({ keyId: key.id, reason }),
    },
    state,
    logger,
  });
  const challenges = createRobotChallenges({
    keyChanges,
    state,
    robotKeys,
    probe: createDnsProbe({
      port: sandbox.dns?.port ?? 0,
      everyServerAt: '127.0.0.1',
      timeoutMs: 500,
      tries: 1,
    }),
    logger,
    waitMs: options.waitMs ?? 3_000,
    delayMs: () => 100,
    now: () => clock.now,
  });
  const server: BotServer = await startBotServer({
    port: 0,
    host: '127.0.0.1',
    logger,
    health: () => ({}),
    onUpdate: () => undefined,
    routes: gatewayRoutes({
      robotKeys,
      state,
      keyChanges,
      challenges,
      countUpdate: (protocol, outcome) => void counted.push(`${protocol}/${outcome}`),
      trustedProxies: [],
      logger,
    }),
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    chatData,
    robotKeys,
    state,
    dnsHistory,
    challenges,
    uses,
    stops,
    counted,
    logLines,
    clock,
    async close() {
      await server.close();
      await transport.close();
      await stores.gatewayState.close();
      await stores.chats.close();
      await stores.dnsHistory.close();
      await stores.robotKeys.close();
      await stores.watches.close();
      await stores.onceKeys.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
