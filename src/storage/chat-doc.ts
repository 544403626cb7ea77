/**
 * What both stores need to agree on about a stored document: how it is validated when read, how
 * it is normalized before it is compared or written, and how chat ids are checked.
 */
import type { ChatDoc } from './chat-store.js';

/** Thrown when a stored chat document is not a JSON object (hand-edited or damaged file/value). */
export class CorruptChatDocError extends Error {
  override name = 'CorruptChatDocError';
}

/** Thrown by a store's methods after `close()` was called. */
export class StoreClosedError extends Error {
  override name = 'StoreClosedError';
  constructor() {
    super('the chat store is closed');
  }
}

/** Chat ids end up in file names and keys; anything but a safe integer is a bug upstream. */
export function assertChatId(chatId: number): void {
  if (!Number.isSafeInteger(chatId)) throw new TypeError(`chat id must be a safe integer, got ${chatId}`);
}

/**
 * Canonical JSON text: object keys sorted, `undefined` members dropped. Two documents are equal
 * exactly when their canonical texts are, whatever order a `change` function built them in.
 */
export function serializeChatDoc(doc: ChatDoc): string {
  return serializeCanonical(doc);
}

/** Canonical JSON text of any JSON value (see `serializeChatDoc`). */
export function serializeCanonical(value: unknown): string {
  return JSON.stringify(value, (_key, member: unknown) =>
    isPlainObject(member) ? sortKeys(member) : member,
  );
}

/**
 * Whether stored text is a readable document; `setAside` checks it again under the chat's queue
 * so a record repaired or replaced in the meantime is never moved.
 */
export function isReadableChatDoc(text: string): boolean {
  try {
    parseChatDoc(text, 'the stored chat document');
    return true;
  } catch (error) {
    if (error instanceof CorruptChatDocError) return false;
    throw error;
  }
}

/** The suffix time of a set-aside record: sortable, and free of `:` for file names. */
export function formatSetAsideTime(date: Date = new Date()): string {
  return date.toISOString().replace(/[:.]/g, '-');
}

/** Parses stored text into a document; `where` names the file or key in the error. */
export function parseChatDoc(text: string, where: string): ChatDoc {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new CorruptChatDocError(`${where} does not hold valid JSON`);
  }
  if (!isPlainObject(value)) throw new CorruptChatDocError(`${where} does not hold a JSON object`);
  return value;
}

/** A plain-JSON deep copy with sorted keys: what would be read back after a write. */
export function normalizeChatDoc(doc: ChatDoc): ChatDoc {
  return parseChatDoc(serializeChatDoc(doc), 'the changed chat document');
}

/**
 * A copy handed to callers, so nobody mutates a store's cached state. Every field is a string or
 * a number but a session stored in clear by an earlier version (an object): a spread plus a deep
 * copy of that one costs a fraction of `structuredClone` on the whole, once per update.
 */
export function cloneChatDoc(doc: ChatDoc): ChatDoc {
  const copy = { ...doc };
  if (typeof copy.session === 'object') copy.session = structuredClone(copy.session);
  return copy;
}

/** An empty document is stored as no document at all. */
export function isEmptyChatDoc(doc: ChatDoc): boolean {
  return Object.keys(doc).length === 0;
}

/** `value` as a JSON object (JSON round trip), or undefined when it is not an object. */
export function toJsonObject(value: unknown): Record<string, unknown> | undefined {
  const text = JSON.stringify(value);
  if (text === undefined) return undefined;
  const parsed: unknown = JSON.parse(text);
  return isPlainObject(parsed) ? parsed : undefined;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function sortKeys(value: Record<string, unknown>): Record<string, unknown> {
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    // defineProperty keeps a literal "__proto__" key an ordinary member.
    Object.defineProperty(sorted, key, {
      value: value[key],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return sorted;
}
