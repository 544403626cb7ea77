import type { BotContext, SceneState } from '../context.js';

import { isAddressedToBot } from '../middlewares/group-scope.js';
import { ACTIONS, decodeCallback } from '../registry.js';

const isGroup = (chat: BotContext['chat']) => chat?.type === 'group' || chat?.type === 'supergroup';

/**
 * Forms are per member in groups. telegraf's stage keeps the open scene in `session.__scenes`,
 * one per session, and the session is the chat's; in a group that made a form the group's, so
 * whoever answered fed it. Here, for the update's sender, `__scenes` becomes a view of their own
 * entry in `session.memberScenes` (keyed by user id): the stage enters, reads and leaves that
 * member's form only, and another member's message goes past it (to their own form, or to the
 * commands). The rest of the session (an import plan, name servers awaiting Yes) stays the
 * group's, so any member the role guard lets through may press those buttons.
 *
 * The view is not enumerable, so the session as stored holds `memberScenes` and no `__scenes`;
 * a finished form (telegraf leaves `{}` behind) is removed at the end of the update.
 */
export function createMemberScenes() {
  return async (ctx: BotContext, next: () => Promise<void>) => {
    const from = ctx.from;
    if (!isGroup(ctx.chat) || from === undefined) return next();
    const session = ctx.session;
    const key = String(from.id);
    const members: Record<string, SceneState> = { ...session.memberScenes };
    session.memberScenes = members;
    Object.defineProperty(session, '__scenes', {
      configurable: true,
      enumerable: false,
      get: () => members[key],
      set: (value: SceneState | undefined) => {
        if (value === undefined) delete members[key];
        else members[key] = value;
      },
    });
    try {
      // A message that is no command and no reply: under privacy mode, a reply to the member's
      // ephemeral question (Telegram may leave `reply_to_message` out). Taken only by an open form
      // or question of the sender's; anything else is chatter the bot does not answer.
      if (!isAddressedToBot(ctx) && members[key]?.current === undefined) return;
      // A button of another member's form: theirs alone. Told so in an alert, and the form's
      // message keeps its buttons (the engine would take them away as stale).
      if (members[key] === undefined && pressesFormButton(ctx) && othersWithForms(ctx).length > 0) {
        await ctx.answerCbQuery(ctx.t('team:formButtonOfAnother'), { show_alert: true });
        return;
      }
      await next();
    } finally {
      if (members[key]?.current === undefined) delete members[key];
      if (Object.keys(members).length === 0) session.memberScenes = undefined;
    }
  };
}

/** Whether the update presses a button of the order engine's screens (every guided form's). */
function pressesFormButton(ctx: BotContext): boolean {
  const query = ctx.callbackQuery;
  const decoded = decodeCallback(query && 'data' in query ? query.data : undefined);
  return decoded !== undefined && ACTIONS[decoded.action].need === 'openForm';
}

/** The user ids of the members other than the update's sender who have a form open here. */
export function othersWithForms(ctx: BotContext): string[] {
  const key = String(ctx.from?.id);
  return Object.entries(ctx.session?.memberScenes ?? {})
    .filter(([member, scenes]) => member !== key && scenes.current !== undefined)
    .map(([member]) => member);
}

/**
 * Who fills the form this update may answer: the chat in a private chat, the chat and the
 * member in a group (what the order engine keys its in-flight Confirm by).
 */
export function formOwnerKey(ctx: BotContext): string {
  const chatId = ctx.chat?.id ?? 0;
  return isGroup(ctx.chat) ? `${chatId}:${ctx.from?.id ?? 0}` : String(chatId);
}
