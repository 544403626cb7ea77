/**
 * The typed view of robots' keys (`robot-key-store.ts`): a key is made with a random secret that
 * is given back once and kept only as its SHA-256; a robot's login and password are checked in
 * constant time; what names a person is sealed for `robotkey:<id>` and opened on the way out.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { isKeyId, isKeySecret, type KeyKind, type KeyUseAction } from '../core/robot-keys.js';
import type { Keyring } from './crypto.js';
import type { RobotKeyStore, StoredRobotKey } from './robot-key-store.js';

/** A robot's last use of a key: when, from which address, what it did (no secret). */
export interface KeyUse {
  at: string;
  from: string;
  action: KeyUseAction;
  /** The addresses set or kept, or the challenge's name; '' when none. */
  detail: string;
}

/** A key as the chat and the gateway see it. */
export interface RobotKey {
  id: string;
  chatId: number;
  /** The chat's account the key acts for (absent in keys made before accounts: account 1). */
  account?: number | undefined;
  kind: KeyKind;
  /** The key's own name («Роутер офиса»). */
  name: string;
  /** ASCII, lower-case: the host (address) or the domain (certificate). */
  scope: string;
  orderId: number;
  /** The zone's domain, ASCII. */
  domain: string;
  networks: string[];
  createdBy: { userId: number; name: string };
  createdAt: string;
  lastUse?: KeyUse | undefined;
  /** acme-dns: the name (relative to the zone) whose TXT its `/update` writes. */
  acmeDnsHost?: string | undefined;
}

/** What a new key is made of; the id, the secret and the time are given here. */
export type NewRobotKey = Omit<RobotKey, 'id' | 'createdAt' | 'lastUse'>;

/** A key with its secret: only when it is made or rotated, to be shown once. */
export interface IssuedKey {
  key: RobotKey;
  secret: string;
}

export interface RobotKeys {
  create(key: NewRobotKey): Promise<IssuedKey>;
  /** A new secret for the same id (the old one stops at once); undefined when there is no such key. */
  rotate(id: string): Promise<IssuedKey | undefined>;
  /** Deletes the key; the key as it was, or undefined. */
  revoke(id: string): Promise<RobotKey | undefined>;
  get(id: string): Promise<RobotKey | undefined>;
  /** The chat's keys; with `account`, only that account's. */
  list(chatId: number, account?: number): Promise<RobotKey[]>;
  /** The key these credentials open; undefined for a wrong or malformed pair (compared in constant time). */
  verify(id: string, secret: string): Promise<RobotKey | undefined>;
  noteUse(id: string, use: KeyUse): Promise<void>;
  /** Sets what acme-dns's `/register` gave the key. */
  setAcmeDnsHost(id: string, host: string): Promise<void>;
}

/** The account a key acts for: keys made before accounts act for account 1. */
export const accountOfKey = (key: { account?: number | undefined }): number => key.account ?? 1;

/** Whom a key's sealed fields belong to (bound into the seal). */
export const keySealOwner = (id: string) => `robotkey:${id}` as const;

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** A new key id: `k` and 12 base32 characters (60 random bits: ids are public, secrets are not). */
function newKeyId(): string {
  const bytes = randomBytes(12);
  let id = 'k';
  for (const byte of bytes) id += BASE32[byte & 31];
  return id;
}

const hashOf = (secret: string) => createHash('sha256').update(secret).digest();

/** A stable digest to compare against when there is no key, so a miss costs what a hit costs. */
const NO_KEY_HASH = hashOf('no key');

export function createRobotKeys(options: {
  store: RobotKeyStore;
  keyring: Keyring;
  now?: () => Date;
  onUnreadable?: (event: { keyId: string; error: Error }) => void;
}): RobotKeys {
  const { store, keyring, now = () => new Date(), onUnreadable } = options;

  const open = (stored: StoredRobotKey): RobotKey => {
    let named = { name: '', createdBy: { userId: 0, name: '' } };
    let lastUse: KeyUse | undefined;
    try {
      named = JSON.parse(keyring.open(stored.sealed, keySealOwner(stored.id))) as typeof named;
      if (stored.lastUse)
        lastUse = JSON.parse(keyring.open(stored.lastUse, keySealOwner(stored.id))) as KeyUse;
    } catch (error) {
      onUnreadable?.({ keyId: stored.id, error: error instanceof Error ? error : new Error(String(error)) });
    }
    const { sealed: _sealed, hash: _hash, lastUse: _lastUse, ...plain } = stored;
    return { ...plain, ...named, ...(lastUse ? { lastUse } : {}) };
  };

  const issue = async (stored: Omit<StoredRobotKey, 'hash'>): Promise<IssuedKey> => {
    const secret = randomBytes(32).toString('base64url');
    const key: StoredRobotKey = { ...stored, hash: hashOf(secret).toString('hex') };
    await store.put(key);
    return { key: open(key), secret };
  };

  return {
    async create(fresh) {
      let id = newKeyId();
      while (await store.get(id)) id = newKeyId();
      const { name, createdBy, ...plain } = fresh;
      return issue({
        ...plain,
        networks: [...plain.networks],
        id,
        createdAt: now().toISOString(),
        sealed: keyring.seal(JSON.stringify({ name, createdBy }), keySealOwner(id)),
      });
    },
    async rotate(id) {
      const stored = await store.get(id);
      if (!stored) return undefined;
      const { hash: _hash, ...rest } = stored;
      return issue(rest);
    },
    async revoke(id) {
      const stored = await store.get(id);
      if (!stored) return undefined;
      await store.remove(id);
      return open(stored);
    },
    async get(id) {
      const stored = await store.get(id);
      return stored && open(stored);
    },
    async list(chatId, account) {
      const stored = await store.listOf(chatId);
      return (account === undefined ? stored : stored.filter((key) => accountOfKey(key) === account)).map(
        open,
      );
    },
    async verify(id, secret) {
      const stored = isKeyId(id) ? await store.get(id) : undefined;
      const expected = stored ? Buffer.from(stored.hash, 'hex') : NO_KEY_HASH;
      const given = hashOf(secret);
      const same = expected.length === given.length && timingSafeEqual(expected, given);
      return stored && same && isKeySecret(secret) ? open(stored) : undefined;
    },
    async noteUse(id, use) {
      const stored = await store.get(id);
      if (!stored) return;
      await store.put({ ...stored, lastUse: keyring.seal(JSON.stringify(use), keySealOwner(id)) });
    },
    async setAcmeDnsHost(id, host) {
      const stored = await store.get(id);
      if (!stored) return;
      await store.put({ ...stored, acmeDnsHost: host });
    },
  };
}
