/*
 * The robots' gateway in process, for its stories: the bot's HTTP server (`startBotServer`) with
 * the gateway's routes only, over the real stores (lowdb in a temp dir, or Redis under a prefix
 * of its own), the real history, the real partner API client and the sandbox as the provider. A
 * fake report port records what the chat would be told; the logger's lines and the metrics are
 * kept so a story can search them for a secret.
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
import { createMetrics, type Metrics } from '../../src/metrics.js';
import { createDnsRecorder, type DnsRecorder } from '../../src/services/dns-journal.js';
import { createKeyChanges } from '../../src/services/key-changes.js';
import type { KeyReportPort, KeyStopReason, KeyUseReport } from '../../src/services/key-reports.js';
import { createRobotChallenges } from '../../src/services/robot-challenges.js';
import { type ChatData, createChatData } from '../../src/storage/chat-data.js';
import { parseEncryptionKeys } from '../../src/storage/crypto.js';
import { createDnsHistory } from '../../src/storage/dns-history.js';
import type { GatewayState } from '../../src/storage/gateway-state.js';
import { createRobotKeys, type NewRobotKey, type RobotKeys } from '../../src/storage/robot-keys.js';
import { createStores } from '../../src/storage/stores.js';

/** What the fake report port was handed. */
export interface ReportsSeen {
  uses: KeyUseReport[];
  stops: { keyId: string; reason: KeyStopReason }[];
}

export interface GatewayWorld {
  /** `http://127.0.0.1:<port>` of the server. */
  url: string;
  chatData: ChatData;
  robotKeys: RobotKeys;
  state: GatewayState;
  recorder: DnsRecorder;
  metrics: Metrics;
  reports: ReportsSeen;
  /** Every line the logger wrote. */
  logLines: string[];
  /** Sends a GET to the server: `path` with its query, and Basic auth when `auth` is given. */
  get(
    path: string,
    options?: { auth?: { id: string; secret: string }; headers?: Record<string, string> },
  ): Promise<{ status: number; text: string; headers: Headers }>;
  close(): Promise<void>;
}

const KEYS = `k1:${Buffer.alloc(32, 9).toString('base64')}`;

/** An address key for `office.mysite.by` (the sandbox's order 1006) of `chatId`, with overrides. */
export function addressKey(chatId: number, over: Partial<NewRobotKey> = {}): NewRobotKey {
  return {
    chatId,
    kind: 'address',
    name: 'Роутер офиса',
    scope: 'office.mysite.by',
    orderId: 1006,
    domain: 'mysite.by',
    networks: [],
    createdBy: { userId: chatId, name: 'P' },
    ...over,
  };
}

export async function startGatewayWorld(options: {
  providerUrl: string;
  redis?: { client: Redis; prefix: string };
  /** Another world's data dir (lowdb), to share nothing but show a restart; default a fresh one. */
  trustedProxies?: string[];
}): Promise<GatewayWorld> {
  const dataDir = await mkdtemp(join(tmpdir(), 'partner-bot-gateway-'));
  const keyring = parseEncryptionKeys(KEYS);
  const stores = createStores({
    redis: options.redis?.client,
    prefix: options.redis?.prefix ?? 'unused:',
    dataDir,
  });
  const logLines: string[] = [];
  const logger = createLogger({
    level: 'trace',
    destination: { write: (line: string) => logLines.push(line) },
  });
  const chatData = createChatData({ store: stores.chats, keyring });
  const robotKeys = createRobotKeys({ store: stores.robotKeys, keyring });
  const state = stores.gatewayState;
  const recorder = createDnsRecorder({
    chatData,
    dnsHistory: createDnsHistory({ store: stores.dnsHistory, keyring }),
    logger,
    zoneChanged: (accountId, orderId) => state.zoneChanged(accountId, orderId),
  });
  const metrics = createMetrics({
    updatesInFlight: () => 0,
    watchLagMs: async () => 0,
    liveChecksRunning: () => 0,
    chats: async () => 0,
  });
  const transport = new PartnerTransport({ baseUrl: options.providerUrl, timeoutMs: 3_000, maxRetries: 0 });
  const reports: ReportsSeen = { uses: [], stops: [] };
  const port: KeyReportPort = {
    async reportKeyUse(report) {
      reports.uses.push(report);
    },
    async reportKeyStopped({ key, reason }) {
      reports.stops.push({ keyId: key.id, reason });
    },
  };
  const keyChanges = createKeyChanges({
    chatData,
    apiFor: (token) => createPartnerApi(transport, token),
    recorder,
    reports: port,
    state,
    logger,
  });
  const routes = gatewayRoutes({
    robotKeys,
    state,
    keyChanges,
    // The dyndns2 stories present no ACME value; the ACME ones build their own (acme-world.ts).
    challenges: createRobotChallenges({
      keyChanges,
      state,
      robotKeys,
      probe: createDnsProbe({ port: 1, everyServerAt: '127.0.0.1', timeoutMs: 100, tries: 1 }),
      logger,
    }),
    countUpdate: (protocol, outcome) => metrics.gatewayUpdate(protocol, outcome),
    trustedProxies: options.trustedProxies ?? [],
    logger,
  });
  const server: BotServer = await startBotServer({
    port: 0,
    host: '127.0.0.1',
    onUpdate: () => undefined,
    logger,
    health: () => ({}),
    metrics: () => metrics.scrape(),
    routes,
  });
  const url = `http://127.0.0.1:${server.port}`;
  return {
    url,
    chatData,
    robotKeys,
    state,
    recorder,
    metrics,
    reports,
    logLines,
    async get(path, { auth, headers = {} } = {}) {
      const response = await fetch(`${url}${path}`, {
        headers: {
          ...(auth
            ? { authorization: `Basic ${Buffer.from(`${auth.id}:${auth.secret}`).toString('base64')}` }
            : {}),
          ...headers,
        },
      });
      return { status: response.status, text: await response.text(), headers: response.headers };
    },
    async close() {
      await server.close();
      await transport.close();
      for (const store of Object.values(stores)) await store.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A secret one character off the given one (never the same: its last character is changed). */
export function wrongSecret(secret: string): string {
  return `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
}
