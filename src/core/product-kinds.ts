/**
 * What a partner can order from the provider. The bot's registry (`src/bot/order-kinds.ts`) holds
 * one entry per kind, `satisfies Record<ProductKind, …>`, so a new kind fails `tsc` wherever it
 * must be handled.
 */
export const PRODUCT_KINDS = ['domain', 'hosting', 'mail', 'ssl'] as const;

export type ProductKind = (typeof PRODUCT_KINDS)[number];

/** The kind a typed word names (`/order mail`, a button's data), or `undefined`. */
export function productKindOf(word: string | undefined): ProductKind | undefined {
  return PRODUCT_KINDS.find((kind) => kind === word);
}
