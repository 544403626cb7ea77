/*
 * The Mini App's order form, confirmed: the order built from the form's choices and a saved
 * customer — the same request blocks as the chat's (order-requests.ts), through the same kinds
 * table — and sent by the same exactly-once submit (order-submit.ts). The form has no session:
 * its once-only key and the orders listed before the call are kept with the account's chat
 * (`chatData.putAppOrder`), so a key sent again, or left half-done by a killed process, is
 * answered or settled, never sent twice. The chat the account belongs to gets the invoice link
 * (a port the bot implements).
 */
import type { PartnerApi } from '../api/index.js';
import { readSavedCustomer } from '../core/customer-answers.js';
import { missingForOrder } from '../core/customer-form.js';
import { toAsciiDomain } from '../core/domain-names.js';
import { type OrderMark, orderMatches } from '../core/order-marks.js';
import type { ProductKind } from '../core/product-kinds.js';
import { listTariffPeriods } from '../core/tariff-periods.js';
import type { Role } from '../core/team.js';
import { findZone, type WhoisRules, whoisRulesOf, zonePeriods } from '../core/zones.js';
import { errorForLog, type Logger } from '../logger.js';
import type { ChatData } from '../storage/chat-data.js';
import { ORDER_CALLS, type OrderRequests } from './order-kinds.js';
import { buildContactsRequest, buildCustomerRequest, buildWhoisRequest } from './order-requests.js';
import {
  type CreatedInvoice,
  type CreatedInvoiceNotes,
  type CreatedOrder,
  findNewOrder,
  followCreatedOrder,
  type OrderSubmission,
  submitOrderOnce,
} from './order-submit.js';

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

/** Who confirmed it, for which account, with its once-only key. */
export interface PlaceOrder {
  api: PartnerApi;
  chatId: number;
  who: { id: number; name: string };
  role: Role;
  key: string;
  order: AppOrder;
}

/** What the chat is told of an order placed in the app. */
export interface OrderReport {
  chatId: number;
  who: { id: number; name: string };
  role: Role;
  kind: ProductKind;
  /** The domain the order names (Unicode), if any. */
  subject: string | undefined;
  orderId: number | undefined;
  invoiceId: number | undefined;
  invoice: CreatedInvoice;
}

/** Sends the invoice link to the account's chat (the bot implements it; main hands it over). */
export interface OrderReportPort {
  reportOrder(report: OrderReport): Promise<void>;
}

/** How a confirmed order ended. */
export type PlaceOutcome =
  | {
      kind: 'created';
      orderId: number | undefined;
      invoiceId: number | undefined;
      invoiceNumber: string | undefined;
      /** The key was confirmed before: nothing was sent now. */
      again: boolean;
    }
  /** The provider refused (or nothing could be sent): nothing was created. */
  | { kind: 'refused'; error: unknown }
  /** The saved customer lacks answers the order needs (answer ids), for these WHOIS rules. */
  | { kind: 'incomplete'; missing: string[]; whois: WhoisRules }
  | { kind: 'customerGone' }
  | { kind: 'badDomain' }
  | { kind: 'zoneNotOffered'; zones: string[] }
  | { kind: 'tariffGone' }
  | { kind: 'badPeriod' }
  /** The same key is being sent right now. */
  | { kind: 'submitting' }
  /** No answer; `notFound`: no new order either (nothing was made); `failed`: could not look. */
  | { kind: 'unknown'; lookup: 'notFound' | 'failed' };

export interface OrderPlacingDeps {
  chatData: Pick<
    ChatData,
    | 'getProfiles'
    | 'getToken'
    | 'getAppOrder'
    | 'putAppOrder'
    | 'forgetAppOrder'
    | 'rememberOrderDomain'
    | 'setLastCurrencyId'
  >;
  watches: CreatedInvoiceNotes | undefined;
  report: OrderReportPort | undefined;
  logger: Logger;
}

export interface OrderPlacing {
  place(input: PlaceOrder): Promise<PlaceOutcome>;
}

/** A built order: its create call, how its order is recognised, the domain it names. */
interface Built {
  create(api: PartnerApi): Promise<CreatedOrder>;
  mark: OrderMark;
  domain: string | undefined;
}

type Refusal = Exclude<PlaceOutcome, { kind: 'created' | 'refused' | 'submitting' | 'unknown' }>;

