/*
 * The order form: what to order (kind, then its tariff, or a domain checked as it is typed), the
 * term with its price, the currency, a saved customer (or a new one, entered in the customer
 * editor), the total, and Confirm as Telegram's main button. Confirm carries a once-only key: a
 * double tap or a retry of the same order is answered once by the server, and the invoice link
 * goes to the chat with the bot.
 */

import type { ProductKind as Kind } from '../../src/core/product-kinds.js';
import type { Catalog, DomainCheck, Placed } from '../../src/mini-app/contract.js';
import type { AppApi } from './api.js';
import { ApiCallError, failureText } from './api.js';
import { base64url } from './apply-key.js';
import { el } from './dom.js';
import { domainChecker } from './domain-check.js';
import { placedView, selectField } from './order-fields.js';
import { hasChoices, type OrderChoices, periodsOf, requestOf, stillNeeded } from './order-state.js';
import type { OrderWords } from './order-words.js';
import { applyControl, confirmClosing, haptic } from './telegram.js';
import type { Words } from './words.js';

/** What the form can hand over to the customer editor (a new customer, or one to complete). */
export interface CustomerEditing {
  /** Opens the editor; resolves with the saved customer's id, or undefined when left unsaved. */
  edit(options: { id?: string; whois?: 'by' | 'ru' }): Promise<string | undefined>;
}

export interface OrderFormOptions {
  api: AppApi;
  words: Words;
  o: OrderWords;
  customers: CustomerEditing;
  /** The domain the chat's button named (`/order domain example.by`), if any. */
  domain?: string;
  onClose(): void;
}

const freshKey = () => base64url(crypto.getRandomValues(new Uint8Array(16)));

const catalogOf = (api: AppApi, kind: Kind, currencyId: number | undefined) =>
  api.get('order/catalog', { kind, ...(currencyId === undefined ? {} : { currency: String(currencyId) }) });

