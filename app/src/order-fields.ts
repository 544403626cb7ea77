/*
 * The order form's pieces that hold no state of the form: a labelled choice, and the screen of
 * an order placed (what the server said, where the invoice link went, what to do next).
 */

import type { Placed } from '../../src/mini-app/contract.js';
import { el } from './dom.js';
import type { OrderWords } from './order-words.js';

/** A labelled `<select>` (its label names it for screen readers and tests): the control, its field. */
export function selectField(
  id: string,
  label: string,
  options: { value: string; text: string }[],
  value: string,
) {
  const control = el('select', { id, name: id });
  control.append(...options.map((o) => el('option', { value: o.value }, o.text)));
  control.value = value;
  return { control, field: el('div', { class: 'field' }, el('label', { for: id }, label), control) };
}

/** «Заказ оформлен»: the server's words, the link's whereabouts, «Ещё заказ» and «Закрыть». */
export function placedView(o: OrderWords, done: Placed, actions: { another(): void; close(): void }) {
  const another = el('button', { type: 'button', class: 'secondary' }, o.another);
  const close = el('button', { type: 'button' }, o.close);
  another.addEventListener('click', () => actions.another());
  close.addEventListener('click', () => actions.close());
  return [
    el('h1', { id: 'order-title' }, o.doneTitle),
    el('p', { role: 'status' }, done.message),
    el('p', {}, done.linkSentTo),
    el('div', { class: 'actions' }, another, close),
  ];
}
