/*
 * The customer editor: a saved customer (or a new one, or a pasted card's reading) as one form —
 * the type, the postal-address and bank choices, and the fields the server lists for them in the
 * chat's order and words (asked again when the type or a choice changes; what was typed stays).
 * Each field is checked by the server as the user types (300 ms after the last key: a УНП's control
 * digit, a postal code by its country) and its problem shown under it. Save is Telegram's main
 * button (or a button in the page); a refusal marks each field and buzzes; leaving unsaved asks.
 * The order form reuses it for its customer step: `whois` adds the zone's WHOIS fields.
 *
 * Its parts: the state and its rules (customer-state.ts), the page (customer-form-view.ts), one
 * field (customer-field.ts), the server calls (customer-calls.ts); here they are wired together.
 */

import type { CustomerWhois as Whois } from '../../src/core/customer-form.js';
import type { CustomerForm, PastedCustomer, Saved } from '../../src/mini-app/contract.js';
import { ApiCallError, type AppApi, failureText } from './api.js';
import { type CustomerCalls, customerCalls } from './customer-calls.js';
import { type FieldView, fieldView } from './customer-field.js';
import {
  type CustomerPage,
  choiceBoxes,
  customerPage,
  fieldSections,
  typeOptions,
} from './customer-form-view.js';
import {
  type CustomerState,
  chooseType,
  fillFrom,
  noteEdit,
  problemOf,
  refuseAtSave,
  sayProblems,
  startCustomerState,
} from './customer-state.js';
import { type ApplyControl, applyControl, ask, confirmClosing, haptic } from './telegram.js';
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

/** The editor at work: what it was opened with, its state, page, fields, calls and Save. */
interface Editing {
  options: CustomerEditorOptions;
  words: Words;
  state: CustomerState;
  page: CustomerPage;
  /** The fields shown, as the last form listed them. */
  views: FieldView[];
  calls: CustomerCalls;
  control: ApplyControl;
}

export function customerEditor(options: CustomerEditorOptions): CustomerEditor {
  const { api, words } = options;
  const state = startCustomerState(options.card);
  const page = customerPage(words, options);
  const ed: Editing = {
    options,
    words,
    state,
    page,
    views: [],
    calls: customerCalls(
      api,
      options.whois,
      state,
      () => ed.views.map((v) => v.field.id),
      (hints) => checked(ed, hints),
    ),
    control: applyControl(page.fallback, words.save, () => void save(ed)),
  };
  page.typeSelect.addEventListener('change', () => {
    chooseType(state, page.typeSelect.value);
    markDirty(ed);
    void loadForm(ed).then(() => ed.calls.scheduleCheck(0));
  });
  page.form.addEventListener('submit', (event) => {
    event.preventDefault();
    void save(ed);
  });
  void start(ed);
  return {
    element: page.section,
    async leave() {
      if (state.saving) return false;
      if (state.dirty && !state.done && !(await ask(words.discardCustomer, words.leave))) return false;
      dispose(ed);
      return true;
    },
  };
}

/** Save shows once the form is had and a type chosen; it turns busy, and the form inert, while saving. */
function refresh({ state, page, control, words }: Editing): void {
  if (state.done) return;
  control.set({
    visible: state.loaded && state.type !== undefined,
    enabled: !state.saving,
    busy: state.saving,
    text: state.saving ? words.saving : words.save,
  });
  page.form.inert = state.saving;
}

/** The first change makes Telegram ask before closing. */
function markDirty({ state }: Editing): void {
  if (!state.dirty) confirmClosing(true);
  state.dirty = true;
}

/** Shows each field's problem; `buzz`: a new set of problems buzzes (a live check's). */
function showProblems({ state, views }: Editing, buzz: boolean): void {
  const shown: string[] = [];
  for (const view of views) {
    const text = problemOf(state, view.field.id);
    view.setProblem(text);
    if (text !== '') shown.push(`${view.field.id} ${text}`);
  }
  if (sayProblems(state, shown) && buzz) haptic('error');
}

