import type { Telegram } from 'telegraf';
import { escapeHtml } from '../../../core/format.js';
import { PRODUCT_KINDS, type ProductKind, productKindOf } from '../../../core/product-kinds.js';
import { can, type Role } from '../../../core/team.js';
import type { Logger } from '../../../logger.js';
import { errorForLog } from '../../../logger.js';
import type { ChatData } from '../../../storage/chat-data.js';
import type { Locale } from '../../../storage/chat-store.js';
import type { BotContext } from '../../context.js';
import type { GroupRef, PlacedOrder, TeamOrderPort } from '../../forms/ports.js';
import type { Translations } from '../../kit/i18n.js';
import { linkKeyboard } from '../../kit/keyboards.js';
import { announce } from './announce.js';

/*
 * Ordering for a team group (docs/team-chats.md). Customers' requisites are personal
 * data: in a group everyone would read the form's summary and the saved customers, so an order
 * asked for in a bound group is filled in the member's private chat with the bot, with the group's
 * token and the group's saved customers, by an owner or admin only. The group is told that an
 * order was placed, by whom, with its invoice link.
 *
 * The hand-over is a deep link (`t.me/<bot>?start=<payload>`): it opens the private chat even for
 * a member who never wrote to the bot, and its payload says which group and what to order. The
 * payload grants nothing by itself: the member's seat in the group is checked when it arrives
 * and on every update of the form after.
 */

/** What a member asked for in the group: an order (of a kind, for a domain) or the saved customers. */
export interface TeamStart {
  /** The group's chat id. */
  chat: number;
  /** The forum topic it was asked in. */
  thread?: number | undefined;
  what: ProductKind | 'requisites';
  /** An ASCII domain name the order is for (left out when the link would be too long). */
  domain?: string | undefined;
}

/** A member who may order for the group right now. */
export interface TeamSeat {
  chat: number;
  thread?: number | undefined;
  name: string;
  role: Role;
}

const WHAT_WORDS = [...PRODUCT_KINDS, 'requisites'] as const;
/** Telegram's limit for a start parameter: 64 characters of A–Z, a–z, 0–9, `_` and `-`. */
const START_LIMIT = 64;
const START = /^g(\d{1,16})(?:t(\d{1,10}))?_([a-z]{1,10})(?:_([a-z0-9_-]{1,63}))?$/;

/** The start parameter of a hand-over. Domain labels hold no `_`, so a dot travels as one. */
export function teamStartPayload(start: TeamStart): string {
  const head = `g${Math.abs(start.chat)}${start.thread === undefined ? '' : `t${start.thread}`}_${start.what}`;
  const withDomain = start.domain === undefined ? head : `${head}_${start.domain.replaceAll('.', '_')}`;
  return withDomain.length <= START_LIMIT && /^[A-Za-z0-9_-]+$/.test(withDomain) ? withDomain : head;
}

/** The hand-over a start parameter names, or undefined when it is none. Groups' ids are negative. */
export function parseTeamStart(payload: string): TeamStart | undefined {
  const match = START.exec(payload);
  if (!match) return undefined;
  const [, chat = '', thread, what = '', domain] = match;
  const known = WHAT_WORDS.find((word) => word === what);
  if (known === undefined) return undefined;
  return {
    chat: -Number(chat),
    thread: thread === undefined ? undefined : Number(thread),
    what: known,
    domain: domain?.replaceAll('_', '.'),
  };
}

const isGroup = (chat: BotContext['chat']) => chat?.type === 'group' || chat?.type === 'supergroup';

export class TeamOrders implements TeamOrderPort {
  constructor(
    private readonly deps: {
      chatData: ChatData;
      translations: Translations;
      defaultLocale: Locale;
      logger: Logger;
    },
  ) {}

