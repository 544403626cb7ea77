/*
 * The robots' gateway in process, for the stories of every protocol: the bot's HTTP server
 * (`startBotServer`) with the gateway's routes only, over the real stores (lowdb in a temp dir, or
 * Redis under a prefix of its own), the real history, the real partner API client and the sandbox
 * as the provider — and, given its DNS port, the sandbox's DNS server as every name server of the
 * domain (the ACME values' wait). A fake report port records what the chat would be told; the
 * logger's lines, the metrics and the counted outcomes are kept so a story can search them for a
 * secret; the clock of the challenges' hour is a number the story moves.
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
import { createRobotChallenges, type RobotChallenges } from '../../src/services/robot-challenges.js';
import { type ChatData, createChatData } from '../../src/storage/chat-data.js';
import { parseEncryptionKeys } from '../../src/storage/crypto.js';
import { createDnsHistory, type DnsHistory } from '../../src/storage/dns-history.js';
import type { GatewayState } from '../../src/storage/gateway-state.js';
import { createRobotKeys, type RobotKeys } from '../../src/storage/robot-keys.js';
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
  dnsHistory: DnsHistory;
  challenges: RobotChallenges;
  metrics: Metrics;
  reports: ReportsSeen;
  /** `protocol/outcome` of every counted request, in order. */
  counted: string[];
  /** The challenges' clock (epoch ms); a story moves it. */
  clock: { now: number };
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

export async function startGatewayWorld(options: {
  providerUrl: string;
  redis?: { client: Redis; prefix: string };
  trustedProxies?: string[];
  /** The sandbox's DNS port: its server answers for every name server (ACME's wait); none: nothing is served. */
  dnsPort?: number | undefined;
  /** How long an ACME value is waited for (default 3 s). */
  waitMs?: number;
  /** The partner API client retries its reads as in production (1 ms apart); default no retries. */
  providerRetries?: boolean;
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
  const dnsHistory = createDnsHistory({ store: stores.dnsHistory, keyring });
  const recorder = createDnsRecorder({
    chatData,
    dnsHistory,
    logger,
    zoneChanged: (accountId, orderId) => state.zoneChanged(accountId, orderId),
  });
  const metrics = createMetrics({
    updatesInFlight: () => 0,
    watchLagMs: async () => 0,
    liveChecksRunning: () => 0,
    chats: async () => 0,
  });
  const transport = new PartnerTransport({
    baseUrl: options.providerUrl,
    ...(options.providerRetries ? { retryDelayMs: 1 } : { timeoutMs: 3_000, maxRetries: 0 }),
  });
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
  const counted: string[] = [];
  const clock = { now: Date.now() };
  const challenges = createRobotChallenges({
    keyChanges,
    state,
    robotKeys,
    probe: createDnsProbe({
      port: options.dnsPort ?? 1,
      everyServerAt: '127.0.0.1',
      timeoutMs: options.dnsPort === undefined ? 100 : 500,
      tries: 1,
    }),
    logger,
    waitMs: options.waitMs ?? 3_000,
    delayMs: () => 100,
    now: () => clock.now,
  });
  const routes = gatewayRoutes({
    robotKeys,
    state,
    keyChanges,
    // The dyndns2 stories present no ACME value; the ACME ones build their own (acme-world.ts).
    challenges,
    countUpdate: (protocol, outcome) => {
      counted.push(`${protocol}/${outcome}`);
      metrics.gatewayUpdate(protocol, outcome);
    },
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
    dnsHistory,
    challenges,
    metrics,
    reports,
    counted,
    clock,
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
