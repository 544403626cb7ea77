import { Composer, Markup } from 'telegraf';
import { message } from 'telegraf/filters';
import { escapeHtml } from '../../../core/format.js';
import { isRole, parseRoleWord, ROLE_LIST, ROLES, type Role } from '../../../core/team.js';
import { errorForLog, type Logger } from '../../../logger.js';
import type { TeamRecord } from '../../../storage/chat-data.js';
import type { BotContext } from '../../context.js';
import { commandWords } from '../../kit/arguments.js';
import { accountLabel } from '../../middlewares/account.js';
import { CallbackSet, encodeCallback, type Feature } from '../../registry.js';
import { bindGroup, type TeamBindingDeps, unbindGroup } from './binding.js';
import { memberName, ownerName, renderRefusal, renderTeam, teamMembers } from './views.js';

const isGroup = (ctx: BotContext) => ctx.chat?.type === 'group' || ctx.chat?.type === 'supergroup';

/** The id of the "choose a group" request (one kind of request: the team's group). */
const TEAM_GROUP_REQUEST = 1;

/** Any administrator will do: the picker lists the groups the partner administers, no right more. */
const NO_EXTRA_RIGHTS = {
  is_anonymous: false,
  can_manage_chat: false,
  can_delete_messages: false,
  can_manage_video_chats: false,
  can_restrict_members: false,
  can_promote_members: false,
  can_change_info: false,
  can_invite_users: false,
  can_post_stories: false,
  can_edit_stories: false,
  can_delete_stories: false,
};

/**
 * `/team` in a group: binds it to the sender's token (from their private chat), shows the team,
 * changes a member's role (a reply `/team tech`, or the screen's buttons), `/team off` unbinds.
 * Who may do what elsewhere in the group is the role guard's (team-guard.ts).
 */
