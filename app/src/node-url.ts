/*
 * `node:url`'s two domain functions for the browser: core's domain-names.ts (which the invoice
 * search reads) calls them, and Vite points `node:url` here (vite.config.ts). The browser's URL
 * parser gives the ASCII form (IDNA, as Node's does); the Unicode form is a punycode decode
 * (RFC 3492) of each `xn--` label. Both answer '' for what is not a domain, as Node's do.
 */

export function domainToASCII(domain: string): string {
  try {
    return new URL(`http://${domain}/`).hostname;
  } catch {
    return '';
  }
}

const BASE = 36;

/** One punycode label (without `xn--`) decoded; undefined when it is not valid punycode. */
function decodeLabel(input: string): string | undefined {
  const output: number[] = [];
  const basic = input.lastIndexOf('-');
  for (let j = 0; j < Math.max(basic, 0); j++) output.push(input.charCodeAt(j));
  let n = 128;
  let bias = 72;
  let i = 0;
  for (let index = basic > 0 ? basic + 1 : 0; index < input.length; ) {
    const old = i;
    for (let w = 1, k = BASE; ; k += BASE) {
      if (index >= input.length) return undefined;
      const c = input.charCodeAt(index++);
      const digit = c - 48 < 10 ? c - 22 : c - 65 < 26 ? c - 65 : c - 97 < 26 ? c - 97 : BASE;
      if (digit >= BASE) return undefined;
      i += digit * w;
      const t = k <= bias ? 1 : k >= bias + 26 ? 26 : k - bias;
      if (digit < t) break;
      w *= BASE - t;
    }
    const length = output.length + 1;
    let delta = i - old;
    delta = old === 0 ? Math.floor(delta / 700) : delta >> 1;
    delta += Math.floor(delta / length);
    let k = 0;
    for (; delta > 455; k += BASE) delta = Math.floor(delta / 35);
    bias = Math.floor(k + (36 * delta) / (delta + 38));
    n += Math.floor(i / length);
    i %= length;
    output.splice(i++, 0, n);
  }
  try {
    return String.fromCodePoint(...output);
  } catch {
    return undefined;
  }
}

export function domainToUnicode(domain: string): string {
  const ascii = domainToASCII(domain);
  if (ascii === '') return '';
  return ascii
    .split('.')
    .map((label) => (label.startsWith('xn--') ? (decodeLabel(label.slice(4)) ?? label) : label))
    .join('.');
}
