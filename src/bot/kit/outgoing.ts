/**
 * Passes over what the bot sends while it answers one update (each update has its own Telegram
 * client, so wrapping it touches that update's calls only): the role keyboards of team chats and
 * the account stamp of several-account chats are such passes.
 */
import type { Telegram } from 'telegraf';
import type { InlineKeyboardButton } from 'telegraf/types';

/** A client's `callApi`, as a pass sees it: a method, its payload, telegraf's options. */
export type CallApi = (
  method: string,
  payload: Record<string, unknown>,
  options?: object,
) => Promise<unknown>;

/** A pass over one outgoing call: the payload as it should go out. */
export type OutgoingPass = (
  method: string,
  payload: Record<string, unknown>,
) => Record<string, unknown> | Promise<Record<string, unknown>>;

/** Where an update's client keeps its passes (a client without any calls straight through). */
const PASSES = Symbol('outgoing passes');
/** Marks the prototype's `callApi` that runs the passes, so it is put in place once. */
const RUNS_PASSES = Symbol('runs outgoing passes');

type PassingClient = { [PASSES]?: OutgoingPass[] };
type PassingProto = { callApi: CallApi & { [RUNS_PASSES]?: true } };

/**
 * Runs every call of `telegram` through `pass` before it goes out; a pass added later runs
 * first. One wrapper on the clients' prototype runs them (telegraf makes a client per update): an
 * update adds a property to its client, not a bound wrapper of its own (bench/README.md).
 */
export function passOutgoing(telegram: Telegram, pass: OutgoingPass): void {
  const client = telegram as Telegram & PassingClient;
  const passes = client[PASSES];
  if (passes === undefined) {
    const proto = Object.getPrototypeOf(telegram) as PassingProto;
    if (proto.callApi[RUNS_PASSES] !== true) runPassesOn(proto);
    client[PASSES] = [pass];
  } else passes.push(pass);
}

function runPassesOn(proto: PassingProto): void {
  const original = proto.callApi;
  const running = async function (
    this: PassingClient,
    method: string,
    payload: Record<string, unknown>,
    options?: object,
  ) {
    const passes = this[PASSES];
    let out = payload;
    if (passes !== undefined)
      for (let i = passes.length - 1; i >= 0; i--) out = await (passes[i] as OutgoingPass)(method, out);
    return original.call(this, method, out, options);
  } as CallApi & { [RUNS_PASSES]?: true };
  running[RUNS_PASSES] = true;
  proto.callApi = running;
}

/**
 * The payload with every inline button `lock` returns a replacement for replaced; the same
 * payload when none is (the caller's objects are never changed: a keyboard may be reused).
 */
export function gateKeyboard(
  payload: Record<string, unknown>,
  lock: (button: InlineKeyboardButton) => InlineKeyboardButton | undefined,
): Record<string, unknown> {
  const markup = payload.reply_markup;
  if (typeof markup !== 'object' || markup === null || !('inline_keyboard' in markup)) return payload;
  const rows = markup.inline_keyboard;
  if (!Array.isArray(rows)) return payload;
  let changed = false;
  const gatedRows = rows.map((row: InlineKeyboardButton[]) =>
    row.map((button) => {
      const locked = lock(button);
      if (locked === undefined) return button;
      changed = true;
      return locked;
    }),
  );
  return changed ? { ...payload, reply_markup: { ...markup, inline_keyboard: gatedRows } } : payload;
}
