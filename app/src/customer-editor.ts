/*
 * The customer editor: a saved customer (or a new one, or a pasted card's reading) as one form —
 * the type, the postal-address and bank choices, and the fields the server lists for them in the
 * chat's order and words (asked again when the type or a choice changes; what was typed stays).
 * Each field is checked by the server as the user types (300 ms after the last key: a УНП's control
 * digit, a postal code by its country) and its problem shown under it. Save is Telegram's main
 * button (or a button in the page); a refusal marks each field and buzzes; leaving unsaved asks.
 * The order form reuses it for its customer step: `whois` adds the zone's WHOIS fields.
 */

import type { CustomerWhois as Whois } from '../../src/core/customer-form.js';
import type { CustomerType } from '../../src/core/requisites.js';
import type { Answer, Answers, CustomerForm, PastedCustomer, Saved } from '../../src/mini-app/contract.js';
import { ApiCallError, type AppApi, failureText } from './api.js';
import { type FieldView, fieldView } from './customer-field.js';
import { el } from './dom.js';
import { messages } from './messages.js';
import { applyControl, ask, confirmClosing, haptic } from './telegram.js';
import type { Words } from './words.js';

export interface CustomerEditorOptions {
  api: AppApi;
  words: Words;
  /** A saved customer to change; none: a new one. */
  id?: string;
  /** A pasted card's reading to start a new customer from (its refused values shown). */
  card?: PastedCustomer;
  /** The zone's WHOIS fields are asked too (an order of a .by or .ru domain). */
  whois?: Whois;
  /** Called once saved, with the customer's id and label. */
  onDone(saved: Saved): void;
}

export interface CustomerEditor {
  element: HTMLElement;
  /** Leaves the editor: asks first while unsaved; false when the user stays. */
  leave(): Promise<boolean>;
}

const CHOICES = ['postalSame', 'bankWanted'] as const;

