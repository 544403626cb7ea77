/*
 * The customer editor's page, built: the title, the pasted card's refusals, the type's select,
 * the choices (checkboxes) and the fields grouped by section in fieldsets, the button Save falls
 * back to, and the editor's last word. It holds no state: the editor fills and wires it.
 */
import type { CustomerForm, PastedCustomer } from '../../src/mini-app/contract.js';
import type { FieldView } from './customer-field.js';
import type { Choices } from './customer-state.js';
import { el } from './dom.js';
import { messages } from './messages.js';
import type { Words } from './words.js';

/** The page's parts the editor fills (the type's options, the choices, the fields) and wires. */
export function customerPage(words: Words, opened: { id?: string; card?: PastedCustomer }) {
  const { card } = opened;
  const title = el(
    'h1',
    { id: 'customer-title' },
    card ? words.newFromCard : opened.id ? words.customerTitle : words.newCustomer,
  );
  const loading = el('p', { role: 'status' }, words.loading);
  const typeSelect = el('select', { id: 'customer-type' }, el('option', { value: '' }, words.chooseType));
  const choicesBox = el('div', { class: 'choices' });
  const fieldsBox = el('div', { class: 'fields' });
  const form = el(
    'form',
    { class: 'customer', novalidate: '', 'aria-labelledby': 'customer-title' },
    el('div', { class: 'field' }, el('label', { for: 'customer-type' }, words.customerType), typeSelect),
    choicesBox,
    fieldsBox,
  );
  const said = messages();
  const fallback = el('button', { type: 'button', class: 'apply' });
  const cardNote =
    card && card.refused.length > 0
      ? [
          el(
            'div',
            { class: 'note' },
            el('p', {}, words.cardRefused),
            el('ul', {}, ...card.refused.map((p) => el('li', {}, p.message))),
          ),
        ]
      : [];
  const section = el(
    'section',
    { class: 'customer-editor', 'aria-labelledby': 'customer-title' },
    title,
    ...cardNote,
    loading,
    form,
    fallback,
    ...said.elements,
  );
  return { section, title, loading, typeSelect, choicesBox, fieldsBox, form, said, fallback };
}

export type CustomerPage = ReturnType<typeof customerPage>;

/** The type's options after «choose a type», as the server offers them. */
export function typeOptions(types: CustomerForm['types']): HTMLOptionElement[] {
  return types.map((t) => el('option', { value: t.type }, t.name));
}

/** The choices the type has, as labelled checkboxes showing `values`; `changed` on a tap. */
export function choiceBoxes(
  choices: CustomerForm['choices'],
  values: Choices,
  changed: (id: keyof Choices, on: boolean) => void,
): HTMLElement[] {
  return choices.map((choice) => {
    const box = el('input', { type: 'checkbox', id: `choice-${choice.id}` });
    box.checked = values[choice.id];
    box.addEventListener('change', () => changed(choice.id, box.checked));
    return el('div', { class: 'choice' }, box, el('label', { for: `choice-${choice.id}` }, choice.label));
  });
}

/** The fields in a fieldset per section, in the server's order, each legend the section's name. */
export function fieldSections(views: readonly FieldView[]): HTMLElement[] {
  const sections = [...new Set(views.map((v) => v.field.section))];
  return sections.map((section) => {
    const mine = views.filter((v) => v.field.section === section);
    return el(
      'fieldset',
      {},
      el('legend', {}, mine[0]?.field.sectionName ?? ''),
      ...mine.map((v) => v.element),
    );
  });
}
