import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CALLBACK_VERSION,
  mergeActionTables,
  readCallbackStamp,
  stampCallback,
} from '../../src/bot/kit/callback-data.js';
import { type CallbackAction, callbackFits, decodeCallback, encodeCallback } from '../../src/bot/registry.js';

type ArgKind = 'int' | 'word';
type Arg = string | number;

/*
 * The wire format, written out: the codes are what buttons already sent to chats carry, so a
 * change here is a change every old keyboard feels. Typed over `CallbackAction`, so a new action
 * without a row here fails the type check.
 */
const WIRE: Record<CallbackAction, { code: string; args: readonly ArgKind[] }> = {
  page: { code: 'p', args: ['word', 'int', 'word'] },
  invoiceLink: { code: 'il', args: ['int'] },
  statementLink: { code: 'sl', args: ['int'] },
  partnerStatementLink: { code: 'pl', args: ['int'] },
  priceList: { code: 'pr', args: ['word', 'int'] },
  order: { code: 'o', args: ['word', 'int'] },
  orderInvoices: { code: 'oi', args: ['int'] },
  orderDomain: { code: 'od', args: ['word'] },
  choose: { code: 'ch', args: ['word'] },
  dns: { code: 'd', args: ['int'] },
  nameServers: { code: 'n', args: ['int'] },
  certificate: { code: 'c', args: ['int'] },
  lang: { code: 'l', args: ['word'] },
  logout: { code: 'lo', args: ['word'] },
  orderStart: { code: 'os', args: ['word'] },
  orderOption: { code: 'oo', args: ['int', 'int'] },
  orderNav: { code: 'on', args: ['int', 'word'] },
  orderEdit: { code: 'oe', args: ['int', 'word'] },
  orderConfirm: { code: 'oc', args: ['word'] },
  profileShow: { code: 'ps', args: ['word', 'int'] },
  profileDelete: { code: 'pd', args: ['word', 'int'] },
  profileDeleteYes: { code: 'py', args: ['word', 'int'] },
  profileKeep: { code: 'pk', args: [] },
  dnsAdd: { code: 'da', args: ['int'] },
  dnsDelete: { code: 'dd', args: ['int', 'int'] },
  dnsDeleteYes: { code: 'dy', args: ['int', 'int'] },
  dnsRecord: { code: 'dr', args: ['int', 'int'] },
  dnsChange: { code: 'dc', args: ['int', 'int'] },
  dnsCheckRecord: { code: 'dk', args: ['int', 'int'] },
  dnsFinish: { code: 'df', args: ['word'] },
  dnsSetYes: { code: 'ds', args: ['word'] },
  dnsExport: { code: 'dx', args: ['int'] },
  dnsImport: { code: 'di', args: ['int'] },
  dnsApply: { code: 'dp', args: ['word', 'word'] },
  dnsHistory: { code: 'dh', args: ['int'] },
  dnsUndo: { code: 'du', args: ['int', 'word'] },
  dnsUndoYes: { code: 'dz', args: ['int', 'word'] },
  dnsPresets: { code: 'Ps', args: ['int'] },
  dnsPreset: { code: 'Pp', args: ['int', 'word'] },
  dnsPresetSkip: { code: 'Pk', args: ['word', 'int'] },
  dnsPresetApply: { code: 'Pa', args: ['word', 'word'] },
  dnsBulkToggle: { code: 'Bt', args: ['word', 'int', 'int'] },
  dnsBulkPick: { code: 'Bp', args: ['word', 'word', 'int'] },
  dnsBulkPreset: { code: 'Bs', args: ['word', 'word'] },
  dnsBulkApply: { code: 'Ba', args: ['word', 'word'] },
  nsAsk: { code: 'na', args: ['int', 'word'] },
  nsApply: { code: 'nx', args: ['int', 'word'] },
  checkDomain: { code: 'cd', args: ['word'] },
  dismiss: { code: 'dn', args: ['word'] },
  notifyToggle: { code: 'nt', args: ['word'] },
  notifyQuiet: { code: 'nq', args: ['word'] },
  teamScreen: { code: 'ts', args: [] },
  teamMember: { code: 'tm', args: ['int'] },
  teamRole: { code: 'tr', args: ['int', 'word'] },
  noop: { code: 'x', args: [] },
  keys: { code: 'ky', args: [] },
  keyNew: { code: 'kn', args: [] },
  keyForRecord: { code: 'kf', args: ['int', 'int'] },
  keyRotate: { code: 'kr', args: ['word'] },
  keyRotateYes: { code: 'kt', args: ['word'] },
  keyRevoke: { code: 'kd', args: ['word'] },
  keyRevokeYes: { code: 'ke', args: ['word'] },
  keyNo: { code: 'kx', args: [] },
  keyHide: { code: 'kh', args: [] },
  accountInvoices: { code: 'ia', args: ['int'] },
  accounts: { code: 'ac', args: [] },
  accountSwitch: { code: 'aw', args: ['int'] },
  accountRename: { code: 'ar', args: ['int'] },
  accountRemove: { code: 'ad', args: ['int'] },
  accountRemoveYes: { code: 'ay', args: ['int'] },
  accountRemoveNo: { code: 'an', args: [] },
  accountAdd: { code: 'aa', args: [] },
};

