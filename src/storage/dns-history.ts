/**
 * The typed view of the DNS change history (`dns-history-store.ts`): entries keyed by the token's
 * account id (`watchIdOf`, so every chat on one token shares them) and the domain order, with the
 * author sealed for `history:<account>` and opened on the way out.
 */
import { randomBytes } from 'node:crypto';
import {
  HISTORY_LIMIT,
  type HistoryAuthor,
  type HistoryChange,
  type HistoryEntry,
  type HistoryKind,
} from '../core/dns-history.js';
import type { Keyring } from './crypto.js';
import type { DnsHistoryStore, StoredHistoryEntry } from './dns-history-store.js';
import { watchIdOf } from './watch-store.js';

/** What to record: the change, its kind and author; the id and time are given here. */
export interface NewHistoryEntry {
  kind: HistoryKind;
  who: HistoryAuthor;
  change: HistoryChange;
  undoes?: string | undefined;
}

export interface DnsHistory {
  /** Records one change of a domain order made with this token; returns the entry as kept. */
  record(token: string, orderId: number, entry: NewHistoryEntry): Promise<HistoryEntry>;
  /** The domain order's entries, newest first (at most `HISTORY_LIMIT`). */
  list(token: string, orderId: number): Promise<HistoryEntry[]>;
}

/** Whom a history's sealed authors belong to (bound into the seal). */
export const historySealOwner = (accountId: string) => `history:${accountId}` as const;

export function createDnsHistory(options: {
  store: DnsHistoryStore;
  keyring: Keyring;
  now?: () => Date;
  onUnreadable?: (event: { entryId: string; error: Error }) => void;
}): DnsHistory {
  const { store, keyring, now = () => new Date(), onUnreadable } = options;
  const owner = historySealOwner;

  const open = (accountId: string, stored: StoredHistoryEntry): HistoryEntry => {
    let who: HistoryAuthor = { chatId: 0, userId: 0, name: '' };
    try {
      who = JSON.parse(keyring.open(stored.who, owner(accountId))) as HistoryAuthor;
    } catch (error) {
      // The change itself is still worth showing and undoing; only its author is lost.
      onUnreadable?.({
        entryId: stored.id,
        error: error instanceof Error ? error : new Error(String(error)),
      });
    }
    return { ...stored, who };
  };

  return {
    async record(token, orderId, entry) {
      const accountId = watchIdOf(token);
      const stored: StoredHistoryEntry = {
        id: randomBytes(6).toString('base64url'),
        at: now().toISOString(),
        kind: entry.kind,
        who: keyring.seal(JSON.stringify(entry.who), owner(accountId)),
        change: entry.change,
        ...(entry.undoes === undefined ? {} : { undoes: entry.undoes }),
      };
      await store.append(accountId, orderId, stored, HISTORY_LIMIT);
      return open(accountId, stored);
    },
    async list(token, orderId) {
      const accountId = watchIdOf(token);
      const stored = await store.list(accountId, orderId);
      return stored.map((s) => open(accountId, s)).reverse();
    },
  };
}
