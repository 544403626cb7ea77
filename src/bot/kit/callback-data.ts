/**
 * The one codec for inline-button callback data. Telegram allows 64 bytes; every button's data
 * is `<version>:<action>:<arg>:<arg>…`, checked on the way out (length, charset) and validated on
 * the way back in, so a button from an older release or a foreign bot reads as `undefined`
 * ("expired") instead of reaching a handler with garbage.
 */

export const CALLBACK_VERSION = '1';
const MAX_BYTES = 64;

type ArgKind = 'int' | 'word';

/** Each action's code and the kinds of its arguments, in order. */
const ACTIONS = {
  /** A page of a list: list id, page index, the list's filter (`-` for none). */
  page: { code: 'p', args: ['word', 'int', 'word'] },
  /** The public link of an invoice / statement / partner statement. */
  invoiceLink: { code: 'il', args: ['int'] },
  statementLink: { code: 'sl', args: ['int'] },
  partnerStatementLink: { code: 'pl', args: ['int'] },
  /** Tariffs of a price list: number, date as YYYYMMDD (0 for today). */
  priceList: { code: 'pr', args: ['word', 'int'] },
  /** Details of an order: order kind (all, domain, hosting, mail, ssl) and order id. */
  order: { code: 'o', args: ['word', 'int'] },
  /** Invoices of an order: order id. */
  orderInvoices: { code: 'oi', args: ['int'] },
  /** Start a domain order for a checked domain (its ASCII form). */
  orderDomain: { code: 'od', args: ['word'] },
  /** A list of a kind chosen by button (tariffs: hosting, mail, ssl; orders: kinds). */
  choose: { code: 'ch', args: ['word'] },
  /** DNS / name servers / certificate of a domain order. */
  dns: { code: 'd', args: ['int'] },
  nameServers: { code: 'n', args: ['int'] },
  certificate: { code: 'c', args: ['int'] },
  /** Language switch. */
  lang: { code: 'l', args: ['word'] },
  /** Logout confirmation: yes / no. */
  logout: { code: 'lo', args: ['word'] },
  /** Start a guided order of a kind (domain, hosting, mail, ssl). */
  orderStart: { code: 'os', args: ['word'] },
  /** An option of the order step shown on screen `screen`: screen, option index. */
  orderOption: { code: 'oo', args: ['int', 'int'] },
  /** Navigation on an order screen: screen, back | skip | keep | cancel | edit | summary. */
  orderNav: { code: 'on', args: ['int', 'word'] },
  /** Edit one section from the summary: screen, section. */
  orderEdit: { code: 'oe', args: ['int', 'word'] },
  /** Confirm the order shown in a summary: its single-use nonce. */
  orderConfirm: { code: 'oc', args: ['word'] },
  /**
   * Saved requisites profiles: show or delete (ask), delete (confirmed): profile id, and whose
   * (0: this chat's; a team group's id without its minus, shown in a member's private chat).
   */
  profileShow: { code: 'ps', args: ['word', 'int'] },
  profileDelete: { code: 'pd', args: ['word', 'int'] },
  profileDeleteYes: { code: 'py', args: ['word', 'int'] },
  /** DNS of a domain order: add (by buttons), ask to delete a record, delete it, export, import. */
  dnsAdd: { code: 'da', args: ['int'] },
  dnsDelete: { code: 'dd', args: ['int', 'int'] },
  dnsDeleteYes: { code: 'dy', args: ['int', 'int'] },
  dnsExport: { code: 'dx', args: ['int'] },
  dnsImport: { code: 'di', args: ['int'] },
  /** Apply an import preview (single-use nonce); `force` confirms a large deletion. */
  dnsApply: { code: 'dp', args: ['word', 'word'] },
  /** DNS history of a domain order; undo an entry (order id, entry id): preview, then apply. */
  dnsHistory: { code: 'dh', args: ['int'] },
  dnsUndo: { code: 'du', args: ['int', 'word'] },
  dnsUndoYes: { code: 'dz', args: ['int', 'word'] },
  /**
   * DNS presets (`dnspresets`): the list for an order; choose one (order, preset id); skip an
   * optional parameter (draft nonce, parameter index); apply the preview (nonce, ask | force).
   */
  dnsPresets: { code: 'Ps', args: ['int'] },
  dnsPreset: { code: 'Pp', args: ['int', 'word'] },
  dnsPresetSkip: { code: 'Pk', args: ['word', 'int'] },
  dnsPresetApply: { code: 'Pa', args: ['word', 'word'] },
  /**
   * `/dns bulk` (`dnsbulk`): toggle a domain (bulk nonce, order id, page); the picker's page,
   * select all / none, done (nonce, op, page); a preset as the change (nonce, preset id); apply
   * the preview (nonce, ask | force).
   */
  dnsBulkToggle: { code: 'Bt', args: ['word', 'int', 'int'] },
  dnsBulkPick: { code: 'Bp', args: ['word', 'word', 'int'] },
  dnsBulkPreset: { code: 'Bs', args: ['word', 'word'] },
  dnsBulkApply: { code: 'Ba', args: ['word', 'word'] },
  /** Name servers: ask to set (hosting, editor, delete, custom), then apply. */
  nsAsk: { code: 'na', args: ['int', 'word'] },
  nsApply: { code: 'nx', args: ['int', 'word'] },
  /** Check a domain typed as free text (its ASCII form). */
  checkDomain: { code: 'cd', args: ['word'] },
  /** "No" on a confirmation: the question is edited to say what was left unchanged (its topic). */
  dismiss: { code: 'dn', args: ['word'] },
  /** `/notify`: turn a notification kind on or off; set quiet hours (`22-8`) or none (`off`). */
  notifyToggle: { code: 'nt', args: ['word'] },
  notifyQuiet: { code: 'nq', args: ['word'] },
  /** `/team`: give a member (user id) a role (owner only). */
  teamRole: { code: 'tr', args: ['int', 'word'] },
  /** A button that does nothing (page counter). */
  noop: { code: 'x', args: [] },
} as const satisfies Record<string, { code: string; args: readonly ArgKind[] }>;