export function createTeamFeature(deps: TeamBindingDeps & { logger: Logger }): Feature {
  const { chatData } = deps;
  const composer = new Composer<BotContext>();
  const callbacks = new CallbackSet();

  /** The token of the partner's active account (the one a group is bound with), from their private chat. */
  const activeToken = async (userId: number) =>
    (await chatData.listAccounts(userId)).find((account) => account.active)?.token;

  /** Which of the owner's accounts the group works with (their label for it), as a line; '' if unknown. */
  const accountLine = async (ctx: BotContext, team: TeamRecord): Promise<string> => {
    const groupId = ctx.chat?.id;
    const token = groupId === undefined ? undefined : await chatData.getToken(groupId);
    const account = token === undefined ? undefined : await chatData.findAccountByToken(team.owner, token);
    return account === undefined
      ? ''
      : `${ctx.t('accounts:teamAccount', { label: escapeHtml(accountLabel(ctx.t, account)) })}\n`;
  };

  // A member's button opens the list of roles: one tap gives any role, and one change is one
  // announcement (stepping through the roles announced every step).
  const screen = async (ctx: BotContext, team: TeamRecord) => {
    const rows = teamMembers(team)
      .filter(({ role }) => role !== 'owner')
      .map(({ userId, role }) => {
        const label = ctx.t('team:memberButton', {
          name: team.names[String(userId)] ?? String(userId),
          role: ctx.t(`team:role.${role}`),
        });
        return [Markup.button.callback(label, encodeCallback('teamMember', userId))];
      });
    return {
      text: `${await accountLine(ctx, team)}${renderTeam(ctx.t, team, true)}`,
      extra: { parse_mode: 'HTML' as const, ...Markup.inlineKeyboard(rows) },
    };
  };

  /** The roles the owner may give a member, theirs marked, most trusted first. */
  const roleChoice = (ctx: BotContext, team: TeamRecord, userId: number, current: Role) => {
    const rows = ROLE_LIST.filter((role) => ROLES[role].assignable).map((role) => {
      const name = ctx.t(`team:role.${role}`);
      const label = role === current ? ctx.t('team:roleCurrent', { role: name }) : name;
      return [Markup.button.callback(label, encodeCallback('teamRole', userId, role))];
    });
    rows.push([Markup.button.callback(ctx.t('team:roleBack'), encodeCallback('teamScreen'))]);
    return {
      text: ctx.t('team:roleChoice', {
        member: memberName(team, userId),
        role: ctx.t(`team:role.${current}`),
      }),
      extra: { parse_mode: 'HTML' as const, ...Markup.inlineKeyboard(rows) },
    };
  };

  /** Gives a member a role and tells the group who changed whose role to what. */
  const changeRole = async (
    ctx: BotContext,
    chatId: number,
    team: TeamRecord,
    member: { id: number; first_name?: string | undefined },
    role: Role,
  ): Promise<TeamRecord> => {
    const id = String(member.id);
    const changed: TeamRecord = {
      ...team,
      members: { ...team.members, [id]: role },
      names: member.first_name === undefined ? team.names : { ...team.names, [id]: member.first_name },
    };
    await chatData.setTeam(chatId, changed);
    await ctx.reply(
      ctx.t('team:roleChanged', {
        by: memberName(changed, team.owner),
        member: memberName(changed, member.id),
        role: ctx.t(`team:role.${role}`),
      }),
      { parse_mode: 'HTML' },
    );
    return changed;
  };

  composer.command('team', async (ctx) => {
    if (ctx.chat.type === 'private') {
      // From the private chat: Telegram's own picker of the groups the partner administers.
      const active = (await chatData.listAccounts(ctx.from.id)).find((account) => account.active);
      if (active === undefined) {
        await ctx.reply(ctx.t('team:connectFirstPrivate'));
        return;
      }
      // With several accounts, which one the group gets: the active one.
      const which = ctx.account?.many
        ? `\n\n${ctx.t('accounts:pickGroupAccount', { label: escapeHtml(accountLabel(ctx.t, active)) })}`
        : '';
      await ctx.reply(`${ctx.t('team:pickGroup')}${which}`, {
        // The account's name is bold.
        parse_mode: 'HTML',
        ...Markup.keyboard([
          [
            Markup.button.groupRequest(ctx.t('team:pickGroupButton'), TEAM_GROUP_REQUEST, {
              user_administrator_rights: NO_EXTRA_RIGHTS,
            }),
          ],
        ])
          .oneTime()
          .resize(),
      });
      return;
    }
    if (!isGroup(ctx)) {
      await ctx.reply(ctx.t('team:groupOnly'));
      return;
    }
    const word = commandWords(ctx.payload)[0]?.toLowerCase();
    const team = await chatData.getTeam(ctx.chat.id);
    if (team === undefined) {
      if (word === 'off') {
        await ctx.toMember.reply(ctx.t('team:notBound'));
        return;
      }
      // The sender's private chat (its id is the user's) holds the token to bind with: its active account's.
      const token = await activeToken(ctx.from.id);
      if (token === undefined) {
        // How to connect a token is the asker's business (ephemeral where the server allows).
        await ctx.toMember.reply(ctx.t('team:connectFirst', { bot: ctx.botInfo.username }));
        return;
      }
      const bound = await bindGroup(deps, ctx.chat.id, ctx.from, token);
      const { text, extra } = await screen(ctx, bound);
      await ctx.reply(`${ctx.t('team:bound', { owner: memberName(bound, bound.owner) })}\n\n${text}`, extra);
      return;
    }
    if (ctx.from.id !== team.owner) {
      const role = team.members[String(ctx.from.id)] ?? 'viewer';
      if (word === undefined) {
        // A partner of their own is told the group is taken; a member without a token, whose.
        const partner = (await chatData.accountNumbers(ctx.from.id)).length > 0;
        const said = ctx.t(partner ? 'team:boundByAnother' : 'team:boundByOwner', {
          owner: memberName(team, team.owner),
          role: ctx.t(`team:role.${role}`),
        });
        await ctx.toMember.reply(`${await accountLine(ctx, team)}${said}`, { parse_mode: 'HTML' });
      } else {
        await ctx.toMember.reply(renderRefusal(ctx.t, 'command', 'roles', role, ownerName(team)));
      }
      return;
    }
    if (word === undefined) {
      const { text, extra } = await screen(ctx, team);
      await ctx.reply(text, extra);
      return;
    }
    if (word === 'off') {
      await unbindGroup(deps, ctx.chat.id);
      await ctx.reply(ctx.t('team:unbound'));
      return;
    }
    const role = parseRoleWord(word);
    if (role === undefined) {
      await ctx.toMember.reply(ctx.t('team:unknownRole', { word: escapeHtml(word) }), { parse_mode: 'HTML' });
      return;
    }
    const repliedTo = ctx.message.reply_to_message?.from;
    if (repliedTo === undefined || repliedTo.is_bot) {
      await ctx.toMember.reply(ctx.t('team:replyToMember'));
      return;
    }
    if (repliedTo.id === team.owner) {
      await ctx.toMember.reply(ctx.t('team:ownerFixed'));
      return;
    }
    await changeRole(ctx, ctx.chat.id, team, repliedTo, role);
  });

  // The group chosen in the picker: bound as /team in the group binds it, and the group is told.
  composer.on(message('chat_shared'), async (ctx, next) => {
    const shared = ctx.message.chat_shared;
    if (ctx.chat.type !== 'private' || shared.request_id !== TEAM_GROUP_REQUEST) return next();
    const groupId = shared.chat_id;
    const removeKeyboard = Markup.removeKeyboard();
    // The active account's token, whatever form is open in this chat.
    const token = await activeToken(ctx.from.id);
    if (token === undefined) {
      await ctx.reply(ctx.t('team:connectFirstPrivate'), removeKeyboard);
      return;
    }
    const team = await chatData.getTeam(groupId);
    if (team !== undefined && team.owner !== ctx.from.id) {
      await ctx.reply(ctx.t('team:pickedBoundByAnother', { owner: memberName(team, team.owner) }), {
        parse_mode: 'HTML',
        ...removeKeyboard,
      });
      return;
    }
    const bound = team ?? (await bindGroup(deps, groupId, ctx.from, token));
    const groupToken = await chatData.getToken(groupId);
    const account =
      groupToken === undefined ? undefined : await chatData.findAccountByToken(ctx.from.id, groupToken);
    const which =
      account === undefined
        ? ''
        : `\n${ctx.t('accounts:teamAccount', { label: escapeHtml(accountLabel(ctx.t, account)) })}`;
    const told = await ctx.telegram
      .sendMessage(
        groupId,
        `${ctx.t('team:bound', { owner: memberName(bound, bound.owner) })}${which}\n\n${renderTeam(ctx.t, bound, true)}`,
        {
          parse_mode: 'HTML',
        },
      )
      .then(
        () => true,
        (error: unknown) => {
          deps.logger.info(
            { err: errorForLog(error) },
            'a group bound from the private chat could not be told',
          );
          return false;
        },
      );
    await ctx.reply(
      ctx.t(told ? 'team:pickedBound' : 'team:pickedBoundAddBot', { bot: ctx.botInfo.username }),
      removeKeyboard,
    );
  });

  /** The group's team, or undefined (and the screen's buttons gone, and said why) once unbound. */
  const boundTeam = async (ctx: BotContext) => {
    const chat = ctx.chat;
    if (chat === undefined) return undefined;
    const team = await chatData.getTeam(chat.id);
    if (team !== undefined) return { chatId: chat.id, team };
    await ctx.editMessageReplyMarkup(undefined).catch(() => undefined);
    await ctx.reply(ctx.t('team:notBound'));
    return undefined;
  };

  const redraw = async (ctx: BotContext, shown: { text: string; extra: object }): Promise<void> => {
    await ctx.editMessageText(shown.text, shown.extra).catch(() => undefined);
  };

  // Only the owner gets here: the role guard refuses everyone else ('roles').
  callbacks.on('teamScreen', async (ctx) => {
    const bound = await boundTeam(ctx);
    if (bound !== undefined) await redraw(ctx, await screen(ctx, bound.team));
  });

  callbacks.on('teamMember', async (ctx, userId) => {
    const bound = await boundTeam(ctx);
    if (bound === undefined) return;
    const current = bound.team.members[String(userId)];
    if (current === undefined || current === 'owner') return redraw(ctx, await screen(ctx, bound.team));
    await redraw(ctx, roleChoice(ctx, bound.team, userId, current));
  });

  callbacks.on('teamRole', async (ctx, userId, word) => {
    const bound = await boundTeam(ctx);
    if (bound === undefined) return;
    const { chatId, team } = bound;
    if (!isRole(word) || !ROLES[word].assignable || userId === team.owner) return;
    // The role they have already: nothing to change, nothing to announce.
    const changed =
      team.members[String(userId)] === word
        ? team
        : await changeRole(ctx, chatId, team, { id: userId }, word);
    await redraw(ctx, await screen(ctx, changed));
  });

  return { name: 'team', composer, callbacks: callbacks.registrations, scenes: [] };
}
