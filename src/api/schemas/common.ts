import { z } from 'zod';

/*
 * Building blocks shared by the area schemas. Responses are tolerant exactly where
 * partner-api.md is: optional fields may be absent or null (both read as `undefined`), unknown
 * fields are dropped, and identifiers the spec calls loosely typed accept both spellings.
 */

/** An optional response field: absent or null both become `undefined`. */
export function optional<T extends z.ZodType>(schema: T) {
  return schema.nullish().transform((value): z.output<T> | undefined => value ?? undefined);
}

/** Integer identifier (`*_id`). */
export const id = z.int();

/** Integer that the provider may render as a string of digits (`period_unit_count`). */
export const digitsInt = z.union([z.int(), z.string().regex(/^\d+$/, 'expected digits').transform(Number)]);

/** Identifier declared as a string but numeric in use (`service_id`, price list `number`). */
export const stringId = z.union([z.string(), z.int()]).transform(String);

/** `DD.MM.YYYY`, as the provider gives and takes dates. */
export const ddmmyyyy = z.string().regex(/^\d{2}\.\d{2}\.\d{4}$/, 'expected DD.MM.YYYY');

/** Non-empty string in a request body. */
export const text = z.string().trim().min(1);

export const price = z.object({ period: z.int(), price: z.number() });

/** `{url}` answers of the link operations. */
export const urlResponse = z.object({ url: z.string().min(1) });

export type Price = z.output<typeof price>;
