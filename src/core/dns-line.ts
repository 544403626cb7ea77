import type { RecordReason } from './dns-fields.js';
import {
  DEFAULT_TTL,
  DNS_RECORD_TYPES,
  type DnsRecordData,
  type DnsType,
  fieldValues,
  isDnsType,
  perRecordType,
  validateRecord,
} from './dns-records.js';

/*
 * The one-line grammar of `/dns <domain> add …` (docs/dns.md): `<TYPE> <host> <fields…> [<ttl>]`.
 * The ttl is a trailing integer after the type's fields or `ttl=<n>` anywhere. An unquoted TXT
 * text runs to the end of the line, so only `ttl=<n>` before the text or at the very end of the
 * line is read as its ttl; a `ttl=` word inside the text stays text. A quoted TXT text (`"…"`,
 * `\"` and `\\` escapes, several strings concatenated) may be followed by a plain trailing ttl.
 */

/** The expected form of each type, shown to the user with any error in a line. */
export const DNS_LINE_FORMS: Record<DnsType, string> = perRecordType((type) => DNS_RECORD_TYPES[type].form);

/**
 * Why a line was refused: a field check of validateRecord, or `missing` (a field is not there),
 * `unknown` (not one of the seven types), `extra` (words left over, or a second ttl), `quote` (a
 * quoted TXT text is not closed).
 */
export type DnsLineReason = RecordReason | 'missing' | 'unknown' | 'extra' | 'quote';

/** The result of parseDnsLine: the record, or the field at fault, why (a DnsLineReason) and the type's form (undefined when the type is unknown). */
export type DnsLineResult =
  /** `ttlGiven`: the line stated a TTL (else it is the default, and `set` keeps the record's own). */
  | { ok: true; record: DnsRecordData; ttlGiven: boolean }
  | { ok: false; field: string; reason: DnsLineReason; form: string | undefined };

interface Token {
  text: string;
  start: number;
}

function tokenize(text: string, offset = 0): Token[] {
  return [...text.matchAll(/\S+/g)].map((match) => ({ text: match[0], start: match.index + offset }));
}

const isTtlWord = (token: Token): boolean => /^ttl=/i.test(token.text);

type IntegerRead = { value: number } | { reason: 'integer' | 'range' };

function readInteger(text: string): IntegerRead {
  if (!/^[+-]?\d+$/.test(text)) return { reason: 'integer' };
  // `+ 0` turns -0 into 0, so '-0' reads as the same number as '0'.
  const value = Number(text) + 0;
  return Number.isSafeInteger(value) ? { value } : { reason: 'range' };
}

type Failure = { ok: false; field: string; reason: DnsLineReason; form: string | undefined };

const fail = (field: string, reason: DnsLineReason, form: string | undefined): Failure => ({
  ok: false,
  field,
  reason,
  form,
});

/**
 * One quoted string starting at `start` (a `"`): its text with `\"` and `\\` read, and where it
 * ends (just past the closing quote); undefined when it is not closed.
 */
function readQuoted(line: string, start: number): { text: string; end: number } | undefined {
  let text = '';
  let position = start + 1;
  for (;;) {
    const char = line[position];
    if (char === undefined) return undefined;
    const escaped = line[position + 1];
    if (char === '\\' && (escaped === '"' || escaped === '\\')) {
      text += escaped;
      position += 2;
      continue;
    }
    position++;
    if (char === '"') return { text, end: position };
    text += char;
  }
}

/**
 * A TXT text typed on its own (a guided form's answer): quoted as the one-line form quotes it
 * (`"…"`, escapes, several strings joined), or bare, taken as typed.
 */
