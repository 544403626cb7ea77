/*
 * «Заказчики»: the account's saved customers (the chat's /requisites keeps the same list), each
 * with its type, Edit and Delete (asked in Telegram's popup); «Новый заказчик», and «Вставить
 * карточку» — a card of requisites read by the server as the chat reads one, opened in the editor
 * with what it could not take shown (nothing is saved until Save). Telegram's back button returns
 * from the editor to the list, asking first while the customer is unsaved.
 */
import type { CustomerEntry, PastedCustomer, Session } from '../../src/mini-app/contract.js';
import { guardLeaving } from './account-switch.js';
import { type AppApi, failureText } from './api.js';
import { customerEditor } from './customer-editor.js';
import { el } from './dom.js';
import { ask, haptic, setBackButton } from './telegram.js';
import { textForm } from './text-form.js';
import { type Words, withLabel } from './words.js';
import { sessionView } from './zone-view.js';

export interface CustomersScreen {
  api: AppApi;
  words: Words;
  session: Session;
  /** Puts the screen's nodes on the page. */
  show(...nodes: Node[]): void;
}

/** The list, or an editor; `said`: what the last action did, shown above the list. */
export async function showCustomers(
  screen: CustomersScreen,
  said?: { kind: 'status' | 'alert'; text: string },
): Promise<void> {
  const { api, words, session, show } = screen;
  setBackButton(undefined);
  guardLeaving(undefined);
  const header = sessionView(words, session);
  const heading = el('h1', { id: 'customers-title' }, words.customersTitle);
  show(header, heading, el('p', { role: 'status' }, words.loading));
  const status = el('p', { role: 'status', class: 'message' }, said?.kind === 'status' ? said.text : '');
  const alert = el('p', { role: 'alert', class: 'error' }, said?.kind === 'alert' ? said.text : '');
  let customers: CustomerEntry[];
  try {
    customers = (await api.get('customers', {})).customers;
  } catch (error) {
    show(
      header,
      heading,
      el('p', { role: 'alert', class: 'error' }, `${words.failed}: ${failureText(words, error)}`),
    );
    return;
  }

  const remove = async (customer: CustomerEntry) => {
    if (!(await ask(withLabel(words.deleteQuestion, customer.label), words.remove))) return;
    try {
      await api.post('customer/delete', { id: customer.id });
      haptic('success');
      await showCustomers(screen, { kind: 'status', text: withLabel(words.deleted, customer.label) });
    } catch (error) {
      haptic('error');
      await showCustomers(screen, { kind: 'alert', text: failureText(words, error) });
    }
  };

  const items = customers.map((customer) =>
    el(
      'li',
      { class: 'customer' },
      el(
        'div',
        { class: 'who' },
        el('span', { class: 'label' }, customer.label),
        ...(customer.typeName === '' ? [] : [el('span', { class: 'type' }, customer.typeName)]),
      ),
      el(
        'div',
        { class: 'actions' },
        button(words.editCustomer, withLabel(words.editOf, customer.label), () =>
          openEditor(screen, { id: customer.id }),
        ),
        button(
          words.remove,
          withLabel(words.deleteOf, customer.label),
          () => void remove(customer),
          'remove',
        ),
      ),
    ),
  );
  show(
    header,
    el(
      'section',
      { class: 'customers', 'aria-labelledby': 'customers-title' },
      heading,
      // Saved customers are the chat's, not an account's: said where there are several.
      ...(session.account.accounts > 1
        ? [el('p', { class: 'note', role: 'note' }, words.customersShared)]
        : []),
      status,
      alert,
      customers.length === 0 ? el('p', {}, words.noCustomers) : el('ul', { class: 'customers' }, ...items),
      button(words.newCustomer, words.newCustomer, () => openEditor(screen, {}), 'new'),
      pasteCard(screen),
    ),
  );
}

function button(text: string, name: string, onClick: () => void, kind = ''): HTMLButtonElement {
  const attributes: Record<string, string> = { type: 'button', ...(kind ? { class: kind } : {}) };
  if (name !== text) attributes['aria-label'] = name;
  const element = el('button', attributes, text);
  element.addEventListener('click', onClick);
  return element;
}

/** The editor in place of the list; back (Telegram's or the page's) returns to it. */
function openEditor(screen: CustomersScreen, start: { id?: string; card?: PastedCustomer }): void {
  const { api, words, session, show } = screen;
  let leaving = false;
  const back = async () => {
    if (leaving) return;
    leaving = true;
    if (await editor.leave()) await showCustomers(screen);
    leaving = false;
  };
  const editor = customerEditor({
    api,
    words,
    ...start,
    onDone: (saved) =>
      void showCustomers(screen, { kind: 'status', text: withLabel(words.saved, saved.label) }),
  });
  setBackButton(() => void back());
  guardLeaving(() => editor.leave());
  show(
    sessionView(words, session),
    button(words.backToList, words.backToList, () => void back(), 'back'),
    editor.element,
  );
}

/** «Вставить карточку»: the text read by the server; a card opens in the editor, anything else is told why. */
function pasteCard(screen: CustomersScreen): HTMLElement {
  const { api, words } = screen;
  const result = el('p', { role: 'alert', class: 'error' });
  return textForm({
    id: 'card-text',
    title: words.pasteCardTitle,
    label: words.pasteCardLabel,
    button: words.readCard,
    rows: 5,
    result,
    async onText(text) {
      result.textContent = '';
      try {
        const card = await api.post('customer/paste', { text });
        openEditor(screen, { card });
      } catch (error) {
        haptic('error');
        result.textContent = failureText(words, error);
      }
    },
  });
}