/** The form's choices and the customer as one request of the kind, or why they make none. */
async function buildOrder(
  deps: OrderPlacingDeps,
  input: PlaceOrder,
): Promise<{ built: Built } | { refusal: Refusal }> {
  const { api, chatId, order } = input;
  const profile = (await deps.chatData.getProfiles(chatId)).find((p) => p.id === order.customerId);
  const answers = profile ? readSavedCustomer(profile.data) : undefined;
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
      built: { create: (a) => ORDER_CALLS.domain.create(a, request), mark: { domain: ascii }, domain: ascii },
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
  switch (order.kind) {
    case 'hosting': {
      const request: OrderRequests['hosting'] = ascii === undefined ? fields : { ...fields, domain: ascii };
      return { built: { create: (a) => ORDER_CALLS.hosting.create(a, request), mark, domain: ascii } };
    }
    case 'mail':
      return { built: { create: (a) => ORDER_CALLS.mail.create(a, fields), mark, domain: undefined } };
    case 'ssl': {
      if (ascii === undefined) return { refusal: { kind: 'badDomain' } };
      const request: OrderRequests['ssl'] = { ...fields, domain: ascii };
      return { built: { create: (a) => ORDER_CALLS.ssl.create(a, request), mark, domain: ascii } };
    }
  }
}

export function createOrderPlacing(deps: OrderPlacingDeps): OrderPlacing {
  /** Keys being sent by this process now (`chat:key`). */
  const sending = new Set<string>();

  async function reportCreated(input: PlaceOrder, built: Built, created: CreatedOrder) {
    const { api, chatId } = input;
    await deps.chatData.putAppOrder(chatId, {
      key: input.key,
      kind: input.order.kind,
      mark: built.mark,
      status: 'created',
      orderId: created.order_id,
      invoiceId: created.invoice_id,
    });
    deps.logger.info(
      { chatId, orderId: created.order_id, kind: input.order.kind },
      'order created in the app',
    );
    // The provider's lists omit the domain of a hosting or SSL order: the bot remembers what it sent.
    if (built.domain !== undefined && created.order_id !== undefined && input.order.kind !== 'domain')
      await deps.chatData.rememberOrderDomain(chatId, created.order_id, built.domain);
    await deps.chatData.setLastCurrencyId(chatId, input.order.currencyId);
    const invoice = await followCreatedOrder(
      api,
      { watches: deps.watches, token: await deps.chatData.getToken(chatId), logger: deps.logger },
      created,
      { chatId },
    );
    await deps.report
      ?.reportOrder({
        chatId,
        who: input.who,
        role: input.role,
        kind: input.order.kind,
        subject: built.domain,
        orderId: created.order_id,
        invoiceId: created.invoice_id,
        invoice,
      })
      .catch((error: unknown) => {
        // The order stands; the app still shows it. The chat's message is what failed.
        deps.logger.warn({ chatId, err: errorForLog(error) }, 'could not report an order to the chat');
      });
    return {
      kind: 'created' as const,
      orderId: created.order_id,
      invoiceId: created.invoice_id,
      invoiceNumber: invoice.invoice?.invoice_number,
      again: false,
    };
  }

  async function placeOnce(input: PlaceOrder): Promise<PlaceOutcome> {
    const { api, chatId, key } = input;
    const stored = await deps.chatData.getAppOrder(chatId, key);
    if (stored?.status === 'created') {
      const [invoice] =
        stored.invoiceId === undefined
          ? []
          : await api.listInvoices({ invoice_id: stored.invoiceId }).catch(() => []);
      return {
        kind: 'created',
        orderId: stored.orderId,
        invoiceId: stored.invoiceId,
        invoiceNumber: invoice?.invoice_number,
        again: true,
      };
    }
    const made = await buildOrder(deps, input);
    if ('refusal' in made) return made.refusal;
    const { built } = made;
    const submission: OrderSubmission = {
      listOrders: () => ORDER_CALLS[input.order.kind].listOrders(api, {}),
      create: () => built.create(api),
      matches: (order) => orderMatches(built.mark, order),
    };
    if (stored?.status === 'submitting') {
      // A process died with this key's create call out: the order may exist.
      const found = await findNewOrder(submission, api, stored.knownOrderIds).catch(() => 'failed' as const);
      if (found === 'failed') return { kind: 'unknown', lookup: 'failed' };
      if (found) return reportCreated(input, built, found);
    }
    const outcome = await submitOrderOnce(
      submission,
      api,
      {
        beforeCreate: (known) =>
          deps.chatData.putAppOrder(chatId, {
            key,
            kind: input.order.kind,
            mark: built.mark,
            status: 'submitting',
            knownOrderIds: known,
          }),
        logFields: { chatId },
      },
      deps.logger,
    );
    switch (outcome.kind) {
      case 'created':
        return reportCreated(input, built, outcome.created);
      case 'refused':
        await deps.chatData.forgetAppOrder(chatId, key);
        return outcome;
      case 'unknown':
        // Not found: nothing was made, and the form may be confirmed again. A failed lookup keeps
        // the key: the next confirm looks again before sending anything.
        if (outcome.lookup === 'notFound') await deps.chatData.forgetAppOrder(chatId, key);
        return outcome;
    }
  }

  return {
    async place(input) {
      const id = `${input.chatId}:${input.key}`;
      if (sending.has(id)) return { kind: 'submitting' };
      sending.add(id);
      try {
        return await placeOnce(input);
      } finally {
        sending.delete(id);
      }
    },
  };
}
