/*
 * Issue 42, the Mini App's side: a chat of two partner accounts on one sandbox. The app opens on
 * the chat's active account, lists the accounts (number and label, never a token), names the one
 * it acts on in every call (`X-Account`), and reaches that partner's zone; Apply's history entry
 * and the chat's report carry that account. A number the chat does not hold is refused in the
 * user's words, and a team group's app cannot reach the owner's other accounts.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiFactory, PartnerTransport } from '../../src/api/index.js';
import type { BotServer } from '../../src/http-server.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { createZoneEditing, type EditsReport } from '../../src/services/zone-editing.js';
import { type ChatData, createChatData } from '../../src/storage/chat-data.js';
import { parseEncryptionKeys } from '../../src/storage/crypto.js';
import { createLowdbStore } from '../../src/storage/lowdb-store.js';
import { expectContractAnswer, signLaunch, startMiniAppApi } from '../helpers/mini-app-api.js';

const BOT_TOKEN = '7000000042:AAH-accounts-test-bot-token_0123456789';
const OWNER = 4201;
const TECH = 4202;
const GROUP = -1009000000042;

let sandbox: Sandbox;
let transport: PartnerTransport;
let server: BotServer;
let dataDir: string;
let chatData: ChatData;
let base: string;
const lines: string[] = [];
const bodies: string[] = [];
const reports: EditsReport[] = [];
const recordedWith: { token: string; account: number | undefined }[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, partners: [{}] });
  transport = new PartnerTransport({ baseUrl: sandbox.url, retryDelayMs: 1 });
  dataDir = await mkdtemp(join(tmpdir(), 'mini-app-accounts-'));
  chatData = createChatData({
    store: createLowdbStore({ dataDir: join(dataDir, 'data') }),
    keyring: parseEncryptionKeys(`k:${randomBytes(32).toString('base64')}`),
  });
  // Account 1: the first partner; account 2: the second, named by the user; 1 stays active.
  await chatData.setToken(OWNER, sandbox.token);
  const second = await chatData.addAccount(OWNER, sandbox.partner(2).token, 'studio-b.by');
  if (!second.ok || second.n !== 2) throw new Error('the second account was not added as 2');
  await chatData.switchAccount(OWNER, 1);
  // The team group holds one account: the first partner's.
  await chatData.setToken(GROUP, sandbox.token);
  await chatData.setTeam(GROUP, {
    owner: OWNER,
    members: { [OWNER]: 'owner', [TECH]: 'tech' },
    names: { [OWNER]: 'Olga', [TECH]: 'Tim' },
  });
  ({ server, base } = await startMiniAppApi({
    botToken: BOT_TOKEN,
    partnerApiUrl: sandbox.url,
    chatData,
    apiFor: createApiFactory(transport),
    lines,
    services: (logger) => ({
      zoneEditing: createZoneEditing({
        recorder: {
          async record(who) {
            const token =
              who.account === undefined
                ? await chatData.getToken(who.chatId)
                : (await chatData.getAccount(who.chatId, who.account))?.token;
            recordedWith.push({ token: token ?? '', account: who.account });
            return undefined;
          },
          list: async () => [],
        },
        reports: { reportEdits: async (report) => void reports.push(report) },
        logger,
      }),
    }),
  }));
});

afterAll(async () => {
  await server?.close();
  await transport?.close();
  await sandbox?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const owner = () => signLaunch(BOT_TOKEN, { id: OWNER, first_name: 'Olga' });
const inGroup = (id: number) => signLaunch(BOT_TOKEN, { id, first_name: 'Tim' }, `g${GROUP}`);

/** A call as the app makes it, naming `account` (none: the chat's active one). */
async function call(path: string, auth: string, account?: string, body?: unknown) {
  const url = new URL(`api/${path}`, base);
  const response = await fetch(url, {
    headers: {
      authorization: `tma ${auth}`,
      ...(account === undefined ? {} : { 'x-account': account }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) }),
  });
  const text = await response.text();
  bodies.push(text);
  const json: unknown = JSON.parse(text);
  expectContractAnswer(url, response.status, json);
  return { status: response.status, json: json as Record<string, unknown> };
}

