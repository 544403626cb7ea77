import { escapeHtml, formatMoney } from '../../core/format.js';
import { NOTIFICATION_KIND_LIST, type NotificationEvent, type NotificationKind } from '../../core/notify.js';
import type { Locale, NotifySettings } from '../../storage/chat-store.js';
import type { Translate } from '../i18n.js';
import type { CurrencyCodes } from './billing.js';

/** One event in the chat's language (HTML, escaped). */
export function renderNotification(
  t: Translate,
  locale: Locale,
  codes: CurrencyCodes,
  event: NotificationEvent,
): string {
  const money = (amount: number, currencyId: number | undefined) =>
    formatMoney(amount, currencyId === undefined ? undefined : codes.get(currencyId), locale);
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
            amount: money(event.amount, event.currencyId),
            date: escapeHtml(event.paymentDate),
          });
    case 'newInvoice':
      return t('notify:newInvoice', {
        number: escapeHtml(event.invoiceNumber),
        amount: money(event.amount, event.currencyId),
        orderId: event.orderId,
        due: escapeHtml(event.expirationDate),
      });
    case 'invoiceExpiresTomorrow':
      return t('notify:invoiceExpiresTomorrow', {
        number: escapeHtml(event.invoiceNumber),
        amount: money(event.amount, event.currencyId),
        due: escapeHtml(event.expirationDate),
      });
    case 'orderCompleted':
      return event.completeDate
        ? t('notify:orderCompletedOn', {
            number: escapeHtml(event.orderNumber),
            date: escapeHtml(event.completeDate),
          })
        : t('notify:orderCompleted', { number: escapeHtml(event.orderNumber) });
    case 'domainExpires': {
      const domain = event.domain
        ? `<b>${escapeHtml(event.domain)}</b>`
        : t('notify:domainOfOrder', { orderId: event.orderId });
      const date = escapeHtml(event.expirationDate);
      return event.daysLeft === 0
        ? t('notify:domainExpiresToday', { domain, date })
        : t('notify:domainExpires', { domain, date, count: event.daysLeft });
    }
  }
}

/** More than a few events at once: one message, a line each. */
export function renderDigest(
  t: Translate,
  locale: Locale,
  codes: CurrencyCodes,
  events: readonly NotificationEvent[],
): string {
  const lines = events.map((event) => `• ${renderNotification(t, locale, codes, event)}`);
  return [t('notify:digestTitle', { count: events.length }), ...lines].join('\n');
}

/** The invoice an event is about, when it has a link worth a button (new and expiring invoices). */
export function invoiceOf(event: NotificationEvent): { id: number; number: string } | undefined {
  if (event.kind === 'newInvoice' || event.kind === 'invoiceExpiresTomorrow') {
    return { id: event.invoiceId, number: event.invoiceNumber };
  }
  return undefined;
}

/** A link message after its invoice was paid. */
export function renderPaidLink(t: Translate, number: string, url: string, date: string): string {
  return t('notify:paidLink', { number: escapeHtml(number), url: escapeHtml(url), date: escapeHtml(date) });
}

/** The `/notify` screen: what is on, and the quiet hours. */
export function renderNotifySettings(
  t: Translate,
  settings: NotifySettings,
  status: 'watching' | 'noToken' | 'rejected' | 'disabled',
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
  return [t('notify:settingsTitle'), quiet, ...(note ? [note] : [])].join('\n\n');
}

/** The kinds in the order the settings list them, with whether each is on. */
export function kindSwitches(settings: NotifySettings): { kind: NotificationKind; on: boolean }[] {
  const off = new Set(settings.off ?? []);
  return NOTIFICATION_KIND_LIST.map((kind) => ({ kind, on: !off.has(kind) }));
}
