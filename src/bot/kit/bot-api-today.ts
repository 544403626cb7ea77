/**
 * What the Bot API added after telegraf 4.16's types (Bot API 7.1): typed with `@grammyjs/types`,
 * which follows the Bot API as it is, and handed to telegraf here, in one place, so nothing else in
 * the bot casts for it. On a client too old for a newer field, Telegram shows the rest of the
 * keyboard and the message as before.
 */
import type { ApiMethods, InlineKeyboardButton as BotApiInlineButton } from '@grammyjs/types';
import type { Telegram } from 'telegraf';
import type { InlineKeyboardButton } from 'telegraf/types';

/** Telegram's limit on the text a copy button copies. */
export const COPY_TEXT_LIMIT = 256;

/**
 * A button that copies `text` to the clipboard (Bot API 7.11): a link to paste into an e-mail, a
 * name server, a TXT value. Undefined when the text is longer than Telegram allows.
 */
export function copyTextButton(label: string, text: string): InlineKeyboardButton | undefined {
  if (text.length < 1 || text.length > COPY_TEXT_LIMIT) return undefined;
  const button: BotApiInlineButton.CopyTextButtonButton = { text: label, copy_text: { text } };
  // telegraf 4.16 sends a keyboard as JSON without looking into it; its types only predate the button.
  return button as unknown as InlineKeyboardButton;
}

/**
 * How Telegram draws a button (Bot API 9.4): `danger` red, `success` green, `primary` blue;
 * without one, the app's own colour.
 */
export type ButtonStyle = NonNullable<BotApiInlineButton['style']>;

/**
 * The button drawn in `style`: red for what deletes or replaces, green for the last step that
 * does what the partner asked for. Undefined leaves the app's own colour (navigation, No, pages).
 */
export function styled<B extends InlineKeyboardButton>(
  button: B,
  style: ButtonStyle | undefined,
): B & Pick<BotApiInlineButton.CallbackButton, 'style'> {
  return style === undefined ? button : { ...button, style };
}

/** The Bot API as `@grammyjs/types` has it (10.3): every method, with its parameters and result. */
type BotApi = ApiMethods<never>;
export type BotApiMethod = keyof BotApi;
export type BotApiParams<M extends BotApiMethod> = Parameters<BotApi[M]>[0];

/**
 * Calls a Bot API method that telegraf 4.16's `callApi` does not know by name (rich and ephemeral
 * messages), typed by `@grammyjs/types`. telegraf sends any method as it is given: only its types
 * stop at 7.1, so this is the one cast, here, and nothing else in the bot casts for a newer method.
 */
export function callBotApi<M extends BotApiMethod>(
  telegram: Pick<Telegram, 'callApi'>,
  method: M,
  params: BotApiParams<M>,
): Promise<ReturnType<BotApi[M]>> {
  const call = telegram.callApi as unknown as (
    this: unknown,
    method: string,
    payload: unknown,
  ) => Promise<ReturnType<BotApi[M]>>;
  return call.call(telegram, method, params);
}

/**
 * A button that does nothing (Bot API 10.3): what a member's role lacks, drawn with its label
 * and the role it needs, so the screen shows what exists without offering what would be refused.
 * No callback data and no colour: a colour says what a tap does, and this one does nothing.
 */
export function disabledButton(label: string): InlineKeyboardButton {
  const button: BotApiInlineButton.DisabledButtonButton = { text: label, disabled: {} };
  // As copyTextButton: telegraf sends the keyboard as it is; its types predate the button.
  return button as unknown as InlineKeyboardButton;
}
