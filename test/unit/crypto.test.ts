import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createKeyring,
  KEY_FILE_NAME,
  KeyConfigError,
  type Keyring,
  loadKeyring,
  parseEncryptionKeys,
  SealError,
  type SealErrorReason,
} from '../../src/storage/crypto.js';

const keyA = randomBytes(32);
const keyB = randomBytes(32);
const specA = `a:${keyA.toString('base64')}`;
const specB = `b:${keyB.toString('base64')}`;
const CHAT = 123_456_789;
const SECRET = 'partner-token-7f3c9e1d2b';

function expectSealError(action: () => unknown, reason: SealErrorReason): SealError {
  let caught: unknown;
  try {
    action();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(SealError);
  const error = caught as SealError;
  expect(error.reason).toBe(reason);
  expect(error.message).not.toContain(SECRET);
  for (const key of [keyA, keyB]) {
    expect(error.message).not.toContain(key.toString('base64'));
    expect(error.message).not.toContain(key.toString('base64url'));
  }
  return error;
}

function expectKeyConfigError(value: string, mentions: RegExp): void {
  let caught: unknown;
  try {
    parseEncryptionKeys(value);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(KeyConfigError);
  const message = (caught as Error).message;
  expect(message).toContain('ENCRYPTION_KEYS');
  expect(message).toMatch(mentions);
  // No part of any key value supplied may appear in the message.
  for (const entry of value.split(',')) {
    const material = entry.includes(':') ? entry.slice(entry.indexOf(':') + 1).trim() : entry.trim();
    if (material.length >= 4) expect(message).not.toContain(material);
  }
}

/** Replaces part `index` of a sealed value. */
function replacePart(sealed: string, index: number, replace: (part: string) => string): string {
  const parts = sealed.split('.');
  parts[index] = replace(parts[index] ?? '');
  return parts.join('.');
}

/** Flips one bit of a base64url part and re-encodes it canonically. */
function flipBit(part: string, bit = 0): string {
  const bytes = Buffer.from(part, 'base64url');
  const index = Math.floor(bit / 8) % bytes.length;
  bytes[index] = (bytes[index] ?? 0) ^ (1 << (bit % 8));
  return bytes.toString('base64url');
}

describe('seal / open', () => {
  const ring = parseEncryptionKeys(specA);

  it('round-trips text, including empty and non-ASCII', () => {
    for (const text of [SECRET, '', 'токен 🔑', 'x'.repeat(10_000)]) {
      expect(ring.open(ring.seal(text, CHAT), CHAT)).toBe(text);
    }
  });

  it('round-trips any string for any chat id (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.maxSafeInteger(), (text, chatId) => {
        expect(ring.open(ring.seal(text, chatId), chatId)).toBe(text);
      }),
    );
  });

  it('uses the compact versioned format with a 12-byte IV and names the key', () => {
    const parts = ring.seal(SECRET, CHAT).split('.');
    expect(parts).toHaveLength(5);
    expect(parts[0]).toBe('v1');
    expect(parts[1]).toBe('a');
    expect(Buffer.from(parts[2] ?? '', 'base64url')).toHaveLength(12);
    expect(Buffer.from(parts[3] ?? '', 'base64url')).toHaveLength(16);
  });

  it('never contains the plaintext', () => {
    const sealed = ring.seal(SECRET, CHAT);
    expect(sealed).not.toContain(SECRET);
    expect(sealed).not.toContain(Buffer.from(SECRET).toString('base64url'));
  });

  it('draws a fresh IV every time, so equal inputs seal differently', () => {
    const first = ring.seal(SECRET, CHAT);
    const second = ring.seal(SECRET, CHAT);
    expect(first).not.toBe(second);
    expect(first.split('.')[2]).not.toBe(second.split('.')[2]);
  });

  it('rejects a value sealed for another chat', () => {
    const sealed = ring.seal(SECRET, CHAT);
    expectSealError(() => ring.open(sealed, CHAT + 1), 'not-authentic');
    expectSealError(() => ring.open(sealed, -CHAT), 'not-authentic');
  });

  describe('rejects tampering with each part', () => {
    const sealed = ring.seal(SECRET, CHAT);
    it('version', () => {
      expectSealError(
        () =>
          ring.open(
            replacePart(sealed, 0, () => 'v2'),
            CHAT,
          ),
        'malformed',
      );
    });
    it('key id: unknown id', () => {
      expectSealError(
        () =>
          ring.open(
            replacePart(sealed, 1, () => 'zz'),
            CHAT,
          ),
        'unknown-key',
      );
    });
    it('key id: another configured key', () => {
      const both = createKeyring([
        { id: 'a', key: keyA },
        { id: 'b', key: keyB },
      ]);
      expectSealError(
        () =>
          both.open(
            replacePart(sealed, 1, () => 'b'),
            CHAT,
          ),
        'not-authentic',
      );
    });
    for (const [index, name] of [
      [2, 'iv'],
      [3, 'tag'],
      [4, 'ciphertext'],
    ] as const) {
      it(`${name}: a flipped bit`, () => {
        expectSealError(() => ring.open(replacePart(sealed, index, flipBit), CHAT), 'not-authentic');
      });
      it(`${name}: truncated`, () => {
        // Cut by whole bytes (4 chars = 3 bytes), so the part stays canonical base64url.
        const cut = replacePart(sealed, index, (part) => part.slice(0, -4));
        expectSealError(() => ring.open(cut, CHAT), index === 4 ? 'not-authentic' : 'malformed');
      });
    }
    it('structure: missing or extra parts, non-base64url characters', () => {
      expectSealError(() => ring.open(sealed.split('.').slice(0, 4).join('.'), CHAT), 'malformed');
      expectSealError(() => ring.open(`${sealed}.x`, CHAT), 'malformed');
      expectSealError(
        () =>
          ring.open(
            replacePart(sealed, 3, (part) => `${part.slice(0, -1)}+`),
            CHAT,
          ),
        'malformed',
      );
      expectSealError(() => ring.open(SECRET, CHAT), 'malformed');
    });
  });

  it('notices any single changed character (property)', () => {
    const sealed = ring.seal(SECRET, CHAT);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.';
    fc.assert(
      fc.property(fc.nat(sealed.length - 1), fc.constantFrom(...alphabet), (position, char) => {
        fc.pre(sealed[position] !== char);
        const changed = sealed.slice(0, position) + char + sealed.slice(position + 1);
        expect(() => ring.open(changed, CHAT)).toThrow(SealError);
      }),
    );
  });

  it('rejects chat ids that are not safe integers', () => {
    expect(() => ring.seal(SECRET, 1.5)).toThrow(TypeError);
    expect(() => ring.open(ring.seal(SECRET, CHAT), Number.NaN)).toThrow(TypeError);
  });
});

