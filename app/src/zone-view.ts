/*
 * The first screen: a domain picker, and a zone as a table (type, host, value, TTL), read-only.
 * The same columns as the chat's `/dns <domain>` table.
 */
import type { Session, Zone } from './api.js';
import { el } from './dom.js';
import { roleWord, type Words } from './words.js';

/** The session line: which account, which role. */
export function sessionView(words: Words, session: Session): HTMLElement {
  const kind = session.account.kind === 'group' ? words.accountGroup : words.accountPrivate;
  return el(
    'p',
    { class: 'session' },
    `${words.account}: ${kind} · ${words.role}: ${roleWord(words, session.account.role)}`,
  );
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

/** The zone's records as a table, with the note that editing comes next. */
export function zoneView(words: Words, zone: Zone): HTMLElement {
  const section = el('section', { 'aria-labelledby': 'zone-title' });
  section.append(el('h1', { id: 'zone-title' }, `${words.title} ${zone.domainUnicode}`));
  section.append(el('p', { class: 'note', role: 'note' }, words.readOnly));
  if (zone.records.length === 0) {
    section.append(el('p', {}, words.noRecords));
    return section;
  }
  const head = el(
    'tr',
    {},
    ...[words.type, words.host, words.value, words.ttl].map((label) => el('th', { scope: 'col' }, label)),
  );
  const rows = zone.records.map((r) =>
    el(
      'tr',
      {},
      el('td', {}, r.type),
      el('td', {}, r.record?.host ?? ''),
      el('td', { class: 'value' }, r.value),
      el('td', { class: 'ttl' }, String(r.ttl)),
    ),
  );
  section.append(
    el('div', { class: 'scroll' }, el('table', {}, el('thead', {}, head), el('tbody', {}, ...rows))),
  );
  return section;
}
