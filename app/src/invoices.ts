/*
 * «Счета»: every invoice of the account (billing/invoices), narrowed here as the partner chooses —
 * a status chip, a period, the search as typed (core's filter and search) — each with its
 * payments and «Открыть» / «Копировать ссылку» / «Поделиться»; below, «Акты сверки», each with
 * «Сохранить». The list opens on all time; opened from the home at an invoice, that invoice is
 * scrolled to and marked.
 */
import {
  filterInvoices,
  INVOICE_FILTERS,
  INVOICE_PERIODS,
  type InvoiceFilter,
  type InvoicePeriodKind,
} from '../../src/core/invoice-filter.js';
import type { InvoiceEntry, Session, StatementEntry } from '../../src/mini-app/contract.js';
import { type AppApi, failureText } from './api.js';
import { el } from './dom.js';
import { invoiceView, statementView } from './invoice-view.js';
import type { Words } from './words.js';

export interface InvoicesScreen {
  api: AppApi;
  words: Words;
  session: Session;
  header: HTMLElement;
  show(...nodes: Node[]): void;
  /** The invoice to show and mark (opened from the home). */
  invoiceId?: number | undefined;
}

/** What the list is narrowed by. */
interface Choice {
  filter: InvoiceFilter;
  period: InvoicePeriodKind;
  from: string;
  to: string;
  text: string;
}

export function showInvoices(screen: InvoicesScreen): void {
  const { api, words, session } = screen;
  if (!session.capabilities.includes('billing')) {
    screen.show(screen.header, el('p', { role: 'alert' }, words.noBillingRole));
    return;
  }
  const status = el('p', { role: 'status', class: 'message', 'data-said': '' });
  const say = (text: string, kind: 'status' | 'alert' = 'status') => {
    status.setAttribute('role', kind);
    status.className = kind === 'alert' ? 'message error' : 'message';
    status.textContent = text;
  };
  const choice: Choice = {
    filter: 'all',
    // All time at first: nothing owed is out of sight until the partner narrows the list.
    period: 'all',
    from: '',
    to: '',
    text: '',
  };
  const list = el(
    'ul',
    { class: 'invoices', 'aria-busy': 'true' },
    el('li', { class: 'quiet' }, words.loading),
  );
  let invoices: InvoiceEntry[] | undefined;
  const render = () => {
    if (invoices === undefined) return;
    const shown = filterInvoices(
      invoices,
      {
        filter: choice.filter,
        period: { kind: choice.period, from: choice.from, to: choice.to },
        text: choice.text,
      },
      new Date(),
    );
    const empty = invoices.length === 0 ? words.noInvoices : words.noInvoicesFound;
    list.replaceChildren(
      ...(shown.length === 0
        ? [el('li', { class: 'quiet' }, empty)]
        : shown.map((invoice) => invoiceView({ api, words, say }, invoice))),
    );
  };

  const controls = choiceControls(words, choice, render);
  const statements = el(
    'ul',
    { class: 'statements', 'aria-busy': 'true' },
    el('li', { class: 'quiet' }, words.loading),
  );
  screen.show(
    screen.header,
    el('h1', { id: 'invoices-title' }, words.invoicesTitle),
    controls,
    status,
    el('section', { class: 'invoices', 'aria-labelledby': 'invoices-title' }, list),
    el(
      'section',
      { class: 'statements', 'aria-labelledby': 'statements-title', 'data-block': 'statements' },
      el('h2', { id: 'statements-title' }, words.statementsTitle),
      statements,
    ),
  );

  const failed = (error: unknown) =>
    el('li', { class: 'error', role: 'alert' }, `${words.failed}: ${failureText(words, error)}`);
  api.get('billing/invoices', {}).then(
    (answer) => {
      invoices = answer.invoices;
      list.setAttribute('aria-busy', 'false');
      render();
      const at =
        screen.invoiceId === undefined
          ? undefined
          : list.querySelector(`[data-invoice-id="${screen.invoiceId}"]`);
      if (at instanceof HTMLElement) {
        at.setAttribute('data-focused', '');
        at.setAttribute('aria-current', 'true');
        at.scrollIntoView({ block: 'center' });
      }
    },
    (error: unknown) => {
      list.setAttribute('aria-busy', 'false');
      list.replaceChildren(failed(error));
    },
  );
  api.get('billing/statements', {}).then(
    (answer) => {
      statements.setAttribute('aria-busy', 'false');
      statements.replaceChildren(
        ...(answer.statements.length === 0
          ? [el('li', { class: 'quiet' }, words.noStatements)]
          : answer.statements.map((statement: StatementEntry) =>
              statementView({ api, words, say }, statement),
            )),
      );
    },
    (error: unknown) => {
      statements.setAttribute('aria-busy', 'false');
      statements.replaceChildren(failed(error));
    },
  );
}

/** The chips, the period (with its two days when custom) and the search field. */
function choiceControls(words: Words, choice: Choice, render: () => void): HTMLElement {
  const chips = INVOICE_FILTERS.map((filter) => {
    const chip = el(
      'button',
      {
        type: 'button',
        class: 'chip',
        'data-filter': filter,
        'aria-pressed': String(filter === choice.filter),
      },
      words.filters[filter],
    );
    chip.addEventListener('click', () => {
      choice.filter = filter;
      for (const other of chips) other.setAttribute('aria-pressed', String(other === chip));
      render();
    });
    return chip;
  });
  const period = el(
    'select',
    { id: 'invoice-period', name: 'period' },
    ...INVOICE_PERIODS.map((kind) => el('option', { value: kind }, words.periods[kind])),
  );
  period.value = choice.period;
  const day = (id: string, label: string, key: 'from' | 'to') => {
    const input = el('input', { id, name: key, type: 'date' });
    input.addEventListener('input', () => {
      choice[key] = input.value;
      render();
    });
    return el('label', { for: id, class: 'day' }, label, input);
  };
  const span = el(
    'div',
    { class: 'span', hidden: '' },
    day('invoice-from', words.periodFrom, 'from'),
    day('invoice-to', words.periodTo, 'to'),
  );
  span.hidden = choice.period !== 'custom';
  period.addEventListener('change', () => {
    choice.period = period.value as InvoicePeriodKind;
    span.hidden = choice.period !== 'custom';
    render();
  });
  const search = el('input', {
    id: 'invoice-search',
    name: 'search',
    type: 'search',
    autocomplete: 'off',
    autocapitalize: 'off',
    spellcheck: 'false',
    placeholder: words.searchPlaceholder,
  });
  search.addEventListener('input', () => {
    choice.text = search.value;
    render();
  });
  return el(
    'div',
    { class: 'invoice-controls' },
    el('div', { class: 'chips', role: 'group', 'aria-label': words.statusFilter }, ...chips),
    el('div', { class: 'field' }, el('label', { for: 'invoice-period' }, words.period), period),
    span,
    el(
      'div',
      { class: 'field', role: 'search' },
      el('label', { for: 'invoice-search' }, words.search),
      search,
    ),
  );
}
