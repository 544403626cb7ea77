/**
 * One contract, two stores: every `ChatStore` behaves the same to the bot. The lowdb store runs
 * against a fresh temp dir; the Redis store runs only when REDIS_URL is set, under a key prefix
 * unique to this run that is deleted afterwards.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createChatData, type UnreadableSecret } from '../../src/storage/chat-data.js';
import { CorruptChatDocError, StoreClosedError } from '../../src/storage/chat-doc.js';
import type { ChatDoc, ChatStore } from '../../src/storage/chat-store.js';
import { parseEncryptionKeys, SealError } from '../../src/storage/crypto.js';
import { createLowdbStore, locateChatFile } from '../../src/storage/lowdb-store.js';
import { createRedisStore, formatChatKey, UpdateConflictError } from '../../src/storage/redis-store.js';

const TOKEN = 'tok_4f9a2c7e51b84d0e9f3a6c2b';
const CHAT = 987_654_321;
const GROUP = -1_001_987_654_321;
const keyA = `a:${randomBytes(32).toString('base64')}`;
const keyB = `b:${randomBytes(32).toString('base64')}`;

/** What the contract needs from a backend besides the store itself. */
interface Backend {
  /** A store instance; a second call gives a new instance over the same data ("a restart"). */
  open(): ChatStore;
  /** The stored bytes of a chat (file content / redis value), undefined when nothing is stored. */
  readRaw(chatId: number): Promise<string | undefined>;
  /** Starts watching a chat's stored value for writes. */
  markUnwritten(chatId: number): Promise<void>;
  /** Whether the chat's stored value was written (or removed) since `markUnwritten`. */
  wasWritten(chatId: number): Promise<boolean>;
  /** Stores these bytes as the chat's value, bypassing the store (damage from outside). */
  writeRaw(chatId: number, text: string): Promise<void>;
  /** The bytes at a place `setAside` returned; undefined when nothing is there. */
  readAside(where: string): Promise<string | undefined>;
  /** What a set-aside place of the chat looks like. */
  asidePattern(chatId: number): RegExp;
}

