/*
 * Issue 42, the Mini App's side: a chat of two partner accounts on one sandbox. The app opens on
 * the chat's active account, lists the accounts (number and label, never a token), names the one
 * it acts on in every call (`X-Account`), and reaches that partner's zone; Apply's history entry
 * and the chat's report carry that account. A number the chat does not hold is refused in the
 * user's words, and a team group's app cannot reach the owner's other accounts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { createZoneEditing, type EditsReport } from '../../src/services/zone-editing.js';
import type { ChatData } from '../../src/storage/chat-data.js';
import { apiCaller, signLaunch } from '../helpers/mini-app-api.js';
import { type MiniAppWorld, startMiniAppWorld } from '../helpers/mini-app-world.js';

const BOT_TOKEN = '7000000042:AAH-accounts-test-bot-token_0123456789';
const OWNER = 4201;
const TECH = 4202;
const GROUP = -1009000000042;

let sandbox: Sandbox;
let chatData: ChatData;
let base: string;
let world: MiniAppWorld | undefined;
const lines: string[] = [];
const bodies: string[] = [];
const reports: EditsReport[] = [];
const recordedWith: { token: string; account: number | undefined }[] = [];

beforeAll(async () => {
  world = await startMiniAppWorld({
    botToken: BOT_TOKEN,
    name: 'mini-app-accounts',
    provider: { partners: [{}] },
    chats: [OWNER, GROUP],
    // The team group holds one account: the first partner's.
    team: {
      group: GROUP,
      owner: OWNER,
      members: { [OWNER]: 'owner', [TECH]: 'tech' },
      names: { [OWNER]: 'Olga', [TECH]: 'Tim' },
    },
    // Account 1: the first partner; account 2: the second, named by the user; 1 stays active.
    async setUp({ chatData, sandbox }) {
      const second = await chatData.addAccount(OWNER, sandbox.partner(2).token, 'studio-b.by');
      if (!second.ok || second.n !== 2) throw new Error('the second account was not added as 2');
      await chatData.switchAccount(OWNER, 1);
    },
    lines,
    services: (logger, { chatData }) => ({
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
  });
  ({ sandbox, chatData, base } = world);
});

afterAll(async () => {
  await world?.close();
});

const owner = () => signLaunch(BOT_TOKEN, { id: OWNER, first_name: 'Olga' });
const inGroup = (id: number) => signLaunch(BOT_TOKEN, { id, first_name: 'Tim' }, `g${GROUP}`);

const callApi = apiCaller(() => base, bodies);

/** A call as the app makes it, naming `account` (none: the chat's active one). */
const call = (path: string, auth: string, account?: string, body?: unknown) =>
  callApi(`api/${path}`, auth, body, account === undefined ? {} : { 'x-account': account });

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
