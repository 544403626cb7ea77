/*
 * What the customer editor keeps between taps, and its rules (no DOM; unit-tested under Node):
 * the answers sent for the fields shown, which problem a field shows, what a saved customer or a
 * pasted card starts the editor with, and what an edit or a new type forgets.
 */
import type { CustomerType } from '../../src/core/requisites.js';
import type { Answer, Answers, FieldProblem, PastedCustomer } from '../../src/mini-app/contract.js';

/** The two choices a legal person or an entrepreneur has, sent as answers of their own. */
export const CHOICES = ['postalSame', 'bankWanted'] as const;
export type Choices = Record<(typeof CHOICES)[number], boolean>;

/** What the customer editor keeps between taps, in one place. */
export interface CustomerState {
  /** The chosen type; undefined until one is chosen (a new customer). */
  type: CustomerType | undefined;
  /** The customer types the server offers (the select's options), once the form was first had. */
  offered: CustomerType[];
  /** The postal address is the legal one; bank details are given. */
  choices: Choices;
  /** Everything typed, by answer id: a field the form no longer shows keeps its answer. */
  typed: Map<string, Answer>;
  // A field's problem: the live check's, else the pasted card's (why it is empty), else Save's.
  checked: Map<string, string>;
  refusedInCard: Map<string, string>;
  refusedAtSave: Map<string, string>;
  /** The problems last shown, so a new set buzzes once. */
  lastSaid: string;
  /** Something was changed (or a card pasted): leaving asks first. */
  dirty: boolean;
  /** The form was had once: Save may show. */
  loaded: boolean;
  /** Save is running: the form is inert. */
  saving: boolean;
  /** Saved or left: nothing more is asked or shown. */
  done: boolean;
  /** A country was edited: the next check asks the form again for the postal code's hint. */
  countryTouched: boolean;
}

const problemMap = (problems: readonly FieldProblem[]) => new Map(problems.map((p) => [p.id, p.message]));

/** A new editor's state: a pasted card's refusals are shown, and leaving it asks first. */
export function startCustomerState(card?: PastedCustomer): CustomerState {
  return {
    type: undefined,
    offered: [],
    choices: { postalSame: true, bankWanted: false },
    typed: new Map(),
    checked: new Map(),
    refusedInCard: problemMap(card?.refused ?? []),
    refusedAtSave: new Map(),
    lastSaid: '',
    dirty: card !== undefined,
    loaded: false,
    saving: false,
    done: false,
    countryTouched: false,
  };
}

/** What the editor starts from: a saved customer's answers, or a card's. */
export function fillFrom(state: CustomerState, answers: Answers): void {
  for (const [id, value] of Object.entries(answers)) {
    if (id === 'postalSame' || id === 'bankWanted') {
      if (typeof value === 'boolean') state.choices[id] = value;
    } else if (value !== null && id !== 'customerType') state.typed.set(id, value);
  }
}

/** The answers of the fields shown, and the choices where the type has them. */
export function answersOf(state: CustomerState, shown: readonly string[]): Answers {
  const answers: Answers = {};
  for (const id of shown) {
    const value = state.typed.get(id);
    if (value !== undefined) answers[id] = value;
  }
  if (state.type !== undefined && state.type !== 'natural')
    for (const id of CHOICES) answers[id] = state.choices[id];
  return answers;
}

/** The problem a field shows: the live check's, else the pasted card's, else Save's; none: ''. */
export function problemOf(state: CustomerState, id: string): string {
  return state.checked.get(id) ?? state.refusedInCard.get(id) ?? state.refusedAtSave.get(id) ?? '';
}

/** Notes the problems now shown (`id text` lines); true when they are new and not none. */
export function sayProblems(state: CustomerState, shown: readonly string[]): boolean {
  const now = shown.join('\n');
  const fresh = now !== '' && now !== state.lastSaid;
  state.lastSaid = now;
  return fresh;
}

/** A field was edited: its answer kept (or forgotten when emptied), its refusals forgotten. */
export function noteEdit(
  state: CustomerState,
  id: string,
  value: Answer | undefined,
  country: boolean,
): void {
  if (value === undefined) state.typed.delete(id);
  else state.typed.set(id, value);
  state.refusedAtSave.delete(id);
  state.refusedInCard.delete(id);
  if (country) state.countryTouched = true;
}

/** A type was chosen in the select (one the server offers, else none); old verdicts go. */
export function chooseType(state: CustomerState, value: string): void {
  state.type = state.offered.find((t) => t === value);
  state.checked = new Map();
  state.refusedAtSave = new Map();
}

/** The live check's verdict replaces the last one. */
export function takeChecked(state: CustomerState, problems: readonly FieldProblem[]): void {
  state.checked = problemMap(problems);
}

/** Save refused these fields: their problems show, the live check's verdict goes. */
export function refuseAtSave(state: CustomerState, problems: readonly FieldProblem[]): void {
  state.refusedAtSave = problemMap(problems);
  state.checked = new Map();
}
