/**
 * Sealing of secrets (partner API tokens, requisites profiles) before they reach a `ChatStore`.
 *
 * AES-256-GCM with a random 12-byte IV per value. The chat id is bound as additional
 * authenticated data, so a sealed value copied into another chat's document does not open.
 * Every sealed value names the key that sealed it, so keys can be rotated: the first key of the
 * ring seals, every key of the ring opens.
 *
 * Sealed format (all parts base64url, no padding): `v1.<keyId>.<iv>.<tag>.<ciphertext>`.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isErrnoCode } from './files.js';

const FORMAT_VERSION = 'v1';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Key ids end up inside every sealed value, so they are kept short and free of separators. */
const KEY_ID_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;
/** Standard or url-safe base64; `Buffer.from` would silently skip anything else. */
const BASE64_PATTERN = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** Name of the file a key is generated into when `ENCRYPTION_KEYS` is not set. */
export const KEY_FILE_NAME = 'encryption.key';
/** Id of the key generated into the key file; the file uses the `ENCRYPTION_KEYS` syntax. */
export const GENERATED_KEY_ID = 'local';

/**
 * Thrown while building a keyring when `ENCRYPTION_KEYS` (or the generated key file) is
 * malformed. The message names the source and the defect, never the key material.
 */
export class KeyConfigError extends Error {
  override name = 'KeyConfigError';
}

/** Why a sealed value did not open. */
export type SealErrorReason = 'malformed' | 'unknown-key' | 'not-authentic';

/**
 * Thrown by `Keyring.open` when a sealed value cannot be opened: it is not in the sealed format
 * (`malformed`), it names a key id the ring no longer holds (`unknown-key`, e.g. the key was
 * removed from `ENCRYPTION_KEYS`), or authentication failed (`not-authentic`: tampered, or sealed
 * for another chat, or sealed by a different key under the same id). The message never contains
 * plaintext, ciphertext or key material.
 */
export class SealError extends Error {
  override name = 'SealError';
  readonly reason: SealErrorReason;

