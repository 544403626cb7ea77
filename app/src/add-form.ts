/*
 * «Новая запись»: type, host, value and TTL (3600 unless changed) → one `add` edit. The server's
 * plan checks the row; a problem shows by the added row.
 */
import type { DnsType } from '../../src/core/dns-records.js';
import type { Row } from '../../src/mini-app/contract.js';
import { el } from './dom.js';
import { patchOf } from './fields.js';
import type { Words } from './words.js';

/**
 * An example value per type, as the chat writes it (BIND's order, core's `recordDataText`; the
 * one-line add's order, `mx.example.by 10`, is taken too). A type core adds fails `tsc` here until
 * it has one.
 */
const EXAMPLE: Record<DnsType, string> = {
  A: '192.0.2.10',
  AAAA: '2001:db8::10',
  CNAME: 'mysite.by.',
  MX: '10 mx.example.by.',
  TXT: '"v=spf1 -all"',
  SRV: '_sip _tcp 10 5 5060 sip.example.by.',
  NS: 'ns1.example.by.',
};

const field = (id: string, label: string, input: HTMLElement) =>
  el('p', { class: 'field' }, el('label', { for: id }, label), input);

/** The form, offering the record types the server names (core's list). */
export function addForm(words: Words, types: readonly DnsType[], onAdd: (row: Row) => void): HTMLElement {
  const type = el('select', { id: 'add-type' }, ...types.map((t) => el('option', { value: t }, t)));
  const text = { type: 'text', autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false' };
  const host = el('input', { ...text, id: 'add-host', placeholder: '@', required: '' });
  const data = el('input', { ...text, id: 'add-data', required: '' });
  const ttl = el('input', {
    ...text,
    id: 'add-ttl',
    inputmode: 'numeric',
    pattern: '[0-9]{1,10}',
    required: '',
  });
  ttl.value = '3600';
  const example = () => {
    const chosen = types.find((t) => t === type.value);
    data.placeholder = chosen === undefined ? '' : EXAMPLE[chosen];
  };
  type.addEventListener('change', example);
  example();
  const form = el(
    'form',
    { class: 'add', 'aria-labelledby': 'add-title' },
    el('h2', { id: 'add-title' }, words.addTitle),
    field('add-type', words.type, type),
    field('add-host', words.host, host),
    field('add-data', words.value, data),
    field('add-ttl', words.ttl, ttl),
    el('button', { type: 'submit' }, words.add),
  );
  ttl.addEventListener('input', () => ttl.setCustomValidity(''));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const seconds = patchOf('ttl', ttl.value)?.ttl;
    if (seconds === undefined) {
      ttl.setCustomValidity(words.badTtl);
      ttl.reportValidity();
      return;
    }
    onAdd({ type: type.value, host: host.value.trim(), data: data.value.trim(), ttl: seconds });
    host.value = '';
    data.value = '';
    host.focus();
  });
  return form;
}