export function readTxtAnswer(text: string): string {
  const trimmed = text.trim();
  if (!(trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"'))) return text;
  const read = readValues(trimmed);
  return read.ok ? read.values.join('') : text;
}

/**
 * A line read as values: words, or quoted strings (`"…"`, as a TXT text is quoted) for a value
 * with spaces; `quote` when a quoted string is not closed (with the values read before it).
 */
export function readValues(
  line: string,
): { ok: true; values: string[] } | { ok: false; reason: 'quote'; values: string[] } {
  const values: string[] = [];
  let position = 0;
  for (;;) {
    position += /^\s*/.exec(line.slice(position))?.[0].length ?? 0;
    if (position >= line.length) return { ok: true, values };
    if (line[position] === '"') {
      const quoted = readQuoted(line, position);
      if (quoted === undefined) return { ok: false, reason: 'quote', values };
      values.push(quoted.text);
      position = quoted.end;
      continue;
    }
    const word = /^\S+/.exec(line.slice(position))?.[0] ?? '';
    values.push(word);
    position += word.length;
  }
}

type TxtRead = { ok: true; text: string; trailing: Token[] } | { ok: false };

/** A TXT text starting at `start`: quoted strings and the words after them, or the rest of the line. */
function readTxtText(line: string, start: number, ttlWords: Token[]): TxtRead {
  if (line[start] !== '"') {
    let raw = line.slice(start);
    for (let match = /\s+(ttl=\S*)\s*$/i.exec(raw); match; match = /\s+(ttl=\S*)\s*$/i.exec(raw)) {
      ttlWords.push({ text: match[1] ?? '', start: start + match.index });
      raw = raw.slice(0, match.index);
    }
    return { ok: true, text: raw.trimEnd(), trailing: [] };
  }
  const parts: string[] = [];
  let position = start;
  while (line[position] === '"') {
    const quoted = readQuoted(line, position);
    if (quoted === undefined) return { ok: false };
    parts.push(quoted.text);
    position = quoted.end;
    const gap = /^\s*/.exec(line.slice(position))?.[0].length ?? 0;
    if (line[position + gap] !== '"') break;
    position += gap;
  }
  const trailing: Token[] = [];
  for (const token of tokenize(line.slice(position), position)) {
    (isTtlWord(token) ? ttlWords : trailing).push(token);
  }
  return { ok: true, text: parts.join(''), trailing };
}

const NUMBER_WORD = /^[+-]?\d+$/;

/**
 * The one-line form's field words in the form's order, from words written in it or in BIND's,
 * the order `data` writes (a type's zone layout: its owner labels, then its rdata): MX
 * `mx.example.by 10` or `10 mx.example.by`; SRV `_sip _tcp sip.example.by 5060 10 60` or `_sip
 * _tcp 10 60 5060 sip.example.by`. A name is never a number (a host name's last label is not all
 * digits), so where the numbers stand tells the order: words that fit the form's order (numbers
 * where its numbers are, no number where a name is) are read in it, as they always were; words
 * that fit only BIND's (plain decimals where its numbers are, as BIND writes them) are put in the
 * form's order; any other words are left as they are, for the checks to name the field at fault
 * in the form's order.
 */
function formOrderWords(type: DnsType, words: readonly string[]): readonly string[] {
  const { fields, zone } = DNS_RECORD_TYPES[type];
  const form = fields.map((field) => field.name);
  const bind = [...zone.owner, ...zone.rdata];
  if (words.length !== form.length || bind.every((name, i) => name === form[i])) return words;
  const isNumber = (name: string) => fields.find((field) => field.name === name)?.kind === 'uint16';
  const fits = (order: readonly string[], number: RegExp) =>
    order.every((name, i) => {
      const word = words[i] ?? '';
      return isNumber(name) ? number.test(word) : !NUMBER_WORD.test(word);
    });
  if (fits(form, NUMBER_WORD) || !fits(bind, /^\d+$/)) return words;
  return form.map((name) => words[bind.indexOf(name)] ?? '');
}

/**
 * Parses the text after `add`: `<TYPE> <host> <fields…> [<ttl>]`, TYPE in any case, ttl 3600 when
 * not given. Every field is checked (validateRecord) before the caller makes any API call; a
 * refused line names the field ('type', 'host', 'ipv4', …, 'ttl', 'extra') and gives the form.
 * The fields may also be written in BIND's order, as the chat and the editor show a record (`MX @
 * 10 mail.example.com`, `SRV @ _sip _tcp 10 60 5060 sip.example.com`; see formOrderWords).
 */
export function parseDnsLine(text: string): DnsLineResult {
  const tokens = tokenize(text);
  const ttlWords: Token[] = [];
  let index = 0;
  /** The next token that is not a `ttl=` word; those are set aside wherever they stand. */
  const peek = (): Token | undefined => {
    for (let token = tokens[index]; token && isTtlWord(token); token = tokens[index]) {
      ttlWords.push(token);
      index++;
    }
    return tokens[index];
  };

  const typeToken = peek();
  if (!typeToken) return fail('type', 'missing', undefined);
  index++;
  const type = typeToken.text.toUpperCase();
  if (!isDnsType(type)) return fail('type', 'unknown', undefined);
  const form = DNS_LINE_FORMS[type];
  const hostToken = peek();
  if (!hostToken) return fail('host', 'missing', form);
  index++;
  const specs = DNS_RECORD_TYPES[type].fields;
  const fields = specs.map((spec) => spec.name);

  let values: string[];
  let trailing: Token[];
  const freeText = specs.find((spec) => spec.kind === 'text');
  if (freeText) {
    // A free text (TXT) runs to the end of the line; it is the type's only field.
    const start = peek()?.start;
    if (start === undefined) return fail(freeText.name, 'missing', form);
    const read = readTxtText(text, start, ttlWords);
    if (!read.ok) return fail(freeText.name, 'quote', form);
    values = [read.text];
    trailing = read.trailing;
  } else {
    const rest: Token[] = [];
    for (const token of tokens.slice(index)) (isTtlWord(token) ? ttlWords : rest).push(token);
    const missing = fields[rest.length];
    if (missing !== undefined) return fail(missing, 'missing', form);
    values = rest.slice(0, fields.length).map((token) => token.text);
    trailing = rest.slice(fields.length);
  }
  if (trailing.length > 1 || (trailing.length === 1 && ttlWords.length > 0))
    return fail('extra', 'extra', form);
  if (ttlWords.length > 1) return fail('ttl', 'extra', form);

  // Integers that do not read are remembered and replaced by 1, valid everywhere, so that the
  // other fields are still checked and the first problem in the form's order is the one reported.
  const unreadable = new Map<string, 'integer' | 'range'>();
  const integer = (field: string, word: string): number => {
    const read = readInteger(word);
    if ('value' in read) return read.value;
    unreadable.set(field, read.reason);
    return 1;
  };
  const ttlText = ttlWords[0]?.text.slice('ttl='.length) ?? trailing[0]?.text;
  const ttl = ttlText === undefined ? DEFAULT_TTL : integer('ttl', ttlText);
  const host = hostToken.text;
  values = [...formOrderWords(type, values)];
  const read: Record<string, string | number> = {};
  specs.forEach((spec, i) => {
    const word = values[i] ?? '';
    read[spec.name] = spec.kind === 'uint16' ? integer(spec.name, word) : word;
  });
  const record: DnsRecordData = DNS_RECORD_TYPES[type].build(host, ttl, read);

  const order = ['host', ...fields, 'ttl'];
  const problem = validateRecord(record);
  let first: { field: string; reason: DnsLineReason } | undefined = problem;
  for (const [field, reason] of unreadable) {
    if (!first || order.indexOf(field) < order.indexOf(first.field)) first = { field, reason };
  }
  return first
    ? fail(first.field, first.reason, form)
    : { ok: true, record, ttlGiven: ttlText !== undefined };
}

/** Whether a TXT text must be quoted to read back the same from the one-line form. */
function needsQuotes(text: string): boolean {
  return text === '' || text !== text.trim() || text.startsWith('"') || /(?:^|\s)ttl=/i.test(text);
}

/**
 * The line that parses back to the record (for tests and for showing users the one-line form):
 * the type's fields in form order, then the ttl unless it is the default. A free-text field is
 * last; it is quoted when it must be, and otherwise followed by `ttl=<n>`, as a plain trailing
 * number would read as text.
 */
export function formatDnsLine(record: DnsRecordData): string {
  const words = [record.type, record.host];
  let ttl = record.ttl === DEFAULT_TTL ? '' : ` ${record.ttl}`;
  for (const [field, value] of fieldValues(record)) {
    const text = String(value);
    if (field.kind !== 'text') words.push(text);
    else if (needsQuotes(text)) words.push(`"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`);
    else {
      words.push(text);
      if (ttl !== '') ttl = ` ttl=${record.ttl}`;
    }
  }
  return `${words.join(' ')}${ttl}`;
}
