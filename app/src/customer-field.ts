/*
 * One field of the customer editor: its label (optional ones say so), the input its kind needs
 * (a phone's keyboard for a phone, digits for a УНП, Yes/No for a boolean, a country searched in
 * a list of names), the hint under it, and its problem — an alert the input is described by, so a
 * screen reader reads why with the field.
 */
import type { FieldKind } from '../../src/core/requisites-fields.js';
import type { Answer, FormField } from '../../src/mini-app/contract.js';
import { el } from './dom.js';
import type { Words } from './words.js';

export interface FieldView {
  field: FormField;
  element: HTMLElement;
  /** The input (or the Yes/No select) the user answers in. */
  control: HTMLInputElement | HTMLSelectElement;
  /** The answer as typed: text, Yes/No, or undefined when empty. */
  value(): Answer | undefined;
  setHint(text: string): void;
  /** Shows the problem under the field (none: ''). */
  setProblem(text: string): void;
}

/** What an input of each kind is: its type, keyboard and the case it is typed in. */
const INPUT_OF: Record<Exclude<FieldKind, 'boolean'>, Record<string, string>> = {
  text: {},
  name: { autocapitalize: 'words' },
  code: { autocapitalize: 'characters' },
  email: { type: 'email', inputmode: 'email', autocapitalize: 'off', autocomplete: 'email' },
  phone: { type: 'tel', inputmode: 'tel', autocomplete: 'tel', placeholder: '+375291234567' },
  date: { inputmode: 'decimal' },
  country: { autocapitalize: 'words', spellcheck: 'false' },
  digits: { inputmode: 'numeric' },
  postalCode: { autocapitalize: 'characters' },
  swift: { autocapitalize: 'characters', spellcheck: 'false' },
  iban: { autocapitalize: 'characters', spellcheck: 'false' },
};

export function fieldView(
  words: Words,
  field: FormField,
  key: string,
  initial: Answer | undefined,
): FieldView {
  const id = `cf-${key}`;
  const hint = el('small', { id: `${id}-hint`, class: 'hint' }, field.hint);
  const problem = el('p', { id: `${id}-problem`, class: 'problem', role: 'alert' });
  const describedBy = `${id}-hint ${id}-problem`;
  let control: HTMLInputElement | HTMLSelectElement;
  if (field.kind === 'boolean') {
    control = el(
      'select',
      { id, 'aria-describedby': describedBy },
      el('option', { value: '' }, words.notChosen),
      el('option', { value: 'yes' }, words.yes),
      el('option', { value: 'no' }, words.no),
    );
    control.value = initial === true ? 'yes' : initial === false ? 'no' : '';
  } else {
    const date = field.kind === 'date' ? { placeholder: words.datePlaceholder } : {};
    control = el('input', {
      type: 'text',
      autocomplete: 'off',
      ...INPUT_OF[field.kind],
      ...date,
      id,
      'aria-describedby': describedBy,
      ...(field.optional ? {} : { 'aria-required': 'true' }),
    });
    control.value = typeof initial === 'string' ? initial : '';
  }
  // A country is searched in the server's list by name (a combobox to a screen reader); the name
  // chosen is sent as its code, and a name typed outside the list is left to the server to read.
  const countries =
    field.kind === 'country' && control instanceof HTMLInputElement ? field.options : undefined;
  const list = countries && countryList(control as HTMLInputElement, `${id}-countries`, countries);
  const label = el(
    'label',
    { for: id },
    field.label,
    ...(field.optional ? [el('span', { class: 'optional' }, ` (${words.optional})`)] : []),
  );
  hint.hidden = field.hint === '';
  const element = el(
    'div',
    { class: 'field' },
    label,
    control,
    ...(list ? [list.element] : []),
    hint,
    problem,
  );
  return {
    field,
    element,
    control,
    value() {
      if (control instanceof HTMLSelectElement)
        return control.value === 'yes' ? true : control.value === 'no' ? false : undefined;
      if (control.value.trim() === '') return undefined;
      return list ? list.codeOf(control.value) : control.value;
    },
    setHint(text) {
      hint.textContent = text;
      hint.hidden = text === '';
    },
    setProblem(text) {
      if (problem.textContent === text) return;
      // Never hidden, only empty: a live region that appears with its text may go unread.
      problem.textContent = text;
      control.setAttribute('aria-invalid', String(text !== ''));
      element.classList.toggle('invalid', text !== '');
    },
  };
}

type CountryOption = NonNullable<FormField['options']>[number];

/**
 * The list a country input searches (a datalist of the countries' names, the input showing a
 * saved code by its name), and the code of what is typed: a name of the list (in any case) is its
 * code, anything else goes as typed.
 */
function countryList(input: HTMLInputElement, id: string, options: readonly CountryOption[]) {
  const key = (text: string) => text.trim().toLowerCase().replace(/ё/g, 'е');
  const byName = new Map(options.map((o) => [key(o.label), o.value]));
  const shown = options.find((o) => o.value === input.value.trim().toUpperCase());
  if (shown) input.value = shown.label;
  input.setAttribute('list', id);
  return {
    element: el('datalist', { id }, ...options.map((o) => el('option', { value: o.label }))),
    codeOf: (text: string) => byName.get(key(text)) ?? text,
  };
}
