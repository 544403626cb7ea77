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

import { isRole, type Team } from '../core/team.js';
import { isPlainObject, serializeCanonical, toJsonObject } from './chat-doc.js';
import type { ChatDoc, ChatStore, Locale, NotifySettings } from './chat-store.js';
import type { Keyring } from './crypto.js';

/** A saved set of customer requisites, offered again in later orders. */
export interface Profile {
  id: string;
  label: string;
  /** The requisites themselves; validated by the scene that uses them. */
  data: unknown;
}

/** Which sealed field of a chat could not be opened. */
export type SealedField = 'token' | 'profiles' | 'session' | 'teamNames';

/** A bound group's team as the bot uses it: roles, and members' first names as Telegram gave them. */
export interface TeamRecord extends Team {
  names: Record<string, string>;
}

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
  /** Remembers the domain an order was created for (the last 200 orders of the chat are kept). */
  rememberOrderDomain(chatId: number, orderId: number, domain: string): Promise<void>;
  /** The domain remembered for an order, if the chat created it. */
  getOrderDomain(chatId: number, orderId: number): Promise<string | undefined>;
  /** The chat's `/notify` settings (`{}`: every kind on, no quiet hours). */
  getNotifySettings(chatId: number): Promise<NotifySettings>;
  setNotifySettings(chatId: number, settings: NotifySettings): Promise<void>;
  /** Remembers the message that carried an invoice's link (the chat's latest 200 are kept). */
  rememberInvoiceLink(chatId: number, invoiceId: number, messageId: number): Promise<void>;
  /** The message that carried the invoice's link in this chat, if the bot sent one. */
  getInvoiceLink(chatId: number, invoiceId: number): Promise<number | undefined>;
  /** The team of a group bound by `/team`; undefined when the group is not bound. */
  getTeam(chatId: number): Promise<TeamRecord | undefined>;
  /** Stores the group's team (the names sealed for the group). */
  setTeam(chatId: number, team: TeamRecord): Promise<void>;
  /** Forgets the group's team (not its token: unbinding clears both). */
  clearTeam(chatId: number): Promise<void>;
  /** The groups a partner bound, kept in the partner's private chat (`chatId` = user id). */
  getTeamGroups(chatId: number): Promise<number[]>;
  addTeamGroup(chatId: number, groupId: number): Promise<void>;
  removeTeamGroup(chatId: number, groupId: number): Promise<void>;
  /** Forgets everything about the chat: locale, token, profiles, session. */
  wipe(chatId: number): Promise<void>;
  /**
   * Moves a record that cannot be read at all aside for the operator (see `ChatStore.setAside`);
   * returns where it went, or `undefined` when nothing was moved.
   */
  setAside(chatId: number): Promise<string | undefined>;
  /** telegraf session storage over the same documents. */
  sessionStore<T extends object>(): ChatSessionStore<T>;
  /**
   * Runs `task` with the chat's document read at most once: every getter and the session store
   * called for this chat while `task` runs share one `ChatStore.read`, and each write through
   * this ChatData (still a `ChatStore.update`) refreshes that shared copy. The bot wraps each
   * update in it, so locale, token and session come from one read. Only for work that holds the
   * chat (the per-chat queue, and across instances the chat lock): a write that bypasses this
   * ChatData meanwhile would not be seen until the task ends.
   */
  withChat<T>(chatId: number, task: () => Promise<T>): Promise<T>;
}

function isEmptySession(session: Record<string, unknown>): boolean {
  return Object.values(session).every(
    (value) => value === undefined || (isPlainObject(value) && Object.keys(value).length === 0),
  );
}

/** How many invoice link messages a chat remembers (the lowest invoice ids go first). */
const MAX_INVOICE_LINKS = 200;

/** How many order domains a chat remembers (the oldest go first). */
const MAX_ORDER_DOMAINS = 200;

type Opened<T> = { ok: true; value: T } | { ok: false; error: Error };

/** One chat's document shared while `withChat` runs (nested calls share it too). */
interface ChatScope {
  depth: number;
  /** The pending or settled read, or the document the last write left; none before the first. */
  doc?: Promise<ChatDoc | undefined> | undefined;
  /**
   * The sealed session the last `get` opened and its clear text: telegraf writes the session
   * back after every update, and an unchanged one is recognised by this pair without opening
   * the stored session again.
   */
  openedSession?: { sealed: string; text: string } | undefined;
}

