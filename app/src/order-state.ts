/*
 * What the order form's choices make, as pure rules (no DOM; unit-tested under Node): the terms
 * the chosen zone or tariff offers, the order as it would be sent, and what is still to choose.
 */
import type { ProductKind as Kind } from '../../src/core/product-kinds.js';
import type { Catalog, DomainCheck, OrderRequest, PeriodOption } from '../../src/mini-app/contract.js';

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