export function orderForm(options: OrderFormOptions): { element: HTMLElement; dispose(): void } {
  const { api, words, o } = options;
  const section = el('section', { 'aria-labelledby': 'order-title', class: 'order' });
  const body = el('div', {});
  const total = el('p', { class: 'total', role: 'status' });
  const hint = el('p', { class: 'note' });
  const alert = el('div', { role: 'alert', class: 'error' });
  const fallback = el('button', { type: 'button' });
  section.append(el('h1', { id: 'order-title' }, o.title), body, total, hint, alert, fallback);

  let catalog: Catalog | undefined;
  let kind: Kind = 'domain';
  let currencyId: number | undefined;
  let tariffId: number | undefined;
  let period: number | undefined;
  let customerId = '';
  let domain = options.domain ?? '';
  let checked: DomainCheck | undefined;
  let sending = false;
  let placed = false;
  let sent: { body: string; key: string } | undefined;

  const choices = (): OrderChoices => ({
    catalog,
    kind,
    currencyId,
    tariffId,
    period,
    customerId,
    domain,
    checked,
  });
  const periodsNow = () => periodsOf(choices());
  const request = () => requestOf(choices());

  const onConfirm = () => void confirm();
  let control = applyControl(fallback, o.confirm, onConfirm);
  const refresh = () => {
    const chosen = periodsNow().find((p) => p.count === period);
    const premium = kind === 'domain' && checked?.premium === true ? ` (${o.premiumNote})` : '';
    const needs = stillNeeded(choices()).map((need) => o.needs[need]);
    total.textContent = chosen ? `${o.total}: ${chosen.priceText} · ${chosen.label}${premium}` : '';
    hint.textContent = needs.length > 0 && catalog ? `${o.stillNeeded}: ${needs.join(', ')}.` : '';
    // Telegram asks before closing a form with choices made and no order placed.
    confirmClosing(!placed && hasChoices(choices()));
    control.set({
      visible: !placed,
      enabled: request() !== undefined,
      busy: sending,
      text: sending ? o.sending : o.confirm,
    });
  };

  const say = (...nodes: (Node | string)[]) => alert.replaceChildren(...nodes);

  const domainCheck = domainChecker(api, words, o, (verdict) => {
    checked = verdict;
    renderPeriods();
    refresh();
  });
  let periodBox = el('div', {});

  function renderPeriods() {
    const periods = periodsNow();
    if (period !== undefined && !periods.some((p) => p.count === period)) period = undefined;
    if (period === undefined && periods.length === 1) period = periods[0]?.count;
    const empty = kind === 'domain' && periods.length === 0 ? o.periodAfterDomain : o.pickPeriod;
    const { control: periodSelect, field } = selectField(
      'order-period',
      o.period,
      [
        { value: '', text: empty },
        ...periods.map((p) => ({ value: String(p.count), text: `${p.label} — ${p.priceText}` })),
      ],
      period === undefined ? '' : String(period),
    );
    periodSelect.disabled = periods.length === 0;
    periodSelect.addEventListener('change', () => {
      period = periodSelect.value === '' ? undefined : Number(periodSelect.value);
      haptic('selection');
      refresh();
    });
    periodBox.replaceWith(field);
    periodBox = field;
  }

  function render(): void {
    if (!catalog) return;
    const current = catalog;
    const kinds = selectField(
      'order-kind',
      o.kind,
      current.kinds.map((k) => ({ value: k.kind, text: k.name })),
      kind,
    );
    kinds.control.addEventListener('change', () => {
      const next = current.kinds.find((k) => k.kind === kinds.control.value)?.kind;
      if (next === undefined || next === kind) return;
      kind = next;
      checked = undefined;
      // A name typed for another kind is not carried into this one's order unseen.
      domain = '';
      domainCheck.clear();
      tariffId = undefined;
      period = undefined;
      void load();
    });
    const parts: HTMLElement[] = [kinds.field];
    if (current.currencies.length > 1) {
      const currencies = selectField(
        'order-currency',
        o.currency,
        current.currencies.map((c) => ({ value: String(c.id), text: c.code })),
        String(currencyId),
      );
      currencies.control.addEventListener('change', () => {
        currencyId = Number(currencies.control.value);
        void load();
      });
      parts.push(currencies.field);
    }
    if (kind !== 'domain') {
      const tariffs = selectField(
        'order-tariff',
        o.tariff,
        [
          { value: '', text: o.pickTariff },
          ...(current.tariffs ?? []).map((t) => ({ value: String(t.id), text: t.name })),
        ],
        tariffId === undefined ? '' : String(tariffId),
      );
      tariffs.control.addEventListener('change', () => {
        tariffId = tariffs.control.value === '' ? undefined : Number(tariffs.control.value);
        period = undefined;
        renderPeriods();
        refresh();
      });
      parts.push(tariffs.field);
    }
    if (kind !== 'mail') {
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
      input.addEventListener('input', () => {
        domain = input.value;
        if (kind !== 'domain') return refresh();
        domainCheck.typed(domain, currencyId);
      });
      parts.push(el('div', { class: 'field' }, el('label', { for: 'order-domain' }, label), input));
      if (kind === 'domain') parts.push(domainCheck.status);
    }
    parts.push(periodBox);
    const customers = selectField(
      'order-customer',
      o.customer,
      [
        { value: '', text: current.customers.length === 0 ? o.noCustomers : o.pickCustomer },
        ...current.customers.map((c) => ({
          value: c.id,
          text: c.typeName ? `${c.label} (${c.typeName})` : c.label,
        })),
      ],
      customerId,
    );
    customers.control.addEventListener('change', () => {
      customerId = customers.control.value;
      say();
      haptic('selection');
      refresh();
    });
    const add = el('button', { type: 'button', class: 'secondary' }, o.newCustomer);
    // For a domain whose zone needs WHOIS data, the new customer is asked it at once.
    add.addEventListener('click', () => {
      const whois = kind === 'domain' ? checked?.whois : undefined;
      void editCustomer(whois === undefined ? {} : { whois });
    });
    parts.push(customers.field, add);
    body.replaceChildren(...parts);
    renderPeriods();
    if (kind === 'domain' && domain.trim() !== '' && checked === undefined)
      void domainCheck.check(domain, currencyId);
    refresh();
  }

  /** The kind's catalog; a domain's verdict stays (the same name, whatever else changed). */
  async function load(): Promise<void> {
    say();
    try {
      catalog = await catalogOf(api, kind, currencyId);
      currencyId = catalog.currencyId;
      if (!catalog.customers.some((c) => c.id === customerId)) customerId = '';
      render();
    } catch (error) {
      say(failureText(words, error));
    }
  }

  /** The customer editor takes Telegram's main button (its Save) until it is left. */
  async function editCustomer(edit: { id?: string; whois?: 'by' | 'ru' }) {
    control.dispose();
    const saved = await options.customers.edit(edit);
    control = applyControl(fallback, o.confirm, onConfirm);
    if (saved !== undefined) customerId = saved;
    say();
    await load();
  }

  async function confirm(): Promise<void> {
    const order = request();
    if (!order || sending || placed) return;
    const bodyText = JSON.stringify(order);
    // The same order keeps its key: a retry or a second tap is answered once, never sent twice.
    if (sent?.body !== bodyText) sent = { body: bodyText, key: freshKey() };
    sending = true;
    confirmClosing(true);
    say();
    refresh();
    try {
      const done = await api.post('order/submit', { ...order, key: sent.key });
      placed = true;
      haptic('success');
      showPlaced(done);
    } catch (error) {
      haptic('error');
      const fill =
        error instanceof ApiCallError && error.code === 'customerIncomplete'
          ? el('button', { type: 'button', class: 'secondary' }, o.fillCustomer)
          : undefined;
      fill?.addEventListener('click', () => {
        const whois = error instanceof ApiCallError ? error.details.whois : undefined;
        void editCustomer({ id: customerId, ...(whois === 'by' || whois === 'ru' ? { whois } : {}) });
      });
      say(el('p', {}, failureText(words, error)), ...(fill ? [fill] : []));
    } finally {
      sending = false;
      refresh();
    }
  }

  function showPlaced(done: Placed): void {
    control.set({ visible: false, enabled: false, busy: false, text: o.confirm });
    section.replaceChildren(
      ...placedView(o, done, {
        another: () => {
          placed = false;
          sent = undefined;
          domain = '';
          checked = undefined;
          domainCheck.clear();
          period = undefined;
          section.replaceChildren(
            el('h1', { id: 'order-title' }, o.title),
            body,
            total,
            hint,
            alert,
            fallback,
          );
          void load();
        },
        close: options.onClose,
      }),
    );
  }

  void load();
  return { element: section, dispose: () => control.dispose() };
}
