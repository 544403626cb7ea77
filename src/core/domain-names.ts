import { domainToASCII, domainToUnicode } from 'node:url';

/*
 * Domain names as partners type and paste them: Unicode (пример.бел) or punycode, any case,
 * separated by spaces, commas or new lines, sometimes as URLs.
 */

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** The ASCII (punycode) form of a valid domain name, or `undefined`. */
export function toAsciiDomain(input: string): string | undefined {
  const trimmed = input.trim().replace(/\.$/, '').toLowerCase();
  if (trimmed === '' || trimmed.length > 253) return undefined;
  const ascii = domainToASCII(trimmed);
  if (ascii === '' || ascii.length > 253) return undefined;
  const labels = ascii.split('.');
  if (labels.length < 2) return undefined;
  if (!labels.every((label) => LABEL.test(label))) return undefined;
  // A top-level label is letters or punycode, never all digits (that would be an IP address).
  const tld = labels.at(-1) ?? '';
  if (/^\d+$/.test(tld)) return undefined;
  return ascii;
}

/** The readable (Unicode) form of a domain name; invalid input comes back lower-cased. */
export function toUnicodeDomain(input: string): string {
  const lower = input.trim().replace(/\.$/, '').toLowerCase();
  const unicode = domainToUnicode(lower);
  return unicode === '' ? lower : unicode;
}

/** Result of reading a pasted list of domains. */
export interface DomainList {
  /** Valid names in Unicode form, first occurrence order, without duplicates. */
  valid: string[];
  /** Pieces that are not domain names, as typed. */
  invalid: string[];
}

/** A domain as typed or pasted, in ASCII: a URL's scheme, path, query and fragment left out. */
export function readTypedDomain(piece: string): string | undefined {
  return toAsciiDomain(piece.replace(/^[a-z]+:\/\//i, '').replace(/[/?#].*$/, ''));
}

/** Splits pasted text into domain names; strips URL schemes, paths and trailing dots. */
export function parseDomainList(text: string): DomainList {
  const valid: string[] = [];
  const invalid: string[] = [];
  const seen = new Set<string>();
  for (const piece of text.split(/[\s,;]+/)) {
    if (piece === '') continue;
    const ascii = readTypedDomain(piece);
    if (ascii === undefined) {
      invalid.push(piece);
      continue;
    }
    if (seen.has(ascii)) continue;
    seen.add(ascii);
    valid.push(toUnicodeDomain(ascii));
  }
  return { valid, invalid };
}
