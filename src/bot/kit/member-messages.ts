/**
 * Messages for one member of a group (Bot API 10.2–10.3 ephemeral messages): the questions of
 * their form, their refusals and errors, instructions meant for them. Such a message is seen by
 * that member alone; the group sees nothing of it. In a private chat, and on a Bot API server that
 * does not know ephemeral messages, it is an ordinary message as before.
 *
 * This middleware is also the one place where a screen that is an ephemeral message is edited:
 * for a button pressed on one, `ctx.editMessageText`, `ctx.editMessageReplyMarkup` and
 * `ctx.deleteMessage` go to the ephemeral methods; and every answer to an incoming ephemeral
 * message (a command registered `is_ephemeral`) is ephemeral, as Telegram requires.
 */
import type { Types } from 'telegraf';
import type { Message } from 'telegraf/types';
import type { Logger } from '../../logger.js';
import { errorForLog } from '../../logger.js';
import type { BotContext } from '../context.js';
import {
  deleteEphemeral,
  type EphemeralExtra,
  type EphemeralRef,
  editEphemeralMarkup,
  editEphemeralText,
  ephemeralIdOf,
  isEphemeralUnsupported,
  isMessageGone,
  type MemberMessages,
  type MemberSendOptions,
} from './ephemeral-api.js';

const isGroup = (ctx: BotContext) => ctx.chat?.type === 'group' || ctx.chat?.type === 'supergroup';

/**
 * Whether this process's Bot API server takes ephemeral messages: known false after the first
 * refusal (logged once), for the life of the process.
 */
interface EphemeralSupport {
  refused: boolean;
  /** Notes the first refusal (logged once) and sets `refused`. */
  refuse(ctx: BotContext, error: unknown): void;
}

/** The middleware that gives each update `ctx.toMember` and routes edits of ephemeral screens. */
export function createMemberMessages(deps: { logger: Logger }) {
  const support: EphemeralSupport = {
    refused: false,
    refuse(ctx, error) {
      if (support.refused) return;
      support.refused = true;
      deps.logger.warn(
        { chatId: ctx.chat?.id, err: error === undefined ? undefined : errorForLog(error) },
        'the Bot API server does not take ephemeral messages: members get ordinary messages (named or replied to)',
      );
    },
  };
  // Not async, and one object per update with its methods on the prototype: this runs for every
  // update (a `/help` in a private chat included), where closures per update showed in the CPU bench.
  return (ctx: BotContext, next: () => Promise<void>) => {
    const members = new UpdateMembers(ctx, support);
    ctx.toMember = members;
    if (members.pressed !== undefined) routeEditsOfPressed(ctx, members.pressed, () => members.lose());
    if (isGroup(ctx) && ctx.from !== undefined && ephemeralIdOf(ctx.message) !== undefined)
      answerEphemerally(ctx);
    return next();
  };
}

/** The ephemeral message a button of this update was pressed on. */
function pressedEphemeral(ctx: BotContext): EphemeralRef | undefined {
  const message = ctx.callbackQuery?.message;
  const id = ephemeralIdOf(message);
  if (id === undefined || ctx.chat === undefined || ctx.from === undefined) return undefined;
  return { chatId: ctx.chat.id, receiverId: ctx.from.id, ephemeralMessageId: id };
}

/** One update's messages for its sender. */
class UpdateMembers implements MemberMessages {
  readonly pressed: EphemeralRef | undefined;
  /** The callback's id goes with the first message that answers it; Telegram ties it to one. */
  private callbackAnswered = false;
  private gone = false;

  constructor(
    private readonly ctx: BotContext,
    private readonly support: EphemeralSupport,
  ) {
    this.pressed = ctx.callbackQuery === undefined ? undefined : pressedEphemeral(ctx);
  }

  get ephemeral(): boolean {
    return isGroup(this.ctx) && this.ctx.from !== undefined && !this.support.refused;
  }

  get pressedGone(): boolean {
    return this.gone;
  }

  lose(): void {
    this.gone = true;
  }

