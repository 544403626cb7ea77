/**
 * The typed view of a chat's stored document that the bot uses. Secrets — the token, profiles
 * and the session (order drafts hold passport numbers, names, addresses) — are sealed here, with
 * the chat id bound, before the document reaches a `ChatStore`, and opened here on the way out.
 *
 * Unreadable secrets: a token, profile list or session that no longer opens (its key was removed
 * from `ENCRYPTION_KEYS`, or the value was damaged) reads as absent — `undefined` / `[]` — and is
 * reported through `onUnreadable`, so the bot asks for a new token instead of crashing and the
 * composition root can log the event. The sealed value is left in place: restoring the key makes
 * it readable again. Only writing a new value replaces it (for the session, the next write of the
 * session, which telegraf makes after every update: a draft that does not open is lost anyway).
 */
import { isPlainObject, serializeCanonical, toJsonObject } from './chat-doc.js';
import type { ChatDoc, ChatStore, Locale } from './chat-store.js';
import type { Keyring } from './crypto.js';

/** A saved set of customer requisites, offered again in later orders. */
export interface Profile {
  id: string;
  label: string;
  /** The requisites themselves; validated by the scene that uses them. */
  data: unknown;
}

/** Which sealed field of a chat could not be opened. */
export type SealedField = 'token' | 'profiles' | 'session';

/** Passed to `onUnreadable` when a sealed field does not open; carries no secret. */
export interface UnreadableSecret {
  chatId: number;
  field: SealedField;
  /** A `SealError`, or a `TypeError` for profiles or a session that opened to the wrong shape. */
  error: Error;
}

/** Options of `createChatData`. */
export interface ChatDataOptions {
  store: ChatStore;
  keyring: Keyring;
  /** Called (synchronously) for every read that met an unreadable secret; log it, don't throw. */
  onUnreadable?: (event: UnreadableSecret) => void;
}

/**
 * Structurally telegraf 4.16's `AsyncSessionStore<T>`, so `session({ store })` accepts it
 * without `storage` importing telegraf. Keys are chat ids as strings: the bot's session
 * middleware must be given `getSessionKey: (ctx) => ctx.chat?.id.toString()` (telegraf's default
 * key `from:chat` is rejected with a TypeError).
 */
export interface ChatSessionStore<T> {
  get(key: string): Promise<T | undefined>;
  set(key: string, value: T): Promise<void>;
  delete(key: string): Promise<void>;
}

/** What the bot reads and writes per chat. */
export interface ChatData {
  getLocale(chatId: number): Promise<Locale | undefined>;
  setLocale(chatId: number, locale: Locale): Promise<void>;
  /** The partner API token in clear text; undefined when none is stored or it no longer opens. */
  getToken(chatId: number): Promise<string | undefined>;
  setToken(chatId: number, token: string): Promise<void>;
  clearToken(chatId: number): Promise<void>;
  /** Saved profiles in saving order; `[]` when none or when they no longer open. */
  getProfiles(chatId: number): Promise<Profile[]>;
  /** Adds the profile, or replaces the one with the same id in place. */
  saveProfile(chatId: number, profile: Profile): Promise<void>;
  /** Whether a profile with that id was there to delete. */
  deleteProfile(chatId: number, profileId: string): Promise<boolean>;
  getLastCurrencyId(chatId: number): Promise<number | undefined>;
  setLastCurrencyId(chatId: number, currencyId: number): Promise<void>;
  /** Forgets everything about the chat: locale, token, profiles, session. */
  wipe(chatId: number): Promise<void>;
  /**
   * Moves a record that cannot be read at all aside for the operator (see `ChatStore.setAside`);
   * returns where it went, or `undefined` when nothing was moved.
   */
  setAside(chatId: number): Promise<string | undefined>;
  /** telegraf session storage over the same documents. */
  sessionStore<T extends object>(): ChatSessionStore<T>;
}

function isEmptySession(session: Record<string, unknown>): boolean {
  return Object.values(session).every(
    (value) => value === undefined || (isPlainObject(value) && Object.keys(value).length === 0),
  );
}

type Opened<T> = { ok: true; value: T } | { ok: false; error: Error };

