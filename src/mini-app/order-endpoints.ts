/*
 * The order form's endpoints: what may be ordered (kinds, currencies, tariffs or zones with each
 * period's price, the saved customers), a domain checked as it is typed, and Confirm — the
 * services' exactly-once submit, whose invoice link goes to the chat. Prices and periods are
 * worded here, in the user's language; the form shows them as they come.
 */
import { ApiHttpError, ApiRequestError, type Tariff } from '../api/index.js';
import { readCustomerType, STEP } from '../core/customer-answers.js';
import { readTypedDomain, toUnicodeDomain } from '../core/domain-names.js';
import { formatMoney } from '../core/format.js';
import { orderNumberOf } from '../core/order-number.js';
import { PRODUCT_KINDS, type ProductKind } from '../core/product-kinds.js';
import { lineLabel } from '../core/requisites-words.js';
import {
  findPeriodPrice,
  listTariffPeriods,
  priceOfTerm,
  type TermPriceSource,
} from '../core/tariff-periods.js';
import { echoInput } from '../core/text.js';
import { findZone, whoisRulesOf, zonePeriods } from '../core/zones.js';
import { ORDER_CALLS } from '../services/order-kinds.js';
import type { AnswerOf } from './contract.js';
import { type CallOf, type EndpointCall, EndpointError } from './endpoint-types.js';

/** `2 года`, `12 мес`: the chat's period table (`words:period`); an unknown unit as it came. */
function periodText(call: EndpointCall, periodType: string, count: number): string {
  const fallback = `${count} ${periodType}`;
  return /^[A-Za-z]\w*$/.test(periodType)
    ? call.t(`words:period.${periodType}`, { count, defaultValue: fallback })
    : fallback;
}

/** One period a form may choose, with its total price in words: the price the invoice will carry. */
function periodOption(
  call: EndpointCall,
  periodType: string,
  count: number,
  price: TermPriceSource,
  code: string,
) {
  const label = periodText(call, periodType, count);
  const total = priceOfTerm(price, count);
  return {
    count,
    label,
    price: total ?? null,
    priceText:
      total === undefined ? call.t('miniapp:order.priceUnknown') : formatMoney(total, code, call.locale),
  };
}

const kindOf = (value: string | undefined): ProductKind =>
  PRODUCT_KINDS.find((kind) => kind === value) ?? PRODUCT_KINDS[0];

/** The currency prices are asked in: the one asked for, else the provider's first. */
async function chooseCurrency(call: EndpointCall, asked: string | undefined) {
  const currencies = await call.api.listCurrencies();
  const wanted = asked === undefined ? undefined : Number(asked);
  const currency = currencies.find((c) => c.currency_id === wanted) ?? currencies[0];
  if (!currency) throw new EndpointError(502, 'providerUnavailable');
  return { currencies, currency };
}

function tariffOf(call: EndpointCall, tariff: Tariff, code: string) {
  return {
    id: tariff.tariff_id,
    name: tariff.tariff_name,
    serviceId: Number(tariff.service_id),
    periods: listTariffPeriods(tariff).map((count) =>
      periodOption(call, tariff.period_type, count, { total: findPeriodPrice(tariff, count) }, code),
    ),
  };
}

/** The form's choices for a kind: its tariffs (or zones for a domain), currencies, customers. */
export async function catalogOf(call: CallOf<'order/catalog'>): Promise<AnswerOf<'order/catalog'>> {
  const kind = kindOf(call.input.kind);
  const { currencies, currency } = await chooseCurrency(call, call.input.currency);
  const code = currency.currency_code;
  const saved = await call.services.customers.list(call.account.chatId);
  const common = {
    kind,
    kinds: PRODUCT_KINDS.map((k) => ({ kind: k, name: call.t(`order:kind.${k}`) })),
    currencyId: currency.currency_id,
    currencies: currencies.map((c) => ({ id: c.currency_id, code: c.currency_code })),
    customers: saved.map((entry) => {
      const type = readCustomerType(entry.customer?.[STEP.customerType]);
      return {
        id: entry.id,
        label: entry.label,
        typeName: type === undefined ? '' : call.t(`order:customerType.${type}`),
      };
    }),
  };
  const listTariffs = ORDER_CALLS[kind].listTariffs;
  if (listTariffs === null) {
    const zones = await call.api.listDomainZones({ currency_id: currency.currency_id });
    return {
      ...common,
      zones: zones.map((zone) => ({
        name: zone.name,
        periods: zonePeriods(zone).map((count) =>
          periodOption(call, zone.period_type, count, { perPeriod: zone.registration_price }, code),
        ),
      })),
    };
  }
  const tariffs = await listTariffs(call.api, { currency_id: currency.currency_id });
  return { ...common, tariffs: tariffs.map((tariff) => tariffOf(call, tariff, code)) };
}

