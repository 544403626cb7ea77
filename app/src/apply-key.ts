/*
 * Apply's idempotency key: one per request, so a retry or a double tap is answered once and
 * nothing is applied twice. Pure (no DOM): unit-tested under Node with the pending plan.
 */
import type { Edit } from '../../src/mini-app/contract.js';

/** The idempotency key of one Apply request: its body's identity and the key. */
export interface PlanKey {
  readonly body: string;
  readonly key: string;
}

/**
 * The key for applying `edits` (with `force` or not): the previous one while the request is the
 * same (a retry or a double tap gets the first answer, nothing is applied twice), a new one from
 * `fresh` once the plan or the force changed.
 */
export function keyFor(
  prev: PlanKey | undefined,
  edits: readonly Edit[],
  force: boolean,
  fresh: () => string,
): PlanKey {
  const body = JSON.stringify({ edits, force });
  return prev?.body === body ? prev : { body, key: fresh() };
}

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Bytes as unpadded base64url (16 random bytes make a 22-character key). */
export function base64url(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let c = 0; c < chars; c++) out += B64URL[(n >> (18 - 6 * c)) & 63];
  }
  return out;
}