/** Builds the typed layer over a store and a keyring (both built by the caller). */
export function createChatData(options: ChatDataOptions): ChatData {
  const { store, keyring, onUnreadable } = options;

  function report(chatId: number, field: SealedField, error: Error): void {
    onUnreadable?.({ chatId, field, error });
  }

  function openToken(chatId: number, doc: ChatDoc): Opened<string | undefined> {
    if (doc.token === undefined) return { ok: true, value: undefined };
    try {
      return { ok: true, value: keyring.open(doc.token, chatId) };
    } catch (error) {
      return { ok: false, error: toError(error) };
    }
  }

  function openProfiles(chatId: number, doc: ChatDoc): Opened<Profile[]> {
    if (doc.profiles === undefined) return { ok: true, value: [] };
    try {
      const parsed: unknown = JSON.parse(keyring.open(doc.profiles, chatId));
      if (!Array.isArray(parsed) || !parsed.every(isProfile)) {
        return { ok: false, error: new TypeError('stored profiles are not a profile list') };
      }
      return { ok: true, value: parsed };
    } catch (error) {
      return { ok: false, error: toError(error) };
    }
  }

  function openSession(chatId: number, doc: ChatDoc): Opened<Record<string, unknown> | undefined> {
    const stored = doc.session;
    if (stored === undefined) return { ok: true, value: undefined };
    // Written in clear by an earlier version: read as it is; the next write seals it.
    if (typeof stored !== 'string') return { ok: true, value: isPlainObject(stored) ? stored : undefined };
    try {
      const parsed: unknown = JSON.parse(keyring.open(stored, chatId));
      if (!isPlainObject(parsed))
        return { ok: false, error: new TypeError('stored session is not an object') };
      return { ok: true, value: parsed };
    } catch (error) {
      return { ok: false, error: toError(error) };
    }
  }

  /** Whether the stored session is sealed and opens to exactly this canonical text. */
  function holdsSession(chatId: number, doc: ChatDoc, text: string): boolean {
    if (typeof doc.session !== 'string') return false;
    try {
      return keyring.open(doc.session, chatId) === text;
    } catch {
      return false;
    }
  }

  function sealProfiles(chatId: number, profiles: Profile[]): string | undefined {
    return profiles.length === 0 ? undefined : keyring.seal(JSON.stringify(profiles), chatId);
  }

  /** Applies `change` and reports an unreadable secret met while doing so, once, afterwards. */
  async function updateReporting(
    chatId: number,
    change: (doc: ChatDoc, meet: (field: SealedField, error: Error) => void) => ChatDoc,
  ): Promise<void> {
    // `change` may run more than once (Redis retries); only the last run's finding counts.
    let unreadable: { field: SealedField; error: Error } | undefined;
    await store.update(chatId, (doc) => {
      unreadable = undefined;
      return change(doc, (field, error) => {
        unreadable = { field, error };
      });
    });
    if (unreadable !== undefined) report(chatId, unreadable.field, unreadable.error);
  }

  return {
    async getLocale(chatId) {
      const locale = (await store.read(chatId))?.locale;
      return locale === 'ru' || locale === 'en' ? locale : undefined;
    },

    async setLocale(chatId, locale) {
      await store.update(chatId, (doc) => ({ ...doc, locale }));
    },

    async getToken(chatId) {
      const doc = await store.read(chatId);
      if (doc === undefined) return undefined;
      const opened = openToken(chatId, doc);
      if (opened.ok) return opened.value;
      report(chatId, 'token', opened.error);
      return undefined;
    },

    async setToken(chatId, token) {
      // Sealed outside `update`: a retried change must not seal again with a new IV for nothing.
      const sealed = keyring.seal(token, chatId);
      await store.update(chatId, (doc) => ({ ...doc, token: sealed }));
    },

    async clearToken(chatId) {
      await store.update(chatId, ({ token: _dropped, ...rest }) => rest);
    },

    async getProfiles(chatId) {
      const doc = await store.read(chatId);
      if (doc === undefined) return [];
      const opened = openProfiles(chatId, doc);
      if (opened.ok) return opened.value;
      report(chatId, 'profiles', opened.error);
      return [];
    },

    async saveProfile(chatId, profile) {
      const copy = toProfile(profile);
      await updateReporting(chatId, (doc, meet) => {
        const opened = openProfiles(chatId, doc);
        // Profiles that no longer open are lost to the user already; the new list starts over.
        if (!opened.ok) meet('profiles', opened.error);
        const profiles = opened.ok ? opened.value : [];
        const index = profiles.findIndex((existing) => existing.id === copy.id);
        if (index === -1) profiles.push(copy);
        else profiles[index] = copy;
        return withField(doc, 'profiles', sealProfiles(chatId, profiles));
      });
    },

    async deleteProfile(chatId, profileId) {
      let deleted = false;
      await updateReporting(chatId, (doc, meet) => {
        deleted = false;
        const opened = openProfiles(chatId, doc);
        if (!opened.ok) {
          meet('profiles', opened.error);
          return doc;
        }
        const profiles = opened.value.filter((existing) => existing.id !== profileId);
        if (profiles.length === opened.value.length) return doc;
        deleted = true;
        return withField(doc, 'profiles', sealProfiles(chatId, profiles));
      });
      return deleted;
    },

    async getLastCurrencyId(chatId) {
      const id = (await store.read(chatId))?.lastCurrencyId;
      return Number.isSafeInteger(id) ? id : undefined;
    },

    async setLastCurrencyId(chatId, currencyId) {
      if (!Number.isSafeInteger(currencyId)) throw new TypeError('currency id must be an integer');
      await store.update(chatId, (doc) => ({ ...doc, lastCurrencyId: currencyId }));
    },

    async wipe(chatId) {
      await store.remove(chatId);
    },

    setAside(chatId) {
      return store.setAside(chatId);
    },

    sessionStore<T extends object>(): ChatSessionStore<T> {
      return {
        async get(key) {
          const chatId = parseSessionKey(key);
          const doc = await store.read(chatId);
          if (doc === undefined) return undefined;
          const opened = openSession(chatId, doc);
          if (!opened.ok) {
            report(chatId, 'session', opened.error);
            return undefined;
          }
          // The store holds whatever the bot put there; its shape is the bot's own session type.
          return opened.value as T | undefined;
        },
        async set(key, value) {
          const chatId = parseSessionKey(key);
          const session = toJsonObject(value);
          if (session === undefined) throw new TypeError('a session must be a JSON object');
          // An empty session — no keys, or only empty bookkeeping objects such as telegraf's
          // `__scenes: {}` — is stored as none, so idle chats leave no document behind.
          const text = isEmptySession(session) ? undefined : serializeCanonical(session);
          let sealed: string | undefined;
          await store.update(chatId, (doc) => {
            if (text === undefined) return withField(doc, 'session', undefined);
            // Every seal has a new IV, so sealed texts never compare equal: compare in clear,
            // or telegraf's write-back after every update would rewrite the file each time.
            if (holdsSession(chatId, doc, text)) return doc;
            // At most one seal per call, however often a Redis retry runs this change.
            sealed ??= keyring.seal(text, chatId);
            return withField(doc, 'session', sealed);
          });
        },
        async delete(key) {
          await store.update(parseSessionKey(key), (doc) => withField(doc, 'session', undefined));
        },
      };
    },
  };
}

/** The document with `field` set, or removed when `value` is undefined. */
function withField<K extends keyof ChatDoc>(doc: ChatDoc, field: K, value: ChatDoc[K] | undefined): ChatDoc {
  const { [field]: _previous, ...rest } = doc;
  return value === undefined ? rest : { ...rest, [field]: value };
}

function parseSessionKey(key: string): number {
  const chatId = /^-?\d{1,16}$/.test(key) ? Number(key) : Number.NaN;
  if (!Number.isSafeInteger(chatId)) {
    throw new TypeError('session key must be a chat id (set getSessionKey to the chat id)');
  }
  return chatId;
}

function isProfile(value: unknown): value is Profile {
  return isPlainObject(value) && typeof value.id === 'string' && typeof value.label === 'string';
}

/** A JSON copy of the profile, so later mutation by the caller does not reach the store. */
function toProfile(profile: Profile): Profile {
  if (profile.id === '') throw new TypeError('a profile needs a non-empty id');
  const copy = toJsonObject(profile);
  if (copy === undefined || !isProfile(copy)) throw new TypeError('a profile must be plain JSON');
  return copy;
}

function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
