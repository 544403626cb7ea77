/**
 * The upgrade of every chat to accounts (storage/account-upgrade.ts) on a copy of a data dir the
 * release before accounts wrote (test/fixtures/before-accounts): on lowdb, and on Redis after
 * `migrate` copied it there. Every chat's token reads back as account 1 and its `/notify`
 * settings as account 1's; nothing else changes; a second run writes nothing; nothing sealed is
 * in the clear. On Redis also two passes at once and the bot's own writes during a pass.
 */
import { cp, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { migrate } from '../../src/admin/commands.js';
import { upgradeAllChats, upgradeChat } from '../../src/storage/account-upgrade.js';
import { upgradeAccounts } from '../../src/storage/chat-data/accounts.js';
import { createChatData } from '../../src/storage/chat-data.js';
import type { ChatDoc, ChatStore } from '../../src/storage/chat-store.js';
import { parseEncryptionKeys } from '../../src/storage/crypto.js';
import { createLowdbStore } from '../../src/storage/lowdb-store.js';
import { createRedisStore } from '../../src/storage/redis-store.js';
import { createStores, type Stores } from '../../src/storage/stores.js';
import { deleteKeys } from '../helpers/two-instances.js';

const FIXTURE = join(process.cwd(), 'test', 'fixtures', 'before-accounts');
const facts = JSON.parse(await readFile(join(FIXTURE, 'facts.json'), 'utf8')) as {
  encryptionKeys: string;
  tokens: { A: string; B: string };
  chats: { partner: number; other: number; idle: number; group: number };
};
const keyring = parseEncryptionKeys(facts.encryptionKeys);
const redisUrl = process.env.REDIS_URL;
const PREFIX = `pb-upgrade-${process.pid}-`;
const redis = new Redis(redisUrl ?? 'redis://127.0.0.1:6379', { lazyConnect: true });

/** What only the upgrade may change in a document. */
const ACCOUNT_FIELDS = ['token', 'notify', 'accounts', 'activeAccount', 'accountSeq', 'notifyByAccount'];
const withoutAccounts = (doc: ChatDoc | undefined) =>
  Object.fromEntries(Object.entries(doc ?? {}).filter(([key]) => !ACCOUNT_FIELDS.includes(key)));

/** Every file of a folder with its bytes and mtime. */
async function snapshot(dir: string): Promise<Map<string, { text: string; mtimeMs: number }>> {
  const files = new Map<string, { text: string; mtimeMs: number }>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    files.set(relative(dir, file), {
      text: await readFile(file, 'utf8'),
      mtimeMs: (await stat(file)).mtimeMs,
    });
  }
  return files;
}

async function readAll(store: ChatStore): Promise<Map<number, ChatDoc | undefined>> {
  const docs = new Map<number, ChatDoc | undefined>();
  for (const id of (await store.ids()).sort((a, b) => a - b)) docs.set(id, await store.read(id));
  return docs;
}

/** The checks of an upgraded store against the documents as the old release left them. */
async function expectUpgraded(store: ChatStore, before: Map<number, ChatDoc | undefined>): Promise<void> {
  const after = await readAll(store);
  expect([...after.keys()]).toEqual([...before.keys()]);
  const chatData = createChatData({ store, keyring });
  const expectedToken: Record<number, string> = {
    [facts.chats.partner]: facts.tokens.A,
    [facts.chats.group]: facts.tokens.A,
    [facts.chats.other]: facts.tokens.B,
  };
  for (const [id, old] of before) {
    const doc = after.get(id);
    // Nothing but the account fields changed, byte for byte (sealed values included).
    expect(withoutAccounts(doc)).toEqual(withoutAccounts(old));
    expect(doc?.token).toBeUndefined();
    expect(doc?.notify).toBeUndefined();
    const token = expectedToken[id];
    if (token === undefined) {
      expect(doc?.accounts).toBeUndefined();
      expect(await chatData.listAccounts(id)).toEqual([]);
      continue;
    }
    expect(Object.keys(doc?.accounts ?? {})).toEqual(['1']);
    expect(doc?.activeAccount).toBe(1);
    expect(doc?.accountSeq).toBe(1);
    expect(await chatData.listAccounts(id)).toEqual([{ n: 1, token, active: true }]);
    expect(await chatData.getToken(id)).toBe(token);
    expect(await chatData.getNotifySettings(id, 1)).toEqual(old?.notify ?? {});
    expect(doc?.notifyByAccount).toEqual(old?.notify === undefined ? undefined : { 1: old.notify });
  }
  // What was sealed still opens as the old release wrote it.
  expect((await chatData.getProfiles(facts.chats.partner)).map((p) => p.label)).toEqual(['ООО «Ромашка»']);
  expect((await chatData.getTeam(facts.chats.group))?.names).toEqual({ '700011': 'Ольга' });
  expect(await chatData.sessionStore<object>().get(String(facts.chats.partner))).toEqual({
    confirmed: { nonce: 'fx1', toast: 'Заказ уже подтверждён' },
  });
}

