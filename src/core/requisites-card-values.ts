/*
 * The values of a pasted card, field by field: how the words after a label read as one field's
 * value (a date, a run of digits, a phone, an e-mail, an IBAN, a person's name in its parts, an
 * address line, a passport or a registration certificate line). They normalise what people write;
 * checkField (requisites-fields.ts) then decides whether the value is good.
 */
import { countryCodeOf } from './countries.js';
import { readPhone } from './phone-numbers.js';

/** A label or a name as the patterns are written: lower case, ё as е, no dots or quotes, single spaces. */
export function normalizeLabel(label: string): string {
  return label
    .toLowerCase()
    .replace(/ё/g, 'е')
    .replace(/[.«»"()]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** `1.2.2020`, `01/02/2020`, `01-02-2020` → `01.02.2020`; the first date in the text. */
export function dateIn(text: string): string | undefined {
  const match = /(?<!\d)(\d{1,2})[./-](\d{1,2})[./-](\d{4})(?!\d)/.exec(text);
  if (!match) return undefined;
  const [, d = '', m = '', y = ''] = match;
  return `${d.padStart(2, '0')}.${m.padStart(2, '0')}.${y}`;
}

/** The first run of digits (spaces inside allowed), without the spaces. */
export function digitsIn(text: string): string | undefined {
  return /\d[\d ]*\d|\d/.exec(text)?.[0].replace(/ /g, '');
}

/** The first phone number of a value, in international form when it reads as one (core's rules). */
export function phoneIn(text: string): string {
  const first = text.split(/[,;]|\s{2,}/)[0]?.trim() ?? '';
  return readPhone(first) ?? first;
}

/** The e-mail address in a value (a name or brackets around it dropped), or the value. */
export function emailIn(text: string): string {
  return /[^\s<>()[\],;:"]+@[^\s<>()[\],;:"]+/.exec(text)?.[0].replace(/\.$/, '') ?? text;
}

/** The IBAN in a value, without its spaces, or the value. */
export function ibanIn(text: string): string {
  const match = /[A-Z]{2}\d{2}(?:\s?[A-Z0-9]){11,30}/i.exec(text);
  return match ? match[0].replace(/\s/g, '') : text;
}

/** The SWIFT/BIC code in a value, or the value. */
export function swiftIn(text: string): string {
  return /\b[A-Z]{6}[A-Z0-9]{2}(?:[A-Z0-9]{3})?\b/i.exec(text)?.[0] ?? text;
}

/** A person's full name as its parts; Cyrillic names come surname first, Latin ones given name first. */
export function nameParts(text: string): {
  last?: string | undefined;
  first?: string | undefined;
  middle?: string | undefined;
} {
  const words = text
    .replace(/[,;]/g, ' ')
    .split(/\s+/)
    .filter((w) => w !== '');
  // Initials ("П.П.") are not names: those parts are asked.
  const full = (word: string | undefined) =>
    word !== undefined && !/^\p{L}\.(\p{L}\.)*$/u.test(word) ? word : undefined;
  if (words.length < 2 || words.length > 4) return words.length === 1 ? { last: words[0] } : {};
  const cyrillic = /\p{Script=Cyrillic}/u.test(text);
  if (cyrillic || words.length === 3) {
    const [last, first, ...middle] = words;
    return { last, first: full(first), middle: full(middle.join(' ') || undefined) };
  }
  const [first, ...rest] = words;
  return { first: full(first), last: rest.at(-1), middle: full(rest.slice(0, -1).join(' ') || undefined) };
}

type Address = Partial<
  Record<'postal_code' | 'country_code' | 'region' | 'city' | 'street' | 'building' | 'room', string>
>;

const STREET =
  /^(ул|улица|пр|пр-т|просп|проспект|пер|переулок|б-р|бульвар|бул|пл|площадь|тракт|шоссе|ш|наб|набережная|мкр|микрорайон|проезд|street|st|ave|avenue|road|rd|lane|blvd|boulevard)(\s|$)|\s(street|st|ave|avenue|road|rd|lane|blvd|ул|улица|пр-т|проспект|пер|переулок)$/i;
const CITY = /^(г|город|гп|аг|пгт|пос|поселок|city|town)\s+(.+)$/i;
const BUILDING = /^(д|дом|house|bldg|building|h)\s*(\d.*)$/i;
const ROOM =
  /^(пом|помещение|оф|офис|кв|квартира|комн|ком|комната|каб|кабинет|room|office|apt|apartment|suite|rm)\s*(.+)$/i;
const REGION = /(обл|область|край|регион|region|oblast|province|state|р-н|район|district)(\s|$)/i;
const BUILDING_LIKE = /^\d+[\p{L}]?(?:[/-]\d+[\p{L}]?)?(\s?(корп|к)\s*\d+)?$/iu;

/** An address written on one line, split into the fields of the address block. */
export function parseAddressLine(line: string): Address {
  const out: Address = {};
  const loose: { segment: string; beforeStreet: boolean }[] = [];
  let afterStreet = false;
  for (const raw of line.split(/[,;]/)) {
    const segment = raw.replace(/\./g, '. ').replace(/\s+/g, ' ').replace(/\s\./g, '.').trim();
    const plain = segment.replace(/\./g, '').trim();
    if (plain === '') continue;
    const country = countryCodeOf(plain);
    if (!out.country_code && country && !/^[a-z]{2}$/i.test(plain)) {
      out.country_code = country;
      continue;
    }
    if (!out.postal_code && /^([A-Z]{2}-)?\d{4,6}(-\d{3,4})?$/i.test(plain) && !afterStreet) {
      out.postal_code = plain;
      continue;
    }
    const room = ROOM.exec(plain);
    if (room?.[2] && !out.room && (afterStreet || out.building)) {
      out.room = room[2].trim();
      continue;
    }
    const building = BUILDING.exec(plain);
    if (building?.[2] && !out.building) {
      out.building = building[2].trim();
      continue;
    }
    const city = CITY.exec(plain);
    if (city?.[2] && !out.city) {
      out.city = city[2].trim();
      continue;
    }
    if (!out.street && STREET.test(plain)) {
      // "ул. Немига 5": the number at the end is the building.
      const tail = /^(.*\S)\s+(\d+[\p{L}]?(?:[/-]\d+)?)$/u.exec(segment);
      if (tail?.[1] && tail[2] && !out.building && !/\d/.test(tail[1].replace(/^\S+\s/, ''))) {
        out.street = tail[1];
        out.building = tail[2];
      } else out.street = segment;
      afterStreet = true;
      continue;
    }
    if (!out.region && REGION.test(plain) && !afterStreet) {
      out.region = segment;
      continue;
    }
    if (BUILDING_LIKE.test(plain)) {
      if (!out.building) out.building = plain;
      else if (!out.room) out.room = plain;
      continue;
    }
    loose.push({ segment, beforeStreet: !afterStreet });
  }
  // Words without a marker: before the street a city, then the street itself.
  for (const { segment, beforeStreet } of loose) {
    if (!out.city && beforeStreet) out.city = segment;
    else if (!out.street) out.street = segment;
  }
  // Minsk is a region of its own.
  if (!out.region && out.city && /^(минск|minsk)$/i.test(out.city)) out.region = out.city;
  return out;
}

/** A passport line: series and number, the issuing body, the date of issue, the identity number. */
export function parsePassport(
  text: string,
): Partial<Record<'series' | 'number' | 'organization' | 'dateOfIssue' | 'identityNumber', string>> {
  const out: Partial<
    Record<'series' | 'number' | 'organization' | 'dateOfIssue' | 'identityNumber', string>
  > = {};
  const labelled = /серия\s*([\p{L}\d]{1,4})[\s,]*(?:номер|№)\s*([\d]{4,10})/iu.exec(text);
  const plain =
    /^\s*([\p{Lu}]{2})\s*(?:№\s*)?(\d{6,9})(?!\d)/u.exec(text) ??
    /(?<![\p{L}\d])([\p{Lu}]{2})\s*№?\s*(\d{7})(?!\d)/u.exec(text);
  const found = labelled ?? plain;
  if (found?.[1] && found[2]) {
    out.series = found[1];
    out.number = found[2];
  }
  const issuer =
    /выдан[оа]?\s+(.+?)(?:\s+\d{1,2}[./-]\d{1,2}[./-]\d{4}|,|$)/i.exec(text) ??
    /issued by\s+(.+?)(?:\s+(?:on\s+)?\d{1,2}[./-]\d{1,2}[./-]\d{4}|,|$)/i.exec(text);
  if (issuer?.[1]) out.organization = issuer[1].trim();
  const date = dateIn(text);
  if (date) out.dateOfIssue = date;
  const identity =
    /(?:идентификационный|личный|ид|identity|personal)\s*(?:номер|№|number|no)?[\s:.]*([\p{L}\d]{14})/iu.exec(
      text,
    );
  if (identity?.[1]) out.identityNumber = identity[1];
  return out;
}

/** A registration certificate line: "№ 190123455 от 01.02.2010, выдано Мингорисполкомом". */
export function parseCertificate(
  text: string,
): Partial<Record<'regNumber' | 'regOrganization' | 'regDate', string>> {
  const out: Partial<Record<'regNumber' | 'regOrganization' | 'regDate', string>> = {};
  const number =
    /(?:№|no\.?|number)\s*([\p{L}\d][\p{L}\d/-]*)/iu.exec(text) ??
    /^\s*([\p{L}\d][\p{L}\d/-]*\d)/u.exec(text);
  if (number?.[1]) out.regNumber = number[1];
  const by =
    /(?:выдан[оа]?|зарегистрирован[оа]?|issued by|registered by)\s+(.+?)(?:\s+(?:от|on)?\s*\d{1,2}[./-]\d{1,2}[./-]\d{4}|,|$)/i.exec(
      text,
    );
  if (by?.[1]) out.regOrganization = by[1].trim();
  const date = dateIn(text);
  if (date) out.regDate = date;
  return out;
}