  async send<M extends Message>(
    send: (ephemeral: EphemeralExtra | undefined) => Promise<M>,
    options: MemberSendOptions = {},
  ): Promise<M> {
    const { ctx, pressed } = this;
    const from = ctx.from;
    if (!this.ephemeral || from === undefined) return send(undefined);
    const queryId = this.callbackAnswered ? undefined : ctx.callbackQuery?.id;
    const replaces =
      options.replaces === true && pressed !== undefined && !this.gone && queryId !== undefined;
    const extra = (withCallback: boolean): EphemeralExtra => ({
      ephemeral_message_parameters: {
        receiver_user_id: from.id,
        ...(withCallback && queryId !== undefined ? { callback_query_id: queryId } : {}),
        ...(withCallback && replaces ? { replace_callback_query_message: true } : {}),
      },
    });
    let sent: M;
    try {
      sent = await send(extra(true));
    } catch (error) {
      if (isEphemeralUnsupported(error)) {
        this.support.refuse(ctx, error);
        return send(undefined);
      }
      // The message to take the place of is gone (not kept by Telegram): a new one instead.
      if (!(queryId !== undefined && isMessageGone(error))) throw error;
      sent = await send(extra(false));
    }
    this.callbackAnswered = true;
    // A server that ignores the parameters sends an ordinary message: from now on, as before.
    if (sent.message_id !== 0 && ephemeralIdOf(sent) === undefined) this.support.refuse(ctx, undefined);
    return sent;
  }

  reply(
    text: string,
    extra?: Types.ExtraReplyMessage,
    options?: MemberSendOptions,
  ): Promise<Message.TextMessage> {
    return this.send((ephemeral) => this.ctx.reply(text, { ...extra, ...ephemeral }), options);
  }

  async dropKeyboard(ephemeralMessageId: number): Promise<void> {
    const chatId = this.ctx.chat?.id;
    const receiverId = this.ctx.from?.id;
    if (chatId === undefined || receiverId === undefined) return;
    await editEphemeralMarkup(this.ctx.telegram, { chatId, receiverId, ephemeralMessageId }, undefined).catch(
      () => undefined,
    );
  }
}

/**
 * A button pressed on an ephemeral message: the handlers' `ctx.editMessage…` and
 * `ctx.deleteMessage` of that message go to the ephemeral methods (its message_id is 0).
 */
function routeEditsOfPressed(ctx: BotContext, pressed: EphemeralRef, lose: () => void): void {
  // Telegram answering that the message is gone is remembered: nothing takes its place then.
  const noting = <T>(call: Promise<T>): Promise<T> =>
    call.catch((error: unknown) => {
      if (isMessageGone(error)) lose();
      throw error;
    });
  const editText: BotContext['editMessageText'] = async (text, extra) => {
    const plain = typeof text === 'string' ? text : text.text;
    const markup = extra?.reply_markup;
    const parseMode = extra?.parse_mode;
    return noting(
      editEphemeralText(ctx.telegram, pressed, plain, {
        ...(parseMode ? { parse_mode: parseMode } : {}),
        ...(markup ? { reply_markup: markup } : {}),
      }),
    );
  };
  const editMarkup: BotContext['editMessageReplyMarkup'] = (markup) =>
    noting(editEphemeralMarkup(ctx.telegram, pressed, markup));
  const original = ctx.deleteMessage.bind(ctx);
  const deleteMessage: BotContext['deleteMessage'] = (messageId) =>
    messageId === undefined ? noting(deleteEphemeral(ctx.telegram, pressed)) : original(messageId);
  ctx.editMessageText = editText;
  ctx.editMessageReplyMarkup = editMarkup;
  ctx.deleteMessage = deleteMessage;
}

/**
 * An incoming ephemeral message (a command registered `is_ephemeral`): only its sender and the
 * bot see it, and a reply to it must be ephemeral too. Every `ctx.reply` of the update goes to
 * the sender alone; none quotes the incoming message (its `message_id` is 0, and an ephemeral
 * reply is allowed only within 15 seconds).
 */
function answerEphemerally(ctx: BotContext): void {
  const reply = ctx.reply.bind(ctx);
  ctx.reply = (text, extra) => {
    const { reply_parameters: replyTo, ...rest } = extra ?? {};
    const quoted = replyTo !== undefined && replyTo.message_id !== 0 ? { reply_parameters: replyTo } : {};
    if ('ephemeral_message_parameters' in rest) return reply(text, { ...rest, ...quoted });
    return ctx.toMember.send((ephemeral) => reply(text, { ...rest, ...quoted, ...ephemeral }));
  };
}
