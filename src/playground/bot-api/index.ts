/**
 * The local Bot API server: a stand-in for Telegram's Bot API that the playground and the tests
 * share, good enough for telegraf 4.16 to run against it
 * (`new Telegraf(token, { telegram: { apiRoot: server.apiRoot } })`) with long polling or a webhook.
 *
 * It listens on 127.0.0.1 only and never contacts anything but 127.0.0.1: webhook deliveries go to
 * loopback URLs only, and URLs given as documents are recorded, not fetched.
 *
 * What it copies from the real server (tdlib/telegram-bot-api), because bots trip over these:
 * - `getUpdates` confirms and forgets every update below `offset`; it answers at once when updates
 *   are queued or `timeout` is 0, else it waits up to `timeout` seconds and wakes when one is pushed.
 * - A new *waiting* `getUpdates` terminates the one already waiting, which gets 409
 *   "Conflict: terminated by other getUpdates request…" (the real server fails the older request;
 *   a `timeout: 0` call, like telegraf's offset sync on stop, answers without disturbing it).
 * - `allowed_updates` is server state: kept until a call sends it again; `[]` means every type but
 *   chat_member, message_reaction and message_reaction_count.
 * - While a webhook is set, `getUpdates` answers 409 and updates are POSTed to the webhook instead.
 * - HTTP status equals `error_code`; for 5xx the description is also the status text, because
 *   telegraf reads only `statusText` on 5xx.
 * - Errors real bots hit: "message is not modified", "message to edit not found", "message can't be
 *   edited", "message to delete not found", "query is too old…", BUTTON_DATA_INVALID (callback data
 *   over 64 bytes), "message is too long" (over 4096 characters), BOT_COMMAND_INVALID.
 *
 * Bot API 10.1–10.3, as the bot will use it (rules in rich.ts, ephemeral.ts, ephemeral-edits.ts):
 * - `sendRichMessage` and `editMessageText` with `rich_message` take `blocks` (not html/markdown,
 *   nor media blocks) and answer a Message with `rich_message`; refused past 32,768 characters
 *   (code points of all the text), 500 blocks (nested blocks, list items and table rows counted),
 *   16 levels of blocks and formatting, 20 table columns; an empty one; none or two of
 *   html/markdown/blocks. The descriptions are `RICH_REFUSALS`.
 * - `ephemeral_message_parameters` on sendMessage, sendRichMessage and sendDocument: a message one
 *   member of a group sees, answered with `message_id: 0`, `ephemeral_message_id` and
 *   `receiver_user`; refused in private chats and to non-members (`EPHEMERAL_REFUSALS`). Edited and
 *   deleted by editEphemeralMessageText/Caption/ReplyMarkup and deleteEphemeralMessage (true, or
 *   "message to edit not found"…). A press on it (`pressButton(…, { ephemeralMessageId })`) is
 *   its receiver's only and carries it as the callback's `message`; with
 *   `replace_callback_query_message` it is shown in place of the pressed message for the presser.
 * - A group member's command that setMyCommands registered `is_ephemeral` for them arrives as an
 *   ephemeral message (`message_id: 0`, `ephemeral_message_id`, the bot as `receiver_user`); a
 *   reply to it must be ephemeral and come within 15 s (`now` option: the server's clock).
 * - `disabled: {}` buttons are kept; `pressButton(…, { text })` refuses a disabled one
 *   (`PressRefused`), so nothing reaches the bot.
 *
 * What it simplifies: `parse_mode` and entities are not applied (texts are echoed as sent); chats
 * are created on first use; webhook deliveries are sequential (one connection).
 *
 * Using it with telegraf:
 * - `bot.launch()` resolves only when polling ends: don't await it; wait for
 *   `waitForCall(c => c.method === 'getUpdates' && c.params.timeout === 50)` instead (calling
 *   `bot.stop()` before launch reached polling throws "Bot is not running!").
 * - Stop the bot, await the launch promise, then `close()` the server. In the other order the bot's
 *   next poll meets a closed port, and telegraf sleeps 5 s before it notices the stop.
 * - In webhook mode telegraf answers answerCallbackQuery, sendChatAction, deleteMessage, … in the
 *   webhook's response body; those calls are recorded with `via: 'webhook-reply'`.
 *
 * How this folder is laid out: state.ts holds everything the server knows; each method family
 * (messages.ts, keyboards.ts, inline.ts, prepared.ts, files.ts, chats.ts, bot-profile.ts,
 * menu-button.ts, updates.ts) has its
 * methods as functions over that state, with Telegram's refusals beside them (rich.ts checks a rich
 * message, ephemeral.ts and ephemeral-edits.ts are the ephemeral family); methods.ts is the one
 * table of method name → handler; dispatch.ts, long-poll.ts, webhook-delivery.ts and http.ts carry
 * the calls and the updates; server.ts puts them together. This module is the public surface.
 */
export { fileParam, type RecordedCall } from './calls.js';
export type { MethodHandler } from './dispatch.js';
export { EPHEMERAL_REFUSALS } from './ephemeral.js';
export { BotApiFailure, type TelegramErrorBody } from './failures.js';
export type { SendDocumentOptions } from './files.js';
export type { ChooseInlineResultOptions, InlineQueryOptions } from './inline.js';
export { type PressButtonOptions, PressRefused } from './keyboards.js';
export type { SendTextOptions } from './messages.js';
export { PREPARED_MESSAGE_TTL_S, type PreparedChatKind, PreparedRefused } from './prepared.js';
export { RICH_LIMITS, RICH_REFUSALS } from './rich.js';
export {
  type BotApiServer,
  type BotApiServerOptions,
  DEFAULT_TOKEN,
  startBotApiServer,
} from './server.js';
export {
  BOT_FIRST_NAME,
  type BotInfo,
  type ChatProfile,
  DEFAULT_GROUP_CHAT_ID,
  DEFAULT_SUPERGROUP_CHAT_ID,
  DEFAULT_USER_ID,
  type PreparedChatTypes,
  type UserProfile,
} from './state.js';
export { type ApiResponse, RecordedFile } from './wire.js';
