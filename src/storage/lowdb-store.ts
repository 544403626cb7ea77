/**
 * `ChatStore` on lowdb for a single bot process. lowdb rewrites a whole file per write, so each
 * chat gets its own small file and an update costs the same at ten chats as at ten thousand:
 * `<dataDir>/chats/<last two digits of |chatId|>/<chatId>.json` (the subfolders keep directories
 * short; group chats have negative ids, hence `|chatId|` for the folder only).
 *
 * `JSONFilePreset` is avoided on purpose: it silently switches to memory when NODE_ENV=test.
 */
import { rename } from 'node:fs/promises';
import path from 'node:path';
import { Low } from 'lowdb';
import { DataFile } from 'lowdb/node';
import {
  assertChatId,
  cloneChatDoc,
  formatSetAsideTime,
  isEmptyChatDoc,
  isReadableChatDoc,
  normalizeChatDoc,
  parseChatDoc,
  serializeChatDoc,
} from './chat-doc.js';
import { createStoreQueue } from './chat-queue.js';
import type { ChatDoc, ChatStore } from './chat-store.js';
import { createDirectoryMaker, readdirIfPresent, readFileIfPresent, unlinkIfPresent } from './files.js';

/** Options of `createLowdbStore`. */
export interface LowdbStoreOptions {
  /** `DATA_DIR`; chat files live under `<dataDir>/chats`. */
  dataDir: string;
  /**
   * How many chats keep their loaded document in memory. Idle chats beyond this are dropped and
   * read from disk again when next used. Default 10,000.
   */
  cacheSize?: number;
}

interface ChatFile {
  db: Low<ChatDoc>;
  /** Canonical text of `db.data`, kept so an unchanged update costs no second serialization. */
  text: string;
  loaded: boolean;
}

/** Path of a chat's file below `dataDir`; exported for tests and operators' tooling. */
export function locateChatFile(dataDir: string, chatId: number): string {
  assertChatId(chatId);
  const shard = String(Math.abs(chatId) % 100).padStart(2, '0');
  return path.join(dataDir, 'chats', shard, `${chatId}.json`);
}

/** Creates the lowdb store; files are read lazily, one chat at a time. */
export function createLowdbStore(options: LowdbStoreOptions): ChatStore {
  const { dataDir, cacheSize = 10_000 } = options;
  const queue = createStoreQueue();
  // Exactly one Low per file in this process: a second one would keep its own stale copy.
  const files = new Map<number, ChatFile>();
  const ensureDirectory = createDirectoryMaker();

  function openChatFile(chatId: number): ChatFile {
    const cached = files.get(chatId);
    if (cached !== undefined) {
      // Re-insert so the Map's order is least recently used first.
      files.delete(chatId);
      files.set(chatId, cached);
      return cached;
    }
    const file = locateChatFile(dataDir, chatId);
    const adapter = new DataFile<ChatDoc>(file, {
      parse: (text) => parseChatDoc(text, file),
      stringify: (doc) => `${JSON.stringify(doc, null, 2)}\n`,
    });
    const created: ChatFile = { db: new Low<ChatDoc>(adapter, {}), text: '{}', loaded: false };
    files.set(chatId, created);
    return created;
  }

  function evictIdleFiles(): void {
    for (const chatId of files.keys()) {
      if (files.size <= cacheSize) return;
      // A busy chat's Low may be mid-write; dropping it could let a second Low appear.
      if (!queue.isBusy(chatId)) files.delete(chatId);
    }
  }

  /** Runs `task` on the chat's loaded file, after the chat's earlier operations. */
  async function withChatFile<T>(
    chatId: number,
    task: (chat: ChatFile, file: string) => Promise<T>,
    { load = true } = {},
  ): Promise<T> {
    queue.assertOpen();
    assertChatId(chatId);
    const file = locateChatFile(dataDir, chatId);
    const result = queue.run(chatId, async () => {
      const chat = openChatFile(chatId);
      if (load && !chat.loaded) {
        await chat.db.read();
        chat.db.data = normalizeChatDoc(chat.db.data);
        chat.text = serializeChatDoc(chat.db.data);
        chat.loaded = true;
      }
      return task(chat, file);
    });
    return result.finally(evictIdleFiles);
  }

  async function deleteFile(chat: ChatFile, file: string): Promise<void> {
    await unlinkIfPresent(file);
    chat.db.data = {};
    chat.text = '{}';
    chat.loaded = true;
  }

  return {
    read(chatId) {
      return withChatFile(chatId, async (chat) =>
        isEmptyChatDoc(chat.db.data) ? undefined : cloneChatDoc(chat.db.data),
      );
    },

    update(chatId, change) {
      return withChatFile(chatId, async (chat, file) => {
        const next = normalizeChatDoc(change(cloneChatDoc(chat.db.data)));
        const text = serializeChatDoc(next);
        if (text === chat.text) return next;
        if (isEmptyChatDoc(next)) {
          await deleteFile(chat, file);
          return next;
        }
        await ensureDirectory(path.dirname(file));
        const previous = chat.db.data;
        chat.db.data = next;
        try {
          // steno writes a temp file and renames it over the old one: a crash leaves either version.
          await chat.db.write();
        } catch (error) {
          chat.db.data = previous;
          throw error;
        }
        chat.text = text;
        return cloneChatDoc(next);
      });
    },

    remove(chatId) {
      // No load: a damaged file must still be removable.
      return withChatFile(chatId, (chat, file) => deleteFile(chat, file), { load: false });
    },

    setAside(chatId) {
      // No load: loading is what fails on a damaged file.
      return withChatFile(
        chatId,
        async (chat, file) => {
          // A loaded document reads fine from memory, and its next write replaces the file.
          if (chat.loaded) return undefined;
          const text = await readFileIfPresent(file);
          if (text === undefined || isReadableChatDoc(text)) return undefined;
          // Same folder: a rename within one file system is atomic, and the operator finds it
          // beside the chat's file.
          const target = `${file}.damaged-${formatSetAsideTime()}`;
          await rename(file, target);
          // Its Low never loaded; the next operation starts from a fresh, empty one.
          files.delete(chatId);
          return target;
        },
        { load: false },
      );
    },

    async count() {
      return (await this.ids()).length;
    },

    async ids() {
      const found: number[] = [];
      const root = path.join(dataDir, 'chats');
      for (const shard of await readdirIfPresent(root)) {
        for (const name of await readdirIfPresent(path.join(root, shard))) {
          const id = /^(-?\d+)\.json$/.exec(name)?.[1];
          if (id !== undefined) found.push(Number(id));
        }
      }
      return found;
    },

    async close() {
      await queue.close();
      files.clear();
    },
  };
}
