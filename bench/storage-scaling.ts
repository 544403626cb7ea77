/**
 * Storage cost per update as the number of stored chats grows. Three lowdb stores in one process
 * hold 10, 1,000 and 10,000 chats (locale, sealed token, a small scene session each); each
 * operation is what the session middleware does for an update that changes the session: read it
 * through `chatData.sessionStore()`, then write back a changed copy (a file rewrite).
 */
import { rm } from 'node:fs/promises';
import { type ChatSessionStore, createChatData } from '../src/storage/chat-data.js';
import type { ChatDoc, ChatStore } from '../src/storage/chat-store.js';
import { createLowdbStore } from '../src/storage/lowdb-store.js';
import {
  type BenchResult,
  benchKeyring,
  chatIds,
  fixed,
  measure,
  median,
  seededRandom,
  tempDir,
} from './support.js';

export interface StorageOptions {
  sizes: number[];
  /** Read + write operations per size per round. */
  operations: number;
  rounds: number;
}

export const STORAGE_DEFAULTS: StorageOptions = { sizes: [10, 1_000, 10_000], operations: 500, rounds: 7 };
/** Target for the largest size against the smallest. */
const TARGET_RATIO = 2;

/** What the scene middleware keeps: the current scene and its state. */
interface BenchSession {
  __scenes?: { current?: string; state?: Record<string, unknown> };
}

interface SizedStore {
  size: number;
  dir: string;
  chats: number[];
  store: ChatStore;
  firstTouchUs: number;
  runs: { wallUs: number; cpuUs: number }[];
}

/** A realistic chat document: language, sealed token, a guided order half-way through. */
function chatDocument(
  chatId: number,
  index: number,
  seal: (text: string, chatId: number) => string,
): ChatDoc {
  return {
    locale: index % 3 === 0 ? 'en' : 'ru',
    token: seal(`partner-token-${chatId.toString(36)}-0123456789abcdef`, chatId),
    lastCurrencyId: 1,
    session: {
      __scenes: {
        current: 'order',
        state: {
          kind: 'domain',
          step: 'period',
          answers: { name: `shop-${index}.by`, zone: 'BY', customer: 'natural' },
        },
      },
    },
  };
}

/** Writes the chats' documents through the store, a few chats at a time (as the bot would). */
async function populate(store: ChatStore, chats: readonly number[], seal: (t: string, id: number) => string) {
  const parallel = 32;
  for (let start = 0; start < chats.length; start += parallel) {
    await Promise.all(
      chats
        .slice(start, start + parallel)
        .map((chatId, offset) => store.update(chatId, () => chatDocument(chatId, start + offset, seal))),
    );
  }
}