const increment = (doc: ChatDoc): ChatDoc => ({ ...doc, lastCurrencyId: (doc.lastCurrencyId ?? 0) + 1 });
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function describeChatStoreContract(setup: () => { backend: Backend; cleanup: () => Promise<void> }): void {
  let backend: Backend;
  let cleanup: () => Promise<void>;
  let store: ChatStore;
  const opened: ChatStore[] = [];
  const open = (): ChatStore => {
    const created = backend.open();
    opened.push(created);
    return created;
  };

  beforeEach(() => {
    ({ backend, cleanup } = setup());
    store = open();
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((each) => each.close()));
    await cleanup();
  });

  it('reads an absent chat as undefined', async () => {
    expect(await store.read(CHAT)).toBeUndefined();
    expect(await backend.readRaw(CHAT)).toBeUndefined();
  });

  it('updates and reads back, handing `change` the current document', async () => {
    const seen: ChatDoc[] = [];
    const first = await store.update(CHAT, (doc) => {
      seen.push(doc);
      return { ...doc, locale: 'en' };
    });
    expect(first).toEqual({ locale: 'en' });
    await store.update(CHAT, (doc) => {
      seen.push(doc);
      return { ...doc, lastCurrencyId: 3, session: { __scenes: { current: 'order' } } };
    });
    expect(seen).toEqual([{}, { locale: 'en' }]);
    expect(await store.read(CHAT)).toEqual({
      locale: 'en',
      lastCurrencyId: 3,
      session: { __scenes: { current: 'order' } },
    });
  });

  it('returns copies: mutating a result or the `change` argument does not reach the store', async () => {
    // The store keeps documents opaque: an object session (as earlier versions wrote) is nested JSON.
    const result = await store.update(CHAT, () => ({ session: { step: 1 } }));
    expect(typeof result.session).toBe('object');
    if (typeof result.session === 'object') result.session.step = 99;
    const read = await store.read(CHAT);
    expect(typeof read?.session).toBe('object');
    if (typeof read?.session === 'object') read.session.step = 98;
    await expect(
      store.update(CHAT, (doc) => {
        if (typeof doc.session === 'object') doc.session.step = 97;
        throw new Error('change failed');
      }),
    ).rejects.toThrow('change failed');
    expect(await store.read(CHAT)).toEqual({ session: { step: 1 } });
  });

  it('removes a chat, and removing an absent chat is fine', async () => {
    await store.update(CHAT, () => ({ locale: 'ru' }));
    await store.remove(CHAT);
    expect(await store.read(CHAT)).toBeUndefined();
    expect(await backend.readRaw(CHAT)).toBeUndefined();
    await store.remove(CHAT);
    await store.update(CHAT, (doc) => {
      expect(doc).toEqual({});
      return { locale: 'en' };
    });
    expect(await store.read(CHAT)).toEqual({ locale: 'en' });
  });

  it('removes the chat when an update leaves the document empty', async () => {
    await store.update(CHAT, () => ({ locale: 'ru', lastCurrencyId: 1 }));
    expect(await store.update(CHAT, () => ({ locale: undefined }) as unknown as ChatDoc)).toEqual({});
    expect(await store.read(CHAT)).toBeUndefined();
    expect(await backend.readRaw(CHAT)).toBeUndefined();
  });

  it('writes nothing when the result equals the current document, whatever its key order', async () => {
    await store.update(CHAT, () => ({ locale: 'en', lastCurrencyId: 2, session: { a: 1, b: [1, 2] } }));
    await backend.markUnwritten(CHAT);
    await store.update(CHAT, (doc) => doc);
    await store.update(CHAT, (doc) => ({ ...doc }));
    await store.update(CHAT, () => ({ session: { b: [1, 2], a: 1 }, lastCurrencyId: 2, locale: 'en' }));
    expect(await backend.wasWritten(CHAT)).toBe(false);
    // The probe itself can fail: a real change is noticed.
    await store.update(CHAT, (doc) => ({ ...doc, lastCurrencyId: 3 }));
    expect(await backend.wasWritten(CHAT)).toBe(true);
  });

  it('writes nothing for an absent chat updated to empty', async () => {
    expect(await store.update(CHAT, () => ({}))).toEqual({});
    expect(await backend.readRaw(CHAT)).toBeUndefined();
  });

  it('touches only the updated chat', async () => {
    await store.update(CHAT, () => ({ locale: 'en' }));
    await store.update(CHAT + 100, () => ({ locale: 'en' }));
    await backend.markUnwritten(CHAT + 100);
    await store.update(CHAT, () => ({ locale: 'ru' }));
    await store.remove(CHAT);
    expect(await backend.wasWritten(CHAT + 100)).toBe(false);
  });

  it('loses none of 200 concurrent updates on one chat', async () => {
    const results = await Promise.all(Array.from({ length: 200 }, () => store.update(CHAT, increment)));
    expect(await store.read(CHAT)).toEqual({ lastCurrencyId: 200 });
    // Each update saw a distinct predecessor: they ran one after another.
    expect(new Set(results.map((doc) => doc.lastCurrencyId)).size).toBe(200);
  });

  it('keeps chats apart under concurrent updates to many chats', async () => {
    const chats = Array.from({ length: 20 }, (_, index) => CHAT + index);
    await Promise.all(
      chats.flatMap((chatId) => Array.from({ length: 10 }, () => store.update(chatId, increment))),
    );
    for (const chatId of chats) expect(await store.read(chatId)).toEqual({ lastCurrencyId: 10 });
  });

  it('keeps data across a restart, and close() waits for pending writes', async () => {
    const pending = Array.from({ length: 20 }, () => store.update(CHAT, increment));
    const group = store.update(GROUP, () => ({ locale: 'en' }));
    await store.close();
    await Promise.all([...pending, group]);
    await expect(store.read(CHAT)).rejects.toThrow(StoreClosedError);
    const restarted = open();
    expect(await restarted.read(CHAT)).toEqual({ lastCurrencyId: 20 });
    expect(await restarted.read(GROUP)).toEqual({ locale: 'en' });
  });

  it('stores negative (group) chat ids apart from the positive id with the same digits', async () => {
    await store.update(GROUP, () => ({ locale: 'en' }));
    await store.update(-GROUP, () => ({ locale: 'ru' }));
    expect(await store.read(GROUP)).toEqual({ locale: 'en' });
    expect(await store.read(-GROUP)).toEqual({ locale: 'ru' });
    await store.remove(GROUP);
    expect(await store.read(GROUP)).toBeUndefined();
    expect(await store.read(-GROUP)).toEqual({ locale: 'ru' });
  });

  it('rejects chat ids that are not safe integers', async () => {
    await expect(store.read(1.5)).rejects.toThrow(TypeError);
    await expect(store.update(Number.NaN, (doc) => doc)).rejects.toThrow(TypeError);
  });

  it('counts the chats that have a document, not removed or set-aside ones', async () => {
    expect(await store.count()).toBe(0);
    for (const id of [CHAT, -CHAT, 7, 1_000_007]) await store.update(id, () => ({ locale: 'ru' }));
    await store.update(42, () => ({ locale: 'en' }));
    await store.remove(42);
    expect(await store.count()).toBe(4);
    await backend.writeRaw(99, '{"locale": "en", "token": "v1.a.');
    expect(await store.count()).toBe(5);
    await store.setAside(99);
    expect(await store.count()).toBe(4);
  });

  describe('setAside', () => {
    it.each([
      ['not JSON', '{"locale": "en", "token": "v1.a.'],
      ['JSON but not an object', '["locale", "en"]'],
    ])('moves a record that is %s aside, keeps it, and the chat starts over', async (_kind, damaged) => {
      await backend.writeRaw(CHAT, damaged);
      await expect(store.read(CHAT)).rejects.toThrow(CorruptChatDocError);
      await expect(store.update(CHAT, (doc) => doc)).rejects.toThrow(CorruptChatDocError);

      const where = await store.setAside(CHAT);
      expect(where).toMatch(backend.asidePattern(CHAT));
      expect(await backend.readAside(where ?? '')).toBe(damaged);
      expect(await backend.readRaw(CHAT)).toBeUndefined();
      expect(await store.read(CHAT)).toBeUndefined();
      expect(await store.update(CHAT, (doc) => ({ ...doc, locale: 'ru' }))).toEqual({ locale: 'ru' });
      expect(await store.read(CHAT)).toEqual({ locale: 'ru' });
      // The new record reads fine: nothing more is moved, and the copy stays.
      expect(await store.setAside(CHAT)).toBeUndefined();
      expect(await backend.readAside(where ?? '')).toBe(damaged);
      expect(await open().read(CHAT)).toEqual({ locale: 'ru' });
    });

    it('leaves a readable record in place, garbage in its sealed fields included', async () => {
      expect(await store.setAside(CHAT)).toBeUndefined();
      const readable = '{"locale":"en","token":"not-a-sealed-value"}';
      await backend.writeRaw(CHAT, readable);
      expect(await store.setAside(CHAT)).toBeUndefined();
      expect(await backend.readRaw(CHAT)).toBe(readable);
      expect(await store.read(CHAT)).toEqual({ locale: 'en', token: 'not-a-sealed-value' });
    });

    it('moves only the damaged chat', async () => {
      await store.update(CHAT + 1, () => ({ locale: 'en' }));
      await backend.writeRaw(CHAT, 'garbage');
      expect(await store.setAside(CHAT)).toMatch(backend.asidePattern(CHAT));
      expect(await store.read(CHAT + 1)).toEqual({ locale: 'en' });
    });
  });

  describe('through chat-data', () => {
    it('never stores the token or profiles in clear text, and reads them back after a restart', async () => {
      const keyring = parseEncryptionKeys(keyA);
      const data = createChatData({ store, keyring });
      await data.setToken(CHAT, TOKEN);
      await data.saveProfile(CHAT, { id: 'p1', label: 'ООО Ромашка', data: { unp: '191234563' } });
      const raw = await backend.readRaw(CHAT);
      expect(raw).toBeDefined();
      expect(raw).not.toContain(TOKEN);
      expect(raw).not.toContain('191234563');
      expect(raw).not.toContain(Buffer.from(TOKEN).toString('base64'));
      expect(JSON.parse(raw ?? '{}')).toMatchObject({ accounts: { '1': expect.stringMatching(/^v1\.a\./) } });

      await store.close();
      const again = createChatData({ store: open(), keyring: parseEncryptionKeys(keyA) });
      expect(await again.getToken(CHAT)).toBe(TOKEN);
      expect(await again.getProfiles(CHAT)).toEqual([
        { id: 'p1', label: 'ООО Ромашка', data: { unp: '191234563' } },
      ]);
    });

    it('reads a token whose key was removed as undefined and reports it without the token', async () => {
      await createChatData({ store, keyring: parseEncryptionKeys(keyA) }).setToken(CHAT, TOKEN);
      const events: UnreadableSecret[] = [];
      const rotated = createChatData({
        store,
        keyring: parseEncryptionKeys(keyB),
        onUnreadable: (event) => events.push(event),
      });
      expect(await rotated.getToken(CHAT)).toBeUndefined();
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ chatId: CHAT, field: 'token' });
      expect(events[0]?.error).toBeInstanceOf(SealError);
      expect(JSON.stringify(events)).not.toContain(TOKEN);
      // Kept in place: with both keys configured it opens again.
      const both = createChatData({ store, keyring: parseEncryptionKeys(`${keyB},${keyA}`) });
      expect(await both.getToken(CHAT)).toBe(TOKEN);
      await both.setToken(CHAT, TOKEN);
      expect(await backend.readRaw(CHAT)).toMatch(/"v1\.b\./);
      await both.clearToken(CHAT);
      expect(await both.getToken(CHAT)).toBeUndefined();
      expect(await backend.readRaw(CHAT)).toBeUndefined();
    });

    it('does not open a token copied from another chat', async () => {
      const keyring = parseEncryptionKeys(keyA);
      const events: UnreadableSecret[] = [];
      const data = createChatData({ store, keyring, onUnreadable: (event) => events.push(event) });
      await data.setToken(CHAT, TOKEN);
      const stolen = (await store.read(CHAT))?.accounts?.['1'];
      await store.update(GROUP, () => (stolen === undefined ? {} : { accounts: { '1': stolen } }));
      expect(await data.getToken(GROUP)).toBeUndefined();
      expect(events.map((event) => event.chatId)).toEqual([GROUP]);
    });

    it('keeps profiles: upsert by id in place, delete, last one removes the field', async () => {
      const data = createChatData({ store, keyring: parseEncryptionKeys(keyA) });
      expect(await data.getProfiles(CHAT)).toEqual([]);
      await data.saveProfile(CHAT, { id: 'a', label: 'A', data: 1 });
      await data.saveProfile(CHAT, { id: 'b', label: 'B', data: 2 });
      await data.saveProfile(CHAT, { id: 'a', label: 'A2', data: 3 });
      expect(await data.getProfiles(CHAT)).toEqual([
        { id: 'a', label: 'A2', data: 3 },
        { id: 'b', label: 'B', data: 2 },
      ]);
      expect(await data.deleteProfile(CHAT, 'missing')).toBe(false);
      expect(await data.deleteProfile(CHAT, 'a')).toBe(true);
      expect(await data.deleteProfile(CHAT, 'b')).toBe(true);
      expect(await store.read(CHAT)).toBeUndefined();
    });

    it('keeps locale and last currency, and wipe forgets everything', async () => {
      const data = createChatData({ store, keyring: parseEncryptionKeys(keyA) });
      expect(await data.getLocale(CHAT)).toBeUndefined();
      await data.setLocale(CHAT, 'en');
      await data.setLastCurrencyId(CHAT, 933);
      await data.setToken(CHAT, TOKEN);
      expect(await data.getLocale(CHAT)).toBe('en');
      expect(await data.getLastCurrencyId(CHAT)).toBe(933);
      await data.wipe(CHAT);
      expect(await store.read(CHAT)).toBeUndefined();
      expect(await data.getToken(CHAT)).toBeUndefined();
    });

    it('serves as a telegraf session store keyed by chat id', async () => {
      const sessions = createChatData({ store, keyring: parseEncryptionKeys(keyA) }).sessionStore<{
        step?: number;
        __scenes?: { current?: string };
      }>();
      const key = String(GROUP);
      expect(await sessions.get(key)).toBeUndefined();
      await sessions.set(key, { step: 1, __scenes: { current: 'order' } });
      expect(await sessions.get(key)).toEqual({ step: 1, __scenes: { current: 'order' } });
      expect(await store.read(GROUP)).toEqual({ session: expect.stringMatching(/^v1\.a\./) });

      await backend.markUnwritten(GROUP);
      await sessions.set(key, { __scenes: { current: 'order' }, step: 1 });
      expect(await backend.wasWritten(GROUP)).toBe(false);

      // An empty session is stored as none at all.
      await sessions.set(key, {});
      expect(await sessions.get(key)).toBeUndefined();
      expect(await backend.readRaw(GROUP)).toBeUndefined();

      await sessions.set(key, { step: 2 });
      await sessions.delete(key);
      expect(await store.read(GROUP)).toBeUndefined();
      await expect(sessions.get(`42:${GROUP}`)).rejects.toThrow(/getSessionKey/);
    });

    it('seals the session: an order draft never lies in clear text', async () => {
      const draft = {
        __scenes: {
          current: 'order',
          state: { answers: { lastName: 'Крапивницкая', identityNumber: '3140390A001PB3' } },
        },
      };
      const sessions = createChatData({ store, keyring: parseEncryptionKeys(keyA) }).sessionStore<object>();
      await sessions.set(String(CHAT), draft);
      const raw = await backend.readRaw(CHAT);
      expect(raw).not.toContain('3140390A001PB3');
      expect(raw).not.toContain('Крапивницкая');
      expect(raw).not.toContain('order');
      await store.close();
      const again = createChatData({ store: open(), keyring: parseEncryptionKeys(keyA) });
      expect(await again.sessionStore().get(String(CHAT))).toEqual(draft);
    });

    it('reads a session stored in clear by the previous version, and seals it on the next write', async () => {
      const legacy = { __scenes: { current: 'order', state: { answers: { lastName: 'Крапивницкая' } } } };
      await store.update(CHAT, () => ({ locale: 'ru', session: legacy }));
      const sessions = createChatData({ store, keyring: parseEncryptionKeys(keyA) }).sessionStore<object>();
      expect(await sessions.get(String(CHAT))).toEqual(legacy);
      // The same session written back (as telegraf does after every update) is sealed.
      await sessions.set(String(CHAT), legacy);
      expect(await backend.readRaw(CHAT)).not.toContain('Крапивницкая');
      expect(await store.read(CHAT)).toEqual({ locale: 'ru', session: expect.stringMatching(/^v1\.a\./) });
      expect(await sessions.get(String(CHAT))).toEqual(legacy);
    });

    it('reads a session whose key was removed as none, reports it, and the next write replaces it', async () => {
      const key = String(CHAT);
      await createChatData({ store, keyring: parseEncryptionKeys(keyA) })
        .sessionStore<object>()
        .set(key, { __scenes: { current: 'order' } });
      const events: UnreadableSecret[] = [];
      const rotated = createChatData({
        store,
        keyring: parseEncryptionKeys(keyB),
        onUnreadable: (event) => events.push(event),
      }).sessionStore<object>();
      expect(await rotated.get(key)).toBeUndefined();
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ chatId: CHAT, field: 'session' });
      expect(events[0]?.error).toBeInstanceOf(SealError);
      // Left in place until written: with both keys it opens again.
      const both = createChatData({ store, keyring: parseEncryptionKeys(`${keyB},${keyA}`) });
      expect(await both.sessionStore().get(key)).toEqual({ __scenes: { current: 'order' } });
      // telegraf writes the default (empty) session back: the draft that did not open is gone.
      await rotated.set(key, { __scenes: {} });
      expect(await backend.readRaw(CHAT)).toBeUndefined();
      expect(events).toHaveLength(1);
    });
  });
}

