/**
 * Every Bot API method the server knows, one line each: Telegram's documented name → its handler
 * in its family's module (calls match the names case-insensitively). To add a method, write it in
 * its family's module — a function of the state and the call's params, its refusals beside it —
 * and give it a line here.
 */
import {
  deleteMyCommands,
  getMe,
  getMyCommands,
  getMyDescription,
  getMyShortDescription,
  setMyCommands,
  setMyDescription,
  setMyShortDescription,
} from './bot-profile.js';
import { createForumTopic, getChatMember } from './chats.js';
import {
  deleteEphemeralMessage,
  editEphemeralMessageCaption,
  editEphemeralMessageReplyMarkup,
  editEphemeralMessageText,
} from './ephemeral-edits.js';
import { getFile, sendDocument } from './files.js';
import { answerInlineQuery } from './inline.js';
import { answerCallbackQuery, editMessageReplyMarkup } from './keyboards.js';
import { getChatMenuButton, setChatMenuButton } from './menu-button.js';
import { deleteMessage, editMessageText, sendChatAction, sendMessage, sendRichMessage } from './messages.js';
import { savePreparedInlineMessage } from './prepared.js';
import type { BotApiState } from './state.js';
import {
  closeInstance,
  deleteWebhook,
  getUpdatesInReply,
  getWebhookInfo,
  logOut,
  setWebhook,
} from './updates.js';
import type { Json } from './wire.js';

/** A method as its family writes it: the shared state and the call's params in, the result out. */
export type FamilyMethod = (state: BotApiState, params: Json) => unknown;

/** The one method table: name → handler, grouped by family. */
export const BOT_API_METHODS = {
  // messages and edits (messages.ts)
  sendMessage,
  sendRichMessage,
  sendChatAction,
  editMessageText,
  deleteMessage,
  // ephemeral messages: sent by any send method with ephemeral_message_parameters (ephemeral.ts)
  editEphemeralMessageText,
  editEphemeralMessageCaption,
  editEphemeralMessageReplyMarkup,
  deleteEphemeralMessage,
  // keyboards and callbacks (keyboards.ts)
  answerCallbackQuery,
  editMessageReplyMarkup,
  // inline mode (inline.ts)
  answerInlineQuery,
  // prepared inline messages, for a Mini App's shareMessage (prepared.ts)
  savePreparedInlineMessage,
  // files (files.ts)
  sendDocument,
  getFile,
  // chats and members (chats.ts)
  createForumTopic,
  getChatMember,
  // the bot's profile: commands and descriptions (bot-profile.ts)
  getMe,
  setMyCommands,
  getMyCommands,
  deleteMyCommands,
  setMyDescription,
  setMyShortDescription,
  getMyDescription,
  getMyShortDescription,
  // the menu button by a private chat's input (menu-button.ts)
  setChatMenuButton,
  getChatMenuButton,
  // updates and webhook (updates.ts; getUpdates over HTTP is long-poll.ts)
  getUpdates: getUpdatesInReply,
  setWebhook,
  deleteWebhook,
  getWebhookInfo,
  logOut,
  close: closeInstance,
} satisfies Record<string, FamilyMethod>;