describe('key rotation', () => {
  it('opens values sealed by an old key and seals with the new current key', () => {
    const before = parseEncryptionKeys(specA);
    const old = before.seal(SECRET, CHAT);
    const after = parseEncryptionKeys(`${specB},${specA}`);
    expect(after.currentKeyId).toBe('b');
    expect(after.keyIds).toEqual(['b', 'a']);
    expect(after.open(old, CHAT)).toBe(SECRET);
    const fresh = after.seal(SECRET, CHAT);
    expect(fresh.startsWith('v1.b.')).toBe(true);
    expect(after.open(fresh, CHAT)).toBe(SECRET);
    // The old ring cannot read what the new key sealed.
    expectSealError(() => before.open(fresh, CHAT), 'unknown-key');
  });

  it('fails with unknown-key once the old key is removed, naming only the id', () => {
    const old = parseEncryptionKeys(specA).seal(SECRET, CHAT);
    const error = expectSealError(() => parseEncryptionKeys(specB).open(old, CHAT), 'unknown-key');
    expect(error.message).toContain('"a"');
  });
});

describe('ENCRYPTION_KEYS parsing', () => {
  it('accepts standard and url-safe base64, with spaces around entries', () => {
    const urlSafe = keyB.toString('base64url');
    const ring = parseEncryptionKeys(` ${specA} , b:${urlSafe} `);
    expect(ring.keyIds).toEqual(['a', 'b']);
  });

  it('names the variable and the defect without echoing key material', () => {
    const short = randomBytes(16).toString('base64');
    expectKeyConfigError('', /empty/);
    expectKeyConfigError('   ', /empty/);
    expectKeyConfigError(keyA.toString('base64'), /entry 1 .*id:base64key/);
    expectKeyConfigError(`:${keyA.toString('base64')}`, /entry 1 .*id:base64key/);
    expectKeyConfigError(`${specA},,${specB}`, /entry 2 is empty/);
    expectKeyConfigError(`${specA},`, /entry 2 is empty/);
    expectKeyConfigError(`bad.id:${keyA.toString('base64')}`, /entry 1 has an invalid key id/);
    expectKeyConfigError(`${specA},a:${keyB.toString('base64')}`, /entry 2 repeats key id "a"/);
    expectKeyConfigError(`a:${short}`, /entry 1 \(id "a"\) decodes to 16 bytes.*exactly 32/);
    expectKeyConfigError(`a:${randomBytes(48).toString('base64')}`, /decodes to 48 bytes/);
    expectKeyConfigError('a:not*base64!at-all', /entry 1 \(id "a"\) is not valid base64/);
    expectKeyConfigError('a:', /not valid base64/);
  });
});