/** A live check answered (its verdict is in the state); a new country brought new hints. */
function checked(ed: Editing, hints: Map<string, string> | undefined): void {
  if (hints) for (const view of ed.views) view.setHint(hints.get(view.field.id) ?? view.field.hint);
  showProblems(ed, true);
}

function edited(ed: Editing, view: FieldView): void {
  noteEdit(ed.state, view.field.id, view.value(), view.field.kind === 'country');
  markDirty(ed);
  showProblems(ed, false);
  ed.calls.scheduleCheck();
}

/** Asks the server for the fields of the type and choices, and shows them with what was typed. */
async function loadForm(ed: Editing): Promise<void> {
  const answer = await ed.calls.newestForm();
  if (answer === undefined) return;
  const { state, page } = ed;
  if (page.typeSelect.options.length === 1) {
    state.offered = answer.types.map((t) => t.type);
    page.typeSelect.append(...typeOptions(answer.types));
  }
  page.typeSelect.value = state.type ?? '';
  if (state.type === undefined) {
    ed.views = [];
    page.choicesBox.replaceChildren();
    page.fieldsBox.replaceChildren();
  } else showForm(ed, answer);
  showProblems(ed, false);
  refresh(ed);
}

/** The type's choices and fields, each field wired to the live check. */
function showForm(ed: Editing, answer: CustomerForm): void {
  const { state, page } = ed;
  page.choicesBox.replaceChildren(
    ...choiceBoxes(answer.choices, state.choices, (id, on) => {
      state.choices[id] = on;
      markDirty(ed);
      void loadForm(ed);
    }),
  );
  ed.views = answer.fields.map((field, index) =>
    fieldView(ed.words, field, String(index), state.typed.get(field.id)),
  );
  page.fieldsBox.replaceChildren(...fieldSections(ed.views));
  for (const view of ed.views) {
    view.control.addEventListener(view.field.kind === 'boolean' ? 'change' : 'input', () => edited(ed, view));
  }
}

function dispose({ state, calls, control }: Editing): void {
  state.done = true;
  calls.cancel();
  control.dispose();
  confirmClosing(false);
}

/**
 * Saves the customer; a refusal marks its fields and says why, and the first field in trouble is
 * scrolled to and focused.
 */
async function save(ed: Editing): Promise<void> {
  const { state, page, options } = ed;
  if (state.saving || state.done || state.type === undefined) return;
  ed.calls.cancelCheck();
  state.saving = true;
  page.said.clear();
  refresh(ed);
  let firstRefused: FieldView | undefined;
  try {
    const saved = await ed.calls.save(options.id, state.type);
    haptic('success');
    dispose(ed);
    options.onDone(saved);
    return;
  } catch (error) {
    haptic('error');
    if (error instanceof ApiCallError && error.code === 'badFields') {
      refuseAtSave(state, error.fieldProblems);
      showProblems(ed, false);
      firstRefused = ed.views.find((v) => state.refusedAtSave.has(v.field.id));
    }
    page.said.alert(failureText(ed.words, error));
  } finally {
    state.saving = false;
    refresh(ed);
  }
  // Only now: a form inert while saving takes no focus. Centred, clear of the page's edges.
  firstRefused?.element.scrollIntoView({ block: 'center' });
  firstRefused?.control.focus({ preventScroll: true });
}

/** Reads the saved customer (or takes the card's reading), then asks for its form and checks it. */
async function start(ed: Editing): Promise<void> {
  const { state, page, options, words } = ed;
  try {
    if (options.id !== undefined) {
      const saved = await ed.calls.read(options.id);
      page.title.textContent = `${words.customerTitle}: ${saved.label}`;
      state.type = saved.type ?? undefined;
      fillFrom(state, saved.answers);
    } else if (options.card !== undefined) {
      state.type = options.card.type;
      fillFrom(state, options.card.answers);
      confirmClosing(true);
    }
    await loadForm(ed);
    state.loaded = true;
    page.loading.remove();
    if (state.type !== undefined && state.typed.size > 0) ed.calls.scheduleCheck(0);
  } catch (error) {
    page.loading.remove();
    page.said.alert(failureText(words, error));
  }
  refresh(ed);
}
