/*
 * The customer editor's calls to the server: the form of a type and its choices (only the newest
 * answer is shown), the live check 300 ms after the last key (only the newest answer counts; a
 * country's edit asks the form again for the postal code's hint), the saved customer, and Save.
 */
import type { CustomerWhois as Whois } from '../../src/core/customer-form.js';
import type { CustomerType } from '../../src/core/requisites.js';
import type { CustomerForm } from '../../src/mini-app/contract.js';
import type { AppApi } from './api.js';
import { answersOf, type CustomerState, takeChecked } from './customer-state.js';

/**
 * `shown`: the ids of the fields shown, whose answers are sent. `checked`: a check's verdict is
 * in the state; `hints` when the country changed (by field id).
 */
export function customerCalls(
  api: AppApi,
  whois: Whois | undefined,
  state: CustomerState,
  shown: () => readonly string[],
  checked: (hints: Map<string, string> | undefined) => void,
) {
  const extra = whois === undefined ? {} : { whois };
  const answers = () => answersOf(state, shown());
  const form = (): Promise<CustomerForm> =>
    api.post('customer/form', {
      type: state.type ?? 'natural',
      ...state.choices,
      ...extra,
      answers: answers(),
    });
  let timer: ReturnType<typeof setTimeout> | undefined;
  let checkSeq = 0;
  let formSeq = 0;

  const check = async (mine: number) => {
    const type = state.type;
    if (type === undefined) return;
    let hints: Map<string, string> | undefined;
    try {
      const answer = await api.post('customer/check', { type, answers: answers(), ...extra });
      if (mine !== checkSeq) return;
      takeChecked(state, answer.problems);
      if (state.countryTouched) {
        state.countryTouched = false;
        hints = new Map((await form()).fields.map((f) => [f.id, f.hint]));
      }
    } catch {
      // A check that failed says nothing: Save checks everything again.
      return;
    }
    checked(hints);
  };
  const cancelCheck = () => {
    clearTimeout(timer);
    checkSeq++;
  };

  return {
    /** The form of the type and choices, with what is typed. */
    form,
    /** The form, or undefined when a newer one was asked meanwhile or the editor was left. */
    async newestForm() {
      const mine = ++formSeq;
      const answer = await form();
      return mine !== formSeq || state.done ? undefined : answer;
    },
    /** Checks what is typed after `delay` ms; a later schedule or a cancel drops it. */
    scheduleCheck(delay = 300) {
      clearTimeout(timer);
      const mine = ++checkSeq;
      timer = setTimeout(() => void check(mine), delay);
    },
    /** Drops the check waiting or under way (Save checks everything). */
    cancelCheck,
    /** Drops every answer still to come (the editor is left). */
    cancel() {
      cancelCheck();
      formSeq++;
    },
    read: (id: string) => api.get('customer', { id }),
    save: (id: string | undefined, type: CustomerType) =>
      api.post('customer/save', { ...(id === undefined ? {} : { id }), type, answers: answers(), ...extra }),
  };
}

export type CustomerCalls = ReturnType<typeof customerCalls>;
