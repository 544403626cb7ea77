/** Order lists (all orders and per kind) and order creation (which also creates an invoice). */

import { badRequest, messages } from './api-errors.js';
import { convert, domainTermAmount, findCurrency } from './catalog.js';
import type { RouteContext } from './context.js';
import { addDays, dayKey, formatDate, formatDateTime } from './dates.js';
import { isTaken } from './domain-rules.js';
import { shortLink } from './links.js';
import { parseOrderRequest } from './order-requests.js';
import type { Order, OrderDetails, OrderKind, Tariff } from './state.js';
import { queryDay, queryInteger, queryString } from './validation.js';

const KIND_WHAT: Record<OrderKind, string> = {
  hosting: 'хостинга',
  mail: 'корпоративной почты',
  ssl: 'SSL-сертификата',
  domain: 'домена',
};

function advanced(details: OrderDetails): object {
  switch (details.kind) {
    case 'hosting':
    case 'mail':
      return { tariff_id: details.tariff_id };
    case 'ssl':
      return {
        domain: details.domain,
        use_csr: details.use_csr,
        tariff_id: details.tariff_id,
        valid_from_date: details.valid_from_date,
        valid_till_date: details.valid_till_date,
      };
    case 'domain':
      return {
        domain: details.domain,
        registered: details.registered,
        renewed: details.renewed,
        registration_tariff_id: details.registration_tariff_id,
        renew_tariff_id: details.renew_tariff_id,
      };
  }
}

function renderOrder(order: Order, withAdvanced: boolean): object {
  const item: Record<string, unknown> = {
    order_id: order.order_id,
    service_id: order.service_id,
    number: order.number,
    state: order.state,
    order_datetime: order.order_datetime,
    complete_date: order.complete_date,
    expiration_date: order.expiration_date,
    currency_id: order.currency_id,
    period_unit_type: order.period_unit_type,
    period_unit_count: String(order.period_unit_count),
    paid: order.paid,
    completed: order.completed,
    business_entity_type: order.business_entity_type,
  };
  if (withAdvanced) item.advanced = advanced(order.details);
  return item;
}

function listOrders(ctx: RouteContext, kind: OrderKind | undefined, serviceFilter: boolean): object {
  const orderId = queryInteger(ctx.query, 'order_id');
  const orderNumber = queryString(ctx.query, 'order_number');
  const from = queryDay(ctx.query, 'from_order_date');
  const to = queryDay(ctx.query, 'to_order_date');
  const serviceId = serviceFilter ? queryInteger(ctx.query, 'service_id') : undefined;
  const orders = ctx.state.orders
    .filter((o) => o.owner === 'self' && (kind === undefined || o.details.kind === kind))
    .filter((o) => orderId === undefined || o.order_id === orderId)
    .filter((o) => orderNumber === undefined || o.number === orderNumber)
    .filter((o) => serviceId === undefined || o.service_id === serviceId)
    .filter((o) => {
      const day = dayKey(o.order_datetime) ?? 0;
      return (from === undefined || day >= from) && (to === undefined || day <= to);
    })
    .sort((a, b) => a.order_id - b.order_id);
  return { orders: orders.map((o) => renderOrder(o, kind !== undefined)) };
}

export const listAllOrders = (ctx: RouteContext): object => listOrders(ctx, undefined, true);
export const listHostingOrders = (ctx: RouteContext): object => listOrders(ctx, 'hosting', true);
export const listMailOrders = (ctx: RouteContext): object => listOrders(ctx, 'mail', false);
export const listSslOrders = (ctx: RouteContext): object => listOrders(ctx, 'ssl', false);
export const listDomainOrders = (ctx: RouteContext): object => listOrders(ctx, 'domain', false);

function orderableTariff(ctx: RouteContext, kind: OrderKind, tariffId: number): Tariff {
  const tariff = ctx.state.tariffs.find((t) => t.tariff_id === tariffId);
  if (!tariff) throw badRequest(messages.tariffNotFound(tariffId));
  if (tariff.kind !== kind) throw badRequest(messages.tariffWrongKind(tariffId, KIND_WHAT[kind]));
  if (tariff.archived) throw badRequest(messages.tariffArchived(tariff.tariff_name));
  return tariff;
}