describe('a chat of two accounts in the Mini App', () => {
  it('opens on the active account and lists both, by label, never a token', async () => {
    const session = await call('session', owner());
    expect(session.status).toBe(200);
    expect(session.json.account).toMatchObject({ kind: 'private', n: 1, label: 'Аккаунт 1', accounts: 2 });
    const list = await call('accounts', owner());
    expect(list.json).toEqual({
      accounts: [
        { n: 1, label: 'Аккаунт 1' },
        { n: 2, label: 'studio-b.by' },
      ],
      active: 1,
    });
  });

  it('switched to account 2: its domains, its zone; the first partner’s domain is not there', async () => {
    const session = await call('session', owner(), '2');
    expect(session.json.account).toMatchObject({ n: 2, label: 'studio-b.by', accounts: 2 });
    const domains = await call('zone/domains', owner(), '2');
    expect((domains.json.domains as { domain: string }[]).map((d) => d.domain)).toEqual([
      'studio-b.by',
      'studio-b.com',
    ]);
    const zone = await call('zone?domain=studio-b.by', owner(), '2');
    expect(zone.status).toBe(200);
    expect(zone.json.orderId).toBe(11002);
    const mine = await call('zone?domain=mysite.by', owner(), '2');
    expect(mine.status).toBe(404);
    // The chat's active account is untouched by the app's choice.
    expect((await chatData.listAccounts(OWNER)).find((a) => a.active)?.n).toBe(1);
    const first = await call('zone/domains', owner());
    expect((first.json.domains as { domain: string }[]).map((d) => d.domain)).toContain('mysite.by');
  });

  it('Apply on account 2 writes into account 2’s zone; its history and report carry account 2', async () => {
    const before = sandbox.requests.length;
    const applied = await call('zone/apply', owner(), '2', {
      domain: 'studio-b.by',
      edits: [{ op: 'add', row: { type: 'TXT', host: 'app', data: 'from account 2', ttl: 3600 } }],
      key: 'accounts-apply-key-000000000002',
    });
    expect(applied.status).toBe(200);
    const writes = sandbox.requests.slice(before).filter((r) => r.method === 'POST');
    expect(writes).toHaveLength(1);
    expect(writes[0]?.partner).toBe(2);
    expect(writes[0]?.path).toContain('/11002/');
    expect(recordedWith.at(-1)).toEqual({ token: sandbox.partner(2).token, account: 2 });
    expect(reports.at(-1)).toMatchObject({ chatId: OWNER, account: 2, domain: 'studio-b.by' });
  });

  it('an account number the chat does not hold is refused in Russian, never another in its place', async () => {
    for (const asked of ['3', '0', 'two', '-1']) {
      const refused = await call('zone?domain=studio-b.by', owner(), asked);
      expect(refused.status, asked).toBe(403);
      expect(refused.json.error).toBe('accountUnknown');
      expect(refused.json.message).toMatch(/^Этого аккаунта нет в чате/);
    }
  });

  it('a team group’s app reaches the group’s one account, never the owner’s other ones', async () => {
    const session = await call('session', inGroup(TECH));
    expect(session.json.account).toMatchObject({ kind: 'group', n: 1, accounts: 1 });
    const list = await call('accounts', inGroup(TECH));
    expect(list.json).toEqual({ accounts: [{ n: 1, label: 'Аккаунт 1' }], active: 1 });
    for (const launch of [inGroup(TECH), inGroup(OWNER)]) {
      const refused = await call('zone?domain=studio-b.by', launch, '2');
      expect(refused.status).toBe(403);
      expect(refused.json.error).toBe('accountUnknown');
    }
    const own = await call('zone?domain=studio-b.by', inGroup(TECH));
    expect(own.status).toBe(404);
  });

  it('no answer carries either partner token', () => {
    for (const token of [sandbox.token, sandbox.partner(2).token])
      for (const body of [...bodies, ...lines]) expect(body).not.toContain(token);
  });
});
