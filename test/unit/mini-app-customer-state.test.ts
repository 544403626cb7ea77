/*
 * The customer editor's rules (app/src/customer-state.ts): the answers sent for the fields shown,
 * which problem a field shows, what a saved customer or a card starts with, what an edit forgets.
 */
import { describe, expect, it } from 'vitest';
import {
  answersOf,
  chooseType,
  fillFrom,
  noteEdit,
  problemOf,
  refuseAtSave,
  sayProblems,
  startCustomerState,
  takeChecked,
} from '../../app/src/customer-state.js';
import type { PastedCustomer } from '../../src/mini-app/contract.js';

const card: PastedCustomer = {
  type: 'juridical',
  typeName: 'Юридическое лицо',
  answers: { name: 'ООО «Ромашка»', unp: null, postalSame: false },
  refused: [{ id: 'unp', message: 'УНП: контрольная цифра не сходится' }],
};

describe('the customer editor’s state', () => {
  it('starts a new customer clean, and a pasted card unsaved with its refusals', () => {
    const fresh = startCustomerState();
    expect(fresh).toMatchObject({
      type: undefined,
      dirty: false,
      choices: { postalSame: true, bankWanted: false },
    });
    expect(problemOf(fresh, 'unp')).toBe('');
    const pasted = startCustomerState(card);
    expect(pasted.dirty).toBe(true);
    expect(problemOf(pasted, 'unp')).toBe('УНП: контрольная цифра не сходится');
  });

  it('fills typed answers and the choices, skipping the type and empty values', () => {
    const state = startCustomerState(card);
    fillFrom(state, { ...card.answers, customerType: 'juridical', bankWanted: 'yes' });
    expect([...state.typed]).toEqual([['name', 'ООО «Ромашка»']]);
    expect(state.choices).toEqual({ postalSame: false, bankWanted: false });
  });

  it('sends the answers of the fields shown, and the choices only where the type has them', () => {
    const state = startCustomerState();
    state.typed.set('name', 'Иван').set('unp', '190000000');
    state.type = 'natural';
    expect(answersOf(state, ['name'])).toEqual({ name: 'Иван' });
    state.type = 'juridical';
    expect(answersOf(state, ['name', 'unp', 'email'])).toEqual({
      name: 'Иван',
      unp: '190000000',
      postalSame: true,
      bankWanted: false,
    });
    state.type = undefined;
    expect(answersOf(state, [])).toEqual({});
  });

  it('shows the live check’s problem first, then the card’s, then Save’s; an edit forgets the last two', () => {
    const state = startCustomerState(card);
    refuseAtSave(state, [
      { id: 'unp', message: 'at save' },
      { id: 'email', message: 'bad email' },
    ]);
    expect(problemOf(state, 'unp')).toBe('УНП: контрольная цифра не сходится');
    takeChecked(state, [{ id: 'unp', message: 'live' }]);
    expect(problemOf(state, 'unp')).toBe('live');
    noteEdit(state, 'email', 'a@b.by', false);
    noteEdit(state, 'unp', undefined, false);
    expect([problemOf(state, 'email'), state.typed.has('unp'), state.refusedInCard.size]).toEqual([
      '',
      false,
      0,
    ]);
    expect(state.countryTouched).toBe(false);
    noteEdit(state, 'country', 'BY', true);
    expect(state.countryTouched).toBe(true);
  });

  it('takes only an offered type, and a new type forgets the verdicts', () => {
    const state = startCustomerState();
    state.offered = ['natural', 'juridical'];
    takeChecked(state, [{ id: 'unp', message: 'live' }]);
    refuseAtSave(state, [{ id: 'name', message: 'at save' }]);
    chooseType(state, 'juridical');
    expect([state.type, state.checked.size, state.refusedAtSave.size]).toEqual(['juridical', 0, 0]);
    chooseType(state, 'martian');
    expect(state.type).toBeUndefined();
  });

  it('buzzes for a new set of problems once, never for none', () => {
    const state = startCustomerState();
    expect(sayProblems(state, [])).toBe(false);
    expect(sayProblems(state, ['unp bad'])).toBe(true);
    expect(sayProblems(state, ['unp bad'])).toBe(false);
    expect(sayProblems(state, ['unp bad', 'email bad'])).toBe(true);
    expect(sayProblems(state, [])).toBe(false);
    expect(sayProblems(state, ['unp bad'])).toBe(true);
  });
});
