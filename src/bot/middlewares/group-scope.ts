import type { Logger } from '../../logger.js';
import type { ChatData } from '../../storage/chat-data.js';
import type { BotContext } from '../context.js';
import { refuseTokenInGroup } from '../features/onboarding/token-scene.js';

/** Commands that work in a group not bound by `/team`: they need no partner token. */
const GROUP_COMMANDS = new Set(['start', 'help', 'lang', 'cancel', 'token', 'logout', 'team']);

/** A lone word shaped like an API token (long, letters and digits, no spaces). */
const TOKEN_LIKE = /^(?=.*[A-Za-z])(?:(?=.*[a-z])(?=.*[A-Z])|(?=.*\d))[A-Za-z0-9_\-=+]{24,512}$/;

/** The command a message starts with, and the bot it names (`/cmd@bot`), if any. */
export function commandOf(ctx: BotContext): { name: string; addressee: string | undefined } | undefined {
  const message = ctx.message;
  if (!message || !('text' in message)) return undefined;
  const entity = message.entities?.[0];
  if (entity?.type !== 'bot_command' || entity.offset !== 0) return undefined;
  const [name = '', addressee] = message.text.slice(1, entity.length).split('@');
  return { name: name.toLowerCase(), addressee };
}

/**
 * Groups: the bot answers only commands addressed to it (`/cmd@bot`, or `/cmd` naming no bot)
 * and replies to its own messages; plain chatter gets nothing. In a group not bound by `/team`, a
 * command that needs a partner token is told plainly to go to the private chat, where tokens
 * live; in a bound group every command goes on to the role guard (team-guard.ts). A token pasted
 * in a group is deleted (when the bot may) and the partner told to revoke it.
 */
export function createGroupScope(deps: { logger: Logger; chatData: ChatData }) {
  return async (ctx: BotContext, next: () => Promise<void>) => {
    const chat = ctx.chat;
    if (chat === undefined || (chat.type !== 'group' && chat.type !== 'supergroup')) return next();
    // Buttons are the bot's own messages: they are answered as anywhere.
    if (ctx.callbackQuery) return next();
    const message = ctx.message;
    if (!message) return;
    const command = commandOf(ctx);
    if (command) {
      const me = ctx.botInfo?.username;
      if (command.addressee !== undefined && command.addressee.toLowerCase() !== me?.toLowerCase()) return;
      if (GROUP_COMMANDS.has(command.name)) return next();
      if ((await deps.chatData.getTeam(chat.id)) !== undefined) return next();
      // Where tokens live is the asker's business (ephemeral where the server allows).
      await ctx.toMember.send((ephemeral) =>
        ctx.reply(ctx.t('onboarding:groupPrivateOnly'), {
          ...(ephemeral ?? {
            reply_parameters: { message_id: message.message_id, allow_sending_without_reply: true },
          }),
        }),
      );
      return;
    }
    const text = 'text' in message ? message.text.trim() : '';
    if (TOKEN_LIKE.test(text)) {
      await refuseTokenInGroup(ctx as BotContext & { chat: typeof chat }, deps.logger);
      return;
    }
    // A reply to the bot's own message is meant for it (a question it asked); the rest is chatter.
    const repliedTo = 'reply_to_message' in message ? message.reply_to_message : undefined;
    if (repliedTo?.from?.id !== undefined && repliedTo.from.id === ctx.botInfo?.id) return next();
    // A reply to the bot's ephemeral question may come without `reply_to_message` (the Bot API
    // leaves it out): it goes on, and only a member with a form or question open here gets it
    // taken (forms/member-scenes.ts drops it for anyone else).
    if (repliedTo === undefined && ('text' in message || 'document' in message)) return next();
  };
}

/**
 * Whether a group message is addressed to the bot for sure: a command, or a reply to its message.
 * A message that is neither reached the bot as a possible answer to its ephemeral question.
 */
export function isAddressedToBot(ctx: BotContext): boolean {
  const message = ctx.message;
  if (message === undefined || commandOf(ctx) !== undefined) return true;
  const repliedTo = 'reply_to_message' in message ? message.reply_to_message : undefined;
  return repliedTo !== undefined;
}