describe('loadKeyring', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'crypto-test-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('uses ENCRYPTION_KEYS when set and creates no key file', async () => {
    const loaded = await loadKeyring({ encryptionKeys: `${specB},${specA}`, dataDir });
    expect(loaded.keyring.currentKeyId).toBe('b');
    expect(loaded.generatedKeyFile).toBeUndefined();
    await expect(stat(path.join(dataDir, KEY_FILE_NAME))).rejects.toThrow(/ENOENT/);
  });

  it('reads ENCRYPTION_KEYS_FILE (a mounted secret) outside DATA_DIR, and creates no key file', async () => {
    const secret = path.join(dataDir, '..', `keys-${path.basename(dataDir)}`);
    await writeFile(secret, `${specB},${specA}\n`, { mode: 0o600 });
    try {
      const loaded = await loadKeyring({ encryptionKeysFile: secret, dataDir });
      expect(loaded.keyring.keyIds).toEqual(['b', 'a']);
      await expect(stat(path.join(dataDir, KEY_FILE_NAME))).rejects.toThrow(/ENOENT/);
      await expect(
        loadKeyring({ encryptionKeysFile: secret, encryptionKeys: specA, dataDir }),
      ).rejects.toThrow('set ENCRYPTION_KEYS or ENCRYPTION_KEYS_FILE, not both');
      await expect(loadKeyring({ encryptionKeysFile: `${secret}.missing`, dataDir })).rejects.toThrow(
        /ENCRYPTION_KEYS_FILE .* cannot be read \(ENOENT\)/,
      );
    } finally {
      await rm(secret, { force: true });
    }
  });

  it('throws KeyConfigError for a malformed ENCRYPTION_KEYS instead of falling back to a file', async () => {
    await expect(loadKeyring({ encryptionKeys: 'a:short', dataDir })).rejects.toThrow(KeyConfigError);
  });

  it('generates a 0600 key file once and reuses it afterwards', async () => {
    const nested = path.join(dataDir, 'not', 'yet', 'there');
    const first = await loadKeyring({ dataDir: nested });
    const file = path.join(nested, KEY_FILE_NAME);
    expect(first.generatedKeyFile).toBe(file);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const content = await readFile(file, 'utf8');
    expect(content).toMatch(/^local:[A-Za-z0-9+/]{43}=\n$/);

    const sealed = first.keyring.seal(SECRET, CHAT);
    const second = await loadKeyring({ dataDir: nested, encryptionKeys: undefined });
    expect(second.generatedKeyFile).toBeUndefined();
    expect(await readFile(file, 'utf8')).toBe(content);
    expect(second.keyring.open(sealed, CHAT)).toBe(SECRET);
  });

  it('lets only one of several simultaneous starts generate the key', async () => {
    const loaded = await Promise.all(Array.from({ length: 8 }, () => loadKeyring({ dataDir })));
    expect(loaded.filter((result) => result.generatedKeyFile !== undefined)).toHaveLength(1);
    const sealed = (loaded[0] as { keyring: Keyring }).keyring.seal(SECRET, CHAT);
    for (const { keyring } of loaded) expect(keyring.open(sealed, CHAT)).toBe(SECRET);
  });

  it('reports a damaged key file by its path, not its content', async () => {
    const file = path.join(dataDir, KEY_FILE_NAME);
    await writeFile(file, 'local:c2hvcnQ=\n', { mode: 0o600 });
    const error = await loadKeyring({ dataDir }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(KeyConfigError);
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).not.toContain('c2hvcnQ');
  });
});
