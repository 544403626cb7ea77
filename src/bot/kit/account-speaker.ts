/**
 * Messages sent outside any update (the watchers' notifications, robots' key reports, the Mini
 * App's edits and orders) speak of one account of their chat. Inside an update the account
 * middleware heads and stamps what goes out (middlewares/account.ts); these messages do the same
 * for themselves: every button carries the account, so it acts on it whatever is active later,
 * and in a chat of several accounts the message is headed with the account's name (`👤 <b>…</b>`
 * first line, or a rich message's first paragraph).
 */
import type { Telegram } from 'telegraf';
import type { InlineKeyboardButton } from 'telegraf/types';
import type { Account } from '../../storage/chat-data/accounts.js';
import type { ChatData } from '../../storage/chat-data.js';
import { accountLabel, headPayload, stampKeyboard } from '../middlewares/account.js';
import type { Translate } from './i18n.js';
import type { CallApi } from './outgoing.js';

/** The account a message speaks of: its number, and its name when the chat holds several. */
export interface AccountSpeaker {
  readonly n: number;
  readonly heading: string | undefined;
}

/**
 * The chat's account `n` (else the active one) and how a message about it is headed; undefined
 * when the chat has no such account. Every account is opened once (to count them).
 */
export async function speakerOf(
  chatData: Pick<ChatData, 'listAccounts'>,
  chatId: number,
  t: Translate,
  n?: number,
): Promise<{ account: Account; speaker: AccountSpeaker } | undefined> {
  const accounts = await chatData.listAccounts(chatId);
  const account = accounts.find((a) => (n === undefined ? a.active : a.n === n));
  if (account === undefined) return undefined;
  const heading = accounts.length > 1 ? accountLabel(t, account) : undefined;
  return { account, speaker: { n: account.n, heading } };
}

/** The payload with its buttons stamped with the account and, in a chat of several, headed with it. */
export function speakAs(
  method: string,
  payload: Record<string, unknown>,
  speaker: AccountSpeaker | undefined,
): Record<string, unknown> {
  if (speaker === undefined) return payload;
  const stamped = stampKeyboard(payload, speaker.n);
  return speaker.heading === undefined ? stamped : headPayload(method, stamped, speaker.heading);
}

/** Keyboard rows with their buttons stamped with the account (as they are when there is no speaker). */
export function stampRows(
  rows: InlineKeyboardButton[][],
  speaker: AccountSpeaker | undefined,
): InlineKeyboardButton[][] {
  if (speaker === undefined) return rows;
  const { reply_markup } = stampKeyboard({ reply_markup: { inline_keyboard: rows } }, speaker.n) as {
    reply_markup: { inline_keyboard: InlineKeyboardButton[][] };
  };
  return reply_markup.inline_keyboard;
}

/** What the heading's line takes of a message's length (its HTML and the line break). */
export function headingLength(speaker: AccountSpeaker | undefined): number {
  if (speaker?.heading === undefined) return 0;
  const headed = headPayload('sendMessage', { text: '', parse_mode: 'HTML' }, speaker.heading).text;
  return typeof headed === 'string' ? headed.length : 0;
}

/**
 * A client whose every call speaks as the account (the same client when there is no speaker):
 * for code that sends through a client of its own choosing (`Screens.sendTo`). Only `callApi`
 * and `sendMessage` are offered, the calls a report makes.
 */
export function telegramAs(
  telegram: Pick<Telegram, 'callApi' | 'sendMessage'>,
  speaker: AccountSpeaker | undefined,
): Pick<Telegram, 'callApi' | 'sendMessage'> {
  if (speaker === undefined) return telegram;
  const callApi = telegram.callApi.bind(telegram) as CallApi;
  const passed: CallApi = (method, payload, options) =>
    callApi(method, speakAs(method, payload, speaker), options);
  return {
    callApi: passed as Telegram['callApi'],
    sendMessage: (chatId, text, extra) => {
      const { text: headed, ...rest } = speakAs('sendMessage', { text, ...extra }, speaker);
      return telegram.sendMessage(chatId, String(headed), rest as Parameters<Telegram['sendMessage']>[2]);
    },
  };
}
