/**
 * `node bench/gateway-nochg.mjs` (after `npm run build`; add `REDIS_URL=redis://…` for the Redis
 * run too): 1,000 routers, each with its own address key and host, each sending the address its
 * host already has — dyndns2's `nochg` — to the built gateway (`dist/`: the bot's HTTP server
 * with the gateway's routes, the real stores, history and partner API client, the sandbox as the
 * provider, everything on 127.0.0.1).
 *
 * - warm-up: every router once (its first `nochg` lists the zone: 1 call each, then cached);
 * - measured: `ROUNDS` rounds of all 1,000 (each round is one minute of real traffic at one
 *   request per router per minute, compressed: sent as fast as `CONCURRENCY` connections allow);
 *   provider calls counted in the sandbox's request log (target: 0), p50/p99 of the answer;
 * - a change: one router reports a new address; its provider calls (target: ≤ 3).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';

const dist = (path) => new URL(`../dist/${path}`, import.meta.url).href;
const { createPartnerApi, PartnerTransport } = await import(dist('api/index.js'));
const { gatewayRoutes } = await import(dist('gateway/index.js'));
const { startBotServer } = await import(dist('http-server.js'));
const { createLogger } = await import(dist('logger.js'));
const { createDnsRecorder } = await import(dist('services/dns-journal.js'));
const { createKeyChanges } = await import(dist('services/key-changes.js'));
const { startSandbox } = await import(dist('sandbox/server.js'));
const { createChatData } = await import(dist('storage/chat-data.js'));
const { parseEncryptionKeys } = await import(dist('storage/crypto.js'));
const { createDnsHistory } = await import(dist('storage/dns-history.js'));
const { createRobotKeys } = await import(dist('storage/robot-keys.js'));
const { createStores } = await import(dist('storage/stores.js'));

const quick = process.argv.includes('--quick');
const ROUTERS = quick ? 100 : 1_000;
/**
 * Minutes of traffic (one request per router per minute), plus one more sent one at a time: with
 * the warm-up, 12 nochg per host in well under 10 minutes, under the flood limit (15 per 10 min).
 */
const ROUNDS = quick ? 3 : 10;
const CONCURRENCY = 50;
/** Keys per chat: the chat's limit (KEY_LIMITS.perChat). */
const KEYS_PER_CHAT = 20;
const ORDER = 1006;
const DOMAIN = 'mysite.by';

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];

