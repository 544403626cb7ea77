/*
 * Control digits of the numbers registries issue: the Belarusian УНП, the Russian ИНН, ОГРН and
 * ОГРНИП, and the check digits of an IBAN. A number whose control digits do not hold was mistyped.
 * Besides its control digit, an ОГРН's first digit is a sign the register sets, which a number
 * typed at the wrong field (or a record number copied instead) does not carry.
 */

/** Which registry's control digits a number carries. */
export type Checksum = 'unp' | 'inn' | 'ogrn';

const weighted = (digits: readonly number[], weights: readonly number[]): number =>
  weights.reduce((sum, weight, i) => sum + weight * (digits[i] ?? 0), 0);

/** The remainder of a long decimal number, digit by digit (ОГРН does not fit a double exactly). */
const remainder = (digits: readonly number[], by: number): number =>
  digits.reduce((rest, digit) => (rest * 10 + digit) % by, 0);

/**
 * Whether a number's control digits hold. УНП (Belarus): the 9th digit is the sum of the first 8
 * weighted 29 23 19 17 13 7 5 3, mod 11 (10 never is one). ИНН (Russia): 10 digits, one control
 * digit; 12 digits, two (the FNS weights, mod 11, mod 10). ОГРН: the first 12 digits mod 11, mod 10;
 * ОГРНИП: the first 14 mod 13, mod 10.
 */
export function controlDigitsHold(kind: Checksum, number: string): boolean {
  const d = [...number].map(Number);
  const last = d.at(-1);
  switch (kind) {
    case 'unp': {
      const check = weighted(d, [29, 23, 19, 17, 13, 7, 5, 3]) % 11;
      return d.length === 9 && check !== 10 && check === last;
    }
    case 'inn':
      if (d.length === 10) return (weighted(d, [2, 4, 10, 3, 5, 9, 4, 6, 8]) % 11) % 10 === last;
      return (
        d.length === 12 &&
        (weighted(d, [7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) % 11) % 10 === d[10] &&
        (weighted(d, [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) % 11) % 10 === last
      );
    case 'ogrn':
      if (d.length === 13) return remainder(d.slice(0, 12), 11) % 10 === last;
      return d.length === 15 && remainder(d.slice(0, 14), 13) % 10 === last;
  }
}

/**
 * The first digits the register gives a main state registration number, by its length. The first
 * digit is the sign of the record: 1 or 5 an organisation's ОГРН (13 digits), 3 an individual
 * entrepreneur's ОГРНИП (15); 2, 4 and 6–9 begin the numbers of later records (ГРН), no ОГРН.
 */
const OGRN_FIRST_DIGITS: Readonly<Record<number, string>> = { 13: '15', 15: '3' };

/** Whether a number starts as its register starts such numbers; of the three, only ОГРН has a sign. */
export function hasIssuedFirstDigit(kind: Checksum, number: string): boolean {
  if (kind !== 'ogrn') return true;
  const first = OGRN_FIRST_DIGITS[number.length];
  return first === undefined || first.includes(number.charAt(0));
}

/** Whether an IBAN's check digits hold (ISO 13616: the number moved and read mod 97 is 1). */
export function ibanChecksumHolds(iban: string): boolean {
  const moved = `${iban.slice(4)}${iban.slice(0, 4)}`;
  let rest = 0;
  for (const char of moved) {
    const value = /\d/.test(char) ? Number(char) : char.charCodeAt(0) - 55;
    rest = (rest * (value > 9 ? 100 : 10) + value) % 97;
  }
  return rest === 1;
}
