/*
 * The order form's choices and a saved customer as one provider request of the kind: a domain by
 * its zone (the zone's registration tariff and WHOIS rules), a tariff kind by its tariff, each
 * term held to what the zone or tariff offers, the customer's blocks built as the chat builds them
 * (order-requests.ts) — or why they make none, before anything is sent.
 */
import type { PartnerApi } from '../api/index.js';
import type { SavedCustomer } from '../core/customer-answers.js';
import { missingForOrder } from '../core/customer-form.js';
import { toAsciiDomain } from '../core/domain-names.js';
import type { OrderMark } from '../core/order-marks.js';
import type { ProductKind } from '../core/product-kinds.js';
import { listTariffPeriods } from '../core/tariff-periods.js';
import { findZone, type WhoisRules, whoisRulesOf, zonePeriods } from '../core/zones.js';
import { ORDER_CALLS, type OrderRequests } from './order-kinds.js';
import { buildContactsRequest, buildCustomerRequest, buildWhoisRequest } from './order-requests.js';
import type { CreatedOrder } from './order-submit.js';

/** What the order form sends: the kind, its tariff or domain, the period, currency, customer. */
export interface AppOrder {
  kind: ProductKind;
  currencyId: number;
  period: number;
  /** A saved customer of the account. */
  customerId: string;
  /** Hosting, mail, SSL. */
  tariffId?: number | undefined;
  /** The domain to register; hosting's optional domain; the SSL certificate's domain. */
  domain?: string | undefined;
}

/** A built order: its create call, how its order is recognised, the domain it names. */
export interface BuiltOrder {
  create(api: PartnerApi): Promise<CreatedOrder>;
  mark: OrderMark;
  domain: string | undefined;
  /** What is ordered, for the chat's message: the tariff's name (none for a domain) and the term. */
  what: OrderedWhat;
}

/** What an order is for, besides its domain: the tariff's name and the term in the provider's unit. */
export interface OrderedWhat {
  tariffName: string | undefined;
  period: number;
  periodType: string;
}

/** Why the form's choices and the customer make no order (nothing is sent). */
export type BuildRefusal =
  /** The saved customer lacks answers the order needs (answer ids), for these WHOIS rules. */
  | { kind: 'incomplete'; missing: string[]; whois: WhoisRules }
  | { kind: 'customerGone' }
  | { kind: 'badDomain' }
  | { kind: 'zoneNotOffered'; zones: string[] }
  | { kind: 'tariffGone' }
  | { kind: 'badPeriod' };

/** The form's choices and the customer as one request of the kind, or why they make none. */
export async function buildOrder(
  api: PartnerApi,
  answers: SavedCustomer | undefined,
  order: AppOrder,
): Promise<{ built: BuiltOrder } | { refusal: BuildRefusal }> {
  if (!answers) return { refusal: { kind: 'customerGone' } };
  const common = (whois: WhoisRules) => {
    const missing = missingForOrder(answers, whois);
    return missing.length > 0
      ? { refusal: { kind: 'incomplete', missing, whois } as const }
      : {
          fields: {
            period_unit_count: order.period,
            currency_id: order.currencyId,
            ...buildContactsRequest(answers),
            ...buildCustomerRequest(answers),
          },
        };
  };
  const ascii =
    order.domain === undefined || order.domain.trim() === '' ? undefined : toAsciiDomain(order.domain);
  if (order.domain !== undefined && order.domain.trim() !== '' && ascii === undefined)
    return { refusal: { kind: 'badDomain' } };

  if (order.kind === 'domain') {
    if (ascii === undefined) return { refusal: { kind: 'badDomain' } };
    const zones = await api.listDomainZones({ currency_id: order.currencyId });
    const zone = findZone(ascii, zones);
    if (!zone) return { refusal: { kind: 'zoneNotOffered', zones: zones.map((z) => z.name) } };
    if (!zonePeriods(zone).includes(order.period)) return { refusal: { kind: 'badPeriod' } };
    const rules = whoisRulesOf(zone.name);
    const base = common(rules);
    if (base.refusal) return { refusal: base.refusal };
    const request: OrderRequests['domain'] = {
      ...base.fields,
      tariff_id: zone.actual_registration_tariff_id,
      domain: ascii,
      ...buildWhoisRequest(answers, rules),
    };
    return {
      built: {
        create: (a) => ORDER_CALLS.domain.create(a, request),
        mark: { domain: ascii },
        domain: ascii,
        what: { tariffName: undefined, period: order.period, periodType: zone.period_type },
      },
    };
  }

  const tariffs = await ORDER_CALLS[order.kind].listTariffs(api, { currency_id: order.currencyId });
  const tariff = tariffs.find((t) => t.tariff_id === order.tariffId);
  if (!tariff) return { refusal: { kind: 'tariffGone' } };
  if (!listTariffPeriods(tariff).includes(order.period)) return { refusal: { kind: 'badPeriod' } };
  const base = common('none');
  if (base.refusal) return { refusal: base.refusal };
  const fields = { ...base.fields, tariff_id: tariff.tariff_id };
  const mark = { tariffId: tariff.tariff_id };
  const what = { tariffName: tariff.tariff_name, period: order.period, periodType: tariff.period_type };
  switch (order.kind) {
    case 'hosting': {
      const request: OrderRequests['hosting'] = ascii === undefined ? fields : { ...fields, domain: ascii };
      return { built: { create: (a) => ORDER_CALLS.hosting.create(a, request), mark, domain: ascii, what } };
    }
    case 'mail':
      return { built: { create: (a) => ORDER_CALLS.mail.create(a, fields), mark, domain: undefined, what } };
    case 'ssl': {
      if (ascii === undefined) return { refusal: { kind: 'badDomain' } };
      const request: OrderRequests['ssl'] = { ...fields, domain: ascii };
      return { built: { create: (a) => ORDER_CALLS.ssl.create(a, request), mark, domain: ascii, what } };
    }
  }
}
