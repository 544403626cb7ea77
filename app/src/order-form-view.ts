/*
 * The order form's page, built part by part: the page with its total, hint and alert, and each
 * field of the form (kind, currency, tariff, domain, term, customer). A part shows the values it
 * is given and reports a change through its callback; it keeps no state of the form.
 */

import type { ProductKind as Kind } from '../../src/core/product-kinds.js';
import type { Catalog, PeriodOption } from '../../src/mini-app/contract.js';
import { el } from './dom.js';
import { selectField } from './order-fields.js';
import type { OrderWords } from './order-words.js';

/** The page: the form's body (refilled on each catalog), the total, what is still needed, the alert. */
export function orderPage(o: OrderWords) {
  const section = el('section', { 'aria-labelledby': 'order-title', class: 'order' });
  const body = el('div', {});
  const total = el('p', { class: 'total', role: 'status' });
  const hint = el('p', { class: 'note' });
  const alert = el('div', { role: 'alert', class: 'error' });
  const fallback = el('button', { type: 'button' });
  /** Shows the form (again, after an order placed). */
  const showForm = () =>
    section.replaceChildren(el('h1', { id: 'order-title' }, o.title), body, total, hint, alert, fallback);
  showForm();
  return { section, body, total, hint, alert, fallback, showForm };
}

export type OrderPage = ReturnType<typeof orderPage>;

/** What to order: the catalog's kinds. */
export function kindField(o: OrderWords, catalog: Catalog, kind: Kind, chosen: (next: Kind) => void) {
  const kinds = selectField(
    'order-kind',
    o.kind,
    catalog.kinds.map((k) => ({ value: k.kind, text: k.name })),
    kind,
  );
  kinds.control.addEventListener('change', () => {
    const next = catalog.kinds.find((k) => k.kind === kinds.control.value)?.kind;
    if (next !== undefined) chosen(next);
  });
  return kinds.field;
}

/** The currency, when the catalog has more than one. */
export function currencyField(
  o: OrderWords,
  catalog: Catalog,
  currencyId: number | undefined,
  chosen: (id: number) => void,
) {
  const currencies = selectField(
    'order-currency',
    o.currency,
    catalog.currencies.map((c) => ({ value: String(c.id), text: c.code })),
    String(currencyId),
  );
  currencies.control.addEventListener('change', () => chosen(Number(currencies.control.value)));
  return currencies.field;
}

/** A tariff kind's tariff (none chosen: undefined). */
export function tariffField(
  o: OrderWords,
  catalog: Catalog,
  tariffId: number | undefined,
  chosen: (id: number | undefined) => void,
) {
  const tariffs = selectField(
    'order-tariff',
    o.tariff,
    [
      { value: '', text: o.pickTariff },
      ...(catalog.tariffs ?? []).map((t) => ({ value: String(t.id), text: t.name })),
    ],
    tariffId === undefined ? '' : String(tariffId),
  );
  tariffs.control.addEventListener('change', () =>
    chosen(tariffs.control.value === '' ? undefined : Number(tariffs.control.value)),
  );
  return tariffs.field;
}

/** The domain to register, or the one a certificate or hosting is for; `typed` on each key. */
export function domainField(o: OrderWords, kind: Kind, domain: string, typed: (value: string) => void) {
  const label = kind === 'domain' ? o.domain : kind === 'ssl' ? o.sslDomain : o.hostingDomain;
  const input = el('input', {
    id: 'order-domain',
    name: 'domain',
    type: 'text',
    inputmode: 'url',
    autocomplete: 'off',
    autocapitalize: 'off',
    spellcheck: 'false',
    placeholder: o.domainPlaceholder,
    ...(kind === 'domain' ? { 'aria-describedby': 'domain-status' } : {}),
  });
  input.value = domain;
  input.addEventListener('input', () => typed(input.value));
  return el('div', { class: 'field' }, el('label', { for: 'order-domain' }, label), input);
}

/** The term with its price; disabled while none is on offer (a domain not yet found free). */
export function periodField(
  o: OrderWords,
  kind: Kind,
  periods: readonly PeriodOption[],
  period: number | undefined,
  chosen: (count: number | undefined) => void,
) {
  const empty = kind === 'domain' && periods.length === 0 ? o.periodAfterDomain : o.pickPeriod;
  const { control, field } = selectField(
    'order-period',
    o.period,
    [
      { value: '', text: empty },
      ...periods.map((p) => ({ value: String(p.count), text: `${p.label} — ${p.priceText}` })),
    ],
    period === undefined ? '' : String(period),
  );
  control.disabled = periods.length === 0;
  control.addEventListener('change', () => chosen(control.value === '' ? undefined : Number(control.value)));
  return field;
}

/** The saved customer to order for, and «new customer», which opens the customer editor. */
export function customerFields(
  o: OrderWords,
  catalog: Catalog,
  customerId: string,
  chosen: (id: string) => void,
  add: () => void,
) {
  const customers = selectField(
    'order-customer',
    o.customer,
    [
      { value: '', text: catalog.customers.length === 0 ? o.noCustomers : o.pickCustomer },
      ...catalog.customers.map((c) => ({
        value: c.id,
        text: c.typeName ? `${c.label} (${c.typeName})` : c.label,
      })),
    ],
    customerId,
  );
  customers.control.addEventListener('change', () => chosen(customers.control.value));
  const button = el('button', { type: 'button', class: 'secondary' }, o.newCustomer);
  button.addEventListener('click', () => add());
  return [customers.field, button];
}