  constructor(reason: SealErrorReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

/** The set of keys secrets are sealed with; the current key seals, every key opens. */
export interface Keyring {
  /** Id of the key new values are sealed with. */
  readonly currentKeyId: string;
  /** Ids of every key that can open values, the current one first. */
  readonly keyIds: readonly string[];
  /**
   * Seals `plaintext` for its owner with the current key: a chat id, or a scoped name such as
   * `watch:<id>` for what is kept per token rather than per chat.
   */
  seal(plaintext: string, owner: SealOwner): string;
  /** Opens a value sealed for `owner` by any key of the ring; throws `SealError` when it can't. */
  open(sealed: string, owner: SealOwner): string;
}

/**
 * Whom a sealed value belongs to, bound as additional data: a chat id, or `<scope>:<name>`
 * (the colon keeps a scoped owner from ever reading as a chat id).
 */
export type SealOwner = number | `${string}:${string}`;

/** One named 32-byte key. */
export interface KeyEntry {
  id: string;
  key: Buffer;
}

/** Result of `loadKeyring`: the ring and, when a key file was just created, its path (for a log line). */
export interface LoadedKeyring {
  keyring: Keyring;
  /** Set only when this call generated the key file. */
  generatedKeyFile?: string;
}

/** Builds a keyring from named keys; the first entry is the current key. */
export function createKeyring(entries: readonly KeyEntry[]): Keyring {
  const first = entries[0];
  if (first === undefined) throw new KeyConfigError('a keyring needs at least one key');
  const keys = new Map<string, Buffer>();
  for (const { id, key } of entries) {
    if (!KEY_ID_PATTERN.test(id)) throw new KeyConfigError(`key id "${id}" is not valid`);
    if (key.length !== KEY_BYTES) throw new KeyConfigError(`key "${id}" is not ${KEY_BYTES} bytes`);
    if (keys.has(id)) throw new KeyConfigError(`key id "${id}" is used twice`);
    // A private copy: the caller may zero or reuse its buffer.
    keys.set(id, Buffer.from(key));
  }
  const currentKeyId = first.id;
  const currentKey = Buffer.from(first.key);

  return {
    currentKeyId,
    keyIds: [...keys.keys()],
    seal(plaintext, owner) {
      assertOwner(owner);
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', currentKey, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(buildAad(currentKeyId, owner));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [
        FORMAT_VERSION,
        currentKeyId,
        iv.toString('base64url'),
        tag.toString('base64url'),
        ciphertext.toString('base64url'),
      ].join('.');
    },
    open(sealed, owner) {
      assertOwner(owner);
      const parts = sealed.split('.');
      if (parts.length !== 5) throw new SealError('malformed', 'sealed value is not in the v1 format');
      const [version, keyId, ivPart, tagPart, ciphertextPart] = parts as [
        string,
        string,
        string,
        string,
        string,
      ];
      if (version !== FORMAT_VERSION) {
        throw new SealError('malformed', 'sealed value has an unknown format version');
      }
      const key = keys.get(keyId);
      if (key === undefined) {
        // The id is not secret, and naming it tells the operator which key to restore.
        throw new SealError('unknown-key', `sealed value names key id "${keyId}", which is not configured`);
      }
      const iv = decodeCanonical(ivPart);
      const tag = decodeCanonical(tagPart);
      const ciphertext = decodeCanonical(ciphertextPart);
      // A short tag would weaken GCM's authentication, so only the full length is accepted.
      if (iv?.length !== IV_BYTES || tag?.length !== TAG_BYTES || ciphertext === undefined) {
        throw new SealError('malformed', 'sealed value has a malformed part');
      }
      const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(buildAad(keyId, owner));
      decipher.setAuthTag(tag);
      try {
        return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
      } catch {
        // Node's own message is generic, but we don't rely on that: ours is fixed text.
        throw new SealError('not-authentic', 'sealed value failed authentication (tampered or another chat)');
      }
    },
  };
}

/**
 * Parses the `ENCRYPTION_KEYS` syntax: comma-separated `id:base64key`, each key exactly 32 bytes,
 * the first one current. `source` names the origin in error messages.
 */
export function parseEncryptionKeys(value: string, source = 'ENCRYPTION_KEYS'): Keyring {
  const items = value.split(',').map((item) => item.trim());
  if (items.every((item) => item === '')) throw new KeyConfigError(`${source} is empty`);
  const entries: KeyEntry[] = [];
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const position = `${source} entry ${index + 1}`;
    if (item === '') throw new KeyConfigError(`${position} is empty (stray comma?)`);
    const colon = item.indexOf(':');
    // The entry is not echoed: without a colon it may well be a bare key.
    if (colon <= 0) throw new KeyConfigError(`${position} is not in the form id:base64key`);
    const id = item.slice(0, colon).trim();
    const encoded = item.slice(colon + 1).trim();
    if (!KEY_ID_PATTERN.test(id)) {
      throw new KeyConfigError(`${position} has an invalid key id (use 1-32 of A-Z a-z 0-9 _ -)`);
    }
    if (seen.has(id)) throw new KeyConfigError(`${position} repeats key id "${id}"`);
    seen.add(id);
    if (!BASE64_PATTERN.test(encoded)) {
      throw new KeyConfigError(`${position} (id "${id}") is not valid base64`);
    }
    const key = Buffer.from(encoded, 'base64');
    if (key.length !== KEY_BYTES) {
      throw new KeyConfigError(
        `${position} (id "${id}") decodes to ${key.length} bytes; a key must be exactly ${KEY_BYTES} bytes`,
      );
    }
    entries.push({ id, key });
  });
  return createKeyring(entries);
}

