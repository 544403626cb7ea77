/**
 * Ordering reference data: services, tariffs and domain zones. Prices are kept in BYN; the
 * optional `currency_id` query parameter converts them to that currency (unknown id → 400).
 */

import { badRequest, messages } from './api-errors.js';
import type { RouteContext } from './context.js';
import type { Currency, OrderKind, SandboxState, Tariff } from './state.js';
import { money } from './state.js';
import { queryInteger } from './validation.js';

export function findCurrency(state: SandboxState, id: number): Currency {
  const currency = state.currencies.find((c) => c.currency_id === id);
  if (!currency) throw badRequest(messages.currencyNotFound(id));
  return currency;
}

/** A BYN amount in the given currency. */
export function convert(amount: number, currency: Currency): number {
  return money(amount / currency.rate);
}

/**
 * A domain's term in `currency`, as its order's invoice carries it: the zone's yearly price as the
 * zone list gives it in that currency, times the years, rounded to 0.01 once — the figures a
 * client is shown (a tariff's term is its listed price for the period, `convert`ed alike).
 */
export function domainTermAmount(perYear: number, years: number, currency: Currency): number {
  return money(convert(perYear, currency) * years);
}

function queryCurrency(ctx: RouteContext): Currency {
  const id = queryInteger(ctx.query, 'currency_id');
  return id === undefined ? findCurrency(ctx.state, 1) : findCurrency(ctx.state, id);
}

export function listServices({ state }: RouteContext): object {
  return {
    services: state.services.map((s) => ({
      service_id: String(s.service_id),
      canonical_name: s.canonical_name,
      name: s.name,
    })),
  };
}

function renderTariff(tariff: Tariff, currency: Currency): object {
  return {
    tariff_id: tariff.tariff_id,
    tariff_name: tariff.tariff_name,
    service_id: String(tariff.service_id),
    period_type: tariff.period_type,
    prices: tariff.prices.map((p) => ({ period: p.period, price: convert(p.price, currency) })),
  };
}

function tariffsOf(ctx: RouteContext, kind: OrderKind, serviceId?: number): object {
  const currency = queryCurrency(ctx);
  return {
    tariffs: ctx.state.tariffs
      .filter((t) => t.kind === kind && !t.archived)
      .filter((t) => serviceId === undefined || t.service_id === serviceId)
      .map((t) => renderTariff(t, currency)),
  };
}

export function listHostingTariffs(ctx: RouteContext): object {
  return tariffsOf(ctx, 'hosting', queryInteger(ctx.query, 'service_id'));
}

export function listMailTariffs(ctx: RouteContext): object {
  return tariffsOf(ctx, 'mail');
}

export function listSslTariffs(ctx: RouteContext): object {
  return tariffsOf(ctx, 'ssl');
}

export function listZones(ctx: RouteContext): object {
  const currency = queryCurrency(ctx);
  return {
    domain_zones: ctx.state.zones.map((z) => ({
      domain_zone_id: z.domain_zone_id,
      name: z.name,
      min_period: z.min_period,
      max_period: z.max_period,
      actual_registration_tariff_id: z.actual_registration_tariff_id,
      registration_price: convert(z.registration_price, currency),
      actual_renew_tariff_id: z.actual_renew_tariff_id,
      renew_price: convert(z.renew_price, currency),
      period_type: z.period_type,
    })),
  };
}