/** A domain as it is typed in the form: whether it can be registered, and its zone's periods. */
export async function domainCheckOf(call: CallOf<'order/domain'>): Promise<AnswerOf<'order/domain'>> {
  const typed = (call.input.name ?? '').trim();
  const ascii = readTypedDomain(typed);
  if (ascii === undefined || !ascii.includes('.'))
    return { available: false, message: call.t('miniapp:order.domain.invalid') };
  const domain = toUnicodeDomain(ascii);
  const { currency } = await chooseCurrency(call, call.input.currency);
  const zones = await call.api.listDomainZones({ currency_id: currency.currency_id });
  const zone = findZone(ascii, zones);
  if (!zone)
    return {
      available: false,
      domain: ascii,
      message: call.t('miniapp:order.domain.zoneNotOffered', {
        domain,
        zones: zones.map((z) => z.name.toUpperCase()).join(', '),
      }),
    };
  const [result] = await call.api.checkDomains([ascii]);
  const available = result?.is_available === true;
  const premium = available && result?.is_premium === true;
  const verdict = !result
    ? 'noAnswer'
    : premium
      ? 'premium'
      : available
        ? 'available'
        : result.state === 'NotAvailable'
          ? 'taken'
          : 'notFree';
  const whois = whoisRulesOf(zone.name);
  return {
    available,
    premium,
    domain: ascii,
    zone: zone.name,
    // The zone's WHOIS rules: a customer entered for this domain is asked its WHOIS data at once.
    ...(whois === 'none' ? {} : { whois }),
    message: call.t(`miniapp:order.domain.${verdict}`, { domain }),
  };
}

/** Confirm: the order placed exactly once for this key; its invoice link goes to the chat. */
export async function submitOf(call: CallOf<'order/submit'>): Promise<AnswerOf<'order/submit'>> {
  const { key, ...order } = call.input;
  const outcome = await call.services.orderPlacing.place({
    api: call.api,
    chatId: call.account.chatId,
    account: call.account.n,
    who: { id: call.launch.userId, name: call.launch.user.firstName },
    role: call.account.role,
    key,
    order,
  });
  switch (outcome.kind) {
    case 'created':
      return {
        orderId: outcome.orderId ?? null,
        invoiceNumber: outcome.invoiceNumber ?? null,
        again: outcome.again,
        message: call.t('miniapp:order.created', {
          order: orderNumberOf({ number: outcome.orderNumber, order_id: outcome.orderId }),
          invoice: outcome.invoiceNumber ?? outcome.invoiceId ?? '—',
        }),
        // Where the invoice's link went: the private chat with the bot, or the team group.
        linkSentTo: call.t(
          call.account.kind === 'group' ? 'miniapp:order.linkInGroup' : 'miniapp:order.linkInChat',
        ),
      };
    case 'incomplete':
      throw new EndpointError(
        400,
        'customerIncomplete',
        { fields: outcome.missing.map((id) => missingLabel(call, id)).join(', ') },
        { missing: outcome.missing, ...(outcome.whois === 'none' ? {} : { whois: outcome.whois }) },
      );
    case 'zoneNotOffered':
      throw new EndpointError(400, 'zoneNotOffered', {
        zones: outcome.zones.map((z) => z.toUpperCase()).join(', '),
      });
    case 'refused':
      throw refusalOf(call, outcome.error);
    case 'unknown':
      throw new EndpointError(503, outcome.lookup === 'notFound' ? 'orderNotCreated' : 'orderUnchecked');
    case 'badDomain':
      throw new EndpointError(400, 'badDomain', { value: echoInput(order.domain ?? '', 64) });
    default:
      throw new EndpointError(outcome.kind === 'submitting' ? 409 : 400, outcome.kind);
  }
}

/** A field a saved customer lacks, as the chat labels it (`c:`/`w:` answer ids by their path). */
function missingLabel(call: EndpointCall, id: string): string {
  if (id === STEP.customerType) return call.t('order:cardType');
  return lineLabel(call.t, id.replace(/^[cw]:/, ''));
}

/**
 * A refusal of the order (nothing was created): the provider's own words for the order, a field of
 * the saved customer the API's schema refused named as the chat names it; anything else (the
 * provider down, the token refused) is answered as every endpoint answers it.
 */
function refusalOf(call: EndpointCall, error: unknown): unknown {
  if (error instanceof ApiRequestError)
    return new EndpointError(400, 'customerFieldRefused', { field: lineLabel(call.t, error.field) });
  if (error instanceof ApiHttpError && !error.isTokenRejected && error.status < 500 && error.providerMessage)
    return new EndpointError(400, 'orderRefused', { message: error.providerMessage });
  return error;
}