/** Nothing sealed before is readable in what is stored now. */
function expectNothingInClear(stored: string): void {
  for (const secret of [facts.tokens.A, facts.tokens.B, 'Ромашка', 'Ольга', 'Павел', 'подтверждён'])
    expect(stored).not.toContain(secret);
}

describe('the upgrade to accounts on a copy of the old release’s data', () => {
  let work: string;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'partner-bot-upgrade-'));
  });
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
    if (redisUrl) await deleteKeys(redisUrl, PREFIX);
    redis.disconnect();
  });

  describe('on lowdb', () => {
    let dir: string;
    beforeEach(async () => {
      dir = join(work, `lowdb-${Date.now()}`);
      await cp(join(FIXTURE, 'data'), dir, { recursive: true });
    });

    it('makes each token account 1 with its settings, changes nothing else, and a second run writes nothing', async () => {
      const original = await snapshot(dir);
      let store = createLowdbStore({ dataDir: dir });
      const before = await readAll(store);
      expect((await upgradeAllChats(store, keyring)).upgraded).toBe(3);
      await store.close();

      store = createLowdbStore({ dataDir: dir });
      await expectUpgraded(store, before);
      const upgraded = await snapshot(dir);
      // Only the three chats with a token were written; watches, history, keys untouched.
      const changed = [...upgraded].filter(([file, { text }]) => original.get(file)?.text !== text);
      expect(changed.map(([file]) => file).sort()).toEqual([
        join('chats', '01', '-1000700001.json'),
        join('chats', '01', '700001.json'),
        join('chats', '02', '700002.json'),
      ]);
      for (const { text } of upgraded.values()) expectNothingInClear(text);

      const again = await upgradeAllChats(store, keyring);
      expect(again).toEqual({ chats: 4, upgraded: 0, unchanged: 4, unreadable: 0, damaged: 0 });
      await store.close();
      expect(await snapshot(dir)).toEqual(upgraded);
    });

    it('leaves a chat whose token does not open with these keys as it was, and upgrades it once the key is back', async () => {
      const other = parseEncryptionKeys(`zz:${Buffer.alloc(32, 9).toString('base64')}`);
      const store = createLowdbStore({ dataDir: dir });
      const before = await readAll(store);
      expect(await upgradeAllChats(store, other)).toEqual({
        chats: 4,
        upgraded: 0,
        unchanged: 1,
        unreadable: 3,
        damaged: 0,
      });
      for (const [id, doc] of before) expect(await store.read(id)).toEqual(doc);
      expect((await upgradeAllChats(store, keyring)).upgraded).toBe(3);
      await store.close();
    });
  });

  describe.skipIf(!redisUrl)('on Redis, after migrate copied it there', () => {
    let n = 0;
    let prefix: string;
    let lowdb: Stores;
    let target: Stores;
    beforeEach(async () => {
      prefix = `${PREFIX}${++n}:`;
      const dir = join(work, `source-${n}`);
      await cp(join(FIXTURE, 'data'), dir, { recursive: true });
      lowdb = createStores({ redis: undefined, prefix, dataDir: dir });
      target = createStores({ redis, prefix, dataDir: dir });
      const { counts } = await migrate(lowdb, target);
      expect(counts.chat.written).toBe(4);
      for (const store of Object.values(lowdb)) await store.close();
      return async () => {
        for (const store of Object.values(target)) await store.close();
      };
    });

    /** Every key of the prefix with what it holds, whatever its type. */
    const values = async () => {
      const found = new Map<string, string>();
      for (const key of (await redis.keys(`${prefix}*`)).sort()) {
        const type = await redis.type(key);
        const value =
          type === 'string'
            ? await redis.get(key)
            : type === 'list'
              ? await redis.lrange(key, 0, -1)
              : type === 'set'
                ? (await redis.smembers(key)).sort()
                : type === 'zset'
                  ? await redis.zrange(key, 0, -1, 'WITHSCORES')
                  : await redis.hgetall(key);
        found.set(key, `${type} ${JSON.stringify(value)}`);
      }
      return found;
    };

    it('makes each token account 1, changes nothing else, and a second run writes nothing', async () => {
      const before = await readAll(target.chats);
      const watchesBefore = await Promise.all(
        (await target.watches.ids()).map((id) => target.watches.read(id)),
      );
      expect((await upgradeAllChats(target.chats, keyring)).upgraded).toBe(3);
      await expectUpgraded(target.chats, before);
      const upgraded = await values();
      for (const value of upgraded.values()) expectNothingInClear(value ?? '');
      expect(await Promise.all((await target.watches.ids()).map((id) => target.watches.read(id)))).toEqual(
        watchesBefore,
      );
      expect((await upgradeAllChats(target.chats, keyring)).upgraded).toBe(0);
      expect(await values()).toEqual(upgraded);
    });

    it('two instances running the pass at once write each chat once', async () => {
      const before = await readAll(target.chats);
      const second = createRedisStore({ redis: new Redis(redisUrl ?? ''), prefix });
      const [a, b] = await Promise.all([
        upgradeAllChats(target.chats, keyring),
        upgradeAllChats(second, keyring),
      ]);
      expect(a.upgraded + b.upgraded).toBe(3);
      expect(a.unchanged + b.unchanged).toBe(5);
      await expectUpgraded(target.chats, before);
      await second.close();
    });

    it('the bot’s own writes of a chat during the pass are kept, and the pass is retried on the fresh document', async () => {
      const chat = facts.chats.partner;
      // Another instance writes the chat between this pass's read and its compare-and-set, for the
      // first two attempts: the change function must run again over what that instance wrote.
      const other = new Redis(redisUrl ?? '');
      const otherStore = createRedisStore({ redis: other, prefix });
      const own = new Redis(redisUrl ?? '');
      const evalsha = own.evalsha.bind(own);
      let interfered = 0;
      own.evalsha = (async (...args: Parameters<typeof evalsha>) => {
        if (interfered < 2) {
          interfered += 1;
          const n = interfered;
          await otherStore.update(chat, (d) => ({ ...d, lastCurrencyId: 100 + n }));
        }
        return evalsha(...args);
      }) as typeof own.evalsha;
      const store = createRedisStore({ redis: own, prefix });
      let runs = 0;
      const counting: ChatStore = {
        ...store,
        read: (id) => store.read(id),
        update: (id, change) =>
          store.update(id, (doc) => {
            runs += 1;
            return change(doc);
          }),
      };
      expect(await upgradeChat(counting, keyring, chat)).toBe('upgraded');
      expect(runs).toBe(3);
      const doc = await target.chats.read(chat);
      expect(doc?.token).toBeUndefined();
      expect(doc?.lastCurrencyId).toBe(102);
      expect(Object.keys(doc?.accounts ?? {})).toEqual(['1']);
      expect(await createChatData({ store: target.chats, keyring }).getToken(chat)).toBe(facts.tokens.A);
      await store.close();
      await otherStore.close();
      own.disconnect();
      other.disconnect();
    });
  });
});

describe('upgradeAccounts', () => {
  const sealed = (text: string, chat: number) => keyring.seal(text, chat);

  it('is idempotent and keeps newer per-account settings over old ones, as the getters read them', () => {
    const doc: ChatDoc = { token: sealed('t', 5), notify: { off: ['newInvoice'] } };
    const once = upgradeAccounts(doc, 5, keyring);
    expect(once?.notifyByAccount).toEqual({ 1: { off: ['newInvoice'] } });
    expect(once && upgradeAccounts(once, 5, keyring)).toBeUndefined();
    // Old settings beside per-account ones are ignored by the getters: the upgrade drops them too.
    const mixed: ChatDoc = { accounts: {}, notify: { off: ['a'] }, notifyByAccount: { 2: { off: ['b'] } } };
    expect(upgradeAccounts(mixed, 5, keyring)?.notifyByAccount).toEqual({ 2: { off: ['b'] } });
  });
});
