/**
 * `ChatData.withChat`: one store read per chat while a task runs, writes still through
 * `ChatStore.update` and seen by later reads, and an unchanged session left unwritten without
 * opening it again.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createChatData } from '../../src/storage/chat-data.js';
import type { ChatDoc, ChatStore } from '../../src/storage/chat-store.js';
import { createKeyring, type Keyring } from '../../src/storage/crypto.js';

const CHAT = 555_000_111;

/** An in-memory ChatStore counting its calls; `failReads` makes the next reads throw. */
function countingStore() {
  const docs = new Map<number, ChatDoc>();
  const counts = { read: 0, update: 0 };
  let failReads = 0;
  const store: ChatStore = {
    async read(chatId) {
      counts.read++;
      if (failReads > 0) {
        failReads--;
        throw new Error('store unavailable');
      }
      const doc = docs.get(chatId);
      return doc === undefined ? undefined : structuredClone(doc);
    },
    async update(chatId, change) {
      counts.update++;
      const next = change(structuredClone(docs.get(chatId) ?? {}));
      if (Object.keys(next).length === 0) docs.delete(chatId);
      else docs.set(chatId, structuredClone(next));
      return next;
    },
    async remove(chatId) {
      docs.delete(chatId);
    },
    async setAside() {
      return undefined;
    },
    async count() {
      return docs.size;
    },
    async ids() {
      return [...docs.keys()];
    },
    async close() {},
  };
  return { store, docs, counts, failNextReads: (n: number) => (failReads = n) };
}

function setup() {
  const backing = countingStore();
  const keyring = createKeyring([{ id: 'k', key: randomBytes(32) }]);
  let opens = 0;
  const counted: Keyring = {
    currentKeyId: keyring.currentKeyId,
    keyIds: keyring.keyIds,
    seal: (plaintext, chatId) => keyring.seal(plaintext, chatId),
    open: (sealed, chatId) => {
      opens++;
      return keyring.open(sealed, chatId);
    },
  };
  const chatData = createChatData({ store: backing.store, keyring: counted });
  return { ...backing, chatData, opens: () => opens };
}

describe('ChatData.withChat', () => {
  it('reads the chat once for locale, token, profiles, currency and session together', async () => {
    const { chatData, counts } = setup();
    await chatData.setLocale(CHAT, 'en');
    await chatData.setToken(CHAT, 'tok_secret');
    await chatData.sessionStore<object>().set(String(CHAT), { __scenes: { current: 'x' } });
    counts.read = 0;
    const seen = await chatData.withChat(CHAT, async () => [
      await chatData.getLocale(CHAT),
      await chatData.getToken(CHAT),
      await chatData.getProfiles(CHAT),
      await chatData.getLastCurrencyId(CHAT),
      await chatData.sessionStore<object>().get(String(CHAT)),
    ]);
    expect(seen).toEqual(['en', 'tok_secret', [], undefined, { __scenes: { current: 'x' } }]);
    expect(counts.read).toBe(1);
    // Outside the scope every getter reads again.
    await chatData.getLocale(CHAT);
    await chatData.getToken(CHAT);
    expect(counts.read).toBe(3);
  });

  it('writes through the store, and later reads in the scope see the write without reading again', async () => {
    const { chatData, counts, docs } = setup();
    await chatData.withChat(CHAT, async () => {
      expect(await chatData.getLocale(CHAT)).toBeUndefined();
      await chatData.setLocale(CHAT, 'ru');
      await chatData.setToken(CHAT, 'tok_new');
      expect(await chatData.getLocale(CHAT)).toBe('ru');
      expect(await chatData.getToken(CHAT)).toBe('tok_new');
      await chatData.clearToken(CHAT);
      expect(await chatData.getToken(CHAT)).toBeUndefined();
      await chatData.wipe(CHAT);
      expect(await chatData.getLocale(CHAT)).toBeUndefined();
    });
    expect(counts.read).toBe(1);
    expect(counts.update).toBe(3);
    expect(docs.has(CHAT)).toBe(false);
  });

  it('does not keep a failed read: the next read in the scope asks the store again', async () => {
    const { chatData, counts, failNextReads } = setup();
    await chatData.setLocale(CHAT, 'en');
    counts.read = 0;
    failNextReads(1);
    await chatData.withChat(CHAT, async () => {
      await expect(chatData.getLocale(CHAT)).rejects.toThrow('store unavailable');
      expect(await chatData.getLocale(CHAT)).toBe('en');
      expect(await chatData.getLocale(CHAT)).toBe('en');
    });
    expect(counts.read).toBe(2);
  });

  it('leaves an unchanged session unwritten without opening it again; a changed one is sealed once', async () => {
    const { chatData, counts, docs, opens } = setup();
    const sessions = chatData.sessionStore<Record<string, unknown>>();
    const key = String(CHAT);
    await sessions.set(key, { draft: { name: 'Анна' } });
    const sealedBefore = docs.get(CHAT)?.session;
    counts.update = 0;
    const opensBefore = opens();
    await chatData.withChat(CHAT, async () => {
      const session = await sessions.get(key);
      await sessions.set(key, { ...session });
    });
    expect(opens() - opensBefore).toBe(1);
    expect(counts.update).toBe(0);
    expect(docs.get(CHAT)?.session).toBe(sealedBefore);

    await chatData.withChat(CHAT, async () => {
      await sessions.set(key, { draft: { name: 'Ivan' } });
      // The engine writes mid-update, telegraf writes the same session back at the end.
      await sessions.set(key, { draft: { name: 'Ivan' } });
    });
    expect(counts.update).toBe(1);
    expect(await sessions.get(key)).toEqual({ draft: { name: 'Ivan' } });
  });

  it('stores an empty session as none, and writes nothing for it when none is stored', async () => {
    const { chatData, counts, docs } = setup();
    const sessions = chatData.sessionStore<object>();
    await chatData.setLocale(CHAT, 'en');
    await sessions.set(String(CHAT), { __scenes: { current: 'token' } });
    counts.update = 0;
    await chatData.withChat(CHAT, async () => {
      await sessions.get(String(CHAT));
      await sessions.set(String(CHAT), { __scenes: {} });
      await sessions.set(String(CHAT), { __scenes: {} });
    });
    expect(counts.update).toBe(1);
    expect(docs.get(CHAT)).toEqual({ locale: 'en' });
  });

  it('keeps scopes of different chats apart, and nested scopes share one read', async () => {
    const { chatData, counts } = setup();
    await chatData.setLocale(CHAT, 'en');
    await chatData.setLocale(CHAT + 1, 'ru');
    counts.read = 0;
    await chatData.withChat(CHAT, () =>
      chatData.withChat(CHAT + 1, async () => {
        expect(await chatData.getLocale(CHAT)).toBe('en');
        await chatData.withChat(CHAT, async () => expect(await chatData.getLocale(CHAT)).toBe('en'));
        expect(await chatData.getLocale(CHAT + 1)).toBe('ru');
      }),
    );
    expect(counts.read).toBe(2);
  });
});