export async function benchStorageScaling(options: StorageOptions = STORAGE_DEFAULTS): Promise<BenchResult> {
  const keyring = benchKeyring();
  const seal = (text: string, chatId: number) => keyring.seal(text, chatId);
  const sized: SizedStore[] = [];
  try {
    // A scratch store first, so the first measured size does not pay for the JIT alone.
    await prepare(50, seal, keyring, true);
    for (const size of options.sizes) sized.push(await prepare(size, seal, keyring, false));

    const random = seededRandom(99);
    const sessionStores = sized.map((entry) =>
      createChatData({ store: entry.store, keyring }).sessionStore<BenchSession>(),
    );
    let counter = 0;
    const operate = async (entry: SizedStore, sessions: ChatSessionStore<BenchSession>) => {
      const key = String(entry.chats[Math.floor(random() * entry.chats.length)] ?? 0);
      const session = (await sessions.get(key)) ?? {};
      const state = session.__scenes?.state ?? {};
      await sessions.set(key, {
        ...session,
        __scenes: { current: 'order', state: { ...state, step: 'period', edit: ++counter } },
      });
    };
    // Warm-up (untimed): JIT of the read-modify-write path, on every store.
    for (let op = 0; op < 100; op++) {
      for (const [index, entry] of sized.entries()) {
        const sessions = sessionStores[index];
        if (sessions) await operate(entry, sessions);
      }
    }
    for (let round = 0; round < options.rounds; round++) {
      const totals = sized.map(() => ({ wallMs: 0, cpuMs: 0 }));
      // Operations alternate between the stores one by one (in rotating order), so a burst of
      // noise on this machine lands on every size alike instead of on one size's run.
      for (let op = 0; op < options.operations; op++) {
        for (let i = 0; i < sized.length; i++) {
          const index = (i + op + round) % sized.length;
          const entry = sized[index];
          const sessions = sessionStores[index];
          const total = totals[index];
          if (!entry || !sessions || !total) continue;
          const timing = await measure(() => operate(entry, sessions));
          total.wallMs += timing.wallMs;
          total.cpuMs += timing.cpuMs;
        }
      }
      sized.forEach((entry, index) => {
        const total = totals[index] ?? { wallMs: Number.NaN, cpuMs: Number.NaN };
        entry.runs.push({
          wallUs: (total.wallMs * 1000) / options.operations,
          cpuUs: (total.cpuMs * 1000) / options.operations,
        });
      });
    }

    const smallest = sized[0];
    const largest = sized.at(-1);
    const wallOf = (entry: SizedStore | undefined) => median(entry?.runs.map((r) => r.wallUs) ?? []);
    const cpuOf = (entry: SizedStore | undefined) => median(entry?.runs.map((r) => r.cpuUs) ?? []);
    const ratio = wallOf(largest) / wallOf(smallest);
    const roundRatios = (largest?.runs ?? []).map(
      (r, i) => r.wallUs / (smallest?.runs[i]?.wallUs ?? Number.NaN),
    );
    const ok = ratio <= TARGET_RATIO;
    const rows = sized.map((entry) => [
      entry.size.toLocaleString('en'),
      fixed(wallOf(entry), 0),
      `${fixed(Math.min(...entry.runs.map((r) => r.wallUs)), 0)}–${fixed(Math.max(...entry.runs.map((r) => r.wallUs)), 0)}`,
      fixed(cpuOf(entry), 0),
      fixed(entry.firstTouchUs, 0),
    ]);

    return {
      title: 'Storage cost per update vs stored chats (lowdb)',
      method:
        `Three lowdb stores (${options.sizes.map((s) => s.toLocaleString('en')).join(', ')} chats; locale, ` +
        'sealed token and a small scene session each) in one process. One operation = ' +
        '`sessionStore().get` + `set` of a changed session (one file rewrite) on a random chat; ' +
        `${options.operations} operations per store per round, alternating between the stores op by op, ` +
        `${options.rounds} rounds, median of the rounds' means. First touch = reading a chat into a ` +
        'freshly opened store (as after a restart).',
      header: ['stored chats', 'µs/op (median)', 'range over rounds', 'CPU µs/op', 'first touch µs/read'],
      rows: [
        ...rows,
        [
          `ratio ${largest?.size.toLocaleString('en')} : ${smallest?.size.toLocaleString('en')}`,
          `${fixed(ratio, 2)}× ${ok ? '✔' : '✘'} (target ≤ ${TARGET_RATIO}×)`,
          `per round ${fixed(Math.min(...roundRatios), 2)}–${fixed(Math.max(...roundRatios), 2)}×`,
          `${fixed(cpuOf(largest) / cpuOf(smallest), 2)}×`,
          '',
        ],
      ],
      notes: [
        'Wall time: the write is a temp file + rename per operation, so I/O dominates. Each store ' +
          'keeps up to 10,000 loaded chats (`cacheSize`), so at 10,000 every chat stays in memory.',
      ],
      ok,
    };
  } finally {
    for (const entry of sized) {
      await entry.store.close();
      await rm(entry.dir, { recursive: true, force: true });
    }
  }
}

/**
 * Writes `size` chats with one store, closes it and opens a fresh one over the same directory
 * (as after a restart), timing the first read of every chat; the fresh store then has them all.
 */
async function prepare(
  size: number,
  seal: (text: string, chatId: number) => string,
  keyring: ReturnType<typeof benchKeyring>,
  scratch: boolean,
): Promise<SizedStore> {
  const dir = await tempDir(`store-${size}`);
  const chats = chatIds(size, size);
  const writer = createLowdbStore({ dataDir: dir });
  await populate(writer, chats, seal);
  await writer.close();

  const store = createLowdbStore({ dataDir: dir });
  const chatData = createChatData({ store, keyring });
  const timing = await measure(async () => {
    for (const chatId of chats) {
      if ((await chatData.getLocale(chatId)) === undefined) throw new Error(`chat ${chatId} was not stored`);
    }
  });
  const entry: SizedStore = {
    size,
    dir,
    chats,
    store,
    firstTouchUs: (timing.wallMs * 1000) / size,
    runs: [],
  };
  if (scratch) {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
  return entry;
}
