/**
 * The one chat document every `ChatData` area reads and writes: the store behind it, the open
 * scopes of `withChat` (one read shared per chat while a task runs), sealing with the chat id
 * bound, and the reporting of sealed fields that no longer open. Each area (`token.ts`,
 * `profiles.ts`, …) is built over one `ChatDocAccess`, so they all share one scope per chat.
 */
import type { ChatDoc, ChatStore } from '../chat-store.js';
import type { Keyring } from '../crypto.js';

/** Which sealed field of a chat could not be opened. */
export type SealedField = 'token' | 'profiles' | 'session' | 'teamNames';

/** Passed to `onUnreadable` when a sealed field does not open; carries no secret. */
export interface UnreadableSecret {
  chatId: number;
  field: SealedField;
  /** A `SealError`, or a `TypeError` for profiles or a session that opened to the wrong shape. */
  error: Error;
}

/** What the document access is built from (the options of `createChatData`). */
export interface ChatDocAccessOptions {
  store: ChatStore;
  keyring: Keyring;
  /** Called (synchronously) for every read that met an unreadable secret; log it, don't throw. */
  onUnreadable?: (event: UnreadableSecret) => void;
}

/** A sealed field opened: its value, or why it did not open. */
export type Opened<T> = { ok: true; value: T } | { ok: false; error: Error };

/** One chat's document shared while `withChat` runs (nested calls share it too). */
export interface ChatScope {
  depth: number;
  /** The pending or settled read, or the document the last write left; none before the first. */
  doc?: Promise<ChatDoc | undefined> | undefined;
  /**
   * The sealed session the last `get` opened and its clear text: telegraf writes the session
   * back after every update, and an unchanged one is recognised by this pair without opening
   * the stored session again.
   */
  openedSession?: { sealed: string; text: string } | undefined;
  /** The account this task acts on (`ChatAccounts.useAccount`); the active one when unset. */
  account?: number | undefined;
}

/** The shared access to a chat's document that every `ChatData` area is built over. */
export interface ChatDocAccess {
  readonly store: ChatStore;
  /** The chat's open scope while `withScope` runs for it. */
  scope(chatId: number): ChatScope | undefined;
  /** The chat's document: from the chat's scope when one is open, else straight from the store. */
  read(chatId: number): Promise<ChatDoc | undefined>;
  /** `store.update`, keeping an open scope's copy equal to what was written. */
  update(chatId: number, change: (doc: ChatDoc) => ChatDoc): Promise<void>;
  /** Applies `change` and reports an unreadable secret met while doing so, once, afterwards. */
  updateReporting(
    chatId: number,
    change: (doc: ChatDoc, meet: (field: SealedField, error: Error) => void) => ChatDoc,
  ): Promise<void>;
  /** Drops an open scope's copy, so the next read asks the store. */
  forget(chatId: number): void;
  /** Tells `onUnreadable` that a sealed field of the chat did not open. */
  report(chatId: number, field: SealedField, error: Error): void;
  /** Runs `task` with the chat's scope open (see `ChatData.withChat`). */
  withScope<T>(chatId: number, task: () => Promise<T>): Promise<T>;
  /** Seals `text` for the chat: the chat id is bound as additional data. */
  seal(text: string, chatId: number): string;
  /** Opens a value sealed for the chat; throws `SealError` when it can't. */
  open(sealed: string, chatId: number): string;
}

/** Builds the shared access over a store and a keyring (both built by the caller). */
export function createChatDocAccess(options: ChatDocAccessOptions): ChatDocAccess {
  const { store, keyring, onUnreadable } = options;

  const scopes = new Map<number, ChatScope>();

  function report(chatId: number, field: SealedField, error: Error): void {
    onUnreadable?.({ chatId, field, error });
  }

  function read(chatId: number): Promise<ChatDoc | undefined> {
    const scope = scopes.get(chatId);
    if (scope === undefined) return store.read(chatId);
    if (scope.doc === undefined) {
      const pending = store.read(chatId);
      scope.doc = pending;
      // A failed read (a damaged record, an outage) is not kept: the next read asks again.
      pending.catch(() => {
        if (scope.doc === pending) scope.doc = undefined;
      });
    }
    return scope.doc;
  }

  async function update(chatId: number, change: (doc: ChatDoc) => ChatDoc): Promise<void> {
    let written: ChatDoc;
    try {
      written = await store.update(chatId, change);
    } catch (error) {
      forget(chatId);
      throw error;
    }
    const scope = scopes.get(chatId);
    if (scope !== undefined)
      scope.doc = Promise.resolve(Object.keys(written).length === 0 ? undefined : written);
  }

  function forget(chatId: number): void {
    const scope = scopes.get(chatId);
    if (scope !== undefined) {
      scope.doc = undefined;
      scope.openedSession = undefined;
    }
  }

  return {
    store,
    scope: (chatId) => scopes.get(chatId),
    read,
    update,
    async updateReporting(chatId, change) {
      // `change` may run more than once (Redis retries); only the last run's finding counts.
      let unreadable: { field: SealedField; error: Error } | undefined;
      await update(chatId, (doc) => {
        unreadable = undefined;
        return change(doc, (field, error) => {
          unreadable = { field, error };
        });
      });
      if (unreadable !== undefined) report(chatId, unreadable.field, unreadable.error);
    },
    forget,
    report,
    async withScope(chatId, task) {
      let scope = scopes.get(chatId);
      if (scope === undefined) {
        scope = { depth: 0 };
        scopes.set(chatId, scope);
      }
      scope.depth++;
      try {
        return await task();
      } finally {
        if (--scope.depth === 0) scopes.delete(chatId);
      }
    },
    seal: (text, chatId) => keyring.seal(text, chatId),
    open: (sealed, chatId) => keyring.open(sealed, chatId),
  };
}

/** The document with `field` set, or removed when `value` is undefined. */
export function withField<K extends keyof ChatDoc>(
  doc: ChatDoc,
  field: K,
  value: ChatDoc[K] | undefined,
): ChatDoc {
  const { [field]: _previous, ...rest } = doc;
  return value === undefined ? rest : { ...rest, [field]: value };
}

/** Anything thrown, as an Error for `UnreadableSecret.error`. */
export function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