const ACTIONS = Object.keys(WIRE) as CallbackAction[];
const CODES = new Set(Object.values(WIRE).map((spec) => spec.code));

/** `encodeCallback` with the action chosen at run time (its arguments checked by the test instead). */
const encodeAny = encodeCallback as unknown as (action: CallbackAction, ...args: Arg[]) => string;

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

const intArb = fc.oneof(
  fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
  fc.integer({ min: -1000, max: 1000 }),
  fc.constantFrom(0, 1, -1, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER),
);
const wordArb = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9._-]{1,60}$/),
  fc.stringMatching(/^[a-z0-9-]{1,12}$/),
  fc.constantFrom('-', '.', '..', '0', 'yes', 'no', 'xn--e1afmkfd.xn--90ais', 'a'.repeat(60)),
);
const argArb = (kind: ArgKind): fc.Arbitrary<Arg> => (kind === 'int' ? intArb : wordArb);

/** An action with arguments of the right kinds (not necessarily short enough to fit). */
const callArb = fc
  .constantFrom(...ACTIONS)
  .chain((action) =>
    fc.tuple(fc.constant(action), fc.tuple(...WIRE[action].args.map(argArb)) as fc.Arbitrary<Arg[]>),
  );

/** A valid button's data. */
const encodedArb = callArb
  .filter(([action, args]) => bytes([CALLBACK_VERSION, WIRE[action].code, ...args].join(':')) <= 62)
  .map(([action, args]) => ({ action, args, data: encodeAny(action, ...args) }));

function encodeOutcome(action: CallbackAction, args: Arg[]): { data: string } | { error: unknown } {
  try {
    return { data: encodeAny(action, ...args) };
  } catch (error) {
    return { error };
  }
}