async function runOn(label, redisUrl) {
  const sandbox = await startSandbox({ port: 0 });
  const transport = new PartnerTransport({ baseUrl: sandbox.url, timeoutMs: 10_000, maxRetries: 0 });
  const api = createPartnerApi(transport, sandbox.token);
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-gateway-'));
  let redis;
  const prefix = `bench-gateway-${randomBytes(4).toString('hex')}:`;
  if (redisUrl) {
    const { Redis } = await import('ioredis');
    redis = new Redis(redisUrl);
  }
  const keyring = parseEncryptionKeys(`k1:${Buffer.alloc(32, 3).toString('base64')}`);
  const stores = createStores({ redis, prefix, dataDir });
  const logger = createLogger({ level: 'warn' });
  const chatData = createChatData({ store: stores.chats, keyring });
  const robotKeys = createRobotKeys({ store: stores.robotKeys, keyring });
  const state = stores.gatewayState;
  const recorder = createDnsRecorder({
    chatData,
    dnsHistory: createDnsHistory({ store: stores.dnsHistory, keyring }),
    logger,
    zoneChanged: (accountId, orderId) => state.zoneChanged(accountId, orderId),
  });
  const routes = gatewayRoutes({
    robotKeys,
    state,
    keyChanges: createKeyChanges({
      chatData,
      apiFor: (token) => createPartnerApi(transport, token),
      recorder,
      reports: undefined,
      state,
      logger,
    }),
    countUpdate: () => undefined,
    trustedProxies: [],
    logger,
  });
  const server = await startBotServer({
    port: 0,
    host: '127.0.0.1',
    onUpdate: () => undefined,
    logger,
    health: () => ({}),
    routes,
  });

  // The routers: one key and one host each, its A record already the address it reports.
  const routers = [];
  for (let i = 0; i < ROUTERS; i += 1) {
    const chatId = 900_000 + Math.floor(i / KEYS_PER_CHAT);
    if (i % KEYS_PER_CHAT === 0) await chatData.setToken(chatId, sandbox.token);
    const host = `r${i}`;
    const address = `10.${Math.floor(i / 250)}.${i % 250}.1`;
    await api.addDnsRecord(ORDER, { kind: 'a', host, ttl: 300, ipv4: address });
    const { key, secret } = await robotKeys.create({
      chatId,
      kind: 'address',
      name: `router ${i}`,
      scope: `${host}.${DOMAIN}`,
      orderId: ORDER,
      domain: DOMAIN,
      networks: [],
      createdBy: { userId: chatId, name: 'bench' },
    });
    routers.push({
      path: `/nic/update?hostname=${host}.${DOMAIN}&myip=${address}`,
      authorization: `Basic ${Buffer.from(`${key.id}:${secret}`).toString('base64')}`,
      address,
      host,
    });
  }

  const pool = new Pool(`http://127.0.0.1:${server.port}`, { connections: CONCURRENCY });
  const send = async (router, path = router.path) => {
    const started = performance.now();
    const response = await pool.request({
      method: 'GET',
      path,
      headers: { authorization: router.authorization },
    });
    const text = await response.body.text();
    return { ms: performance.now() - started, text };
  };
  /** Every router once, `concurrency` at a time; the answers' latencies and words. */
  const round = async (concurrency = CONCURRENCY) => {
    const latencies = [];
    const words = new Map();
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < routers.length) {
          const router = routers[next];
          next += 1;
          const { ms, text } = await send(router);
          latencies.push(ms);
          const word = text.split(' ')[0].trim();
          words.set(word, (words.get(word) ?? 0) + 1);
        }
      }),
    );
    return { latencies, words };
  };

  const beforeWarm = sandbox.requests.length;
  const warm = await round();
  const warmCalls = sandbox.requests.length - beforeWarm;

  const beforeMeasured = sandbox.requests.length;
  const latencies = [];
  const words = new Map();
  const started = performance.now();
  for (let r = 0; r < ROUNDS; r += 1) {
    const result = await round();
    latencies.push(...result.latencies);
    for (const [word, n] of result.words) words.set(word, (words.get(word) ?? 0) + n);
  }
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  // One router at a time: what one request costs with no queue in front of it.
  const alone = (await round(1)).latencies.sort((a, b) => a - b);
  const measuredCalls = sandbox.requests.length - beforeMeasured;

  const changer = routers[0];
  const beforeChange = sandbox.requests.length;
  const change = await send(changer, `/nic/update?hostname=${changer.host}.${DOMAIN}&myip=192.0.2.77`);
  const changeCalls = sandbox.requests
    .slice(beforeChange)
    .map((r) => `${r.method} ${r.path.replace(/\d+$/, 'N')}`);

  await pool.close();
  await server.close();
  for (const store of Object.values(stores)) await store.close();
  if (redis) {
    let cursor = '0';
    do {
      const [nextCursor, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = nextCursor;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
    redis.disconnect();
  }
  await transport.close();
  await sandbox.close();
  await rm(dataDir, { recursive: true, force: true });

  return {
    label,
    warm: `${warmCalls} calls, ${JSON.stringify(Object.fromEntries(warm.words))}`,
    requests: latencies.length,
    words: JSON.stringify(Object.fromEntries(words)),
    calls: measuredCalls,
    rate: Math.round(latencies.length / seconds),
    p50: percentile(latencies, 50).toFixed(2),
    p99: percentile(latencies, 99).toFixed(2),
    aloneP50: percentile(alone, 50).toFixed(2),
    aloneP99: percentile(alone, 99).toFixed(2),
    change: `${change.text.trim()}: ${changeCalls.length} calls (${changeCalls.join(', ')})`,
  };
}

const results = [await runOn('lowdb', undefined)];
if (process.env.REDIS_URL) results.push(await runOn('Redis', process.env.REDIS_URL));
console.log(`Node ${process.version}, ${ROUTERS} routers × ${ROUNDS} rounds, ${CONCURRENCY} connections`);
for (const r of results) {
  console.log(`\n${r.label}`);
  console.log(`  warm-up: ${r.warm}`);
  console.log(
    `  measured: ${r.requests} requests ${r.words} (+${ROUTERS} one at a time), provider calls ${r.calls}`,
  );
  console.log(`  ${r.rate} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms (${CONCURRENCY} in flight)`);
  console.log(`  one at a time: p50 ${r.aloneP50} ms, p99 ${r.aloneP99} ms`);
  console.log(`  a change: ${r.change}`);
}
const missed = results.filter((r) => r.calls !== 0 || !/: [0-3] calls/.test(r.change));
if (missed.length > 0) {
  console.log(`\nTargets missed on ${missed.map((r) => r.label).join(', ')}`);
  process.exitCode = 1;
}
