/**
 * The upgrade of every stored chat to accounts: a document written before accounts (`token`,
 * `notify`) becomes one whose account 1 holds that token and those `/notify` settings
 * (`upgradeAccounts`, chat-data/accounts.ts). The bot runs it at start (stages/storage.ts) and
 * the operator with `npm run admin -- upgrade`.
 *
 * Record by record, each through `ChatStore.update`: on lowdb an atomic file write, on Redis a
 * compare-and-set whose change function is run again when another writer came first. So a
 * `kill -9` mid-way leaves every chat either as it was or upgraded, a second instance running
 * the same pass on one Redis writes each chat once, and the bot's own updates of a chat while the
 * pass runs are neither lost nor undone. A document that needs nothing is only read: a second run
 * writes nothing.
 */
import { upgradeAccounts } from './chat-data/accounts.js';
import { CorruptChatDocError } from './chat-doc.js';
import type { ChatDoc, ChatStore } from './chat-store.js';
import type { Keyring } from './crypto.js';

/** What a pass did, in counts only (nothing personal). */
export interface AccountUpgradeCounts {
  /** Chats with a document. */
  chats: number;
  /** Chats this pass upgraded (written). */
  upgraded: number;
  /** Chats that needed nothing (or that another writer upgraded first). */
  unchanged: number;
  /** Chats whose old token does not open with these keys: left as they are, to upgrade once it does. */
  unreadable: number;
  /** Chats whose record is not a readable document (the bot sets it aside when the chat writes). */
  damaged: number;
}

/** Whether a document still holds what was written before accounts. */
export function needsAccountUpgrade(doc: ChatDoc): boolean {
  return doc.token !== undefined || doc.notify !== undefined;
}

/** What happened to one chat. */
export type ChatUpgrade = 'upgraded' | 'unchanged' | 'unreadable' | 'damaged';

/**
 * Upgrades one chat's document in place. The change function is pure over the document it is
 * given (a Redis retry gets the fresh one), so only its last run's outcome counts.
 */
export async function upgradeChat(store: ChatStore, keyring: Keyring, chatId: number): Promise<ChatUpgrade> {
  let outcome: ChatUpgrade = 'unchanged';
  try {
    const doc = await store.read(chatId);
    // Most chats, and every chat on a second run: one read, no write.
    if (doc === undefined || !needsAccountUpgrade(doc)) return 'unchanged';
    await store.update(chatId, (current) => {
      outcome = 'unchanged';
      try {
        const next = upgradeAccounts(current, chatId, keyring);
        if (next === undefined) return current;
        outcome = 'upgraded';
        return next;
      } catch {
        // The old token does not open (its key left ENCRYPTION_KEYS, or it is damaged): keep it as
        // it is, so restoring the key and running again still upgrades it.
        outcome = 'unreadable';
        return current;
      }
    });
    return outcome;
  } catch (error) {
    if (error instanceof CorruptChatDocError) return 'damaged';
    throw error;
  }
}

/** Options of `upgradeAllChats`. */
export interface UpgradeAllOptions {
  /** Chats upgraded at the same time; default 8. */
  concurrency?: number;
}

/** Runs the upgrade over every chat of the store; returns the counts. */
export async function upgradeAllChats(
  store: ChatStore,
  keyring: Keyring,
  options: UpgradeAllOptions = {},
): Promise<AccountUpgradeCounts> {
  const counts: AccountUpgradeCounts = { chats: 0, upgraded: 0, unchanged: 0, unreadable: 0, damaged: 0 };
  const ids = await store.ids();
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const chatId = ids[next++] as number;
      const outcome = await upgradeChat(store, keyring, chatId);
      counts.chats += 1;
      counts[outcome] += 1;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 8) }, worker));
  return counts;
}
