/**
 * The Bot API 10.2–10.3 ephemeral calls the bot makes, through `callBotApi` (bot-api-today.ts, the
 * one typed call for methods telegraf 4.16 does not know), and how their refusals read.
 */
import type { EphemeralMessageParameters } from '@grammyjs/types';
import { type Telegram, TelegramError, type Types } from 'telegraf';
import type { InlineKeyboardMarkup, Message } from 'telegraf/types';
import { type BotApiParams, callBotApi } from './bot-api-today.js';

/**
 * What a send carries to be ephemeral; spread into telegraf's extra of any `send…` (typed as one
 * of them, so it also stands alone where an extra is expected).
 */
export type EphemeralExtra = Types.ExtraReplyMessage & {
  ephemeral_message_parameters: EphemeralMessageParameters;
};

/** Where an ephemeral message is: the chat, its one receiver, its id. */
export interface EphemeralRef {
  chatId: number;
  receiverId: number;
  ephemeralMessageId: number;
}

/** telegraf's inline keyboard as the Bot API's (the same JSON; telegraf's button types only lag). */
const asBotApiMarkup = (markup: InlineKeyboardMarkup) =>
  markup as NonNullable<BotApiParams<'editEphemeralMessageReplyMarkup'>['reply_markup']>;

/** Edits an ephemeral message's text (and its keyboard, if given). */
export function editEphemeralText(
  telegram: Pick<Telegram, 'callApi'>,
  ref: EphemeralRef,
  text: string,
  extra: { parse_mode?: 'HTML' | 'MarkdownV2' | 'Markdown'; reply_markup?: InlineKeyboardMarkup } = {},
) {
  return callBotApi(telegram, 'editEphemeralMessageText', {
    chat_id: ref.chatId,
    receiver_user_id: ref.receiverId,
    ephemeral_message_id: ref.ephemeralMessageId,
    text,
    ...(extra.parse_mode ? { parse_mode: extra.parse_mode } : {}),
    ...(extra.reply_markup ? { reply_markup: asBotApiMarkup(extra.reply_markup) } : {}),
  });
}

/** Replaces (or, with undefined, removes) an ephemeral message's inline keyboard. */
export function editEphemeralMarkup(
  telegram: Pick<Telegram, 'callApi'>,
  ref: EphemeralRef,
  markup: InlineKeyboardMarkup | undefined,
) {
  return callBotApi(telegram, 'editEphemeralMessageReplyMarkup', {
    chat_id: ref.chatId,
    receiver_user_id: ref.receiverId,
    ephemeral_message_id: ref.ephemeralMessageId,
    ...(markup ? { reply_markup: asBotApiMarkup(markup) } : {}),
  });
}

/** Deletes an ephemeral message. */
export function deleteEphemeral(telegram: Pick<Telegram, 'callApi'>, ref: EphemeralRef) {
  return callBotApi(telegram, 'deleteEphemeralMessage', {
    chat_id: ref.chatId,
    receiver_user_id: ref.receiverId,
    ephemeral_message_id: ref.ephemeralMessageId,
  });
}

/** The ephemeral id of a message Telegram gave or sent (undefined for an ordinary message). */
export function ephemeralIdOf(message: object | undefined): number | undefined {
  if (message === undefined || !('ephemeral_message_id' in message)) return undefined;
  const id = message.ephemeral_message_id;
  return typeof id === 'number' ? id : undefined;
}

/**
 * Telegram no longer has the message (an ephemeral one is not kept across Telegram's restarts
 * and may never have reached an offline member).
 */
export function isMessageGone(error: unknown): boolean {
  return (
    error instanceof TelegramError &&
    error.code === 400 &&
    /message (to (edit|delete|replace)|is) not found|message_id_invalid|ephemeral message.*(not found|expired)/i.test(
      error.description,
    )
  );
}

/**
 * The server does not know ephemeral messages (a self-hosted Bot API server older than 10.2):
 * it refuses their parameters or methods as unknown.
 */
export function isEphemeralUnsupported(error: unknown): boolean {
  if (!(error instanceof TelegramError)) return false;
  if (error.code === 404 && /not found/i.test(error.description)) return true;
  return (
    error.code === 400 &&
    /ephemeral/i.test(error.description) &&
    /unknown|unsupported|not supported|unrecognized|unexpected|can't parse|not allowed/i.test(
      error.description,
    )
  );
}

/** How a message for the member alone is sent. */
export interface MemberSendOptions {
  /**
   * The new message takes the place of the message whose button was pressed, when that one was
   * the member's own ephemeral screen (the next step of their form).
   */
  replaces?: boolean;
}

/** What `ctx.toMember` offers: sending to the update's sender alone. */
export interface MemberMessages {
  /** Whether a message for the member is ephemeral in this update (a group, a sender, a server that takes them). */
  readonly ephemeral: boolean;
  /** The ephemeral message whose button this update pressed (theirs: only they see it). */
  readonly pressed: EphemeralRef | undefined;
  /**
   * Whether an edit of `pressed` was answered "not found": Telegram does not keep ephemeral
   * messages across its restarts, and one may never have reached an offline member.
   */
  readonly pressedGone: boolean;
  /**
   * Sends what `send` sends, to the member alone: `send` spreads `ephemeral` into its extra, or
   * gets undefined and sends as before (a private chat, or a server without ephemeral messages —
   * then a message that needs it names the member or replies to them instead).
   */
  send<M extends Message>(
    send: (ephemeral: EphemeralExtra | undefined) => Promise<M>,
    options?: MemberSendOptions,
  ): Promise<M>;
  /** `ctx.reply` to the member alone. */
  reply(
    text: string,
    extra?: Types.ExtraReplyMessage,
    options?: MemberSendOptions,
  ): Promise<Message.TextMessage>;
  /** Removes the inline keyboard of an ephemeral message this member was sent earlier. */
  dropKeyboard(ephemeralMessageId: number): Promise<void>;
}