function createOrder(ctx: RouteContext, kind: OrderKind): object {
  const { state, now } = ctx;
  const request = parseOrderRequest(ctx.body, kind, state);
  const currency = findCurrency(state, request.currencyId);
  const tariff = orderableTariff(ctx, kind, request.tariffId);
  const zone = request.zone;
  if (zone !== undefined && tariff.tariff_id !== zone.actual_registration_tariff_id) {
    throw badRequest(
      `Тариф с идентификатором ${tariff.tariff_id} не является актуальным тарифом регистрации ` +
        `для зоны «${zone.name}» (ожидается ${zone.actual_registration_tariff_id})`,
    );
  }
  const period = request.periodUnitCount;
  const price = tariff.prices.find((p) => p.period === period);
  const inZone = zone === undefined || (period >= zone.min_period && period <= zone.max_period);
  if (period < 1 || period > 36 || price === undefined || !inZone) {
    throw badRequest(messages.periodNotSupported(period, tariff.tariff_name));
  }
  const domain = request.domain;
  let details: OrderDetails;
  switch (kind) {
    case 'hosting':
      details = { kind, tariff_id: tariff.tariff_id, domain: domain ?? null };
      break;
    case 'mail':
      details = { kind, tariff_id: tariff.tariff_id };
      break;
    case 'ssl':
      details = {
        kind,
        tariff_id: tariff.tariff_id,
        domain: domain ?? null,
        use_csr: request.csr !== undefined,
        valid_from_date: null,
        valid_till_date: null,
      };
      break;
    case 'domain': {
      const ascii = request.domainAscii;
      if (zone === undefined || domain === undefined || ascii === undefined) {
        throw new Error('domain order without a zone');
      }
      if (isTaken(ascii, state)) throw badRequest(`Домен «${domain}» уже занят и не может быть заказан`);
      details = {
        kind,
        domain,
        registered: false,
        renewed: false,
        registration_tariff_id: zone.actual_registration_tariff_id,
        renew_tariff_id: zone.actual_renew_tariff_id,
        servers: state.hostingServers.map((s) => ({ ...s })),
        records: [],
      };
      break;
    }
  }

  const orderId = state.nextIds.order++;
  const year = formatDate(now).slice(6);
  state.orders.push({
    order_id: orderId,
    owner: 'self',
    service_id: tariff.service_id,
    number: `ЗК-${year}-${String(orderId).padStart(6, '0')}`,
    state: 'NewOrder',
    order_datetime: formatDateTime(now),
    complete_date: null,
    expiration_date: null,
    currency_id: currency.currency_id,
    period_unit_type: tariff.period_type,
    period_unit_count: period,
    paid: false,
    completed: false,
    business_entity_type: request.customer,
    details,
  });
  const invoiceId = state.nextIds.invoice++;
  state.invoices.push({
    invoice_id: invoiceId,
    owner: 'self',
    invoice_number: `СФ-${year}-${invoiceId}`,
    order_id: orderId,
    creation_date: formatDate(now),
    expiration_date: formatDate(addDays(now, 5)),
    amount:
      zone === undefined
        ? convert(price.price, currency)
        : domainTermAmount(zone.registration_price, period, currency),
    currency_id: currency.currency_id,
    state: 'WaitingForPayment',
  });
  return {
    order_id: orderId,
    invoice_id: invoiceId,
    invoice_url: shortLink(ctx.linkBase, 'invoice', invoiceId),
  };
}

export const createHostingOrder = (ctx: RouteContext): object => createOrder(ctx, 'hosting');
export const createMailOrder = (ctx: RouteContext): object => createOrder(ctx, 'mail');
export const createSslOrder = (ctx: RouteContext): object => createOrder(ctx, 'ssl');
export const createDomainOrder = (ctx: RouteContext): object => createOrder(ctx, 'domain');
