/**
 * telegraf's session storage over the chat document: the session (order drafts hold passport
 * numbers, names and addresses) is sealed for the chat as canonical JSON. telegraf writes the
 * session back after every update, so an unchanged one is recognised and left unwritten.
 */
import { isPlainObject, serializeCanonical, toJsonObject } from '../chat-doc.js';
import type { ChatDoc } from '../chat-store.js';
import { type ChatDocAccess, type ChatScope, type Opened, toError, withField } from './doc-access.js';

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

/** The session storage of the chats. */
export interface ChatSessions {
  /** telegraf session storage over the same documents. */
  sessionStore<T extends object>(): ChatSessionStore<T>;
}

/** The sessions part of `ChatData` over the shared document. */
export function createChatSessions(access: ChatDocAccess): ChatSessions {
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
      const text = access.open(stored, chatId);
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
      return access.open(stored, chatId) === text;
    } catch {
      return false;
    }
  }

  return {
    sessionStore<T extends object>(): ChatSessionStore<T> {
      return {
        async get(key) {
          const chatId = parseSessionKey(key);
          const doc = await access.read(chatId);
          if (doc === undefined) return undefined;
          const opened = openSession(chatId, doc, access.scope(chatId));
          if (!opened.ok) {
            access.report(chatId, 'session', opened.error);
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
          const scope = access.scope(chatId);
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
          await access.update(chatId, (doc) => {
            if (text === undefined) return withField(doc, 'session', undefined);
            // Every seal has a new IV, so sealed texts never compare equal: compare in clear,
            // or telegraf's write-back after every update would rewrite the file each time.
            if (holdsSession(chatId, doc, text, access.scope(chatId))) return doc;
            // At most one seal per call, however often a Redis retry runs this change.
            sealed ??= access.seal(text, chatId);
            return withField(doc, 'session', sealed);
          });
          const after = access.scope(chatId);
          if (after !== undefined && sealed !== undefined && text !== undefined) {
            // What was just sealed is known in clear: the write-back at the update's end compares free.
            if ((await after.doc)?.session === sealed) after.openedSession = { sealed, text };
          }
        },
        async delete(key) {
          await access.update(parseSessionKey(key), (doc) => withField(doc, 'session', undefined));
        },
      };
    },
  };
}

function isEmptySession(session: Record<string, unknown>): boolean {
  return Object.values(session).every(
    (value) => value === undefined || (isPlainObject(value) && Object.keys(value).length === 0),
  );
}

function parseSessionKey(key: string): number {
  const chatId = /^-?\d{1,16}$/.test(key) ? Number(key) : Number.NaN;
  if (!Number.isSafeInteger(chatId)) {
    throw new TypeError('session key must be a chat id (set getSessionKey to the chat id)');
  }
  return chatId;
}
