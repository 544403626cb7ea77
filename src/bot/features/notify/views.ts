import { escapeHtml, formatMoney } from '../../../core/format.js';
import { daysUntil } from '../../../core/minsk-time.js';
import {
  NOTIFICATION_KIND_LIST,
  type NotificationEvent,
  type NotificationKind,
  type OrderRef,
} from '../../../core/notify.js';
import type { Locale, NotifySettings } from '../../../storage/chat-store.js';
import type { Translate } from '../../kit/i18n.js';
import type { CurrencyCodes } from '../billing/views.js';

/** What a rendering knows beyond the event: when it is read, and domains the chat's orders were made for. */
export interface RenderContext {
  readonly now: Date;
  /** Domains the bot remembers for orders it created (hosting, SSL): order id → domain. */
  readonly knownDomains: ReadonlyMap<number, string>;
}

/** One event in the chat's language (HTML, escaped). Relative days are as of `context.now`. */
export function renderNotification(
  t: Translate,
  locale: Locale,
  codes: CurrencyCodes,
  event: NotificationEvent,
  context: RenderContext,
): string {
  const money = (amount: number, currencyId: number | undefined) =>
    formatMoney(amount, currencyId === undefined ? undefined : codes.get(currencyId), locale);
  const domainOf = (order: OrderRef | undefined) =>
    order === undefined ? undefined : (order.domain ?? context.knownDomains.get(order.id));
  /** " (shop.by)", or " (заказ ЗК-…)" when the order has no domain, or nothing. */
  const about = (order: OrderRef | undefined, withNumber: boolean) => {
    const domain = domainOf(order);
    if (domain) return t('notify:about', { what: escapeHtml(domain) });
    if (withNumber && order?.number)
      return t('notify:about', { what: t('notify:aboutOrder', { number: escapeHtml(order.number) }) });
    return '';
  };
  switch (event.kind) {
    case 'paymentArrived':
      return event.invoiceNumber === undefined
        ? t('notify:paymentArrivedNoNumber', {
            amount: money(event.amount, event.currencyId),
            date: escapeHtml(event.paymentDate),
            invoiceId: event.invoiceId,
          })
        : t('notify:paymentArrived', {
            number: escapeHtml(event.invoiceNumber),
            about: about(event.order, true),
            amount: money(event.amount, event.currencyId),
            date: escapeHtml(event.paymentDate),
          });
    case 'newInvoice':
      return t('notify:newInvoice', {
        number: escapeHtml(event.invoiceNumber),
        amount: money(event.amount, event.currencyId),
        about: about(event.order, true),
        due: escapeHtml(event.expirationDate),
      });
    case 'invoiceExpiresTomorrow':
    case 'invoiceExpired': {
      const days = daysUntil(event.expirationDate, context.now) ?? 1;
      const key =
        days >= 1
          ? 'notify:invoiceExpiresTomorrow'
          : days === 0
            ? 'notify:invoiceExpiresToday'
            : 'notify:invoiceExpired';
      return t(key, {
        number: escapeHtml(event.invoiceNumber),
        amount: money(event.amount, event.currencyId),
        about: about(event.order, true),
        due: escapeHtml(event.expirationDate),
      });
    }
    case 'orderCompleted': {
      const params = {
        number: escapeHtml(event.orderNumber),
        about: about({ id: event.orderId, number: event.orderNumber, domain: event.domain }, false),
      };
      return event.completeDate
        ? t('notify:orderCompletedOn', { ...params, date: escapeHtml(event.completeDate) })
        : t('notify:orderCompleted', params);
    }
    case 'domainExpires': {
      const domain = event.domain
        ? `<b>${escapeHtml(event.domain)}</b>`
        : t('notify:domainOfOrder', { orderId: event.orderId });
      const date = escapeHtml(event.expirationDate);
      const days = daysUntil(event.expirationDate, context.now) ?? event.daysLeft;
      if (days < 0) return t('notify:domainExpired', { domain, date });
      return days === 0
        ? t('notify:domainExpiresToday', { domain, date })
        : t('notify:domainExpires', { domain, date, count: days });
    }
  }
}

/** More than a few events at once: one message, a line each. */
export function renderDigest(
  t: Translate,
  locale: Locale,
  codes: CurrencyCodes,
  events: readonly NotificationEvent[],
  context: RenderContext,
): string {
  const lines = events.map((event) => `• ${renderNotification(t, locale, codes, event, context)}`);
  return [t('notify:digestTitle', { count: events.length }), ...lines].join('\n');
}

/** The invoice an event is about, when it has a link worth a button (new and expiring invoices). */
export function invoiceOf(event: NotificationEvent): { id: number; number: string; due: string } | undefined {
  if (event.kind === 'newInvoice' || event.kind === 'invoiceExpiresTomorrow') {
    return { id: event.invoiceId, number: event.invoiceNumber, due: event.expirationDate };
  }
  return undefined;
}

/** A link message after its invoice was paid. */
export function renderPaidLink(t: Translate, number: string, url: string, date: string): string {
  return t('notify:paidLink', { number: escapeHtml(number), url: escapeHtml(url), date: escapeHtml(date) });
}

/**
 * The `/notify` screen: what is on, and the quiet hours. `account`: the account's name in a chat
 * of several (each has settings of its own), said under the title.
 */
export function renderNotifySettings(
  t: Translate,
  settings: NotifySettings,
  status: 'watching' | 'noToken' | 'rejected' | 'disabled',
  account?: string,
): string {
  const quiet = settings.quiet
    ? t('notify:quietSet', { from: settings.quiet.from, to: settings.quiet.to })
    : t('notify:quietNone');
  const note = {
    watching: undefined,
    noToken: t('notify:settingsNoToken'),
    rejected: t('notify:settingsRejected'),
    disabled: t('notify:settingsOff'),
  }[status];
  const whose =
    account === undefined ? [] : [t('notify:settingsOfAccount', { account: escapeHtml(account) })];
  return [t('notify:settingsTitle'), ...whose, quiet, ...(note ? [note] : [])].join('\n\n');
}

/** The kinds in the order the settings list them, with whether each is on. */
export function kindSwitches(settings: NotifySettings): { kind: NotificationKind; on: boolean }[] {
  const off = new Set(settings.off ?? []);
  return NOTIFICATION_KIND_LIST.map((kind) => ({ kind, on: !off.has(kind) }));
}
