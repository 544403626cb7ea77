/**
 * The one codec for inline-button callback data. Telegram allows 64 bytes; every button's data
 * is `<version>:<action>:<arg>:<arg>…`, checked on the way out (length, charset) and validated on
 * the way back in, so a button from an older release or a foreign bot reads as `undefined`
 * ("expired") instead of reaching a handler with garbage.
 *
 * The codec knows no product: each feature declares its own actions in an `ActionTable` (its
 * `actions.ts`), and `src/bot/actions.ts` merges the features' tables into the one the router
 * decodes with. Encoding needs only the action's own spec, so a table's codec writes exactly
 * what the merged one would.
 */

export const CALLBACK_VERSION = '1';
const MAX_BYTES = 64;
/**
 * Bytes kept free for the account stamp: in a chat with accounts the leading `1` becomes
 * `a<n>` (n in base 36, at most two digits), so a button acts on the account it was made for.
 */
const STAMP_ROOM = 2;
/** Account numbers a stamp can carry (two base-36 digits). */
const STAMPABLE = 36 * 36;
const STAMPED = /^a([0-9a-z]{1,2}):/;

/**
 * The data with the account stamped in (`1:…` → `a<n>:…`); unchanged for data not of this codec
 * or a number past what a stamp carries (such a button acts on the active account).
 */
export function stampCallback(data: string, account: number): string {
  if (!data.startsWith(`${CALLBACK_VERSION}:`) || account < 1 || account >= STAMPABLE) return data;
  return `a${account.toString(36)}${data.slice(CALLBACK_VERSION.length)}`;
}

/** The account a button's data was stamped with, and the data as the codec reads it. */
export function readCallbackStamp(data: string): { account: number | undefined; data: string } {
  const stamp = STAMPED.exec(data);
  if (stamp === null) return { account: undefined, data };
  return {
    account: Number.parseInt(stamp[1] ?? '', 36),
    data: `${CALLBACK_VERSION}${data.slice(stamp[0].length - 1)}`,
  };
}

/** An argument's kind on the wire: a safe integer, or a word of `[A-Za-z0-9._-]{1,60}`. */
export type ArgKind = 'int' | 'word';

/** One button action: its short code on the wire, its arguments in order, and who may press it. */
export interface ActionSpec {
  readonly code: string;
  readonly args: readonly ArgKind[];
  /** What a member of a bound group needs to press it (the team guard reads it). */
  readonly need: string;
}

/** A feature's buttons, by action name. */
export type ActionTable = Readonly<Record<string, ActionSpec>>;

type ArgType<K> = K extends 'int' ? number : string;
type MapArgs<T extends readonly ArgKind[]> = { -readonly [I in keyof T]: ArgType<T[I]> };
/** The typed arguments of action `A` of table `T`. */
export type ArgsOf<T extends ActionTable, A extends keyof T> = MapArgs<T[A]['args']>;

/** A decoded button press: an action of the table and its arguments, checked against its spec. */
export interface DecodedCallback<T extends ActionTable> {
  action: keyof T & string;
  args: readonly (string | number)[];
}

const WORD = /^[A-Za-z0-9._-]{1,60}$/;
// Canonical decimal only (no `007`, no `-0`), so data decodes only as the encoder wrote it.
const INT = /^(?:0|-?[1-9]\d{0,15})$/;

type Intersect<T extends readonly unknown[]> = T extends readonly [infer H, ...infer R]
  ? H & Intersect<R>
  : unknown;

/**
 * The features' tables as one. Throws at start when two tables declare one action name or one
 * wire code: a button would reach the wrong handler.
 */
export function mergeActionTables<const T extends readonly ActionTable[]>(...tables: T): Intersect<T> {
  const merged: Record<string, ActionSpec> = {};
  const codes = new Map<string, string>();
  for (const table of tables) {
    for (const [action, spec] of Object.entries(table)) {
      if (Object.hasOwn(merged, action)) throw new Error(`callback action "${action}" is declared twice`);
      const other = codes.get(spec.code);
      if (other !== undefined) {
        throw new Error(`callback code "${spec.code}" of "${action}" is already the code of "${other}"`);
      }
      merged[action] = spec;
      codes.set(spec.code, action);
    }
  }
  // The loop copied every entry of every table: the object is the intersection of the tables.
  return merged as Intersect<T>;
}

/** Encoder and decoder over one action table. */
export interface CallbackCodec<T extends ActionTable> {
  /** Builds a button's data; throws when it would break Telegram's limit (a programming error). */
  encode<A extends keyof T & string>(action: A, ...args: ArgsOf<T, A>): string;
  /** Reads a button's data back; `undefined` for anything stale, foreign or malformed. */
  decode(data: string | undefined): DecodedCallback<T> | undefined;
  /** Whether `encode` takes these arguments (a word as long as a domain may not fit). */
  fits<A extends keyof T & string>(action: A, ...args: ArgsOf<T, A>): boolean;
}

export function createCallbackCodec<T extends ActionTable>(table: T): CallbackCodec<T> {
  const byCode = new Map<string, keyof T & string>();
  for (const action of Object.keys(table)) byCode.set(table[action]?.code ?? '', action);
  const codec: CallbackCodec<T> = {
    fits(action, ...args) {
      try {
        codec.encode(action, ...args);
        return true;
      } catch (error) {
        if (error instanceof RangeError) return false;
        throw error;
      }
    },
    encode(action, ...args) {
      const spec = table[action];
      if (spec === undefined) throw new RangeError(`callback ${action}: no such action`);
      const parts: string[] = [CALLBACK_VERSION, spec.code];
      spec.args.forEach((kind, index) => {
        const value: unknown = args[index];
        const text = String(value);
        const valid =
          kind === 'int' ? typeof value === 'number' && Number.isSafeInteger(value) : WORD.test(text);
        if (!valid)
          throw new RangeError(`callback ${action}: argument ${index} is not a valid ${kind}: ${text}`);
        parts.push(text);
      });
      const data = parts.join(':');
      if (Buffer.byteLength(data, 'utf8') > MAX_BYTES - STAMP_ROOM) {
        throw new RangeError(
          `callback ${action}: ${Buffer.byteLength(data)} bytes exceed ${MAX_BYTES - STAMP_ROOM} (${STAMP_ROOM} kept for the account)`,
        );
      }
      return data;
    },
    decode(data) {
      if (data === undefined || Buffer.byteLength(data, 'utf8') > MAX_BYTES - STAMP_ROOM) return undefined;
      const [version, code, ...raw] = data.split(':');
      if (version !== CALLBACK_VERSION || code === undefined) return undefined;
      const action = byCode.get(code);
      const kinds = action === undefined ? undefined : table[action]?.args;
      if (action === undefined || kinds === undefined || raw.length !== kinds.length) return undefined;
      const args: (string | number)[] = [];
      for (const [index, kind] of kinds.entries()) {
        const text = raw[index] ?? '';
        if (kind === 'int') {
          if (!INT.test(text) || !Number.isSafeInteger(Number(text))) return undefined;
          args.push(Number(text));
        } else {
          if (!WORD.test(text)) return undefined;
          args.push(text);
        }
      }
      return { action, args };
    },
  };
  return codec;
}
