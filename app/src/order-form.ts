/*
 * The order form: what to order (kind, then its tariff, or a domain checked as it is typed), the
 * term with its price, the currency, a saved customer (or a new one, entered in the customer
 * editor), the total, and Confirm as Telegram's main button. Confirm carries a once-only key: a
 * double tap or a retry of the same order is answered once by the server, and the invoice link
 * goes to the chat with the bot.
 *
 * Its parts: the state and its rules (order-state.ts), the page and its fields
 * (order-form-view.ts), the server calls (order-calls.ts, and domain-check.ts for the domain's
 * live check); here they are wired together.
 */

import type { Catalog, Placed } from '../../src/mini-app/contract.js';
import { ApiCallError, type AppApi, failureText } from './api.js';
import { el } from './dom.js';
import { type DomainChecker, domainChecker } from './domain-check.js';
import { catalogOf, freshKey } from './order-calls.js';
import { placedView } from './order-fields.js';
import * as V from './order-form-view.js';
import * as S from './order-state.js';
import type { OrderWords } from './order-words.js';
import { type ApplyControl, applyControl, confirmClosing, haptic } from './telegram.js';
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

/** The form at work: what it was opened with, its state, page, domain check and Confirm. */
interface Ordering {
  options: OrderFormOptions;
  state: S.OrderFormState;
  page: V.OrderPage;
  domainCheck: DomainChecker;
  /** The term's field, rebuilt whenever the terms on offer may have changed. */
  periodBox: HTMLElement;
  /** Confirm; the customer editor takes Telegram's main button while it is open. */
  control: ApplyControl;
  onConfirm(): void;
}

export function orderForm(options: OrderFormOptions): { element: HTMLElement; dispose(): void } {
  const { api, words, o } = options;
  const page = V.orderPage(o);
  const state = S.startOrderState(options.domain);
  const onConfirm = () => void confirm(f);
  const f: Ordering = {
    options,
    state,
    page,
    control: applyControl(page.fallback, o.confirm, onConfirm),
    onConfirm,
    domainCheck: domainChecker(api, words, o, (verdict) => {
      state.checked = verdict;
      renderPeriods(f);
      refresh(f);
    }),
    periodBox: el('div', {}),
  };
  void load(f);
  return { element: page.section, dispose: () => f.control.dispose() };
}

/** The total, what is still needed, Telegram's ask before closing, and Confirm. */
function refresh({ state, page, control, options }: Ordering): void {
  const { o } = options;
  const summary = S.summaryOf(state, o);
  page.total.textContent = summary.total;
  page.hint.textContent = summary.hint;
  // Telegram asks before closing a form with choices made and no order placed.
  confirmClosing(!state.placed && S.hasChoices(state));
  control.set({
    visible: !state.placed,
    enabled: S.requestOf(state) !== undefined,
    busy: state.sending,
    text: state.sending ? o.sending : o.confirm,
  });
}

const say = (f: Ordering, ...nodes: (Node | string)[]) => f.page.alert.replaceChildren(...nodes);

/** The term's field, for the terms now on offer. */
function renderPeriods(f: Ordering): void {
  const { state } = f;
  const periods = S.settlePeriod(state);
  const field = V.periodField(f.options.o, state.kind, periods, state.period, (count) => {
    state.period = count;
    haptic('selection');
    refresh(f);
  });
  f.periodBox.replaceWith(field);
  f.periodBox = field;
}

