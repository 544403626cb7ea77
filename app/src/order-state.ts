/*
 * What the order form's choices make, as pure rules (no DOM; unit-tested under Node): the terms
 * the chosen zone or tariff offers, the order as it would be sent, and what is still to choose;
 * and the form's state: what a new kind or another order forgets, the term taken when only one
 * is offered, the once-only key an order keeps, and the total and hint the form shows.
 */
import type { ProductKind as Kind } from '../../src/core/product-kinds.js';
import type { Catalog, DomainCheck, OrderRequest, PeriodOption } from '../../src/mini-app/contract.js';
import type { OrderWords } from './order-words.js';

/** The form's choices as they stand. */
export interface OrderChoices {
  catalog: Catalog | undefined;
  kind: Kind;
  currencyId: number | undefined;
  tariffId: number | undefined;
  period: number | undefined;
  customerId: string;
  /** As typed. */
  domain: string;
  /** The typed domain's verdict (a domain order). */
  checked: DomainCheck | undefined;
}

/** What may still be missing before the order can be placed. */
export type Need = 'tariff' | 'domain' | 'sslDomain' | 'period' | 'customer';

/** The terms on offer: a domain's zone's, once the name is free to register; else the tariff's. */
export function periodsOf(c: OrderChoices): PeriodOption[] {
  if (!c.catalog) return [];
  if (c.kind === 'domain')
    return c.checked?.available
      ? (c.catalog.zones?.find((z) => z.name === c.checked?.zone)?.periods ?? [])
      : [];
  return c.catalog.tariffs?.find((t) => t.id === c.tariffId)?.periods ?? [];
}

/** The order as it would be sent (its key apart), or undefined while something is missing. */
export function requestOf(c: OrderChoices): Omit<OrderRequest, 'key'> | undefined {
  const { kind, currencyId, period, customerId, tariffId } = c;
  if (currencyId === undefined || period === undefined || customerId === '') return undefined;
  if (!periodsOf(c).some((p) => p.count === period)) return undefined;
  const base = { kind, currencyId, period, customerId };
  const typed = c.domain.trim();
  switch (kind) {
    case 'domain':
      return c.checked?.available && c.checked.domain ? { ...base, domain: c.checked.domain } : undefined;
    case 'ssl':
      return tariffId !== undefined && typed !== '' ? { ...base, tariffId, domain: typed } : undefined;
    case 'hosting':
      return tariffId === undefined ? undefined : { ...base, tariffId, ...(typed ? { domain: typed } : {}) };
    case 'mail':
      return tariffId === undefined ? undefined : { ...base, tariffId };
  }
}

/** What is still to choose, in the form's order. */
export function stillNeeded(c: OrderChoices): Need[] {
  const needs: Need[] = [];
  if (c.kind !== 'domain' && c.tariffId === undefined) needs.push('tariff');
  if (c.kind === 'domain' && !c.checked?.available) needs.push('domain');
  if (c.kind === 'ssl' && c.domain.trim() === '') needs.push('sslDomain');
  if (c.period === undefined) needs.push('period');
  if (c.customerId === '') needs.push('customer');
  return needs;
}

/** Whether anything was chosen that closing the form would lose. */
export function hasChoices(c: OrderChoices): boolean {
  return c.domain.trim() !== '' || c.tariffId !== undefined || c.customerId !== '';
}

/** What the order form keeps between taps, in one place: the choices, and the order's sending. */
export interface OrderFormState extends OrderChoices {
  /** Confirm is running. */
  sending: boolean;
  /** The order was placed: the form shows what the server said. */
  placed: boolean;
  /** The order last sent and its once-only key: a retry of the same order keeps the key. */
  sent: { body: string; key: string } | undefined;
}

/** A new form: a domain order, with the domain the chat's button named, if any. */
export function startOrderState(domain = ''): OrderFormState {
  return {
    catalog: undefined,
    kind: 'domain',
    currencyId: undefined,
    tariffId: undefined,
    period: undefined,
    customerId: '',
    domain,
    checked: undefined,
    sending: false,
    placed: false,
    sent: undefined,
  };
}

/** Another kind: its tariff and term are chosen anew, and a name typed for the old kind is not
 * carried into this one's order unseen. */
export function chooseKind(state: OrderFormState, kind: Kind): void {
  state.kind = kind;
  state.checked = undefined;
  state.domain = '';
  state.tariffId = undefined;
  state.period = undefined;
}

/** «Ещё заказ»: a new order, with the kind, tariff, currency and customer as they were. */
export function startAnother(state: OrderFormState): void {
  state.placed = false;
  state.sent = undefined;
  state.domain = '';
  state.checked = undefined;
  state.period = undefined;
}

/** The terms on offer; a term no longer offered is dropped, and the only one offered is taken. */
export function settlePeriod(state: OrderChoices): PeriodOption[] {
  const periods = periodsOf(state);
  if (state.period !== undefined && !periods.some((p) => p.count === state.period)) state.period = undefined;
  if (state.period === undefined && periods.length === 1) state.period = periods[0]?.count;
  return periods;
}

/** The once-only key to send `order` with: the same order keeps its key, another gets `fresh()`. */
export function keyFor(state: OrderFormState, order: object, fresh: () => string): string {
  const body = JSON.stringify(order);
  if (state.sent?.body !== body) state.sent = { body, key: fresh() };
  return state.sent.key;
}

/** The total of the term chosen (a premium name says so), and what is still to choose. */
export function summaryOf(c: OrderChoices, o: OrderWords): { total: string; hint: string } {
  const chosen = periodsOf(c).find((p) => p.count === c.period);
  const premium = c.kind === 'domain' && c.checked?.premium === true ? ` (${o.premiumNote})` : '';
  const needs = stillNeeded(c).map((need) => o.needs[need]);
  return {
    total: chosen ? `${o.total}: ${chosen.priceText} · ${chosen.label}${premium}` : '',
    hint: needs.length > 0 && c.catalog ? `${o.stillNeeded}: ${needs.join(', ')}.` : '',
  };
}
