/*
 * The one order of a zone's records wherever a partner reads them (the chat's `/dns` list, the
 * Mini App's editor): by type, then host, then value. The provider lists records by id, and a
 * change is an add and a delete, so without this a record changed moved to the end of the list.
 */

/** A record as the partner API lists it: `value` is `<host> <data>`. */
export interface ListedKey {
  type: string;
  value: string;
}

const hostOf = (record: ListedKey): string => /^\s*(\S*)/.exec(record.value)?.[1]?.toLowerCase() ?? '';

/** Compares two listed records: type (A, AAAA, CNAME, MX, NS, SRV, TXT), host ('@' first), value. */
export function compareRecords(a: ListedKey, b: ListedKey): number {
  const keys = (r: ListedKey) => [r.type.toUpperCase(), hostOf(r), r.value.toLowerCase()];
  const [left, right] = [keys(a), keys(b)];
  for (let i = 0; i < left.length; i++) {
    const [x, y] = [left[i] ?? '', right[i] ?? ''];
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** The records in the one order (a new array; records equal in all keep their listed order). */
export function sortRecords<T extends ListedKey>(records: readonly T[]): T[] {
  return [...records].sort(compareRecords);
}
