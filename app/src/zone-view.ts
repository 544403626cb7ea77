/*
 * The session line, the domain picker, and a zone for a role that may only read it (the editor
 * is editor.ts).
 */
import type { Session, Zone } from '../../src/mini-app/contract.js';
import { accountSwitch } from './account-switch.js';
import { el } from './dom.js';
import type { Words } from './words.js';
import { zoneTable } from './zone-table.js';

/** The session line: which account, which role; with several accounts, the switcher. */
export function sessionView(words: Words, session: Session): HTMLElement {
  const kind = session.account.kind === 'group' ? words.accountGroup : words.accountPrivate;
  const line = el(
    'p',
    { class: 'session' },
    `${words.account}: ${kind} · ${words.role}: ${session.account.roleName}`,
  );
  const switcher = accountSwitch(words, session);
  return switcher === undefined ? line : el('header', { class: 'session-bar' }, line, switcher);
}

/** The account's domains under the picker, each opening its zone (filled in when they come). */
export function domainList(
  words: Words,
  onPick: (domain: string) => void,
): HTMLElement & { fill(domains: { domain: string; domainUnicode: string }[]): void } {
  const nav = el('nav', { 'aria-label': words.accountDomains, class: 'domains' });
  return Object.assign(nav, {
    fill(domains: { domain: string; domainUnicode: string }[]) {
      const items = domains.map((d) => {
        const button = el('button', { type: 'button', class: 'secondary' }, d.domainUnicode);
        button.addEventListener('click', () => onPick(d.domain));
        return el('li', {}, button);
      });
      nav.replaceChildren(...(items.length === 0 ? [] : [el('ul', {}, ...items)]));
    },
  });
}

/** The domain field; `onPick` gets the trimmed name. */
export function pickerView(words: Words, value: string, onPick: (domain: string) => void): HTMLElement {
  const input = el('input', {
    id: 'domain',
    name: 'domain',
    type: 'text',
    inputmode: 'url',
    autocomplete: 'off',
    autocapitalize: 'off',
    spellcheck: 'false',
    placeholder: words.pickPlaceholder,
    required: '',
  });
  input.value = value;
  const form = el(
    'form',
    { class: 'picker', role: 'search' },
    el('label', { for: 'domain' }, words.pickDomain),
    input,
    el('button', { type: 'submit' }, words.show),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const domain = input.value.trim();
    if (domain !== '') onPick(domain);
  });
  return form;
}

/** The zone for a role that may read it only: the table and filter, no control, and why. */
export function readOnlyZone(words: Words, zone: Zone, reason: string | undefined): HTMLElement {
  const section = el('section', { 'aria-labelledby': 'zone-title' });
  section.append(el('h1', { id: 'zone-title' }, `${words.title} ${zone.domainUnicode}`));
  section.append(el('p', { class: 'note', role: 'note' }, reason ?? words.readOnly));
  section.append(
    zone.records.length === 0 ? el('p', {}, words.noRecords) : zoneTable(words, zone.records).element,
  );
  return section;
}
