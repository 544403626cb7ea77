/**
 * The typed view of the watch documents (`watch-store.ts`): the token and the watchers' state are
 * sealed here for `watch:<id>` and opened on the way out, as `ChatData` does for a chat.
 */
import type { Keyring } from './crypto.js';
import { type WatchDoc, type WatchStore, watchIdOf } from './watch-store.js';

/** How many bot-created invoice ids a watch remembers. */
const MAX_CREATED_BY_BOT = 500;

/** One watch, opened. */
export interface Watch {
  readonly id: string;
  /** The partner token in clear text. */
  readonly token: string;
  readonly chats: readonly number[];
  readonly createdByBot: readonly number[];
  /** The watchers' state as JSON; undefined before the first poll, or when it no longer opens. */
  readonly state: unknown;
}

export interface WatchData {
  /** Adds the chat to its token's watch (created when new); the chat leaves any other watch first. */
  attach(chatId: number, token: string): Promise<Watch>;
  /** Takes the chat off the token's watch; the watch is deleted with its last chat. Returns what is left. */
  detach(chatId: number, token: string): Promise<Watch | undefined>;
  /** Remembers an invoice the bot created with this token, so it is never announced as new. */
  noteCreatedInvoice(token: string, invoiceId: number): Promise<void>;
  get(id: string): Promise<Watch | undefined>;
  /**
   * Atomically replaces the watchers' state: `change` gets the current watch and returns the new
   * state, or `undefined` to leave everything as it is (e.g. another poll came first). It may run
   * more than once, so it must not have side effects. Returns the watch as written (or as found).
   */
  changeState(
    id: string,
    change: (watch: Watch) => { state: unknown } | undefined,
  ): Promise<Watch | undefined>;
  ids(): Promise<string[]>;
}

/** Whom a watch's sealed fields belong to (bound into the seal). */
export const watchSealOwner = (id: string) => `watch:${id}` as const;

export function createWatchData(options: {
  store: WatchStore;
  keyring: Keyring;
  onUnreadable?: (event: { watchId: string; error: Error }) => void;
}): WatchData {
  const { store, keyring, onUnreadable } = options;
  const owner = watchSealOwner;

  function openDoc(id: string, doc: WatchDoc | undefined): Watch | undefined {
    if (doc === undefined) return undefined;
    let token: string;
    try {
      token = keyring.open(doc.token, owner(id));
    } catch (error) {
      onUnreadable?.({ watchId: id, error: error instanceof Error ? error : new Error(String(error)) });
      return undefined;
    }
    let state: unknown;
    if (doc.state !== undefined) {
      try {
        state = JSON.parse(keyring.open(doc.state, owner(id)));
      } catch (error) {
        // A state that no longer opens starts over: the next poll records silently again.
        onUnreadable?.({ watchId: id, error: error instanceof Error ? error : new Error(String(error)) });
      }
    }
    return { id, token, chats: doc.chats, createdByBot: doc.createdByBot ?? [], state };
  }

  return {
    async attach(chatId, token) {
      const id = watchIdOf(token);
      const sealed = keyring.seal(token, owner(id));
      const doc = await store.update(id, (current) => {
        // Already there: nothing to write (the id is the token's hash, so the token is the same).
        if (current?.chats.includes(chatId)) return current;
        const chats = current?.chats ?? [];
        return { ...(current ?? {}), token: current?.token ?? sealed, chats: [...chats, chatId] };
      });
      const watch = openDoc(id, doc);
      if (watch === undefined) throw new Error('a watch just written does not open');
      return watch;
    },

    async detach(chatId, token) {
      const id = watchIdOf(token);
      const doc = await store.update(id, (current) => {
        if (current === undefined) return undefined;
        const chats = current.chats.filter((c) => c !== chatId);
        return chats.length === 0 ? undefined : { ...current, chats };
      });
      return openDoc(id, doc);
    },

    async noteCreatedInvoice(token, invoiceId) {
      const id = watchIdOf(token);
      await store.update(id, (current) => {
        if (current === undefined) return undefined;
        const created = (current.createdByBot ?? []).filter((n) => n !== invoiceId);
        return { ...current, createdByBot: [...created, invoiceId].slice(-MAX_CREATED_BY_BOT) };
      });
    },

    async get(id) {
      return openDoc(id, await store.read(id));
    },

    async changeState(id, change) {
      // Sealed outside the store's retry loop would be cheaper, but the state depends on what is read.
      const doc = await store.update(id, (current) => {
        const watch = openDoc(id, current);
        if (current === undefined || watch === undefined) return current;
        const changed = change(watch);
        if (changed === undefined) return current;
        return { ...current, state: keyring.seal(JSON.stringify(changed.state), owner(id)) };
      });
      return openDoc(id, doc);
    },

    ids: () => store.ids(),
  };
}