/** Builds the typed layer over a store and a keyring (both built by the caller). */
export function createChatData(options: ChatDataOptions): ChatData {
  const { store, keyring, onUnreadable } = options;

  const scopes = new Map<number, ChatScope>();

  function report(chatId: number, field: SealedField, error: Error): void {
    onUnreadable?.({ chatId, field, error });
  }

  /** The chat's document: from the chat's scope when one is open, else straight from the store. */
  function readDoc(chatId: number): Promise<ChatDoc | undefined> {
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

  /** `store.update`, keeping an open scope's copy equal to what was written. */
  async function updateDoc(chatId: number, change: (doc: ChatDoc) => ChatDoc): Promise<void> {
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

  /** Drops an open scope's copy, so the next read asks the store. */
  function forget(chatId: number): void {
    const scope = scopes.get(chatId);
    if (scope !== undefined) {
      scope.doc = undefined;
      scope.openedSession = undefined;
    }
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

  /** The team members' names; `{}` (reported) when they no longer open. */
  function openNames(chatId: number, doc: ChatDoc): Record<string, string> {
    if (doc.teamNames === undefined) return {};
    try {
      const parsed: unknown = JSON.parse(keyring.open(doc.teamNames, chatId));
      if (!isPlainObject(parsed)) throw new TypeError('stored team names are not an object');
      return Object.fromEntries(
        Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
      );
    } catch (error) {
      report(chatId, 'teamNames', toError(error));
      return {};
    }
  }

  function openSession(
    chatId: number,
    doc: ChatDoc,
    scope: ChatScope | undefined,
  ): Opened<Record<string, unknown> | undefined> {
    const stored = doc.session;
    if (stored === undefined) return { ok: true, value: undefined };
    // Written in clear by an earlier version: read as it is; the next write seals it.
    if (typeof stored !== 'string') return { ok: true, value: isPlainObject(stored) ? stored : undefined };
    try {
      const text = keyring.open(stored, chatId);
      const parsed: unknown = JSON.parse(text);
      if (!isPlainObject(parsed))
        return { ok: false, error: new TypeError('stored session is not an object') };
      if (scope !== undefined) scope.openedSession = { sealed: stored, text };
      return { ok: true, value: parsed };
    } catch (error) {
      return { ok: false, error: toError(error) };
    }
  }

  /**
   * Whether the document already holds this session: none for an empty one (`text` undefined),
   * else a sealed session opening to exactly this canonical text. The session the scope last
   * opened is compared without opening it again.
   */
  function holdsSession(
    chatId: number,
    doc: ChatDoc | undefined,
    text: string | undefined,
    scope: ChatScope | undefined,
  ): boolean {
    const stored = doc?.session;
    if (text === undefined) return stored === undefined;
    if (typeof stored !== 'string') return false;
    const known = scope?.openedSession;
    if (known !== undefined && known.sealed === stored) return known.text === text;
    try {
      return keyring.open(stored, chatId) === text;
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
    await updateDoc(chatId, (doc) => {
      unreadable = undefined;
      return change(doc, (field, error) => {
        unreadable = { field, error };
      });
    });
    if (unreadable !== undefined) report(chatId, unreadable.field, unreadable.error);
  }

  return {
    async getLocale(chatId) {
      const locale = (await readDoc(chatId))?.locale;
      return locale === 'ru' || locale === 'en' ? locale : undefined;
    },

    async setLocale(chatId, locale) {
      await updateDoc(chatId, (doc) => ({ ...doc, locale }));
    },

    async getToken(chatId) {
      const doc = await readDoc(chatId);
      if (doc === undefined) return undefined;
      const opened = openToken(chatId, doc);
      if (opened.ok) return opened.value;
      report(chatId, 'token', opened.error);
      return undefined;
    },

    async setToken(chatId, token) {
      // Sealed outside `update`: a retried change must not seal again with a new IV for nothing.
      const sealed = keyring.seal(token, chatId);
      await updateDoc(chatId, (doc) => ({ ...doc, token: sealed }));
    },

    async clearToken(chatId) {
      await updateDoc(chatId, ({ token: _dropped, ...rest }) => rest);
    },

    async getProfiles(chatId) {
      const doc = await readDoc(chatId);
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
      const id = (await readDoc(chatId))?.lastCurrencyId;
      return Number.isSafeInteger(id) ? id : undefined;
    },

    async setLastCurrencyId(chatId, currencyId) {
      if (!Number.isSafeInteger(currencyId)) throw new TypeError('currency id must be an integer');
      await updateDoc(chatId, (doc) => ({ ...doc, lastCurrencyId: currencyId }));
    },

    async rememberOrderDomain(chatId, orderId, domain) {
      await updateDoc(chatId, (doc) => {
        const kept = Object.entries(doc.orderDomains ?? {}).filter(([id]) => id !== String(orderId));
        const next = Object.fromEntries([...kept.slice(-(MAX_ORDER_DOMAINS - 1)), [String(orderId), domain]]);
        return { ...doc, orderDomains: next };
      });
    },

    async getOrderDomain(chatId, orderId) {
      const domains = (await readDoc(chatId))?.orderDomains;
      const domain =
        domains !== undefined && Object.hasOwn(domains, String(orderId))
          ? domains[String(orderId)]
          : undefined;
      return typeof domain === 'string' ? domain : undefined;
    },

    async getNotifySettings(chatId) {
      const settings = (await readDoc(chatId))?.notify;
      return isPlainObject(settings) ? settings : {};
    },

    async setNotifySettings(chatId, settings) {
      const empty = (settings.off ?? []).length === 0 && settings.quiet === undefined;
      await updateDoc(chatId, ({ notify: _old, ...rest }) => (empty ? rest : { ...rest, notify: settings }));
    },

    async rememberInvoiceLink(chatId, invoiceId, messageId) {
      await updateDoc(chatId, (doc) => {
        const kept = Object.entries(doc.invoiceLinks ?? {}).filter(([id]) => id !== String(invoiceId));
        const next = Object.fromEntries([
          ...kept.slice(-(MAX_INVOICE_LINKS - 1)),
          [String(invoiceId), messageId],
        ]);
        return { ...doc, invoiceLinks: next };
      });
    },

    async getInvoiceLink(chatId, invoiceId) {
      const links = (await readDoc(chatId))?.invoiceLinks;
      const message =
        links !== undefined && Object.hasOwn(links, String(invoiceId)) ? links[String(invoiceId)] : undefined;
      return Number.isSafeInteger(message) ? message : undefined;
    },

    async getTeam(chatId) {
      const doc = await readDoc(chatId);
      const team = doc?.team;
      if (doc === undefined || !isPlainObject(team) || !Number.isSafeInteger(team.owner)) return undefined;
      const members: Record<string, Team['members'][string]> = {};
      for (const [id, role] of Object.entries(isPlainObject(team.members) ? team.members : {})) {
        if (isRole(role)) members[id] = role;
      }
      return { owner: team.owner, members, names: openNames(chatId, doc) };
    },

    async setTeam(chatId, team) {
      const sealed = keyring.seal(JSON.stringify(team.names), chatId);
      const plain = { owner: team.owner, members: { ...team.members } };
      await updateDoc(chatId, (doc) => ({ ...doc, team: plain, teamNames: sealed }));
    },

    async clearTeam(chatId) {
      await updateDoc(chatId, ({ team: _team, teamNames: _names, ...rest }) => rest);
    },

    async getTeamGroups(chatId) {
      const groups = (await readDoc(chatId))?.teamGroups;
      return Array.isArray(groups) ? groups.filter((id) => Number.isSafeInteger(id)) : [];
    },

    async addTeamGroup(chatId, groupId) {
      await updateDoc(chatId, (doc) => {
        const groups = doc.teamGroups ?? [];
        return groups.includes(groupId) ? doc : { ...doc, teamGroups: [...groups, groupId] };
      });
    },

    async removeTeamGroup(chatId, groupId) {
      await updateDoc(chatId, (doc) => {
        const groups = (doc.teamGroups ?? []).filter((id) => id !== groupId);
        return withField(doc, 'teamGroups', groups.length === 0 ? undefined : groups);
      });
    },

    async wipe(chatId) {
      forget(chatId);
      await store.remove(chatId);
      const scope = scopes.get(chatId);
      if (scope !== undefined) scope.doc = Promise.resolve(undefined);
    },

    async setAside(chatId) {
      const setAsideAs = await store.setAside(chatId);
      forget(chatId);
      return setAsideAs;
    },

    async withChat(chatId, task) {
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

    sessionStore<T extends object>(): ChatSessionStore<T> {
      return {
        async get(key) {
          const chatId = parseSessionKey(key);
          const doc = await readDoc(chatId);
          if (doc === undefined) return undefined;
          const opened = openSession(chatId, doc, scopes.get(chatId));
          if (!opened.ok) {
            report(chatId, 'session', opened.error);
            return undefined;
          }
          // The store holds whatever the bot put there; its shape is the bot's own session type.
          return opened.value as T | undefined;
        },
        async set(key, value) {
          const chatId = parseSessionKey(key);
          // An empty session — no keys, or only empty bookkeeping objects such as telegraf's
          // `__scenes: {}` — is stored as none, so idle chats leave no document behind. Most
          // updates end with one, recognised here without the JSON round trip.
          const session = isPlainObject(value) && isEmptySession(value) ? value : toJsonObject(value);
          if (session === undefined) throw new TypeError('a session must be a JSON object');
          const text = isEmptySession(session) ? undefined : serializeCanonical(session);
          const scope = scopes.get(chatId);
          // Within the chat's scope its copy is the stored document: an unchanged session (what
          // telegraf writes back after most updates) needs no store call at all.
          if (scope?.doc !== undefined) {
            const current = await scope.doc.then(
              (doc) => ({ doc }),
              () => undefined,
            );
            if (current !== undefined && holdsSession(chatId, current.doc, text, scope)) return;
          }
          let sealed: string | undefined;
          await updateDoc(chatId, (doc) => {
            if (text === undefined) return withField(doc, 'session', undefined);
            // Every seal has a new IV, so sealed texts never compare equal: compare in clear,
            // or telegraf's write-back after every update would rewrite the file each time.
            if (holdsSession(chatId, doc, text, scopes.get(chatId))) return doc;
            // At most one seal per call, however often a Redis retry runs this change.
            sealed ??= keyring.seal(text, chatId);
            return withField(doc, 'session', sealed);
          });
          const after = scopes.get(chatId);
          if (after !== undefined && sealed !== undefined && text !== undefined) {
            // What was just sealed is known in clear: the write-back at the update's end compares free.
            if ((await after.doc)?.session === sealed) after.openedSession = { sealed, text };
          }
        },
        async delete(key) {
          await updateDoc(parseSessionKey(key), (doc) => withField(doc, 'session', undefined));
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