  /**
   * In a group bound by `/team`: says that the order (or the saved customers) is for the private
   * chat, with the button that opens it there, and returns true. Anywhere else returns false.
   */
  async redirect(ctx: BotContext, what: TeamStart['what'], domain?: string): Promise<boolean> {
    const chat = ctx.chat;
    if (chat === undefined || !isGroup(chat) || ctx.teamMember === undefined) return false;
    const message = ctx.callbackQuery?.message ?? ctx.message;
    const thread = message && 'message_thread_id' in message ? message.message_thread_id : undefined;
    const payload = teamStartPayload({ chat: chat.id, thread, what, domain });
    const url = `https://t.me/${ctx.botInfo.username}?start=${payload}`;
    if (ctx.callbackQuery) await ctx.answerCbQuery().catch(() => undefined);
    // The way to the private chat is the member's alone (ephemeral where the server allows).
    const quoted = ctx.message ? { reply_parameters: { message_id: ctx.message.message_id } } : {};
    await ctx.toMember.send((ephemeral) =>
      ctx.reply(ctx.t(what === 'requisites' ? 'team:requisitesPrivate' : 'team:orderPrivate'), {
        ...(ephemeral ?? quoted),
        ...linkKeyboard(ctx.t(what === 'requisites' ? 'team:openRequisites' : 'team:openOrder'), url),
      }),
    );
    return true;
  }

  /** The member's seat in the group when they may order for it now (owner or admin of a bound group). */
  async seat(userId: number, chat: number, thread?: number): Promise<TeamSeat | undefined> {
    const team = await this.deps.chatData.getTeam(chat);
    if (team === undefined || (await this.deps.chatData.getToken(chat)) === undefined) return undefined;
    const id = String(userId);
    const role: Role | undefined = userId === team.owner ? 'owner' : team.members[id];
    if (role === undefined || !can(role, 'all')) return undefined;
    return { chat, thread, name: team.names[id] ?? '', role };
  }

  async mayOrderFor(ctx: BotContext, group: GroupRef): Promise<boolean> {
    return ctx.from !== undefined && (await this.seat(ctx.from.id, group.chat, group.thread)) !== undefined;
  }

  async announceGroupOrder(
    ctx: BotContext,
    group: GroupRef,
    order: PlacedOrder,
    invoice: { url: string | undefined; invoiceId: number | undefined },
  ): Promise<boolean> {
    const seat = ctx.from === undefined ? undefined : await this.seat(ctx.from.id, group.chat, group.thread);
    if (seat === undefined) return false;
    const { url, invoiceId } = invoice;
    const told = await this.announceOrder(ctx.telegram, seat, order, url || undefined);
    // The group's message carries the link: it is the one marked paid (the group's token is
    // watched for the group, not for the member's private chat).
    if (url && invoiceId !== undefined && told !== undefined) {
      await this.deps.chatData.rememberInvoiceLink(seat.chat, invoiceId, told);
    }
    return true;
  }

  async announceInChat(ctx: BotContext, order: PlacedOrder): Promise<void> {
    await announce(ctx, 'orderCreated', {
      kind: ctx.t(`order:kind.${order.kind}`),
      subject: order.subject,
      order: order.order,
    });
  }

  /**
   * Tells the group that `seat`'s member placed an order, in the group's language and topic, with
   * the invoice's link when there is one. Returns the message id (the link message is marked paid
   * later), or undefined when the group could not be told (the order stands; it is logged).
   */
  async announceOrder(
    telegram: Telegram,
    seat: TeamSeat,
    order: PlacedOrder,
    url: string | undefined,
  ): Promise<number | undefined> {
    const locale =
      (await this.deps.chatData.getLocale(seat.chat).catch(() => undefined)) ?? this.deps.defaultLocale;
    const t = this.deps.translations.forLocale(locale);
    const kind = productKindOf(String(order.kind));
    const text = t('team:announce.orderCreated', {
      who: escapeHtml(seat.name),
      role: t(`team:role.${seat.role}`),
      kind: kind === undefined ? order.kind : t(`order:kind.${kind}`),
      subject: order.subject,
      order: order.order,
    });
    try {
      const sent = await telegram.sendMessage(seat.chat, text, {
        parse_mode: 'HTML',
        link_preview_options: { is_disabled: true },
        ...(seat.thread === undefined ? {} : { message_thread_id: seat.thread }),
        ...(url ? linkKeyboard(t('order:invoiceButton'), url, [], t('common:copyLink')) : {}),
      });
      return sent.message_id;
    } catch (error) {
      this.deps.logger.warn({ chatId: seat.chat, err: errorForLog(error) }, 'team order announcement failed');
      return undefined;
    }
  }
}