/** The form's fields for the catalog had; a domain typed before is checked if it has no verdict. */
function render(f: Ordering): void {
  const { state, options, domainCheck } = f;
  const { o } = options;
  const current = state.catalog;
  if (!current) return;
  const parts: HTMLElement[] = [
    V.kindField(o, current, state.kind, (next) => {
      if (next === state.kind) return;
      S.chooseKind(state, next);
      domainCheck.clear();
      void load(f);
    }),
  ];
  if (current.currencies.length > 1)
    parts.push(
      V.currencyField(o, current, state.currencyId, (id) => {
        state.currencyId = id;
        void load(f);
      }),
    );
  if (state.kind !== 'domain')
    parts.push(
      V.tariffField(o, current, state.tariffId, (id) => {
        state.tariffId = id;
        state.period = undefined;
        renderPeriods(f);
        refresh(f);
      }),
    );
  if (state.kind !== 'mail') {
    parts.push(
      V.domainField(o, state.kind, state.domain, (value) => {
        state.domain = value;
        if (state.kind !== 'domain') return refresh(f);
        domainCheck.typed(state.domain, state.currencyId);
      }),
    );
    if (state.kind === 'domain') parts.push(domainCheck.status);
  }
  parts.push(f.periodBox, ...customerChoice(f, current));
  f.page.body.replaceChildren(...parts);
  renderPeriods(f);
  if (state.kind === 'domain' && state.domain.trim() !== '' && state.checked === undefined)
    void domainCheck.check(state.domain, state.currencyId);
  refresh(f);
}

/** The customer's select, and «new customer»: for a domain whose zone needs WHOIS data, the new
 * customer is asked it at once. */
function customerChoice(f: Ordering, catalog: Catalog): HTMLElement[] {
  const { state } = f;
  return V.customerFields(
    f.options.o,
    catalog,
    state.customerId,
    (id) => {
      state.customerId = id;
      say(f);
      haptic('selection');
      refresh(f);
    },
    () => {
      const whois = state.kind === 'domain' ? state.checked?.whois : undefined;
      void editCustomer(f, whois === undefined ? {} : { whois });
    },
  );
}

/** The kind's catalog; a domain's verdict stays (the same name, whatever else changed). */
async function load(f: Ordering): Promise<void> {
  const { state } = f;
  say(f);
  try {
    state.catalog = await catalogOf(f.options.api, state.kind, state.currencyId);
    state.currencyId = state.catalog.currencyId;
    if (!state.catalog.customers.some((c) => c.id === state.customerId)) state.customerId = '';
    render(f);
  } catch (error) {
    say(f, failureText(f.options.words, error));
  }
}

/** The customer editor takes Telegram's main button (its Save) until it is left. */
async function editCustomer(f: Ordering, edit: { id?: string; whois?: 'by' | 'ru' }): Promise<void> {
  f.control.dispose();
  const saved = await f.options.customers.edit(edit);
  f.control = applyControl(f.page.fallback, f.options.o.confirm, f.onConfirm);
  if (saved !== undefined) f.state.customerId = saved;
  say(f);
  await load(f);
}

/** Places the order once: the same order keeps its key, so a retry or a second tap is answered once. */
async function confirm(f: Ordering): Promise<void> {
  const { state, options } = f;
  const order = S.requestOf(state);
  if (!order || state.sending || state.placed) return;
  const key = S.keyFor(state, order, freshKey);
  state.sending = true;
  confirmClosing(true);
  say(f);
  refresh(f);
  try {
    const done = await options.api.post('order/submit', { ...order, key });
    state.placed = true;
    haptic('success');
    showPlaced(f, done);
  } catch (error) {
    haptic('error');
    say(f, el('p', {}, failureText(options.words, error)), ...fillButton(f, error));
  } finally {
    state.sending = false;
    refresh(f);
  }
}

/** A customer missing what the order needs: «fill in» opens the editor on them (with the WHOIS
 * fields the zone needs). */
function fillButton(f: Ordering, error: unknown): HTMLElement[] {
  if (!(error instanceof ApiCallError && error.code === 'customerIncomplete')) return [];
  const fill = el('button', { type: 'button', class: 'secondary' }, f.options.o.fillCustomer);
  fill.addEventListener('click', () => {
    const whois = error.details.whois;
    void editCustomer(f, { id: f.state.customerId, ...(whois === 'by' || whois === 'ru' ? { whois } : {}) });
  });
  return [fill];
}

function showPlaced(f: Ordering, done: Placed): void {
  const { o } = f.options;
  f.control.set({ visible: false, enabled: false, busy: false, text: o.confirm });
  f.page.section.replaceChildren(
    ...placedView(o, done, {
      another: () => {
        S.startAnother(f.state);
        f.domainCheck.clear();
        f.page.showForm();
        void load(f);
      },
      close: f.options.onClose,
    }),
  );
}