describe('lowdb store', () => {
  describeChatStoreContract(() => {
    const dir = path.join(tmpdir(), `chat-store-${randomUUID()}`);
    const marks = new Map<number, string>();
    const fingerprint = async (chatId: number): Promise<string> => {
      try {
        // Every lowdb write renames a new file into place, so the inode changes with each write.
        const { ino, mtimeMs } = await stat(locateChatFile(dir, chatId));
        return `${ino}:${mtimeMs}`;
      } catch {
        return 'absent';
      }
    };
    return {
      backend: {
        open: () => createLowdbStore({ dataDir: dir }),
        readRaw: async (chatId) => readFile(locateChatFile(dir, chatId), 'utf8').catch(() => undefined),
        markUnwritten: async (chatId) => {
          marks.set(chatId, await fingerprint(chatId));
        },
        wasWritten: async (chatId) => marks.get(chatId) !== (await fingerprint(chatId)),
        writeRaw: async (chatId, text) => {
          const file = locateChatFile(dir, chatId);
          await mkdir(path.dirname(file), { recursive: true });
          await writeFile(file, text);
        },
        readAside: async (where) => readFile(where, 'utf8').catch(() => undefined),
        asidePattern: (chatId) =>
          new RegExp(
            `^${escapeRegExp(locateChatFile(dir, chatId))}\\.damaged-\\d{4}-\\d\\d-\\d\\dT[\\d-]+Z$`,
          ),
      },
      cleanup: () => rm(dir, { recursive: true, force: true }),
    };
  });

  describe('files', () => {
    let dir: string;
    beforeEach(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'chat-store-files-'));
    });
    afterEach(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('shards one file per chat by the last two digits of |chatId|', async () => {
      const store = createLowdbStore({ dataDir: dir });
      await store.update(1234, () => ({ locale: 'en' }));
      await store.update(-1001234, () => ({ locale: 'ru' }));
      await store.update(7, () => ({ locale: 'ru' }));
      await store.close();
      expect(locateChatFile(dir, -1001234)).toBe(path.join(dir, 'chats', '34', '-1001234.json'));
      expect((await readdir(path.join(dir, 'chats', '34'))).sort()).toEqual(['-1001234.json', '1234.json']);
      expect(await readdir(path.join(dir, 'chats', '07'))).toEqual(['7.json']);
      expect(JSON.parse(await readFile(path.join(dir, 'chats', '07', '7.json'), 'utf8'))).toEqual({
        locale: 'ru',
      });
    });

    it('reports a damaged file with its path, and can still remove it', async () => {
      const file = locateChatFile(dir, CHAT);
      const store = createLowdbStore({ dataDir: dir });
      await store.update(CHAT, () => ({ locale: 'en' }));
      await store.close();
      await writeFile(file, '{"locale": "en"');
      const reopened = createLowdbStore({ dataDir: dir });
      await expect(reopened.read(CHAT)).rejects.toThrow(CorruptChatDocError);
      await expect(reopened.read(CHAT)).rejects.toThrow(file);
      await reopened.remove(CHAT);
      expect(await reopened.read(CHAT)).toBeUndefined();
      await reopened.close();
    });

    it('re-reads chats evicted from a small cache without losing updates', async () => {
      const store = createLowdbStore({ dataDir: dir, cacheSize: 2 });
      const chats = [1, 2, 3, 4, 5];
      for (let round = 0; round < 3; round++) {
        await Promise.all(chats.map((chatId) => store.update(chatId, increment)));
      }
      for (const chatId of chats) expect(await store.read(chatId)).toEqual({ lastCurrencyId: 3 });
      await store.close();
    });
  });
});

