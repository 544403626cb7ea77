/*
 * The header's account switcher, offered when the chat holds several partner accounts: the app
 * opens on the chat's active one, and a choice here is the app's own (every later call names it,
 * `X-Account`); the chat's active account stays as it is. A screen with unsaved work registers
 * its `leave` question, asked before switching.
 */
import type { AccountEntry, Session } from '../../src/mini-app/contract.js';
import { el } from './dom.js';
import type { Words } from './words.js';

let offered: { list: AccountEntry[]; onSwitch: (n: number) => void } | undefined;
let leaving: () => Promise<boolean> = async () => true;

/** The accounts to switch between, and what a choice does. */
export function offerAccounts(list: AccountEntry[], onSwitch: (n: number) => void): void {
  offered = { list, onSwitch };
}

/** What the screen on show asks before it is left (pending edits, an unsaved customer); none: `undefined`. */
export function guardLeaving(leave: (() => Promise<boolean>) | undefined): void {
  leaving = leave ?? (async () => true);
}

/** Asks the screen on show whether it may be left. */
export const mayLeave = (): Promise<boolean> => leaving();

/** The switcher for the session's account; undefined with one account. */
export function accountSwitch(words: Words, session: Session): HTMLElement | undefined {
  const choice = offered;
  if (choice === undefined || choice.list.length < 2) return undefined;
  const select = el(
    'select',
    { id: 'account-switch', name: 'account' },
    ...choice.list.map((account) => el('option', { value: String(account.n) }, account.label)),
  );
  select.value = String(session.account.n);
  select.addEventListener('change', () => {
    const n = Number(select.value);
    // Shown as switched only once the new session answers (the screen is drawn again then).
    select.value = String(session.account.n);
    if (n !== session.account.n) choice.onSwitch(n);
  });
  return el('label', { class: 'account-switch', for: 'account-switch' }, words.partnerAccount, select);
}
