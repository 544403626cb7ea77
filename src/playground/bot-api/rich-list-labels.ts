/**
 * The label a Telegram app shows before a rich list item (RichBlockListItem.label): the input gives
 * a numbering type and value, the message carries the label.
 */

/** The label a phone shows before a list item: a bullet, or its number in the item's numbering. */
export function listLabel(type: unknown, n: number): string {
  switch (type) {
    case '1':
      return `${n}.`;
    case 'a':
    case 'A': {
      let label = '';
      for (let k = n; k > 0; k = Math.floor((k - 1) / 26))
        label = String.fromCharCode(97 + ((k - 1) % 26)) + label;
      return `${type === 'A' ? label.toUpperCase() : label}.`;
    }
    case 'i':
    case 'I': {
      const roman = toRoman(n);
      return `${type === 'I' ? roman : roman.toLowerCase()}.`;
    }
    default:
      return '•';
  }
}

function toRoman(n: number): string {
  const numerals: [number, string][] = [
    [1000, 'M'],
    [900, 'CM'],
    [500, 'D'],
    [400, 'CD'],
    [100, 'C'],
    [90, 'XC'],
    [50, 'L'],
    [40, 'XL'],
    [10, 'X'],
    [9, 'IX'],
    [5, 'V'],
    [4, 'IV'],
    [1, 'I'],
  ];
  let rest = Math.max(1, Math.floor(n));
  let out = '';
  for (const [value, letters] of numerals) {
    while (rest >= value) {
      out += letters;
      rest -= value;
    }
  }
  return out;
}
