/**
 * A question answered by typing, asked in a group. Under privacy mode (the default) the bot sees
 * only commands and replies to its own messages, so a plain answer in a group never reaches it.
 * The question is therefore aimed at the member filling it: a selective ForceReply (their Telegram
 * opens a reply to it; nobody else's does) when it has no buttons of its own, since a message has
 * one keyboard; with buttons, a line asking for a reply. Either way it names the member when a
 * button (not their message) brought it up. In a private chat the question is as it was.
 *
 * Where the member alone sees the question (an ephemeral message, kit/member-messages.ts), it needs
 * no name and no reply to aim it: it keeps the selective ForceReply, so their Telegram still opens a
 * reply to it, and their answer is taken because their form is open (a reply to an ephemeral
 * message may come without `reply_to_message`; middlewares/group-scope.ts lets it through and
 * forms/member-scenes.ts drops it for a member with nothing open).
 */
import type { Markup } from 'telegraf';
import type { ForceReply, InlineKeyboardMarkup, Message, ReplyParameters } from 'telegraf/types';
import { escapeHtml } from '../../core/format.js';
import type { BotContext } from '../context.js';

export interface GroupQuestion {
  /** The question's HTML, with the member's name and the reply line where they are needed. */
  text: string;
  /** The ForceReply and the reply to the member's message, when the question has no buttons. */
  extra: { reply_markup?: ForceReply; reply_parameters?: ReplyParameters };
}

const isGroup = (ctx: BotContext) => ctx.chat?.type === 'group' || ctx.chat?.type === 'supergroup';

/**
 * `html` as asked in this chat; `withButtons` when the caller adds an inline keyboard to it;
 * `ephemeral` when only the member will see it.
 */
export function groupQuestion(
  ctx: BotContext,
  html: string,
  withButtons: boolean,
  ephemeral = false,
): GroupQuestion {
  if (!isGroup(ctx) || ctx.from === undefined) return { text: html, extra: {} };
  if (ephemeral) {
    if (withButtons) return { text: `${html}\n<i>${ctx.t('common:replyToAnswer')}</i>`, extra: {} };
    return { text: html, extra: { reply_markup: { force_reply: true, selective: true } } };
  }
  const message = ctx.message;
  // A reply to the member's own message aims a selective ForceReply at them; a question a button
  // brought up names them instead (a text mention, which also aims it).
  const mention =
    message === undefined
      ? `<a href="tg://user?id=${ctx.from.id}">${escapeHtml(ctx.from.first_name)}</a>, `
      : '';
  // After "Борис, " the question goes on in lower case ("Борис, для какого хоста…").
  const asked =
    mention === '' ? html : html.replace(/^(\p{Lu})(?=\p{Ll})/u, (letter) => letter.toLowerCase());
  if (withButtons) return { text: `${mention}${asked}\n<i>${ctx.t('common:replyToAnswer')}</i>`, extra: {} };
  return {
    text: `${mention}${asked}`,
    extra: {
      reply_markup: { force_reply: true, selective: true },
      ...(message === undefined
        ? {}
        : { reply_parameters: { message_id: message.message_id, allow_sending_without_reply: true } }),
    },
  };
}

/**
 * Asks `html` of the update's sender, to them alone where the Bot API allows (else as
 * `groupQuestion` aims it), with the question's own `keyboard` if it has one.
 */
export function askMember(
  ctx: BotContext,
  html: string,
  keyboard?: Markup.Markup<InlineKeyboardMarkup>,
): Promise<Message.TextMessage> {
  return ctx.toMember.send((ephemeral) => {
    const asked = groupQuestion(ctx, html, keyboard !== undefined, ephemeral !== undefined);
    return ctx.reply(asked.text, { parse_mode: 'HTML', ...keyboard, ...asked.extra, ...ephemeral });
  });
}