export type CallbackAction = keyof typeof ACTIONS;

type ArgType<K> = K extends 'int' ? number : string;
type MapArgs<T extends readonly ArgKind[]> = { -readonly [I in keyof T]: ArgType<T[I]> };
export type ArgsOf<A extends CallbackAction> = MapArgs<(typeof ACTIONS)[A]['args']>;

/** A decoded button press. */
export type Callback = { [A in CallbackAction]: { action: A; args: ArgsOf<A> } }[CallbackAction];

const BY_CODE = new Map<string, CallbackAction>(
  Object.entries(ACTIONS).map(([action, spec]) => [spec.code, action as CallbackAction]),
);
const WORD = /^[A-Za-z0-9._-]{1,60}$/;
// Canonical decimal only (no `007`, no `-0`), so data decodes only as the encoder wrote it.
const INT = /^(?:0|-?[1-9]\d{0,15})$/;

/** Builds a button's data; throws when it would break Telegram's limit (a programming error). */
export function encodeCallback<A extends CallbackAction>(action: A, ...args: ArgsOf<A>): string {
  const spec = ACTIONS[action];
  const parts: string[] = [CALLBACK_VERSION, spec.code];
  spec.args.forEach((kind, index) => {
    const value = (args as readonly (string | number)[])[index];
    const text = String(value);
    if (kind === 'int' ? !Number.isSafeInteger(value) : !WORD.test(text)) {
      throw new RangeError(`callback ${action}: argument ${index} is not a valid ${kind}: ${text}`);
    }
    parts.push(text);
  });
  const data = parts.join(':');
  if (Buffer.byteLength(data, 'utf8') > MAX_BYTES) {
    throw new RangeError(`callback ${action}: ${Buffer.byteLength(data)} bytes exceed ${MAX_BYTES}`);
  }
  return data;
}

/** Reads a button's data back; `undefined` for anything stale, foreign or malformed. */
export function decodeCallback(data: string | undefined): Callback | undefined {
  if (data === undefined || Buffer.byteLength(data, 'utf8') > MAX_BYTES) return undefined;
  const [version, code, ...raw] = data.split(':');
  if (version !== CALLBACK_VERSION || code === undefined) return undefined;
  const action = BY_CODE.get(code);
  if (action === undefined) return undefined;
  const kinds: readonly ArgKind[] = ACTIONS[action].args;
  if (raw.length !== kinds.length) return undefined;
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
  return { action, args } as unknown as Callback;
}
