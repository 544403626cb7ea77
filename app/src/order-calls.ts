/*
 * The order form's calls of its own to the server: the kind's catalog in the currency chosen,
 * and the once-only key an order is placed with (the domain's live check, with its quiet time
 * and its tickets, is domain-check.ts).
 */
import type { ProductKind as Kind } from '../../src/core/product-kinds.js';
import type { AppApi } from './api.js';
import { base64url } from './apply-key.js';

/** A new once-only key for an order: 16 random bytes. */
export const freshKey = () => base64url(crypto.getRandomValues(new Uint8Array(16)));

/** The kind's catalog, priced in `currencyId` (none given: the provider's first). */
export const catalogOf = (api: AppApi, kind: Kind, currencyId: number | undefined) =>
  api.get('order/catalog', { kind, ...(currencyId === undefined ? {} : { currency: String(currencyId) }) });