/** The id of the key a sealed value was sealed with; undefined when the value is not sealed. */
export function sealedKeyId(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const parts = value.split('.');
  return parts.length === 5 && parts[0] === FORMAT_VERSION && KEY_ID_PATTERN.test(parts[1] ?? '')
    ? parts[1]
    : undefined;
}

/** Makes a fresh random key in the `ENCRYPTION_KEYS` syntax (`id:base64key`). */
export function generateKeySpec(id = GENERATED_KEY_ID): string {
  if (!KEY_ID_PATTERN.test(id)) throw new KeyConfigError(`key id "${id}" is not valid`);
  return `${id}:${randomBytes(KEY_BYTES).toString('base64')}`;
}

/**
 * The keyring the bot runs with: from `encryptionKeys` (the `ENCRYPTION_KEYS` value) or
 * `encryptionKeysFile` (`ENCRYPTION_KEYS_FILE`: a file with the same syntax, e.g. a mounted
 * secret) when given, otherwise from `DATA_DIR/encryption.key`, which is generated on first use
 * (mode 0600). That file holds the `ENCRYPTION_KEYS` syntax, so an operator can move it out of the
 * data later — a copy of DATA_DIR should not carry its own key.
 */
export async function loadKeyring(options: {
  encryptionKeys?: string | undefined;
  encryptionKeysFile?: string | undefined;
  dataDir: string;
}): Promise<LoadedKeyring> {
  const inline = options.encryptionKeys?.trim() || undefined;
  const file = options.encryptionKeysFile?.trim() || undefined;
  if (inline !== undefined && file !== undefined) {
    throw new KeyConfigError('set ENCRYPTION_KEYS or ENCRYPTION_KEYS_FILE, not both');
  }
  if (inline !== undefined) return { keyring: parseEncryptionKeys(inline) };
  if (file !== undefined) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      throw new KeyConfigError(
        `ENCRYPTION_KEYS_FILE ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
    return { keyring: parseEncryptionKeys(text.trim(), `ENCRYPTION_KEYS_FILE ${file}`) };
  }
  const generated = path.join(options.dataDir, KEY_FILE_NAME);
  await mkdir(options.dataDir, { recursive: true });
  try {
    // `wx` fails when the file exists, so of two processes starting together only one generates.
    await writeFile(generated, `${generateKeySpec()}\n`, { flag: 'wx', mode: 0o600 });
    return { keyring: await readKeyFile(generated), generatedKeyFile: generated };
  } catch (error) {
    if (!isErrnoCode(error, 'EEXIST')) throw error;
  }
  return { keyring: await readKeyFile(generated) };
}

async function readKeyFile(file: string): Promise<Keyring> {
  // Another process may have created the file a moment ago and still be writing it.
  for (let attempt = 0; ; attempt++) {
    const text = (await readFile(file, 'utf8')).trim();
    try {
      return parseEncryptionKeys(text, `key file ${file}`);
    } catch (error) {
      if (attempt >= 20 || !(error instanceof KeyConfigError)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** Binds format, key id and chat id: a value moved to another chat or relabelled fails to open. */
function buildAad(keyId: string, owner: SealOwner): Buffer {
  return Buffer.from(`${FORMAT_VERSION}.${keyId}.${owner}`, 'utf8');
}

const SCOPED_OWNER = /^[a-z]+:[A-Za-z0-9_-]{1,64}$/;

function assertOwner(owner: SealOwner): void {
  if (typeof owner === 'number') assertChatId(owner);
  else if (!SCOPED_OWNER.test(owner)) throw new TypeError('a scoped seal owner is <scope>:<name>');
}

/** Decodes base64url and rejects non-canonical spellings, so every changed character is noticed. */
function decodeCanonical(part: string): Buffer | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(part)) return undefined;
  const bytes = Buffer.from(part, 'base64url');
  return bytes.toString('base64url') === part ? bytes : undefined;
}

function assertChatId(chatId: number): void {
  if (!Number.isSafeInteger(chatId)) throw new TypeError('chat id must be a safe integer');
}
