/*
 * The home's three blocks, each one provider list at most (the rest from the client's per-token
 * caches: currencies, the domain order index): what is owed now (the invoice list), the domains
 * whose registration ends soon (the domain order list), the latest DNS changes (the history every
 * face records; the index names their domains).
 */
import { pairChanges } from '../core/dns-change.js';
import type { HistoryChange, HistoryEntry, NameServerEntry } from '../core/dns-history.js';
import { toUnicodeDomain } from '../core/domain-names.js';
import { formatInstant } from '../core/format.js';
import { invoiceStatus, isOwed, searchInvoices } from '../core/invoice-search.js';
import { daysUntil } from '../core/minsk-time.js';
import type { AnswerOf, ExpiringDomain } from './contract.js';
import { describeEditLine } from './edit-words.js';
import type { CallOf, EndpointCall } from './endpoint-types.js';
import { currencyCodesOf, invoiceEntryOf, isoDay, moneyOf } from './money-words.js';

/** How many entries a block lists. */
const HOME_LIMIT = 5;
/** Domains ending within this many days are listed. */
const EXPIRY_WINDOW_DAYS = 30;

/**
 * The invoices still owed (waiting for payment, the overdue marked as such), newest first, at
 * most five, and a total per currency over all of them. The home lists no payments (an unpaid invoice's are in «Счета»).
 */
export async function owedOf(call: CallOf<'home/owed'>): Promise<AnswerOf<'home/owed'>> {
  const [invoices, codes, index] = await Promise.all([
    call.api.listInvoices(),
    currencyCodesOf(call),
    call.api.domainOrderIndex(),
  ]);
  const now = call.clock();
  const unpaid = searchInvoices(
    invoices.filter((invoice) => isOwed(invoiceStatus(invoice, now))),
    () => undefined,
    '',
  );
  const totals = new Map<number, { amount: number; count: number }>();
  for (const invoice of unpaid) {
    const total = totals.get(invoice.currency_id) ?? { amount: 0, count: 0 };
    // Cents: a sum of decimals in floating point drifts (0.1 + 0.2).
    totals.set(invoice.currency_id, {
      amount: Math.round((total.amount + invoice.amount) * 100) / 100,
      count: total.count + 1,
    });
  }
  return {
    totals: [...totals].map(([currencyId, total]) => ({
      amount: moneyOf(call, total.amount, codes.get(currencyId)),
      count: total.count,
    })),
    invoices: unpaid.slice(0, HOME_LIMIT).map((invoice) => {
      const ascii = index.byOrderId.get(invoice.order_id);
      const facts = ascii === undefined ? undefined : { domain: toUnicodeDomain(ascii) };
      return invoiceEntryOf(call, invoice, codes, [], facts, now);
    }),
  };
}

/** «через 5 дней», «истекает сегодня», «истёк 2 дня назад». */
function whenText(call: EndpointCall, daysLeft: number): string {
  if (daysLeft === 0) return call.t('miniapp:money.expiresToday');
  return daysLeft > 0
    ? call.t('miniapp:money.expiresIn', { count: daysLeft })
    : call.t('miniapp:money.expiredAgo', { count: -daysLeft });
}

/**
 * The domains whose registration ends within 30 days (Minsk days, as the reminders count them),
 * and those already ended that the provider still lists, soonest first.
 */
export async function expiringOf(call: CallOf<'home/expiring'>): Promise<AnswerOf<'home/expiring'>> {
  const orders = await call.api.listDomainOrders();
  const now = call.clock();
  const domains = orders.flatMap((order): ExpiringDomain[] => {
    const domain = order.advanced?.domain;
    const date = order.expiration_date;
    if (!domain || !date) return [];
    const daysLeft = daysUntil(date, now);
    const expires = isoDay(date);
    if (daysLeft === undefined || expires === null || daysLeft > EXPIRY_WINDOW_DAYS) return [];
    return [
      {
        domain,
        domainUnicode: toUnicodeDomain(domain),
        orderId: order.order_id,
        expires,
        whenText: whenText(call, daysLeft),
        daysLeft,
      },
    ];
  });
  return { domains: domains.sort((a, b) => a.daysLeft - b.daysLeft || a.domain.localeCompare(b.domain)) };
}

const serversText = (call: EndpointCall, servers: readonly NameServerEntry[]) =>
  servers.length === 0
    ? call.t('dnshistory:nsNone')
    : servers.map((s) => (s.ip ? `${toUnicodeDomain(s.ns)} (${s.ip})` : toUnicodeDomain(s.ns))).join(', ');

/** A change in one line: its first record's change (and how many more), or the name servers. */
function changeText(call: EndpointCall, change: HistoryChange): string {
  if ('nameServers' in change) {
    const { before, after } = change.nameServers;
    return call.t('dnshistory:nsChange', {
      before: serversText(call, before),
      after: serversText(call, after),
    });
  }
  const lines = pairChanges(change.records);
  const first = lines[0];
  if (first === undefined) return call.t('miniapp:plan.nothing');
  const text = describeEditLine(call.t, first).text;
  return lines.length > 1 ? `${text} ${call.t('dnshistory:more', { count: lines.length - 1 })}` : text;
}

/** Who made a change, as the history says: the member, or a robot's key. */
function byOf(call: EndpointCall, entry: HistoryEntry): string {
  if (entry.who.key !== undefined) return call.t('dnshistory:byKey', { name: entry.who.key });
  return entry.who.name || call.t('dnshistory:someone');
}

/** The account's latest DNS changes over its domains, newest first, at most five. */
export async function changesOf(call: CallOf<'home/changes'>): Promise<AnswerOf<'home/changes'>> {
  const index = await call.api.domainOrderIndex();
  const { chatId, n } = call.account;
  const perOrder = await Promise.all(
    [...index.byOrderId].map(async ([orderId, domain]) =>
      (await call.services.dnsHistory.list(chatId, orderId, n)).map((entry) => ({ entry, domain })),
    ),
  );
  const latest = perOrder
    .flat()
    .sort((a, b) => b.entry.at.localeCompare(a.entry.at))
    .slice(0, HOME_LIMIT);
  return {
    changes: latest.map(({ entry, domain }) => ({
      domain,
      domainUnicode: toUnicodeDomain(domain),
      at: entry.at,
      atText: formatInstant(entry.at, call.locale),
      by: byOf(call, entry),
      text: changeText(call, entry.change),
    })),
  };
}