export function customerEditor(options: CustomerEditorOptions): CustomerEditor {
  const { api, words } = options;
  const whois = options.whois === undefined ? {} : { whois: options.whois };
  let type: CustomerType | undefined;
  const choices = { postalSame: true, bankWanted: false };
  /** Everything typed, by answer id: a field the form no longer shows keeps its answer. */
  const typed = new Map<string, Answer>();
  let views: FieldView[] = [];
  // A field's problem: the live check's, else the pasted card's (why it is empty), else Save's.
  let checked = new Map<string, string>();
  let refusedAtSave = new Map<string, string>();
  const refusedInCard = new Map((options.card?.refused ?? []).map((p) => [p.id, p.message]));
  let dirty = options.card !== undefined;
  let loaded = false;
  let saving = false;
  let done = false;
  let countryTouched = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let checkSeq = 0;
  let formSeq = 0;
  let lastSaid = '';

  const title = el(
    'h1',
    { id: 'customer-title' },
    options.card ? words.newFromCard : options.id ? words.customerTitle : words.newCustomer,
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
  const control = applyControl(fallback, words.save, () => void save());
  const cardNote =
    options.card && options.card.refused.length > 0
      ? [
          el(
            'div',
            { class: 'note' },
            el('p', {}, words.cardRefused),
            el('ul', {}, ...options.card.refused.map((p) => el('li', {}, p.message))),
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

  const refresh = () => {
    if (done) return;
    control.set({
      visible: loaded && type !== undefined,
      enabled: !saving,
      busy: saving,
      text: saving ? words.saving : words.save,
    });
    form.inert = saving;
  };

  const markDirty = () => {
    if (!dirty) confirmClosing(true);
    dirty = true;
  };

  /** The answers of the fields shown, and the choices where the type has them. */
  const answersNow = (): Answers => {
    const answers: Answers = {};
    for (const view of views) {
      const value = typed.get(view.field.id);
      if (value !== undefined) answers[view.field.id] = value;
    }
    if (type !== undefined && type !== 'natural') for (const id of CHOICES) answers[id] = choices[id];
    return answers;
  };

  const showProblems = (buzz: boolean) => {
    const shown: string[] = [];
    for (const view of views) {
      const id = view.field.id;
      const text = checked.get(id) ?? refusedInCard.get(id) ?? refusedAtSave.get(id) ?? '';
      view.setProblem(text);
      if (text !== '') shown.push(`${id} ${text}`);
    }
    const now = shown.join('\n');
    if (buzz && now !== '' && now !== lastSaid) haptic('error');
    lastSaid = now;
  };

  const askForm = (): Promise<CustomerForm> =>
    api.post('customer/form', { type: type ?? 'natural', ...choices, ...whois, answers: answersNow() });

  /** Checks what is typed, 300 ms after the last key; a postal code's hint follows its country. */
  const scheduleCheck = (delay = 300) => {
    clearTimeout(timer);
    const mine = ++checkSeq;
    timer = setTimeout(async () => {
      if (type === undefined) return;
      try {
        const answer = await api.post('customer/check', { type, answers: answersNow(), ...whois });
        if (mine !== checkSeq) return;
        checked = new Map(answer.problems.map((p) => [p.id, p.message]));
        if (countryTouched) {
          countryTouched = false;
          const hints = new Map((await askForm()).fields.map((f) => [f.id, f.hint]));
          for (const view of views) view.setHint(hints.get(view.field.id) ?? view.field.hint);
        }
      } catch {
        // A check that failed says nothing: Save checks everything again.
        return;
      }
      showProblems(true);
    }, delay);
  };

  const edited = (view: FieldView) => {
    const id = view.field.id;
    const value = view.value();
    if (value === undefined) typed.delete(id);
    else typed.set(id, value);
    refusedAtSave.delete(id);
    refusedInCard.delete(id);
    if (view.field.kind === 'country') countryTouched = true;
    markDirty();
    showProblems(false);
    scheduleCheck();
  };

  const renderChoices = (answer: CustomerForm) => {
    choicesBox.replaceChildren(
      ...answer.choices.map((choice) => {
        const box = el('input', { type: 'checkbox', id: `choice-${choice.id}` });
        box.checked = choices[choice.id];
        box.addEventListener('change', () => {
          choices[choice.id] = box.checked;
          markDirty();
          void loadForm();
        });
        return el('div', { class: 'choice' }, box, el('label', { for: `choice-${choice.id}` }, choice.label));
      }),
    );
  };

  const renderFields = (answer: CustomerForm) => {
    views = answer.fields.map((field, index) => fieldView(words, field, String(index), typed.get(field.id)));
    const sections = [...new Set(views.map((v) => v.field.section))];
    fieldsBox.replaceChildren(
      ...sections.map((section) => {
        const mine = views.filter((v) => v.field.section === section);
        return el(
          'fieldset',
          {},
          el('legend', {}, mine[0]?.field.sectionName ?? ''),
          ...mine.map((v) => v.element),
        );
      }),
    );
    for (const view of views) {
      view.control.addEventListener(view.field.kind === 'boolean' ? 'change' : 'input', () => edited(view));
    }
  };

  /** The customer types the server offers (the select's options). */
  let offered: CustomerType[] = [];

  /** Asks the server for the fields of the type and choices, and shows them with what was typed. */
  const loadForm = async () => {
    const mine = ++formSeq;
    const answer = await askForm();
    if (mine !== formSeq || done) return;
    if (typeSelect.options.length === 1) {
      offered = answer.types.map((t) => t.type);
      typeSelect.append(...answer.types.map((t) => el('option', { value: t.type }, t.name)));
    }
    typeSelect.value = type ?? '';
    if (type === undefined) {
      views = [];
      choicesBox.replaceChildren();
      fieldsBox.replaceChildren();
    } else {
      renderChoices(answer);
      renderFields(answer);
    }
    showProblems(false);
    refresh();
  };

  typeSelect.addEventListener('change', () => {
    type = offered.find((t) => t === typeSelect.value);
    checked = new Map();
    refusedAtSave = new Map();
    markDirty();
    void loadForm().then(() => scheduleCheck(0));
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void save();
  });

  const dispose = () => {
    done = true;
    clearTimeout(timer);
    checkSeq++;
    formSeq++;
    control.dispose();
    confirmClosing(false);
  };

  async function save(): Promise<void> {
    if (saving || done || type === undefined) return;
    clearTimeout(timer);
    checkSeq++;
    saving = true;
    said.clear();
    refresh();
    try {
      const saved = await api.post('customer/save', {
        ...(options.id === undefined ? {} : { id: options.id }),
        type,
        answers: answersNow(),
        ...whois,
      });
      haptic('success');
      dispose();
      options.onDone(saved);
      return;
    } catch (error) {
      haptic('error');
      if (error instanceof ApiCallError && error.code === 'badFields') {
        refusedAtSave = new Map(error.fieldProblems.map((p) => [p.id, p.message]));
        checked = new Map();
        showProblems(false);
        views.find((v) => refusedAtSave.has(v.field.id))?.control.focus();
      }
      said.alert(failureText(words, error));
    } finally {
      saving = false;
      refresh();
    }
  }

  /** What the editor starts from: a saved customer's answers, or a card's. */
  const fill = (answers: Answers) => {
    for (const [id, value] of Object.entries(answers)) {
      if (id === 'postalSame' || id === 'bankWanted') {
        if (typeof value === 'boolean') choices[id] = value;
      } else if (value !== null && id !== 'customerType') typed.set(id, value);
    }
  };

  void (async () => {
    try {
      if (options.id !== undefined) {
        const saved = await api.get('customer', { id: options.id });
        title.textContent = `${words.customerTitle}: ${saved.label}`;
        type = saved.type ?? undefined;
        fill(saved.answers);
      } else if (options.card !== undefined) {
        type = options.card.type;
        fill(options.card.answers);
        confirmClosing(true);
      }
      await loadForm();
      loaded = true;
      loading.remove();
      if (type !== undefined && typed.size > 0) scheduleCheck(0);
    } catch (error) {
      loading.remove();
      said.alert(failureText(words, error));
    }
    refresh();
  })();

  return {
    element: section,
    async leave() {
      if (saving) return false;
      if (dirty && !done && !(await ask(words.discardCustomer, words.leave))) return false;
      dispose();
      return true;
    },
  };
}