const redisUrl = process.env.REDIS_URL;
if (!redisUrl) console.warn('REDIS_URL is not set: the Redis ChatStore suite is skipped.');

describe.skipIf(!redisUrl)('redis store', () => {
  const runPrefix = `test:chat-store:${randomUUID()}:`;
  const connections: Redis[] = [];
  const connect = (): Redis => {
    const redis = new Redis(redisUrl ?? '', { lazyConnect: false, maxRetriesPerRequest: 2 });
    connections.push(redis);
    return redis;
  };
  let admin: Redis;

  beforeAll(() => {
    admin = connect();
  });

  afterAll(async () => {
    if (admin !== undefined) {
      let cursor = '0';
      do {
        const [next, keys] = await admin.scan(cursor, 'MATCH', `${runPrefix}*`, 'COUNT', 500);
        cursor = next;
        if (keys.length > 0) await admin.del(...keys);
      } while (cursor !== '0');
    }
    await Promise.all(connections.map((redis) => redis.quit()));
  });

  describeChatStoreContract(() => {
    const prefix = `${runPrefix}${randomUUID()}:`;
    const client = connect();
    return {
      backend: {
        open: () => createRedisStore({ redis: client, prefix }),
        readRaw: async (chatId) => (await admin.get(formatChatKey(prefix, chatId))) ?? undefined,
        // SET clears a key's TTL, so a TTL still running proves no write happened.
        markUnwritten: async (chatId) => {
          await admin.expire(formatChatKey(prefix, chatId), 3600);
        },
        wasWritten: async (chatId) => (await admin.ttl(formatChatKey(prefix, chatId))) <= 0,
        writeRaw: async (chatId, text) => {
          await admin.set(formatChatKey(prefix, chatId), text);
        },
        readAside: async (where) => (await admin.get(where)) ?? undefined,
        asidePattern: (chatId) =>
          new RegExp(
            `^${escapeRegExp(formatChatKey(prefix, chatId))}:damaged:\\d{4}-\\d\\d-\\d\\dT[\\d-]+Z$`,
          ),
      },
      cleanup: async () => {
        const keys = await admin.keys(`${prefix}*`);
        if (keys.length > 0) await admin.del(...keys);
      },
    };
  });

  it('loses nothing when two clients (separate connections) update one chat concurrently', async () => {
    const prefix = `${runPrefix}two-clients:`;
    const first = createRedisStore({ redis: connect(), prefix });
    const second = createRedisStore({ redis: connect(), prefix });
    await Promise.all(
      Array.from({ length: 200 }, (_, index) => (index % 2 === 0 ? first : second).update(CHAT, increment)),
    );
    expect(await first.read(CHAT)).toEqual({ lastCurrencyId: 200 });
    await Promise.all([first.close(), second.close()]);
  });

  it('gives up with UpdateConflictError when another writer changes the chat before every write', async () => {
    const redis = connect();
    const prefix = `${runPrefix}conflict:`;
    const store = createRedisStore({ redis, prefix, maxAttempts: 3 });
    let runs = 0;
    const failed = store.update(CHAT, (doc) => {
      runs++;
      // Sent on the store's own connection, so it lands before the store's compare-and-set.
      void redis.set(formatChatKey(prefix, CHAT), JSON.stringify({ lastCurrencyId: 100 + runs }));
      return increment(doc);
    });
    await expect(failed).rejects.toThrow(UpdateConflictError);
    await expect(failed).rejects.toThrow(`chat ${CHAT} kept changing; gave up after 3 attempts`);
    expect(runs).toBe(3);
    expect(await store.read(CHAT)).toEqual({ lastCurrencyId: 103 });
    await store.close();
  });

  it('leaves the connection open on close: quitting it is the caller’s job', async () => {
    const redis = connect();
    const store = createRedisStore({ redis, prefix: `${runPrefix}close:` });
    await store.update(CHAT, () => ({ locale: 'en' }));
    await store.close();
    expect(await redis.ping()).toBe('PONG');
  });

  it('reloads its script after SCRIPT FLUSH', async () => {
    const prefix = `${runPrefix}flush:`;
    const store = createRedisStore({ redis: connect(), prefix });
    await store.update(CHAT, increment);
    await admin.script('FLUSH');
    await store.update(CHAT, increment);
    expect(await store.read(CHAT)).toEqual({ lastCurrencyId: 2 });
    await store.close();
  });
});
