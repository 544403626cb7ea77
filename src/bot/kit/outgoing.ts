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

/**
 * A pass over one outgoing call: the payload as it should go out. A function made once (module
 * level), handed its update's `subject`. Keep the update's context out of the subject where the
 * update is frequent: a client pointing back at its context kept whole updates alive into the old
 * generation and doubled /help's garbage collection (bench/README.md, issue 42).
 */
export type OutgoingPass<S> = (
  subject: S,
  method: string,
  payload: Record<string, unknown>,
) => Record<string, unknown> | Promise<Record<string, unknown>>;

/** Where an update's client keeps its passes (a client without any calls straight through). */
const PASSES = Symbol('outgoing passes');
/** Marks the prototype's `callApi` that runs the passes, so it is put in place once. */
const RUNS_PASSES = Symbol('runs outgoing passes');

/** A pass and the subject it is run with. */
type Entry = readonly [OutgoingPass<never>, unknown];
type PassingClient = { [PASSES]?: Entry[] };
type PassingProto = { callApi: CallApi & { [RUNS_PASSES]?: true } };

/**
 * Runs every call of `telegram` through `pass(subject, …)` before it goes out; a pass added later
 * runs first. One wrapper on the clients' prototype runs them (telegraf makes a client per
 * update): an update adds a property to its client, not a wrapper of its own (bench/README.md).
 */
export function passOutgoing<S>(telegram: Telegram, pass: OutgoingPass<S>, subject: S): void {
  const client = telegram as Telegram & PassingClient;
  const entry: Entry = [pass, subject];
  const passes = client[PASSES];
  if (passes === undefined) {
    const proto = Object.getPrototypeOf(telegram) as PassingProto;
    if (proto.callApi[RUNS_PASSES] !== true) runPassesOn(proto);
    client[PASSES] = [entry];
  } else passes.push(entry);
}

function runPassesOn(proto: PassingProto): void {
  const original = proto.callApi;
  const running = function (
    this: PassingClient,
    method: string,
    payload: Record<string, unknown>,
    options?: object,
  ) {
    const passes = this[PASSES];
    if (passes === undefined) return original.call(this, method, payload, options);
    return passThrough(passes, method, payload).then((out) => original.call(this, method, out, options));
  } as CallApi & { [RUNS_PASSES]?: true };
  running[RUNS_PASSES] = true;
  proto.callApi = running;
}

/** The payload after every pass, the latest added first. */
async function passThrough(passes: readonly Entry[], method: string, payload: Record<string, unknown>) {
  let out = payload;
  for (let i = passes.length - 1; i >= 0; i--) {
    const [pass, subject] = passes[i] as Entry;
    out = await (pass as OutgoingPass<unknown>)(subject, method, out);
  }
  return out;
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
