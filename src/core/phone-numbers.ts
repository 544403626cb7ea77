/*
 * A phone number as people type it, read in the international form the provider takes
 * (`+` and 7–15 digits). Besides that form, a number as dialled at home in Belarus or Russia is
 * read: «8 029 123 45 67» and «(029) 123-45-67» are +375 29 123 45 67, «8 912 …» is +7 912 …;
 * so are the country code without its plus and «00» before it.
 */

/** What people put between a number's digits. */
const SEPARATORS = /[\s\u00A0().-]/g;

/** Belarus: 9 digits after +375 — an area's or an operator's code, then the subscriber's. */
const BY_NATIONAL = /^0([1-9]\d{8})$/;
const BY_TRUNK = /^80([1-9]\d{8})$/;
const BY_NO_PLUS = /^375(\d{9})$/;
/** Russia (and Kazakhstan, which shares +7): 10 digits after +7, the first not 0. */
const RU_TRUNK = /^8([1-9]\d{9})$/;
const RU_NO_PLUS = /^7([1-9]\d{9})$/;
const INTERNATIONAL = /^\+[1-9]\d{6,14}$/;

/** The phone in international form (`+375291234567`), or undefined when it reads as no phone. */
export function readPhone(typed: string): string | undefined {
  const compact = typed.replace(SEPARATORS, '').replace(/^00(?=[1-9])/, '+');
  if (compact.startsWith('+')) return INTERNATIONAL.test(compact) ? compact : undefined;
  const by = BY_TRUNK.exec(compact) ?? BY_NATIONAL.exec(compact) ?? BY_NO_PLUS.exec(compact);
  if (by?.[1] !== undefined) return `+375${by[1]}`;
  const ru = RU_TRUNK.exec(compact) ?? RU_NO_PLUS.exec(compact);
  if (ru?.[1] !== undefined) return `+7${ru[1]}`;
  return undefined;
}