describe('encodeCallback', () => {
  it('writes the version, the action code and the arguments separated by colons', () => {
    expect(encodeCallback('invoiceLink', 42)).toBe('1:il:42');
    expect(encodeCallback('page', 'invoices', 3, '-')).toBe('1:p:invoices:3:-');
    expect(encodeCallback('orderNav', -1, 'back')).toBe('1:on:-1:back');
    expect(encodeCallback('noop')).toBe('1:x');
  });

  it('round-trips every action with valid arguments, or throws a RangeError over 62 bytes (2 kept for the account)', () => {
    fc.assert(
      fc.property(callArb, ([action, args]) => {
        const expected = [CALLBACK_VERSION, WIRE[action].code, ...args.map(String)].join(':');
        const outcome = encodeOutcome(action, args);
        if (bytes(expected) <= 62) {
          expect(outcome).toEqual({ data: expected });
          expect(decodeCallback(expected)).toEqual({ action, args });
        } else {
          // Never a silently over-long (or cut) value: Telegram would refuse the whole keyboard.
          expect('error' in outcome && outcome.error).toBeInstanceOf(RangeError);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('covers every action in the round trip, including the extremes of the int range', () => {
    for (const action of ACTIONS) {
      const args = WIRE[action].args.map((kind) => (kind === 'int' ? Number.MIN_SAFE_INTEGER : 'w'));
      const data = encodeAny(action, ...args);
      expect(decodeCallback(data)).toEqual({ action, args });
      const maxArgs = WIRE[action].args.map((kind) => (kind === 'int' ? Number.MAX_SAFE_INTEGER : 'w'));
      expect(decodeCallback(encodeAny(action, ...maxArgs))).toEqual({ action, args: maxArgs });
    }
  });

  it('accepts a word that exactly fills 62 bytes and refuses one byte more', () => {
    // '1:od:' is 5 bytes.
    const fits = 'a'.repeat(57);
    expect(encodeCallback('orderDomain', fits)).toHaveLength(62);
    expect(callbackFits('orderDomain', fits)).toBe(true);
    expect(callbackFits('orderDomain', `${fits}a`)).toBe(false);
    // Stamped with any account a stamp carries, it is within Telegram's 64 bytes and reads back.
    for (const account of [1, 35, 36, 36 * 36 - 1]) {
      const stamped = stampCallback(encodeCallback('orderDomain', fits), account);
      expect(bytes(stamped)).toBeLessThanOrEqual(64);
      expect(readCallbackStamp(stamped)).toEqual({ account, data: encodeCallback('orderDomain', fits) });
    }
    // Past two base-36 digits the data goes unstamped (the button acts on the active account).
    expect(stampCallback('1:x', 36 * 36)).toBe('1:x');
    expect(readCallbackStamp('1:x')).toEqual({ account: undefined, data: '1:x' });
    expect(decodeCallback(encodeCallback('orderDomain', fits))).toEqual({
      action: 'orderDomain',
      args: [fits],
    });
    expect(() => encodeCallback('orderDomain', `${fits}a`)).toThrow(RangeError);
    expect(() => encodeCallback('page', 'a'.repeat(30), 1, 'b'.repeat(30))).toThrow(RangeError);
  });

  it('refuses ints that are not safe integers', () => {
    for (const bad of [1.5, -0.1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, -(2 ** 53)]) {
      expect(() => encodeCallback('invoiceLink', bad)).toThrow(RangeError);
    }
    fc.assert(
      fc.property(
        fc.double().filter((value) => !Number.isSafeInteger(value)),
        (value) => {
          expect(() => encodeCallback('dns', value)).toThrow(RangeError);
        },
      ),
    );
  });

  it('refuses words outside [A-Za-z0-9._-]{1,60}', () => {
    for (const bad of ['', 'a:b', 'a b', 'пример.бел', 'a/b', 'x'.repeat(61), 'tab\t']) {
      expect(() => encodeCallback('choose', bad)).toThrow(RangeError);
    }
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 70 }).filter((text) => !/^[A-Za-z0-9._-]{1,60}$/.test(text)),
        (text) => {
          expect(() => encodeCallback('orderConfirm', text)).toThrow(RangeError);
        },
      ),
    );
  });
});

describe('decodeCallback', () => {
  it('returns undefined for a missing value', () => {
    expect(decodeCallback(undefined)).toBeUndefined();
    expect(decodeCallback('')).toBeUndefined();
  });

  it('reads an arbitrary string as undefined or as the very action that encodes back to it', () => {
    // Strings shaped like button data, so that the decoder's inner checks are reached often.
    const intText = fc.oneof(
      intArb.map(String),
      fc.stringMatching(/^-?[0-9]{1,17}$/),
      fc.constantFrom('-0', '00', '007', '+1', '1.0', '1e3', ''),
    );
    const wordText = fc.oneof(wordArb, fc.string({ maxLength: 4 }));
    const nearValid = fc
      .constantFrom(...ACTIONS)
      .chain((action) =>
        fc.tuple(
          fc.oneof({ arbitrary: fc.constant(CALLBACK_VERSION), weight: 8 }, fc.constantFrom('0', '2', '')),
          fc.oneof({ arbitrary: fc.constant(WIRE[action].code), weight: 8 }, fc.constantFrom(...CODES, 'zz')),
          fc.tuple(...WIRE[action].args.map((kind) => (kind === 'int' ? intText : wordText))),
          fc.oneof(
            { arbitrary: fc.constant([]), weight: 8 },
            fc.array(intText, { minLength: 1, maxLength: 2 }),
          ),
        ),
      )
      .map(([version, code, args, extra]) => [version, code, ...args, ...extra].join(':'));
    const anyText = fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.string({ unit: 'grapheme' }),
      nearValid,
      nearValid,
    );
    fc.assert(
      fc.property(anyText, (text) => {
        const decoded = decodeCallback(text);
        if (decoded !== undefined) {
          expect(encodeAny(decoded.action, ...decoded.args)).toBe(text);
        }
      }),
      { numRuns: 5000 },
    );
  });

  it('refuses a button of another version', () => {
    fc.assert(
      fc.property(
        encodedArb,
        fc.string({ maxLength: 3 }).filter((v) => v !== CALLBACK_VERSION && !v.includes(':')),
        ({ data }, version) => {
          const foreign = `${version}${data.slice(CALLBACK_VERSION.length)}`;
          expect(decodeCallback(foreign)).toBeUndefined();
        },
      ),
    );
    expect(decodeCallback('0:il:42')).toBeUndefined();
    expect(decodeCallback('2:il:42')).toBeUndefined();
    expect(decodeCallback('il:42')).toBeUndefined();
  });

  it('refuses unknown action codes', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 4 }).filter((code) => !CODES.has(code) && !code.includes(':')),
        fc.array(fc.oneof(fc.constant('1'), fc.constant('w')), { maxLength: 3 }),
        (code, args) => {
          expect(decodeCallback([CALLBACK_VERSION, code, ...args].join(':'))).toBeUndefined();
        },
      ),
    );
    // Action names are not codes.
    expect(decodeCallback('1:invoiceLink:42')).toBeUndefined();
    expect(decodeCallback('1:IL:42')).toBeUndefined();
  });

  it('refuses a wrong number of arguments', () => {
    fc.assert(
      fc.property(encodedArb, fc.boolean(), ({ action, data }, add) => {
        const parts = data.split(':');
        if (add) parts.push(WIRE[action].args.at(-1) === 'int' ? '7' : 'w');
        else if (parts.length > 2) parts.pop();
        else return; // noop has no argument to drop
        expect(decodeCallback(parts.join(':'))).toBeUndefined();
      }),
    );
    expect(decodeCallback('1:x:')).toBeUndefined();
    expect(decodeCallback('1:il')).toBeUndefined();
    expect(decodeCallback('1:il:1:2')).toBeUndefined();
  });

  it('refuses ints that are not written as safe integers', () => {
    const notInts = [
      '',
      '1.5',
      '1e3',
      '0x10',
      '+1',
      ' 1',
      '1 ',
      'NaN',
      'Infinity',
      '-',
      '--1',
      '9007199254740992',
      '-9007199254740992',
      '12345678901234567',
      // Not the canonical form the encoder writes.
      '007',
      '00',
      '-0',
      '-007',
      'abc',
    ];
    for (const text of notInts) {
      expect(decodeCallback(`1:il:${text}`), text).toBeUndefined();
      expect(decodeCallback(`1:p:list:${text}:-`), text).toBeUndefined();
    }
  });

  it('refuses words with characters outside the charset', () => {
    for (const text of ['', 'a b', 'пример', 'a/b', 'a\n', 'x'.repeat(61)]) {
      expect(decodeCallback(`1:ch:${text}`), text).toBeUndefined();
    }
  });

  it('refuses anything over 64 bytes, even of the right shape', () => {
    expect(decodeCallback(`1:od:${'a'.repeat(60)}`)).toBeUndefined();
    expect(decodeCallback(`1:p:${'a'.repeat(30)}:1:${'b'.repeat(30)}`)).toBeUndefined();
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 65, maxLength: 200 }), (text) => {
        expect(decodeCallback(`1:od:${text}`)).toBeUndefined();
      }),
    );
  });
});

describe('mergeActionTables', () => {
  const a = { one: { code: 'a1', args: ['int'], need: 'tech' } } as const;

  it('refuses an action declared by two tables', () => {
    const b = { one: { code: 'b1', args: [], need: 'tech' } } as const;
    expect(() => mergeActionTables(a, b)).toThrow(/"one" is declared twice/);
  });

  it('refuses one wire code for two actions', () => {
    const b = { two: { code: 'a1', args: [], need: 'tech' } } as const;
    expect(() => mergeActionTables(a, b)).toThrow(/code "a1" of "two" is already the code of "one"/);
  });

  it('keeps every action of every table', () => {
    const b = { two: { code: 'b2', args: [], need: 'all' } } as const;
    expect(Object.keys(mergeActionTables(a, b))).toEqual(['one', 'two']);
  });
});
