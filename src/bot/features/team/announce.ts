import { toUnicodeDomain } from '../../../core/domain-names.js';
import { escapeHtml } from '../../../core/format.js';
import type { BotContext } from '../../context.js';
import { refOfOrder } from '../dns/domain.js';

/** The changes a bound group is told about (`team:announce.<key>` in the locales). */
export type Announcement =
  | 'dnsAdded'
  | 'dnsDeleted'
  | 'dnsChanged'
  | 'zoneImported'
  | 'presetApplied'
  | 'bulkApplied'
  | 'nsSet'
  | 'nsDeleted'
  | 'dnsUndone'
  | 'keyCreated'
  | 'keyRotated'
  | 'keyRevoked'
  | 'orderCreated';

/**
 * Tells a group bound by `/team` that a change was made there, and by whom (first name and role).
 * Does nothing elsewhere: private chats and unbound groups have no `teamMember` (team-guard.ts).
 * Called once where each change succeeds; `params` are HTML-safe already, and an `orderId` among
 * them gives the text its `domain` (looked up only when there is a group to tell).
 */
export async function announce(
  ctx: BotContext,
  key: Announcement,
  params: Record<string, string | number> & { orderId?: number } = {},
): Promise<void> {
  const text = await renderAnnouncement(ctx, key, params);
  if (text === undefined) return;
  await ctx.reply(text, { parse_mode: 'HTML', link_preview_options: { is_disabled: true } });
}

/**
 * The announcement's text (HTML), for a change whose own reply is the announcement
 * (record-change-end.ts); undefined where there is no team to tell.
 */
export async function renderAnnouncement(
  ctx: BotContext,
  key: Announcement,
  params: Record<string, string | number> & { orderId?: number } = {},
): Promise<string | undefined> {
  const member = ctx.teamMember;
  if (member === undefined) return undefined;
  const { orderId } = params;
  // The change is made already: a failed look-up of its domain costs the name, never an error.
  const domain =
    orderId === undefined
      ? undefined
      : await refOfOrder(ctx, orderId).then(
          (ref) => ref.domain,
          () => undefined,
        );
  return ctx.t(`team:announce.${key}`, {
    ...params,
    ...(orderId === undefined
      ? {}
      : {
          domain:
            domain === undefined
              ? ctx.t('notify:domainOfOrder', { orderId })
              : escapeHtml(toUnicodeDomain(domain)),
        }),
    who: escapeHtml(member.name),
    role: ctx.t(`team:role.${member.role}`),
  });
}
