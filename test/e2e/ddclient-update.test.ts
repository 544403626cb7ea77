/**
 * Debian's ddclient against the real bot process (`node dist/main.js`, lowdb), the sandbox as the
 * provider: a chat connected with the sandbox's token holds an address key for
 * `office.mysite.by`, whose A record is 198.51.100.7. ddclient reports 198.51.100.9 → `good`, the
 * provider sees the add before the delete, the history has one `auto` entry; a forced second run
 * → `nochg` with no provider call at all; `/metrics` counts both by outcome.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartnerApi, PartnerTransport } from '../../src/api/index.js';
import { startBotApiServer } from '../../src/playground/bot-api/index.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { parseEncryptionKeys } from '../../src/storage/crypto.js';
import { createDnsHistory } from '../../src/storage/dns-history.js';
import { createLowdbDnsHistoryStore } from '../../src/storage/dns-history-store.js';
import { createLowdbRobotKeyStore } from '../../src/storage/robot-key-store.js';
import { createRobotKeys } from '../../src/storage/robot-keys.js';
import { freePort, seedConnectedChats, startBotProcess } from '../helpers/bot-process.js';
import { hasDdclient, runDdclient } from '../helpers/ddclient.js';
import { addressKey, seedOfficeRecord } from '../helpers/key-fixtures.js';
import { isPostTo, seenText } from '../helpers/seen-text.js';

const CHAT = 772_001;
const ORDER = 1006;
const KEYS = `k1:${Buffer.alloc(32, 5).toString('base64')}`;

describe.skipIf(!hasDdclient)('ddclient updates a host through /nic/update (the real process)', () => {
  let sandbox: Sandbox;
  let dataDir: string;
  let workDir: string;
  let transport: PartnerTransport;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    transport = new PartnerTransport({ baseUrl: sandbox.url, timeoutMs: 3_000, maxRetries: 0 });
    await seedOfficeRecord(sandbox);
    dataDir = await mkdtemp(join(tmpdir(), 'partner-bot-ddclient-'));
    workDir = await mkdtemp(join(tmpdir(), 'ddclient-run-'));
  });

  afterAll(async () => {
    await transport.close();
    await sandbox.close();
    await rm(dataDir, { recursive: true, force: true });
    await rm(workDir, { recursive: true, force: true });
  });

  it('good with the add before the delete and one auto entry; forced again: nochg, no provider call', async () => {
    await seedConnectedChats({ dataDir, encryptionKeys: KEYS, token: sandbox.token, chats: [CHAT] });
    const keyStore = createLowdbRobotKeyStore({ dataDir });
    const issued = await createRobotKeys({ store: keyStore, keyring: parseEncryptionKeys(KEYS) }).create(
      addressKey(CHAT),
    );
    await keyStore.close();

    const telegram = await startBotApiServer({ port: 0 });
    const port = await freePort();
    const bot = startBotProcess({
      BOT_TOKEN: telegram.token,
      TELEGRAM_API_ROOT: telegram.apiRoot,
      PARTNER_API_URL: sandbox.url,
      DATA_DIR: dataDir,
      ENCRYPTION_KEYS: KEYS,
      PORT: String(port),
      HOST: '127.0.0.1',
      NOTIFY_INTERVAL_S: '0',
      LOG_LEVEL: 'debug',
    });
    const run = (force: boolean) =>
      runDdclient({
        server: `127.0.0.1:${port}`,
        login: issued.key.id,
        password: issued.secret,
        hosts: ['office.mysite.by'],
        ip: '198.51.100.9',
        workDir,
        force,
        verbose: true,
      });
    try {
      await telegram.waitForCall((c) => c.method === 'getUpdates', { timeoutMs: 20_000 });
      const before = sandbox.requests.length;
      const first = await run(false);
      expect(first.output).toContain(
        'SENDING:  GET /nic/update?system=dyndns&hostname=office.mysite.by&myip=198.51.100.9 HTTP/1.1',
      );
      expect(first.output).toContain(
        'SUCCESS:  updating office.mysite.by: good: IP address set to 198.51.100.9',
      );
      expect(first.exitCode).toBe(0);
      // The change is three calls; the chat's report then live-checks it with reads only (its
      // domain's name servers), at most once per key an hour since reports are folded.
      const told = await telegram.waitForCall(isPostTo(CHAT), { timeoutMs: 10_000 });
      const calls = sandbox.requests.slice(before).map((r) => `${r.method} ${r.path}`);
      expect(calls.slice(0, 3)).toEqual([
        'GET /v1/domains/1006/dns/records',
        'POST /v1/domains/1006/dns/records/a',
        expect.stringMatching(/^DELETE \/v1\/domains\/1006\/dns\/records\/a\/\d+$/),
      ]);
      expect(calls.slice(3).every((call) => call.startsWith('GET '))).toBe(true);
      // The chat is told in one line, with ↩ Undo: the bot's own report port, on the real process.
      // The seeded chat speaks English.
      expect(seenText(told)).toContain('auto-update mysite.by');
      expect(seenText(told)).toContain('<code>198.51.100.7</code> → <code>198.51.100.9</code>');
      expect(seenText(told)).toContain('Роутер офиса');
      expect(JSON.stringify(told.params.reply_markup)).toContain('Undo');
      const listed = await createPartnerApi(transport, sandbox.token).listDnsRecords(ORDER);
      expect(
        listed.filter((r) => r.value.startsWith('office ')).map((r) => `${r.type} ${r.value} ${r.ttl}`),
      ).toEqual(['A office 198.51.100.9 600']);

      const quiet = sandbox.requests.length;
      const second = await run(true);
      expect(second.output).toContain('WARNING:  updating office.mysite.by: nochg: No update required');
      expect(second.exitCode).toBe(0);
      // No provider call for the nochg: nothing of the zone's records is asked (the live check of
      // the first change may still be reading the orders and name servers: its own reads).
      expect(sandbox.requests.slice(quiet).filter((r) => r.path.includes('/dns/records'))).toEqual([]);

      const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      expect(metrics).toContain('partner_bot_gateway_updates_total{protocol="dyndns2",outcome="good"} 1');
      expect(metrics).toContain('partner_bot_gateway_updates_total{protocol="dyndns2",outcome="nochg"} 1');
      expect(metrics).not.toContain(issued.secret);
      expect(metrics).not.toContain('office.mysite.by');
    } finally {
      await bot.stop();
      await telegram.close();
    }
    // Nothing of the key's secret or its Basic value in what the process printed (debug level).
    const basic = Buffer.from(`${issued.key.id}:${issued.secret}`).toString('base64');
    expect(bot.output()).not.toContain(issued.secret);
    expect(bot.output()).not.toContain(basic);

    const historyStore = createLowdbDnsHistoryStore({ dataDir });
    const history = await createDnsHistory({ store: historyStore, keyring: parseEncryptionKeys(KEYS) }).list(
      sandbox.token,
      ORDER,
    );
    await historyStore.close();
    expect(history.map((e) => [e.kind, e.who.key])).toEqual([['auto', 'Роутер офиса']]);
  }, 60_000);
});
